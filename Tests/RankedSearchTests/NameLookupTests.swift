import Testing

@testable import RankedSearch

@Suite struct NameLookupTests {
    static let names = ["title", "contentDescription", "keywords", "", "café", "title", "a\u{0}b", "TITLE"]

    @Test(arguments: [
        ("title", 0), ("contentDescription", 1), ("keywords", 2), ("", 3), ("café", 4),
        // A repeated name is known by its first position.
        ("a\u{0}b", 6), ("TITLE", 7),
    ])
    func aNameIsKnownByItsPosition(name: String, id: Int) {
        let lookup = NameLookup(Self.names)
        #expect(lookup.id(of: name) == id)
        #expect(lookup.contains(name))
    }

    @Test(arguments: ["titl", "titles", "Title", "cafe", "cafe\u{301}", "a", "a\u{0}", "textContent", "contentDescriptio"])
    func anotherNameIsNotThere(name: String) {
        // `cafe\u{301}` is canonically `café` (String's ==), but not the same bytes: looked up by bytes, as the names are stored.
        #expect(NameLookup(Self.names).id(of: name) == nil)
    }

    @Test func manyNamesAndAnEmptyTable() {
        let many = (0..<1_000).map { "attribute_\($0)" }
        let lookup = NameLookup(many)
        for (index, name) in many.enumerated() { #expect(lookup.id(of: name) == index) }
        #expect(lookup.id(of: "attribute_1000") == nil)
        #expect(NameLookup([]).id(of: "title") == nil)
    }

    @Test func textColumnsAreTheColumnsTheyWere() {
        let expected: [(String, Int?)] = [
            ("title", 0), ("displayName", 0), ("keywords", 1), ("alternateNames", 1), ("contentDescription", 2),
            ("textContent", 3), ("section", 3), ("contentType", nil), ("path", nil), ("domainIdentifier", nil),
        ]
        for (name, column) in expected { #expect(TextColumns.column(of: name) == column, "\(name)") }
    }
}
