import Foundation
import RankedSearch
import Testing
import TestSupport
@testable import SpotlightIndex

/// A reader slot keeps a store's segment list and engagement totals while the
/// file's data version stands (``ReadMemo``), and forgets them at any
/// commit: its own process's, or another connection's.
@Suite struct ReadMemoTests {
    func identifiers(_ results: [SearchResult]) -> [String] { results.map(\.item.uniqueIdentifier).sorted() }

    @Test(arguments: [
        // (version held, version now, kept)
        (UInt32?.none, UInt32?.some(3), false),
        (3, 3, true),
        (3, 4, false),
        (3, nil, false),
    ])
    func keepsOnlyAtTheSameVersion(held: UInt32?, now: UInt32?, kept: Bool) {
        let memo = ReadMemo()
        _ = memo.validate(held)
        memo.totals = SpotlightStore.EngagementSignals(engagement: 1, impressions: 2, at: 3)
        let valid = memo.validate(now)
        #expect((memo.totals != nil) == kept)
        #expect((valid == nil) == (now == nil), "no memo to keep anything in without a version")
    }

    @Test func aSlotReadsItsMemoUntilACommitFromAnyConnection() throws {
        let dir = try ScratchDirectory()
        let reader = try fileStore(dir)
        try reader.index([item("pie", title: "Apple pie"), item("tart", title: "Apple tart")])
        let terms = TextTokenizer.queryTerms("apple")
        let first = try reader.systemSearchPart(terms, limit: 10, statistics: nil)
        #expect(identifiers(first.results) == ["pie", "tart"])
        let again = try reader.systemSearchPart(terms, limit: 10, statistics: nil)
        #expect(again.stamp == first.stamp)
        #expect(again.totals == first.totals)

        // Another connection to the file (as another app's process) writes: items, then impressions.
        let writer = try fileStore(dir)
        try writer.index([item("crumble", title: "Apple crumble")])
        let afterItems = try reader.systemSearchPart(terms, limit: 10, statistics: nil)
        #expect(afterItems.stamp != first.stamp, "a new segment list")
        #expect(identifiers(afterItems.results) == ["crumble", "pie", "tart"])
        #expect(identifiers(try reader.search("apple", fetching: [])) == ["crumble", "pie", "tart"], "a store's own search too")
        try writer.recordImpressions(itemIdentifiers: ["pie", "tart"])
        let afterImpressions = try reader.systemSearchPart(terms, limit: 10, statistics: nil)
        #expect(afterImpressions.totals.impressions > afterItems.totals.impressions, "the new totals, not the kept ones")
        #expect(identifiers(try reader.search("apple", fetching: [])) == ["crumble", "pie", "tart"])
        try writer.deleteItems(withIdentifiers: ["pie"])
        #expect(identifiers(try reader.search("apple", fetching: [])) == ["crumble", "tart"])
        #expect(identifiers(try reader.systemSearchPart(terms, limit: 10, statistics: nil).results) == ["crumble", "tart"])

        // And through its own writer.
        try reader.recordEngagement(.selection, itemIdentifier: "tart")
        let afterEngagement = try reader.systemSearchPart(terms, limit: 10, statistics: nil)
        #expect(afterEngagement.totals.engagement > afterImpressions.totals.engagement)
    }
}
