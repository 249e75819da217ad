import Foundation
import Testing
@testable import SpotlightIndex

/// ``SpotlightStore/searchIdentifiers(_:limit:statistics:)`` reads each
/// match's identifier from the segments, not its row: it must answer what
/// ``SpotlightStore/search(_:limit:statistics:fetching:)`` answers, in the
/// same order with the same scores, whatever the writes before it.
@Suite struct IdentifierSearchTests {
    static func expectSame(_ store: SpotlightStore, _ query: String, limit: Int = 50, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let full = try store.search(query, limit: limit)
        let identified = try store.searchIdentifiers(query, limit: limit)
        #expect(identified.map(\.identifier) == full.map(\.item.uniqueIdentifier), "query \(query)", sourceLocation: sourceLocation)
        let differing = zip(identified, full).first { $0.score != $1.score }
        #expect(differing == nil, "query \(query): \(String(describing: differing?.0.score)) vs \(String(describing: differing?.1.score))",
                sourceLocation: sourceLocation)
    }

    @Test(arguments: 0..<SearchTests.cases.count)
    func everyQueryOfTheSearchTestsAnswersTheSame(index: Int) throws {
        let store = try memoryStore()
        try store.index(SearchTests.corpus)
        try Self.expectSame(store, SearchTests.cases[index].0)
    }

    /// Items replaced in place (same rowid, a newer document), deleted,
    /// merged across many small writes, and a deleted last rowid that
    /// SQLite gives to the next item: each identifier is the live item's.
    @Test func replacedDeletedMergedAndReusedRowsAnswerTheLiveItem() throws {
        let store = try memoryStore()
        for batch in 0..<24 {
            try store.index((0..<25).map { item("b\(batch)-\($0)", title: "pear \(batch) number\($0 % 5)") })
        }
        try store.index((0..<25).map { item("b3-\($0)", title: "apple replaced \($0)") })
        try store.deleteItems(withIdentifiers: (0..<10).map { "b7-\($0)" })
        // The last item's rowid, given again after it is deleted.
        try store.deleteItems(withIdentifiers: ["b23-24"])
        try store.index([item("newcomer", title: "pear newcomer number4")])
        // Merges settled: one installed between the two searches would
        // change the statistics both score with.
        store.ranked.merges.group.wait()
        for query in ["pear", "apple", "replaced", "number4", "pear 7", "newcomer", "pear 23 number4", "numb"] {
            try Self.expectSame(store, query, limit: 700)
        }
        #expect(try store.searchIdentifiers("newcomer").map(\.identifier) == ["newcomer"])
        #expect(try store.searchIdentifiers("replaced", limit: 100).allSatisfy { $0.identifier.hasPrefix("b3-") })
        #expect(try store.searchIdentifiers("apple replaced", limit: 100).count == 25)
    }

    @Test func limitsAndEmptyQueries() throws {
        let store = try memoryStore()
        try store.index(SearchTests.corpus)
        #expect(try store.searchIdentifiers("apple", limit: 0).isEmpty)
        #expect(try store.searchIdentifiers("!!!").isEmpty)
        #expect(try store.searchIdentifiers("apple", limit: 1).count == 1)
        #expect(throws: SpotlightIndexError.self) { try store.searchIdentifiers("apple", limit: -1) }
    }
}
