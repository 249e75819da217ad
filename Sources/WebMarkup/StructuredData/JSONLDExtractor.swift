import StrictJSON
// JSON-LD: every `<script type="application/ld+json">` of the page, read as raw
// text (never entity-decoded), unwrapped from `<!-- -->` and CDATA markers,
// parsed by OrderedJSON and turned into a SchemaGraph shared by all blocks, so
// an `{"@id": …}` reference in one block reaches a node defined in another.
//
// Roots (each becomes an entity): a block's object; each member of a top-level
// array; each member of `@graph`. The object holding `@graph` is an entity too
// only when it has `@type` or properties of its own. Nodes referenced by `@id`
// stay entities of their own where they were written, and are also inlined
// where referenced.
//
// Names: `@context` (a string, an array, or an object with `@vocab`, prefixes
// and term definitions, scoped to the object that declares it) expands types and
// property names; the schema.org prefix is then dropped. Without a context, names
// stay as written. Values: strings as written, numbers in their written form,
// booleans `true`/`false`, `null` dropped, `{"@value": …}` unwrapped,
// `{"@list"/"@set": […]}` and nested arrays flattened into the property's values.

/// A JSON-LD `@context` reduced to what naming needs.
struct JSONLDContext {
    /// The IRI relative names expand against (`@vocab`, or schema.org's for a schema.org context).
    var vocabulary: String?
    /// Terms and prefixes → IRIs (or keywords, for aliases such as `"type": "@type"`).
    var terms: [String: String] = [:]

    /// This context with `value` (the value of an `@context` key) applied on top.
    func applying(_ value: OrderedJSON) -> JSONLDContext {
        var context = self
        switch value {
        case .null:
            context = JSONLDContext()
        case .string(let iri):
            if SchemaVocabulary.isSchemaOrg(iri) { context.vocabulary = SchemaVocabulary.iri }
        case .array(let contexts):
            for item in contexts { context = context.applying(item) }
        case .object(let object):
            for member in object.uniqueMembers {
                let (key, definition) = (member.key, member.value)
                switch (key, definition) {
                case ("@vocab", .string(let iri)):
                    context.vocabulary = SchemaVocabulary.isSchemaOrg(iri) ? SchemaVocabulary.iri : iri
                case ("@vocab", .null):
                    context.vocabulary = nil
                case (_, .string(let iri)) where !key.hasPrefix("@"):
                    context.terms[key] = iri
                case (_, .object) where !key.hasPrefix("@"):
                    if case .string(let iri)? = definition["@id"] { context.terms[key] = iri }
                default:
                    break
                }
            }
        default:
            break
        }
        return context
    }

    /// The keyword a key stands for (`@type`, or an alias of it), else `nil`.
    func keyword(_ key: String) -> String? {
        if key.hasPrefix("@") { return key }
        if let aliased = terms[key], aliased.hasPrefix("@") { return aliased }
        return nil
    }

    /// A type or property name expanded against the terms and vocabulary, without the schema.org prefix.
    func expand(_ name: String) -> String {
        var expanded = name
        if let term = terms[name], !term.hasPrefix("@") { expanded = term }
        if let colon = expanded.firstIndex(of: ":") {
            let prefix = String(expanded[..<colon])
            let suffix = expanded[expanded.index(after: colon)...]
            if !suffix.hasPrefix("//"), let iri = terms[prefix], !iri.hasPrefix("@") { expanded = iri + suffix }
        } else if let vocabulary {
            expanded = vocabulary + expanded
        }
        return SchemaVocabulary.strip(expanded)
    }
}

enum JSONLDExtractor {
    static func extract(from root: HTMLElement) -> (entities: [SchemaEntity], problems: [StructuredDataProblem]) {
        var builder = Builder()
        var blockNumber = 0
        root.walk { element, _ in
            guard element.name == "script", isJSONLD(element.attribute("type")) else { return true }
            blockNumber += 1
            builder.read(block: blockNumber, text: element.textContent)
            return true
        }
        let found = builder.graph.entities(builder.roots.map { ("JSON-LD block \($0.block)", $0.node) }, syntax: .jsonLD, noun: "entity")
        return (found.entities, builder.problems + found.problems)
    }

    /// `type="application/ld+json"`, compared case-insensitively, parameters allowed.
    static func isJSONLD(_ type: String?) -> Bool {
        guard let type else { return false }
        let essence = type.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return StructuredText.trimmed(essence).lowercased() == "application/ld+json"
    }

    /// The script text without the `<!-- -->` and CDATA wrappers pages put around it.
    static func unwrap(_ text: String) -> String {
        var body = StructuredText.trimmed(text)
        let openers = ["<!--", "//<![CDATA[", "/*<![CDATA[*/", "<![CDATA["]
        let closers = ["-->", "//]]>", "/*]]>*/", "]]>"]
        var changed = true
        while changed {
            changed = false
            for opener in openers where body.hasPrefix(opener) {
                body = StructuredText.trimmed(String(body.dropFirst(opener.count)))
                changed = true
            }
            for closer in closers where body.hasSuffix(closer) {
                body = StructuredText.trimmed(String(body.dropLast(closer.count)))
                changed = true
            }
        }
        return body
    }

    private struct Builder {
        var graph = SchemaGraph()
        var roots: [(block: Int, node: Int)] = []
        var problems: [StructuredDataProblem] = []
        private var currentBlock = 0
        private var truncatedBlock = false

