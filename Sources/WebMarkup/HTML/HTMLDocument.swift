import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
public import Foundation

/// A parsed HTML page: libxml2's forgiving HTML parser (the one behind `xmllint --html`)
/// turns real-world and broken markup into a tree, which is copied once into
/// ``HTMLElement`` values and the libxml2 document freed.
///
/// ```swift
/// let page = try HTMLDocument.parse(data, url: URL(string: "https://example.com/a")!)
/// page.root.first(named: "title")?.textContent
/// ```
///
/// Bounded on hostile input: pages over ``Limits/maximumBytes`` are refused with
/// ``WebMarkupErrorCode/pageTooLarge``; elements nested deeper than
/// ``Limits/maximumDepth`` are dropped (``isTruncated`` says so), which also bounds
/// every recursive walk of the tree.
public struct HTMLDocument: Sendable {
    /// How much of a page is read.
    public struct Limits: Sendable {
        /// Pages larger than this are refused (default 16 MiB).
        public var maximumBytes: Int
        /// Elements deeper than this are dropped (default 512, as in browsers' parsers).
        public var maximumDepth: Int

        public init(maximumBytes: Int = 16 << 20, maximumDepth: Int = 512) {
            self.maximumBytes = maximumBytes
            self.maximumDepth = maximumDepth
        }
    }

    /// The `<html>` element (the parser supplies one when the page has none).
    public let root: HTMLElement
    /// The address the page was fetched from, if known: the base for relative URLs
    /// until a `<base href>` changes it.
    public let url: URL?
    /// True when elements were dropped because they were nested too deeply.
    public let isTruncated: Bool
    /// The document base URL: the first `<base href>` (resolved against ``url``),
    /// else ``url``. Relative links in the page resolve against it (``resolve(_:)``).
    /// Found once, when the document is made: every link resolves against it.
    public let baseURL: URL?

    public init(root: HTMLElement, url: URL?, isTruncated: Bool = false) {
        self.root = root
        self.url = url
        self.isTruncated = isTruncated
        baseURL = Self.base(of: root, url: url)
    }

    /// The `<head>` element, if any.
    public var head: HTMLElement? { root.elements.first { $0.name == "head" } }

