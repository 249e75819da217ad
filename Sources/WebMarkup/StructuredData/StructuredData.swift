// The entry point of structured-data extraction: runs the three syntax readers
// (JSONLDExtractor, MicrodataExtractor, RDFaExtractor) over one parsed page and
// concatenates their entities and problems. Each reader builds a SchemaGraph and
// flattens it with the rules in SchemaProperties.swift.

/// Something wrong with a page's structured data that did not stop extraction.
///
/// The codes:
/// - `structured_data_invalid_jsonld`: a JSON-LD block is not JSON (the message gives
///   the block's number in the page, the line and column) or is a bare value; the block
///   is skipped, the others are kept.
/// - `structured_data_truncated`: an entity went past a size or nesting bound; the
///   rest of it was dropped.
/// - `structured_data_unresolved_itemref`: a microdata `itemref` names no element `id`.
///
/// ```swift
/// let (_, problems) = StructuredData.extract(from: page)
/// for problem in problems where problem.code == "structured_data_invalid_jsonld" {
///     print(problem.message)  // JSON-LD block 2 is not valid JSON (line 3, column 1: …); it was skipped
/// }
/// ```
public struct StructuredDataProblem: Sendable, Hashable, Codable {
    /// A stable, machine-readable code (`structured_data_invalid_jsonld`).
    public var code: String
    /// What was wrong and what was done about it.
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    static let invalidJSONLDCode = "structured_data_invalid_jsonld"
    static let truncatedCode = "structured_data_truncated"
    static let unresolvedItemrefCode = "structured_data_unresolved_itemref"
}

/// Reads the schema.org entities of a page from its JSON-LD, microdata and RDFa Lite,
/// flattened as ``SchemaEntity`` describes.
///
/// ```swift
/// let page = try HTMLDocument.parse(html, url: URL(string: "https://example.com/p")!)
/// let (entities, problems) = StructuredData.extract(from: page)
/// entities.first { $0.type == "Product" }?.properties["offers.price"]  // "19.99"
/// ```
///
/// Decisions where the standards leave room (all syntaxes):
/// - types and property names lose the schema.org prefix; other vocabularies keep full IRIs;
///   subtypes stay as written (`Restaurant` stays `Restaurant`);
/// - an entity's identifier (JSON-LD `@id`, microdata `itemid`, RDFa `resource`) is the
///   property `@id`; a nested entity's types and identifier are `path.@type` and `path.@id`;
/// - HTML text values are trimmed with whitespace runs collapsed to one space; attribute
///   values and JSON strings are kept as written; URL attributes are resolved against the
///   document base (`<base href>` honoured);
/// - entities with neither types nor properties are dropped.
///
/// See schema.org's [data model](https://schema.org/docs/datamodel.html), the WHATWG
/// [microdata](https://html.spec.whatwg.org/multipage/microdata.html) rules,
/// [RDFa Lite](https://www.w3.org/TR/rdfa-lite/) and [JSON-LD](https://www.w3.org/TR/json-ld11/).
///
/// ## Topics
/// - ``extract(from:)``
/// - ``StructuredDataProblem``
/// - ``SchemaEntity``
public enum StructuredData {
    /// Entities in document order of syntax: JSON-LD first, then microdata, then RDFa; plus
    /// problems found (an invalid JSON-LD block, a truncated entity, …).
    ///
    /// ```swift
    /// let (entities, _) = StructuredData.extract(from: page)
    /// entities.map(\.syntax)  // [.jsonLD, .microdata]
    /// ```
    public static func extract(from document: HTMLDocument) -> (entities: [SchemaEntity], problems: [StructuredDataProblem]) {
        let base = document.baseURL
        let jsonLD = JSONLDExtractor.extract(from: document.root)
        let microdata = MicrodataExtractor.extract(from: IndexedElements(document.root), base: base)
        let rdfa = RDFaExtractor.extract(from: document.root, base: base)
        return (jsonLD.entities + microdata.entities + rdfa.entities, jsonLD.problems + microdata.problems + rdfa.problems)
    }
}
