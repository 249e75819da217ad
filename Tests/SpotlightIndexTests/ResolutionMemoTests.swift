import Foundation
import RankedSearch
import Testing
@testable import SpotlightIndex

/// A system search's statistics and matches resolve a keystroke's terms once
/// per snapshot (``ResolutionMemo``), and a write makes a new snapshot.
@Suite struct ResolutionMemoTests {
    func identifiers(_ results: [SearchResult]) -> [String] { results.map(\.item.uniqueIdentifier) }

    @Test func statisticsAndMatchesShareOneResolutionUntilAWrite() throws {
        let store = try memoryStore()
        try store.index([item("pie", title: "Apple pie"), item("tart", title: "Apple tart"), item("apricot", title: "Apricot jam"),
                         item("plum", title: "Plum cake")])
        let terms = TextTokenizer.queryTerms("ap")
        let first = try store.systemSearchPart(terms, limit: 10, statistics: nil)
        #expect(store.ranked.resolutions.count == 1)
        #expect(identifiers(first.results) == identifiers(try store.search("ap", limit: 10)), "as a search resolving anew")
        #expect(Set(identifiers(first.results)) == ["pie", "tart", "apricot"])

        let recent = try store.recentSearchStatistics(terms: terms)
        #expect(store.ranked.resolutions.count == 1, "the statistics took the kept resolution")
        #expect(recent.stamp == first.stamp)
        #expect(recent.statistics == (try store.searchStatistics(terms: terms)), "as statistics resolving anew")

        try store.index([item("crumble", title: "Apple crumble")])
        let after = try store.systemSearchPart(terms, limit: 10, statistics: recent.statistics)
        #expect(after.stamp != first.stamp)
        #expect(store.ranked.resolutions.count == 2, "a new snapshot, a new resolution")
        #expect(Set(identifiers(after.results)) == ["pie", "tart", "apricot", "crumble"])
        let afterStatistics = try store.recentSearchStatistics(terms: terms)
        #expect(afterStatistics.statistics == (try store.searchStatistics(terms: terms)))
        #expect(afterStatistics.statistics.matching != recent.statistics.matching, "the new item counted")

        // Other words, other resolutions; the oldest go first.
        for word in ["pl", "ja", "ca", "cr", "ta", "pi", "tr"] { _ = try store.systemSearchPart(TextTokenizer.queryTerms(word), limit: 3, statistics: nil) }
        #expect(store.ranked.resolutions.count == ResolutionMemo.capacity)
    }
}
