// The shape shared by the three structured-data syntaxes. Each extractor
// (JSONLDExtractor, MicrodataExtractor, RDFaExtractor) builds a `SchemaGraph`:
// nodes with types, an optional identifier and ordered properties whose values
// are text, another node of the graph, or (JSON-LD only) an `@id` reference
// resolved when flattening. `SchemaGraph.entity(root:syntax:)` then flattens one
// root node into a `SchemaEntity`'s dotted paths, the rules of which are written
// once, here:
//
// - a property with one value is `name`; with several, `name.0`, `name.1`, …;
// - a nested node's properties follow its path (`offers.price`), its types are
//   `path.@type` (numbered the same way when there are several) and its
//   identifier `path.@id`; a root's types go to `SchemaEntity.types` and its
//   identifier to the property `@id`;
// - a node reached again while it is being flattened (a cycle) contributes its
//   identifier as a text value, or nothing;
// - flattening is bounded: nested nodes deeper than `maximumNestingDepth`, paths past
//   `maximumPropertiesPerEntity` and visits past `maximumNodeVisitsPerEntity` are
//   dropped, and the entity is reported as truncated.

/// Bounds that keep structured-data extraction linear on hostile pages.
enum StructuredDataLimits {
    /// Nested entities deeper than this are not flattened (`a.b.c…` 32 levels).
    static let maximumNestingDepth = 32
    /// Dotted paths kept per entity.
    static let maximumPropertiesPerEntity = 2048
    /// Nodes visited while flattening one entity (bounds repeated `@id` references).
    static let maximumNodeVisitsPerEntity = 8192
    /// JSON nesting accepted by the JSON-LD reader; deeper blocks are reported invalid.
    static let maximumJSONDepth = 512
    /// JSON nesting converted into entities; deeper values are dropped.
    static let maximumJSONLDDepth = 64
    /// Elements visited per microdata pass (bounds `itemref` amplification).
    static let maximumMicrodataSteps = 2_000_000
}

/// Entities of one syntax before flattening.
struct SchemaGraph {
    enum Value {
        case text(String)
        case node(Int)
        /// A JSON-LD `{"@id": …}` object: the node with that identifier, or the identifier as text.
        case reference(String)
    }

    struct Node {
        var types: [String] = []
        var id: String?
        private(set) var properties: [(name: String, values: [Value])] = []
        private var positions: [String: Int] = [:]

        var isEmpty: Bool { types.isEmpty && properties.isEmpty }

        mutating func add(_ value: Value, to name: String) {
            if let position = positions[name] {
                properties[position].values.append(value)
            } else {
                positions[name] = properties.count
                properties.append((name, [value]))
            }
        }
    }

    var nodes: [Node] = []
    /// JSON-LD identifiers → the first node that carries that identifier and some content.
    var identified: [String: Int] = [:]

    mutating func addNode(_ node: Node = Node()) -> Int {
        nodes.append(node)
        return nodes.count - 1
    }

    /// Flattens the node `root` into an entity; `truncated` when a bound cut it short.
    func entity(root: Int, syntax: SchemaEntity.Syntax) -> (entity: SchemaEntity, truncated: Bool) {
        var flattener = Flattener(graph: self)
        let node = nodes[root]
        if let id = node.id { flattener.emit(id, at: "@id") }
        flattener.stack = [root]
        flattener.flattenProperties(of: node, prefix: "", depth: 0)
        return (SchemaEntity(types: node.types, syntax: syntax, properties: flattener.properties), flattener.truncated)
    }

    /// Flattens each root into an entity, with a `structured_data_truncated` problem for
    /// each one a bound cut short: "`source`: the `Product` `noun` is too large…".
    func entities(_ roots: [(source: String, root: Int)], syntax: SchemaEntity.Syntax, noun: String)
        -> (entities: [SchemaEntity], problems: [StructuredDataProblem]) {
        var entities: [SchemaEntity] = []
        var problems: [StructuredDataProblem] = []
        for (source, root) in roots {
            let (entity, truncated) = entity(root: root, syntax: syntax)
            entities.append(entity)
            if truncated {
                problems.append(StructuredDataProblem(
                    code: StructuredDataProblem.truncatedCode,
                    message: "\(source): the \(Self.describe(entity)) \(noun) is too large or too deeply nested; the rest was dropped"))
            }
        }
        return (entities, problems)
    }

    /// An entity's types for a message (`Product Offer`, or `untyped`).
    static func describe(_ entity: SchemaEntity) -> String {
        entity.types.isEmpty ? "untyped" : entity.types.joined(separator: " ")
    }

