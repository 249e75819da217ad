import Foundation
import Testing
@testable import WebMarkup

/// Parses a page (fetched from `https://example.com/p/page.html`) and extracts its structured data.
enum StructuredDataFixture {
    static let pageURL = URL(string: "https://example.com/p/page.html")!

    static func extract(_ html: String) throws -> (entities: [SchemaEntity], problems: [StructuredDataProblem]) {
        StructuredData.extract(from: try HTMLDocument.parse(html, url: pageURL))
    }

    static func jsonLD(_ blocks: String...) -> String {
        blocks.map { #"<script type="application/ld+json">\#($0)</script>"# }.joined(separator: "\n")
    }
}

/// An expected entity: types and the exact property dictionary.
struct ExpectedEntity: Sendable, CustomTestStringConvertible {
    var types: [String]
    var properties: [String: String]

    init(_ types: [String], _ properties: [String: String]) {
        self.types = types
        self.properties = properties
    }

    var testDescription: String { types.joined(separator: " ") }
}

@Suite struct StructuredDataJSONLDTests {
    static let cases: [(String, String, [ExpectedEntity])] = [
        (
            "product with offers and rating",
            #"""
            {"@context": "https://schema.org", "@type": "Product", "name": "Pear",
             "offers": {"@type": "Offer", "price": 19.99, "priceCurrency": "USD", "availability": "https://schema.org/InStock"},
             "aggregateRating": {"@type": "AggregateRating", "ratingValue": 4.4, "reviewCount": 89, "bestRating": "5"}}
            """#,
            [
                ExpectedEntity(["Product"], [
                    "name": "Pear",
                    "offers.@type": "Offer", "offers.price": "19.99", "offers.priceCurrency": "USD",
                    "offers.availability": "https://schema.org/InStock",
                    "aggregateRating.@type": "AggregateRating", "aggregateRating.ratingValue": "4.4",
                    "aggregateRating.reviewCount": "89", "aggregateRating.bestRating": "5",
                ])
            ]
        ),
        (
            "http context, full IRIs and lists",
            #"""
            {"@context": "http://schema.org/", "@type": "http://schema.org/Recipe", "http://schema.org/name": "Soup",
             "recipeIngredient": ["leek", "potato"], "recipeYield": ["4"], "nutrition": {"@type": "NutritionInformation", "calories": "240 kcal"}}
            """#,
            [
                ExpectedEntity(["Recipe"], [
                    "name": "Soup", "recipeIngredient.0": "leek", "recipeIngredient.1": "potato", "recipeYield": "4",
                    "nutrition.@type": "NutritionInformation", "nutrition.calories": "240 kcal",
                ])
            ]
        ),
        (
            "@type array and subtypes kept",
            #"{"@context": "https://schema.org/", "@type": ["Restaurant", "https://schema.org/Dentist"], "priceRange": "$$"}"#,
            [ExpectedEntity(["Restaurant", "Dentist"], ["priceRange": "$$"])]
        ),
        (
            "top-level array",
            #"[{"@context": "https://schema.org", "@type": "Organization", "name": "A"}, {"@context": "https://schema.org", "@type": "WebSite", "url": "https://a.example/"}]"#,
            [ExpectedEntity(["Organization"], ["name": "A"]), ExpectedEntity(["WebSite"], ["url": "https://a.example/"])]
        ),
        (
            "@graph with @id references",
            #"""
            {"@context": "https://schema.org", "@graph": [
              {"@type": "Organization", "@id": "https://a.example/#org", "name": "A", "logo": {"@type": "ImageObject", "url": "https://a.example/logo.png"}},
              {"@type": "WebPage", "@id": "https://a.example/#page", "publisher": {"@id": "https://a.example/#org"}, "author": {"@id": "#nobody"}}]}
            """#,
            [
                ExpectedEntity(["Organization"], [
                    "@id": "https://a.example/#org", "name": "A",
                    "logo.@type": "ImageObject", "logo.url": "https://a.example/logo.png",
                ]),
                ExpectedEntity(["WebPage"], [
                    "@id": "https://a.example/#page",
                    "publisher.@type": "Organization", "publisher.@id": "https://a.example/#org", "publisher.name": "A",
                    "publisher.logo.@type": "ImageObject", "publisher.logo.url": "https://a.example/logo.png",
                    "author": "#nobody",
                ]),
            ]
        ),
        (
            "@graph holder with a type of its own",
            #"{"@context": "https://schema.org", "@type": "Dataset", "name": "outer", "@graph": [{"@type": "Person", "name": "inner"}]}"#,
            [ExpectedEntity(["Dataset"], ["name": "outer"]), ExpectedEntity(["Person"], ["name": "inner"])]
        ),
        (
            "@vocab, prefixes, terms and keyword aliases",
            #"""
            {"@context": {"@vocab": "https://schema.org/", "s": "http://schema.org/", "title": {"@id": "s:headline"}, "type": "@type"},
             "type": "s:Article", "s:author": "Ann", "title": "Hello", "dateline": "Paris"}
            """#,
            [ExpectedEntity(["Article"], ["author": "Ann", "headline": "Hello", "dateline": "Paris"])]
        ),
        (
            "scalar forms",
            #"""
            {"@context": "https://schema.org", "@type": "Thing", "i": 5, "f": 5.0, "n": -0.5, "e": 1E3, "z": 4.50, "t": true, "b": false,
             "nothing": null, "v": {"@value": 3}, "lang": {"@value": "bonjour", "@language": "fr"}, "l": {"@list": ["x", {"@value": "y"}]},
             "s": {"@set": ["only"]}, "nested": [["a"], ["b", null]], "unicode": "caf\u00e9 \ud83c\udf50", "escapes": "a\"b\\c\/d\n"}
            """#,
            [
                ExpectedEntity(["Thing"], [
                    "i": "5", "f": "5.0", "n": "-0.5", "e": "1E3", "z": "4.50", "t": "true", "b": "false",
                    "v": "3", "lang": "bonjour", "l.0": "x", "l.1": "y", "s": "only", "nested.0": "a", "nested.1": "b",
                    "unicode": "café 🍐", "escapes": "a\"b\\c/d\n",
                ])
            ]
        ),
        (
            "several offers are numbered",
            #"""
            {"@context": "https://schema.org", "@type": "Product", "offers": [
              {"@type": "Offer", "price": "1.00"}, {"@type": ["Offer", "Demand"], "price": "2.00"}]}
            """#,
            [
                ExpectedEntity(["Product"], [
                    "offers.0.@type": "Offer", "offers.0.price": "1.00",
                    "offers.1.@type.0": "Offer", "offers.1.@type.1": "Demand", "offers.1.price": "2.00",
                ])
            ]
        ),
        (
            "reference cycles are cut",
            #"""
            [{"@context": "https://schema.org", "@type": "Person", "@id": "#a", "name": "A", "knows": {"@id": "#b"}},
             {"@context": "https://schema.org", "@type": "Person", "@id": "#b", "name": "B", "knows": {"@id": "#a"}}]
            """#,
            [
                ExpectedEntity(["Person"], [
                    "@id": "#a", "name": "A", "knows.@type": "Person", "knows.@id": "#b", "knows.name": "B", "knows.knows": "#a",
                ]),
                ExpectedEntity(["Person"], [
                    "@id": "#b", "name": "B", "knows.@type": "Person", "knows.@id": "#a", "knows.name": "A", "knows.knows": "#b",
                ]),
            ]
        ),
        (
            "no context keeps names as written",
            #"{"@type": "schema:Product", "name": "x", "http://schema.org/brand": "y"}"#,
            [ExpectedEntity(["schema:Product"], ["name": "x", "brand": "y"])]
        ),
        (
            "other vocabularies keep full IRIs",
            #"{"@context": {"@vocab": "http://example.org/ns#"}, "@type": "Widget", "label": "x"}"#,
            [ExpectedEntity(["http://example.org/ns#Widget"], ["http://example.org/ns#label": "x"])]
        ),
        (
            "a nested context is scoped to its object",
            #"""
            {"@context": "https://schema.org", "@type": "Event", "name": "Gig",
             "extra": {"@context": {"@vocab": "http://example.org/"}, "@type": "Note", "text": "hi"}, "location": "Hall"}
            """#,
            [
                ExpectedEntity(["Event"], [
                    "name": "Gig", "extra.@type": "http://example.org/Note", "extra.http://example.org/text": "hi", "location": "Hall",
                ])
            ]
        ),
        (
            "repeated keys: last value wins",
            #"{"@context": "https://schema.org", "@type": "Thing", "name": "first", "name": "second"}"#,
            [ExpectedEntity(["Thing"], ["name": "second"])]
        ),
        (
            "empty objects and lone references are not entities",
            ##"[{}, {"@id": "#x"}, {"@context": "https://schema.org"}, "text", 4, {"@type": ["", "Thing"], "": "no name"}]"##,
            [ExpectedEntity(["Thing"], [:])]
        ),
    ]

    @Test(arguments: cases)
    func extractsEntities(name: String, json: String, expected: [ExpectedEntity]) throws {
        let (entities, problems) = try StructuredDataFixture.extract(StructuredDataFixture.jsonLD(json))
        #expect(problems == [])
        #expect(entities.map(\.types) == expected.map(\.types))
        #expect(entities.map(\.properties) == expected.map(\.properties))
        #expect(entities.allSatisfy { $0.syntax == .jsonLD })
    }

    @Test(arguments: [
        #"application/ld+json"#,
        #"Application/LD+JSON"#,
        #"application/ld+json; charset=utf-8"#,
        #"  application/ld+json ;profile="http://www.w3.org/ns/json-ld#compacted""#,
    ])
    func scriptTypeIsMatchedLeniently(type: String) throws {
        let html = #"<script type='\#(type)'>{"@type": "Thing", "name": "x"}</script>"#
        let (entities, _) = try StructuredDataFixture.extract(html)
        #expect(entities.map(\.properties) == [["name": "x"]])
    }

    @Test(arguments: ["application/json", "text/javascript", "ld+json", ""])
    func otherScriptsAreIgnored(type: String) throws {
        let html = #"<script type="\#(type)">{"@type": "Thing", "name": "x"}</script><script>{"@type": "Thing"}</script>"#
        let (entities, problems) = try StructuredDataFixture.extract(html)
        #expect(entities.isEmpty)
        #expect(problems.isEmpty)
    }

    @Test func scriptTextIsNeverEntityDecoded() throws {
        let html = StructuredDataFixture.jsonLD(#"{"@type": "Thing", "name": "A &amp; B", "description": "1 < 2 &lt; 3 <b>x</b>"}"#)
        let (entities, _) = try StructuredDataFixture.extract(html)
        #expect(entities.map(\.properties) == [["name": "A &amp; B", "description": "1 < 2 &lt; 3 <b>x</b>"]])
    }

    @Test(arguments: [
        #"<!-- {"@type": "Thing", "name": "x"} -->"#,
        #"<![CDATA[ {"@type": "Thing", "name": "x"} ]]>"#,
        "//<![CDATA[\n{\"@type\": \"Thing\", \"name\": \"x\"}\n//]]>",
        #"/*<![CDATA[*/{"@type": "Thing", "name": "x"}/*]]>*/"#,
        "\u{FEFF}{\"@type\": \"Thing\", \"name\": \"x\"}",
    ])
    func wrappersAreTolerated(block: String) throws {
        let (entities, problems) = try StructuredDataFixture.extract(StructuredDataFixture.jsonLD(block))
        #expect(problems == [])
        #expect(entities.map(\.properties) == [["name": "x"]])
    }

    @Test(arguments: [
        (#"{"@type": "Thing", "name": "x",}"#, "line 1, column 32: expected a quoted key, found '}'"),
        ("{\"@type\": \"Thing\",\n  \"name\": 'x'}", "line 2, column 11: unexpected '''"),
        ("{\"@type\": \"Thing\", \"name\": \"tab\tinside\"}", "line 1, column 32: a control character (U+0009) inside a string must be escaped"),
        (#"{"a": 01}"#, "line 1, column 8: a number may not have leading zeros"),
        (#"{"a": "\x"}"#, #"line 1, column 9: invalid escape after '\', found 'x'"#),
        (#"{"a": 1} {"b": 2}"#, "line 1, column 10: unexpected '{' after the JSON value"),
        (#"{"a": "open"#, "line 1, column 12: unterminated string"),
        ("   ", "line 1, column 1: the block is empty"),
    ])
    func invalidBlocksAreReportedAndSkipped(block: String, error: String) throws {
        let html = StructuredDataFixture.jsonLD(
            #"{"@context": "https://schema.org", "@type": "Organization", "name": "first"}"#,
            block,
            #"{"@context": "https://schema.org", "@type": "Organization", "name": "third"}"#)
        let (entities, problems) = try StructuredDataFixture.extract(html)
        #expect(entities.map(\.properties) == [["name": "first"], ["name": "third"]])
        #expect(problems == [
            StructuredDataProblem(
                code: "structured_data_invalid_jsonld", message: "JSON-LD block 2 is not valid JSON (\(error)); it was skipped")
        ])
    }

    @Test func aBareValueIsReported() throws {
        let (entities, problems) = try StructuredDataFixture.extract(StructuredDataFixture.jsonLD(#""just text""#))
        #expect(entities.isEmpty)
        #expect(problems.map(\.code) == ["structured_data_invalid_jsonld"])
        #expect(problems.first?.message == "JSON-LD block 1 holds a single value, not an object or an array; it was skipped")
    }

    @Test func referencesReachAcrossBlocks() throws {
        let html = StructuredDataFixture.jsonLD(
            #"{"@context": "https://schema.org", "@type": "Article", "headline": "H", "publisher": {"@id": "/#org"}}"#,
            #"{"@context": "https://schema.org", "@type": "Organization", "@id": "/#org", "name": "Pub"}"#)
        let (entities, _) = try StructuredDataFixture.extract(html)
        #expect(entities.map(\.properties) == [
            ["headline": "H", "publisher.@type": "Organization", "publisher.@id": "/#org", "publisher.name": "Pub"],
            ["@id": "/#org", "name": "Pub"],
        ])
    }

    @Test func hugeNestingIsReportedNotFatal() throws {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let html = StructuredDataFixture.jsonLD(deep, #"{"@type": "Thing", "name": "kept"}"#)
        let (entities, problems) = try StructuredDataFixture.extract(html)
        #expect(entities.map(\.properties) == [["name": "kept"]])
        #expect(problems.map(\.code) == ["structured_data_invalid_jsonld"])
        #expect(problems.first?.message.contains("nested deeper than 512 levels") == true)
    }

    @Test func flatteningStopsAtTheDepthLimit() throws {
        // 40 nested objects: parsed, but only 32 levels of nested entities are flattened.
        let json = #"{"@type": "Thing", "a": "# + String(repeating: #"{"b": "#, count: 40) + #""x""# + String(repeating: "}", count: 40) + "}"
        let (entities, problems) = try StructuredDataFixture.extract(StructuredDataFixture.jsonLD(json))
        let entity = try #require(entities.first)
        #expect(entity.properties.isEmpty)  // the only value is below the cut
        #expect(problems.map(\.code) == ["structured_data_truncated"])
    }

    @Test func conversionStopsAtItsDepthLimit() throws {
        // 100 nested arrays inside a property: valid JSON, deeper than JSON-LD conversion goes.
        let json = #"{"@type": "Thing", "name": "n", "deep": "# + String(repeating: "[", count: 100) + "1" + String(repeating: "]", count: 100) + "}"
        let (entities, problems) = try StructuredDataFixture.extract(StructuredDataFixture.jsonLD(json))
        #expect(entities.map(\.properties) == [["name": "n"]])
        #expect(problems == [
            StructuredDataProblem(
                code: "structured_data_truncated",
                message: "JSON-LD block 1 nests deeper than 64 levels; the deeper values were dropped")
        ])
    }

    @Test(.timeLimit(.minutes(10)))
    func repeatedReferencesAreBounded() throws {
        // Each node references the next twice: 2^30 paths if inlined without a budget.
        var nodes: [String] = []
        for level in 0..<30 {
            nodes.append(##"{"@id": "#n\##(level)", "@type": "Thing", "v": "\##(level)", "l": {"@id": "#n\##(level + 1)"}, "r": {"@id": "#n\##(level + 1)"}}"##)
        }
        let (entities, problems) = try StructuredDataFixture.extract(StructuredDataFixture.jsonLD("[" + nodes.joined(separator: ",") + "]"))
        #expect(entities.count == 30)
        #expect(entities.allSatisfy { $0.properties.count <= 2048 })
        #expect(problems.allSatisfy { $0.code == "structured_data_truncated" })
        #expect(entities.last?.properties == ["@id": "#n29", "v": "29", "l": "#n30", "r": "#n30"])
    }
}
