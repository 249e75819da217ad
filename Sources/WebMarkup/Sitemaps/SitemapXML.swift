// XML sitemaps through libxml2, the internal half of ``Sitemap``.
//
// Interface:
//   SitemapXML.parse(_:maximumURLs:)   bytes of an XML document → Sitemap, or WebMarkupError
//
// Security: the document is read by xmlCtxtReadMemory with XML_PARSE_NONET and
// without XML_PARSE_NOENT, XML_PARSE_DTDLOAD, XML_PARSE_DTDVALID, XML_PARSE_DTDATTR or
// XML_PARSE_HUGE. So libxml2 never fetches anything, never loads an external entity
// or DTD, never copies entity text into the tree (an `&e;` stays an entity-reference
// node, which the walk below skips), and keeps its default size limits. Only the
// known two levels below the root are visited, so no walk can go deep.
import CLibXML2
import Foundation

enum SitemapXML {
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    static func parse(_ bytes: [UInt8], maximumURLs: Int) throws -> Sitemap {
        _ = initialized
        guard bytes.count <= Int(Int32.max) else {
            throw WebMarkupError(.pageTooLarge, "the sitemap is \(bytes.count) bytes; libxml2 reads at most \(Int32.max)")
        }
        // libxml2 reports to stderr unless told otherwise; its handler is per thread.
        xmlSetStructuredErrorFunc(nil) { _, _ in }
        guard let context = xmlNewParserCtxt() else {
            throw WebMarkupError(.invalidXML, "libxml2 could not allocate a parser")
        }
        defer { xmlFreeParserCtxt(context) }
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_COMPACT.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                xmlCtxtReadMemory(context, chars.baseAddress, Int32(chars.count), nil, nil, options)
            }
        }
        guard let document else {
            throw WebMarkupError(.invalidXML, "the sitemap is not well-formed XML: \(lastError(context))")
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else {
            throw WebMarkupError(.invalidXML, "the sitemap has no root element")
        }
        let namespace = root.pointee.ns?.pointee.href.map { String(cString: $0) }
        let rootName = name(root)
        switch rootName {
        case "urlset":
            var urls: [SitemapURL] = []
            for entry in children(of: root, named: "url", namespace: namespace) {
                guard urls.count < maximumURLs else { break }
                guard let location = first("loc", in: entry, namespace: namespace).flatMap(SitemapURL.location) else { continue }
                var url = SitemapURL(location: location)
                url.lastModified = first("lastmod", in: entry, namespace: namespace).flatMap(W3CDateTime.parse)
                url.changeFrequency = first("changefreq", in: entry, namespace: namespace)
                    .map { $0.lowercased() }
                    .flatMap { SitemapURL.changeFrequencies.contains($0) ? $0 : nil }
                url.priority = first("priority", in: entry, namespace: namespace)
                    .flatMap(Double.init)
                    .flatMap { (0...1).contains($0) ? $0 : nil }
                urls.append(url)
            }
            return .urlSet(urls)
        case "sitemapindex":
            var sitemaps: [URL] = []
            for entry in children(of: root, named: "sitemap", namespace: namespace) {
                guard sitemaps.count < maximumURLs else { break }
                if let location = first("loc", in: entry, namespace: namespace).flatMap(SitemapURL.location) {
                    sitemaps.append(location)
                }
            }
            return .index(sitemaps)
        default:
            throw WebMarkupError(
                .invalidFormat, "the XML document's root element is <\(rootName)>; a sitemap's is <urlset> or <sitemapindex>")
        }
    }

    /// libxml2's description of why the parse failed, with its line.
    private static func lastError(_ context: xmlParserCtxtPtr) -> String {
        guard let error = xmlCtxtGetLastError(context), let message = error.pointee.message else {
            return "libxml2 gave no reason"
        }
        let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
        return error.pointee.line > 0 ? "line \(error.pointee.line): \(text)" : text
    }

    /// An element's local name, lower-cased (sitemaps written `<URLSet>` are read too).
    private static func name(_ node: xmlNodePtr) -> String {
        node.pointee.name.map { String(cString: $0).lowercased() } ?? ""
    }

    /// Child elements called `name`, in the sitemap's namespace or none (so extension
    /// elements such as `<image:loc>` or `<video:title>` never stand in for ours).
    private static func children(of parent: xmlNodePtr, named name: String, namespace: String?) -> [xmlNodePtr] {
        var found: [xmlNodePtr] = []
        var child = parent.pointee.children
        while let node = child {
            child = node.pointee.next
            guard node.pointee.type == XML_ELEMENT_NODE, self.name(node) == name else { continue }
            let href = node.pointee.ns?.pointee.href.map { String(cString: $0) }
            guard href == nil || href == namespace || href == Sitemap.namespace else { continue }
            found.append(node)
        }
        return found
    }

    /// The trimmed text of the first child element called `name`, or `nil`.
    private static func first(_ name: String, in parent: xmlNodePtr, namespace: String?) -> String? {
        guard let element = children(of: parent, named: name, namespace: namespace).first else { return nil }
        var text = ""
        var child = element.pointee.children
        while let node = child {
            child = node.pointee.next
            // Text and CDATA only: entity references (never substituted) add nothing.
            if node.pointee.type == XML_TEXT_NODE || node.pointee.type == XML_CDATA_SECTION_NODE, let content = node.pointee.content {
                text += String(cString: content)
            }
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