    private struct Flattener {
        let graph: SchemaGraph
        var properties: [String: String] = [:]
        var truncated = false
        var visits = 0
        var stack: [Int] = []

        mutating func emit(_ text: String, at path: String) {
            guard properties[path] == nil else { return }  // a literal dotted key met a nested path: first wins
            guard properties.count < StructuredDataLimits.maximumPropertiesPerEntity else {
                truncated = true
                return
            }
            properties[path] = text
        }

        mutating func flattenProperties(of node: Node, prefix: String, depth: Int) {
            for (name, values) in node.properties {
                let path = prefix + name
                if values.count == 1 {
                    flatten(values[0], at: path, depth: depth)
                } else {
                    for (index, value) in values.enumerated() {
                        flatten(value, at: "\(path).\(index)", depth: depth)
                    }
                }
            }
        }

        mutating func flatten(_ value: Value, at path: String, depth: Int) {
            switch value {
            case .text(let text):
                emit(text, at: path)
            case .reference(let id):
                if let index = graph.identified[id] {
                    flattenNode(index, at: path, depth: depth)
                } else {
                    emit(id, at: path)
                }
            case .node(let index):
                flattenNode(index, at: path, depth: depth)
            }
        }

        mutating func flattenNode(_ index: Int, at path: String, depth: Int) {
            let node = graph.nodes[index]
            if stack.contains(index) {
                if let id = node.id { emit(id, at: path) }
                return
            }
            visits += 1
            guard depth < StructuredDataLimits.maximumNestingDepth,
                visits <= StructuredDataLimits.maximumNodeVisitsPerEntity,
                properties.count < StructuredDataLimits.maximumPropertiesPerEntity
            else {
                truncated = true
                return
            }
            if node.types.count == 1 {
                emit(node.types[0], at: path + ".@type")
            } else {
                for (position, type) in node.types.enumerated() { emit(type, at: "\(path).@type.\(position)") }
            }
            if let id = node.id { emit(id, at: path + ".@id") }
            stack.append(index)
            flattenProperties(of: node, prefix: path + ".", depth: depth + 1)
            stack.removeLast()
        }
    }
}

/// schema.org names: the vocabulary's IRI prefixes and the helpers every syntax uses.
enum SchemaVocabulary {
    /// The IRI relative terms expand against when a page names schema.org as its vocabulary.
    static let iri = "http://schema.org/"

    private static let prefixes = ["http://schema.org/", "https://schema.org/", "http://www.schema.org/", "https://www.schema.org/"]

    /// `http(s)://(www.)schema.org/Product` → `Product`; any other string unchanged.
    static func strip(_ name: String) -> String {
        for prefix in prefixes where name.utf8.count > prefix.utf8.count && name.prefix(prefix.count).lowercased() == prefix {
            var term = name.dropFirst(prefix.count)
            while term.last == "/" { term = term.dropLast() }
            return term.isEmpty ? name : String(term)
        }
        return name
    }

    /// Whether `iri` names the schema.org vocabulary (a JSON-LD context, an RDFa `vocab`),
    /// with either scheme, with or without `www.` and a trailing slash, or its context document.
    static func isSchemaOrg(_ iri: String) -> Bool {
        var lowered = StructuredText.trimmed(iri).lowercased()
        for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
            lowered.removeFirst(scheme.count)
            if lowered.hasPrefix("www.") { lowered.removeFirst(4) }
            return lowered == "schema.org" || lowered.hasPrefix("schema.org/")
        }
        return false
    }
}

/// Text helpers of the structured-data extractors, on HTML's ASCII whitespace
/// (space, tab, LF, FF, CR; not U+00A0, which HTML keeps as content).
enum StructuredText {
    /// Splits on ASCII whitespace, dropping empty tokens (`itemprop`, `typeof`, `itemref`).
    static func tokens(_ text: String) -> [String] {
        text.split(whereSeparator: isWhitespace).map(String.init)
    }

    /// Drops leading and trailing ASCII whitespace.
    static func trimmed(_ text: String) -> String {
        guard let first = text.firstIndex(where: { !isWhitespace($0) }),
            let last = text.lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(text[first...last])
    }

    /// A text value as structured data keeps it: trimmed, each run of ASCII whitespace one space.
    static func collapsed(_ text: String) -> String {
        tokens(text).joined(separator: " ")
    }

    static func isWhitespace(_ character: Character) -> Bool {
        character == " " || character == "\t" || character == "\n" || character == "\r" || character == "\u{0C}"
            || character == "\r\n"
    }
}
