// RDFa Lite 1.1 (`vocab`, `typeof`, `property`, `resource`, `prefix`), walked
// iteratively in document order with the inherited vocabulary, prefixes and
// current subject.
//
// - An element with `typeof` starts a node. With `property` under a subject it is
//   that property's value; otherwise (no `property`, or `property` with no
//   enclosing subject) it is a top-level entity. Its `resource` (else `href`,
//   else `src`), resolved, becomes its `@id`. Descendants describe it.
// - An element with `property` and no `typeof` gives the current subject a value:
//   `content` (on any element, as written), else `resource`/`href`/`src`
//   (resolved), else `datetime` on `time`, else the text content (trimmed,
//   whitespace runs collapsed). Properties outside any subject are ignored, so
//   Open Graph's `<meta property="og:…">` tags are not entities.
// - Names: a term expands against `vocab`; `prefix:term` against `prefix`
//   declarations (and RDFa's initial context's `schema:`); absolute IRIs stay;
//   the schema.org prefix is then dropped. Other vocabularies keep full IRIs;
//   a term with no vocabulary stays as written.

import Foundation

enum RDFaExtractor {
    struct Context {
        var vocabulary: String?
        var prefixes: [String: String] = ["schema": SchemaVocabulary.iri]
        var subject: Int?

        func expand(_ name: String) -> String {
            var expanded = name
            if let colon = name.firstIndex(of: ":") {
                let prefix = name[..<colon].lowercased()
                let suffix = name[name.index(after: colon)...]
                if !suffix.hasPrefix("//"), let iri = prefixes[prefix] { expanded = iri + suffix }
            } else if let vocabulary {
                expanded = vocabulary + name
            }
            return SchemaVocabulary.strip(expanded)
        }

        /// Applies a `prefix` attribute: `name: IRI` pairs separated by whitespace.
        mutating func declarePrefixes(_ declaration: String) {
            var name: String?
            for token in StructuredText.tokens(declaration) {
                if token.hasSuffix(":"), token.count > 1 {
                    name = String(token.dropLast()).lowercased()
                } else if let pending = name {
                    prefixes[pending] = token
                    name = nil
                }
            }
        }
    }

    static func extract(from root: HTMLElement, base: URL?) -> (entities: [SchemaEntity], problems: [StructuredDataProblem]) {
        var graph = SchemaGraph()
        var roots: [Int] = []
        var stack: [(element: HTMLElement, context: Context)] = [(root, Context())]
        while let (element, inherited) = stack.popLast() {
            var context = inherited
            if let vocabulary = element.attribute("vocab") {
                let iri = StructuredText.trimmed(vocabulary)
                context.vocabulary = iri.isEmpty ? nil : SchemaVocabulary.isSchemaOrg(iri) ? SchemaVocabulary.iri : iri
            }
            if let declaration = element.attribute("prefix") { context.declarePrefixes(declaration) }
            let properties = StructuredText.tokens(element.attribute("property") ?? "").map(context.expand)
            if let typeOf = element.attribute("typeof") {
                var node = SchemaGraph.Node()
                node.types = StructuredText.tokens(typeOf).map(context.expand)
                if let reference = element.attribute("resource") ?? element.attribute("href") ?? element.attribute("src") {
                    node.id = HTMLDocument.resolve(reference, against: base)?.absoluteString
                }
                let index = graph.addNode(node)
                if let subject = context.subject, !properties.isEmpty {
                    for property in properties { graph.nodes[subject].add(.node(index), to: property) }
                } else {
                    roots.append(index)
                }
                context.subject = index
            } else if let subject = context.subject, !properties.isEmpty {
                let value = Self.value(of: element, base: base)
                for property in properties { graph.nodes[subject].add(.text(value), to: property) }
            }
            for child in element.children.reversed() {
                if case .element(let next) = child { stack.append((next, context)) }
            }
        }
        return graph.entities(roots.filter { !graph.nodes[$0].isEmpty }.map { ("RDFa", $0) }, syntax: .rdfa, noun: "entity")
    }

    /// The literal or resource a `property` element without `typeof` gives.
    static func value(of element: HTMLElement, base: URL?) -> String {
        if let content = element.attribute("content") { return content }
        if let reference = element.attribute("resource") ?? element.attribute("href") ?? element.attribute("src") {
            return HTMLDocument.resolve(reference, against: base)?.absoluteString ?? ""
        }
        if element.name == "time", let datetime = element.attribute("datetime") { return datetime }
        return StructuredText.collapsed(element.textContent)
    }
}
