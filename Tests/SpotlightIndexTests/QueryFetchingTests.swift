import Foundation
import SpotlightQuery
import Testing
@testable import SpotlightIndex

/// `SpotlightStore.query(_:fetching:)`: the same matches whatever is
/// fetched, and items that hold only the fetched attributes (Core
/// Spotlight's `fetchAttributes`), though the query tests others.
@Suite struct QueryFetchingTests {
    static let cases: [(String, Set<String>)] = [
        (#"rating >= 4"#, []),
        (#"rating >= 4"#, ["title"]),
        (#"title == "paris"c"#, ["rating"]),
        (#"title == "paris"c && rating > 2"#, ["rating", "keywords"]),
        (#"* == "paris*"cd"#, ["keywords"]),
        (#"** == "*budget*"c"#, []),
        (#"uniqueIdentifier == "C" || !(rating < 5)"#, ["authorNames"]),
        (#"title == "*window*"c"#, ["title", "contentCreationDate"]),
    ]

    @Test(arguments: cases)
    func matchesAsWithoutFetchingAndHoldsOnlyWhatIsFetched(query: String, fetch: Set<String>) throws {
        let store = try QueryEngineTests.store(QueryEngineTests.specItems)
        var everything: [SearchableItem] = []
        try store.query(query) { everything += $0 }
        var fetched: [SearchableItem] = []
        try store.query(query, fetching: fetch) { fetched += $0 }
        #expect(!everything.isEmpty, "the query matches something")
        #expect(fetched.map(\.uniqueIdentifier) == everything.map(\.uniqueIdentifier))
        for (item, full) in zip(fetched, everything) {
            #expect(item.attributes == full.attributes.filter { fetch.contains($0.key) }, "\(item.uniqueIdentifier)")
            #expect(item.domainIdentifier == full.domainIdentifier && item.contentType == full.contentType)
        }
    }

    @Test func withoutAFetchSetItemsHoldEveryAttribute() throws {
        let store = try QueryEngineTests.store(QueryEngineTests.specItems)
        var found: [SearchableItem] = []
        try store.query(#"rating >= 4"#, fetching: nil) { found += $0 }
        let stored = Dictionary(uniqueKeysWithValues: QueryEngineTests.specItems.map { ($0.uniqueIdentifier, $0.attributes) })
        #expect(found.map(\.uniqueIdentifier) == ["A", "C"])
        for item in found { #expect(item.attributes == stored[item.uniqueIdentifier]) }
    }

    static let fetchRule: [(String, Set<String>, Bool)] = [
        ("title", ["title"], true),
        ("authors.persons", ["authors"], true),
        ("a.b.c", ["a"], true),
        ("a.b", ["a.b"], true),
        ("contentDescription", ["title"], false),
        ("ab", ["a"], false),
        ("a.b", ["b"], false),
        ("título.x", ["título"], true),
    ]

    /// Core Spotlight's rule: a name fetched by itself or by the part before its first dot.
    @Test(arguments: fetchRule)
    func fetchesByNameOrItsFirstPart(name: String, fetch: Set<String>, fetched: Bool) {
        #expect(StoredRow.isFetched(name, fetch) == fetched)
        #expect(AttributeCodec.FetchedNames(fetch).keeps(Array(name.utf8)[...]) == fetched, "on bytes")
    }
}
