import Foundation
import Testing
@testable import WebMarkup

@Suite struct StructuredDataTests {
    @Test func syntaxesComeInOrderJSONLDMicrodataRDFa() throws {
        let html = """
            <div vocab="https://schema.org/" typeof="Event"><span property="name">rdfa</span></div>
            <div itemscope itemtype="https://schema.org/Event"><span itemprop="name">microdata</span></div>
            <script type="application/ld+json">{"@context": "https://schema.org", "@type": "Event", "name": "json-ld"}</script>
            """
        let (entities, problems) = try StructuredDataFixture.extract(html)
        #expect(problems.isEmpty)
        #expect(entities == [
            SchemaEntity(types: ["Event"], syntax: .jsonLD, properties: ["name": "json-ld"]),
            SchemaEntity(types: ["Event"], syntax: .microdata, properties: ["name": "microdata"]),
            SchemaEntity(types: ["Event"], syntax: .rdfa, properties: ["name": "rdfa"]),
        ])
    }

    @Test func aPageWithoutStructuredDataGivesNothing() throws {
        let (entities, problems) = try StructuredDataFixture.extract("<title>x</title><p>plain</p>")
        #expect(entities.isEmpty)
        #expect(problems.isEmpty)
    }

    @Test func problemsAreCodable() throws {
        let problem = StructuredDataProblem(code: "structured_data_invalid_jsonld", message: "m")
        let data = try JSONEncoder().encode(problem)
        #expect(try JSONDecoder().decode(StructuredDataProblem.self, from: data) == problem)
    }

    @Test func extractionRunsConcurrently() async throws {
        let page = try HTMLDocument.parse(#"<div itemscope itemtype="https://schema.org/Thing"><b itemprop="name">x</b></div>"#)
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { StructuredData.extract(from: page).entities.count } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 1, count: 8))
    }
}