    /// Parses a page read as bytes. `charset` is the one the server declared
    /// (`Content-Type: text/html; charset=…`); without it, a byte-order mark or
    /// `<meta charset>` decides, then UTF-8 when the bytes are valid UTF-8, then
    /// Windows-1252 as browsers do.
    public static func parse(_ data: Data, url: URL? = nil, charset: String? = nil, limits: Limits = Limits()) throws -> HTMLDocument {
        guard data.count <= limits.maximumBytes else {
            throw WebMarkupError(.pageTooLarge, "the page is \(data.count) bytes; at most \(limits.maximumBytes) are read")
        }
        var data = data
        var encoding = charset ?? sniffEncoding(data)
        // UTF-16 pages are read as UTF-8, so that the byte scan below applies to them too.
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]), let text = String(data: data, encoding: .utf16) {
            data = Data(text.utf8)
            encoding = "UTF-8"
        }
        // libxml2 compares each attribute of a tag with all before it: keep that linear.
        if let capped = HTMLAttributeCap.capped(data) { data = capped }
        return try data.withUnsafeBytes { raw -> HTMLDocument in
            try parse(bytes: raw, url: url, encoding: encoding, limits: limits)
        }
    }

    /// Parses a page held as text.
    public static func parse(_ text: String, url: URL? = nil, limits: Limits = Limits()) throws -> HTMLDocument {
        try parse(Data(text.utf8), url: url, charset: "UTF-8", limits: limits)
    }

    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    private static func parse(bytes: UnsafeRawBufferPointer, url: URL?, encoding: String?, limits: Limits) throws -> HTMLDocument {
        _ = initialized
        silenceLibXML2()
        let options = Int32(
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
                | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue)
        let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        let empty: [CChar] = [0]
        let doc = empty.withUnsafeBufferPointer { fallback in
            htmlReadMemory(base ?? fallback.baseAddress, Int32(bytes.count), url?.absoluteString, encoding, options)
        }
        guard let doc else {
            // libxml2 returns no document for an empty or all-whitespace page.
            return HTMLDocument(root: HTMLElement(name: "html"), url: url)
        }
        defer { xmlFreeDoc(doc) }
        guard let rootNode = xmlDocGetRootElement(doc) else {
            return HTMLDocument(root: HTMLElement(name: "html"), url: url)
        }
        var truncated = false
        let root = convert(rootNode, maximumDepth: limits.maximumDepth, truncated: &truncated)
        return HTMLDocument(root: root, url: url, isTruncated: truncated)
    }

    /// libxml2 writes encoding and I/O complaints to stderr even with
    /// `HTML_PARSE_NOERROR`; its error handler is per thread, so it is set before each parse.
    static func silenceLibXML2() {
        xmlSetStructuredErrorFunc(nil) { _, _ in }
    }

    /// Copies libxml2's tree without recursion (a page may nest thousands of levels).
    private static func convert(_ rootNode: xmlNodePtr, maximumDepth: Int, truncated: inout Bool) -> HTMLElement {
        struct Frame {
            var element: HTMLElement
            var next: xmlNodePtr?
        }
        var stack = [Frame(element: element(for: rootNode), next: rootNode.pointee.children)]
        while true {
            let depth = stack.count
            guard let node = stack[depth - 1].next else {
                let done = stack.removeLast().element
                if stack.isEmpty { return done }
                stack[stack.count - 1].element.children.append(.element(done))
                continue
            }
            stack[depth - 1].next = node.pointee.next
            switch node.pointee.type {
            case XML_ELEMENT_NODE:
                if depth >= maximumDepth {
                    truncated = true
                } else {
                    stack.append(Frame(element: element(for: node), next: node.pointee.children))
                }
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = node.pointee.content {
                    let text = String(cString: content)
                    if case .text(let previous)? = stack[depth - 1].element.children.last {
                        stack[depth - 1].element.children[stack[depth - 1].element.children.count - 1] = .text(previous + text)
                    } else {
                        stack[depth - 1].element.children.append(.text(text))
                    }
                }
            default:
                break  // comments, processing instructions, DTD nodes
            }
        }
    }

    private static func element(for node: xmlNodePtr) -> HTMLElement {
        let name = node.pointee.name.map { String(cString: $0).lowercased() } ?? ""
        var attributes: [HTMLAttribute] = []
        var seen: Set<String> = []   // the first of a repeated name wins, as browsers do; a set keeps it linear
        var property = node.pointee.properties
        while let attribute = property {
            property = attribute.pointee.next
            guard let rawName = attribute.pointee.name else { continue }
            var attributeName = String(cString: rawName).lowercased()
            if let prefix = attribute.pointee.ns?.pointee.prefix {
                attributeName = String(cString: prefix).lowercased() + ":" + attributeName
            }
            guard seen.insert(attributeName).inserted else { continue }
            var value = ""
            if let raw = xmlNodeListGetString(node.pointee.doc, attribute.pointee.children, 1) {
                value = String(cString: raw)
                free(raw)  // libxml2's xmlFree is free() unless an app swaps allocators; WebMarkup never does
            }
            attributes.append(HTMLAttribute(name: attributeName, value: value))
        }
        return HTMLElement(name: name, attributes: attributes)
    }

    /// The encoding libxml2 should assume, or `nil` to let it read a BOM or `<meta charset>`.
    static func sniffEncoding(_ data: Data) -> String? {
        if data.starts(with: [0xEF, 0xBB, 0xBF]) || data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            return nil
        }
        let head = String(decoding: data.prefix(1024), as: UTF8.self).lowercased()
        if head.contains("charset") { return nil }
        return String(data: data, encoding: .utf8) != nil ? "UTF-8" : "windows-1252"
    }
}