        mutating func read(block: Int, text: String) {
            currentBlock = block
            truncatedBlock = false
            let value: OrderedJSON
            do {
                value = try OrderedJSON.parse(JSONLDExtractor.unwrap(text), maximumDepth: StructuredDataLimits.maximumJSONDepth)
            } catch {
                problems.append(StructuredDataProblem(
                    code: StructuredDataProblem.invalidJSONLDCode,
                    message: "JSON-LD block \(block) is not valid JSON (\(error.message)); it was skipped"))
                return
            }
            switch value {
            case .object, .array:
                addRoots(value, context: JSONLDContext(), depth: 1)
            default:
                problems.append(StructuredDataProblem(
                    code: StructuredDataProblem.invalidJSONLDCode,
                    message: "JSON-LD block \(block) holds a single value, not an object or an array; it was skipped"))
            }
            if truncatedBlock {
                problems.append(StructuredDataProblem(
                    code: StructuredDataProblem.truncatedCode,
                    message: "JSON-LD block \(block) nests deeper than \(StructuredDataLimits.maximumJSONLDDepth) levels; the deeper values were dropped"))
            }
        }

        /// Top-level arrays, objects and `@graph` members.
        private mutating func addRoots(_ value: OrderedJSON, context: JSONLDContext, depth: Int) {
            guard depth <= StructuredDataLimits.maximumJSONLDDepth else {
                truncatedBlock = true
                return
            }
            switch value {
            case .array(let items):
                for item in items { addRoots(item, context: context, depth: depth + 1) }
            case .object(let object):
                let members = object.uniqueMembers  // a repeated key: its last value, at its first place
                var context = context
                if let local = value["@context"] { context = context.applying(local) }
                let graphKey = members.first { context.keyword($0.key) == "@graph" }
                if let graphKey {
                    let outer = node(from: members.filter { $0.key != graphKey.key }, context: context, depth: depth)
                    if !graph.nodes[outer].types.isEmpty || !graph.nodes[outer].properties.isEmpty {
                        roots.append((currentBlock, outer))
                    }
                    addRoots(graphKey.value, context: context, depth: depth + 1)
                } else if isNode(members, context: context) {
                    let index = node(from: members, context: context, depth: depth)
                    if !graph.nodes[index].isEmpty { roots.append((currentBlock, index)) }
                }
            default:
                break  // a bare value in a top-level array or @graph
            }
        }

        /// Whether an object is a node (not a value object, a list or a lone reference).
        private func isNode(_ members: [OrderedJSON.Member], context: JSONLDContext) -> Bool {
            !members.contains { ["@value", "@list", "@set"].contains(context.keyword($0.key)) }
        }

        /// A node of the graph for an object already known to be one; `context` excludes its own `@context`.
        private mutating func node(from members: [OrderedJSON.Member], context: JSONLDContext, depth: Int) -> Int {
            var node = SchemaGraph.Node()
            for member in members {
                let (key, value) = (member.key, member.value)
                switch context.keyword(key) {
                case "@type"?:
                    node.types += Self.strings(value).map(context.expand)
                case "@id"?:
                    if case .string(let id) = value { node.id = id }
                case nil where !key.isEmpty:
                    for converted in values(value, context: context, depth: depth + 1) {
                        node.add(converted, to: context.expand(key))
                    }
                default:
                    break  // @context (already applied), @reverse, @included, @graph inside a node, …
                }
            }
            let index = graph.addNode(node)
            if let id = node.id, !node.isEmpty, graph.identified[id] == nil { graph.identified[id] = index }
            return index
        }

        /// The values a JSON value gives a property.
        private mutating func values(_ value: OrderedJSON, context: JSONLDContext, depth: Int) -> [SchemaGraph.Value] {
            guard depth <= StructuredDataLimits.maximumJSONLDDepth else {
                truncatedBlock = true
                return []
            }
            switch value {
            case .string(let text): return [.text(text)]
            case .number(let literal): return [.text(literal)]
            case .bool(let flag): return [.text(flag ? "true" : "false")]
            case .null: return []
            case .array(let items):
                return items.flatMap { values($0, context: context, depth: depth + 1) }
            case .object(let object):
                let members = object.uniqueMembers  // a repeated key: its last value, at its first place
                var context = context
                if let local = value["@context"] { context = context.applying(local) }
                let keyed = members.filter { context.keyword($0.key) != "@context" }
                for member in keyed {
                    switch context.keyword(member.key) {
                    case "@value"?: return values(member.value, context: context, depth: depth + 1).filter(Self.isText)
                    case "@list"?, "@set"?: return values(member.value, context: context, depth: depth + 1)
                    default: continue
                    }
                }
                if keyed.count == 1, context.keyword(keyed[0].key) == "@id", case .string(let id) = keyed[0].value {
                    return [.reference(id)]
                }
                return [.node(node(from: keyed, context: context, depth: depth))]
            }
        }

        private static func isText(_ value: SchemaGraph.Value) -> Bool {
            if case .text = value { true } else { false }
        }

        private static func strings(_ value: OrderedJSON) -> [String] {
            switch value {
            case .string(let text): text.isEmpty ? [] : [text]
            case .array(let items): items.flatMap(strings)
            default: []
            }
        }
    }
}
