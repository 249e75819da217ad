import Foundation
import Testing
@testable import SpotlightIndex

@Suite struct RankingTests {
    let day: TimeInterval = 86_400

    @Test func titleOutranksKeywordsOutranksDescriptionOutranksOtherText() throws {
        let store = try memoryStore()
        try store.index([
            item("other", title: "unrelated one", ["textContent": .string("kiwi")]),
            item("description", title: "unrelated two", ["contentDescription": .string("kiwi")]),
            item("keywords", title: "unrelated three", ["keywords": .strings(["kiwi"])]),
            item("title", title: "kiwi"),
        ])
        #expect(try store.ids("kiwi") == ["title", "keywords", "description", "other"])
    }

    @Test func rankingHintLiftsAnOtherwiseEqualItem() throws {
        let store = try memoryStore()
        try store.index([item("low", title: "pear", ["rankingHint": .number(10)]),
                         item("high", title: "pear", ["rankingHint": .number(90)]),
                         item("none", title: "pear")])
        let results = try store.search("pear")
        #expect(results.map(\.item.uniqueIdentifier) == ["high", "low", "none"])
        #expect(results[0].score.rankingHint == 90)
        #expect(abs(results[0].score.hintFactor - 1.45) < 1e-12)
        #expect(results[2].score.hintFactor == 1)
    }

    /// An item's ranking hint and recency, as its attributes give them.
    @Test(arguments: [
        ([:], 0, nil),
        (["rankingHint": .number(.int(40))], 40, nil),
        (["rankingHint": .number(.double(2.5)), "title": .string("x")], 2.5, nil),
        (["rankingHint": .bool(true)], 1, nil),
        (["rankingHint": .numbers([.int(7), .int(9)])], 7, nil),
        (["rankingHint": .string("90")], 0, nil),   // not a number: no hint
        (["contentModificationDate": .date(Date(timeIntervalSince1970: 100))], 0, 100),
        (["contentModificationDate": .date(Date(timeIntervalSince1970: 100)), "lastUsedDate": .date(Date(timeIntervalSince1970: 300)),
          "addedDate": .dates([Date(timeIntervalSince1970: 200), Date(timeIntervalSince1970: 50)])], 0, 300),
        (["addedDate": .dates([Date(timeIntervalSince1970: 200), Date(timeIntervalSince1970: 500)])], 0, 500),
        (["dueDate": .date(Date(timeIntervalSince1970: 900))], 0, nil),   // not a recency attribute
        (["contentCreationDate": .dates([])], 0, nil),
    ] as [([String: AttributeValue], Double, Double?)])
    func signalsComeFromTheirAttributes(attributes: [String: AttributeValue], hint: Double, recency: Double?) {
        let signals = ItemValidator.signals(attributes)
        #expect(signals.hint == hint)
        #expect(signals.recency == recency)
    }

    @Test func engagementLiftsAndDecays() throws {
        let clock = TestClock()
        let store = try memoryStore(clock: clock)
        try store.index([item("a", title: "plum"), item("b", title: "plum")])
        #expect(try store.ids("plum") == ["a", "b"])
        try store.recordEngagement(.view, itemIdentifier: "b")
        try store.recordEngagement(.selection, itemIdentifier: "b")
        #expect(try store.ids("plum") == ["b", "a"])
        let summary = try store.engagement(ofItem: "b")
        #expect(summary.views == 1 && summary.selections == 1)
        #expect(summary.score == 4) // 1 per view + 3 per selection
        clock.advance(by: 14 * day)
        #expect(abs(try store.engagement(ofItem: "b").score - 2) < 1e-9, "halves every 14 days")
        let result = try #require(try store.search("plum").first)
        #expect(abs(result.score.engagement - 2) < 1e-9)
        #expect(abs(result.score.engagementFactor - (1 + 0.3 * log(3.0))) < 1e-9)
    }

    @Test func engagementSurvivesReindexingAndNeedsAnItem() throws {
        let store = try memoryStore()
        try store.index([item("a", title: "fig"), item("b", title: "fig")])
        try store.recordEngagement(.selection, itemIdentifier: "b")
        try store.index([item("b", title: "fig")])
        #expect(try store.ids("fig") == ["b", "a"])
        #expect(try store.engagement(ofItem: "b").selections == 1)
        let error = #expect(throws: SpotlightIndexError.self) { try store.recordEngagement(.view, itemIdentifier: "nope") }
        #expect(error?.code == .itemNotFound)
        try store.deleteItems(withIdentifiers: ["b"])
        #expect(try store.engagement(ofItem: "b").selections == 0)
    }

    @Test func recentItemsRankAboveOldOnes() throws {
        let clock = TestClock()
        let store = try memoryStore(clock: clock)
        try store.index([
            item("old", title: "lime", ["lastUsedDate": .date(clock.now.addingTimeInterval(-300 * day))]),
            item("new", title: "lime", ["contentModificationDate": .date(clock.now.addingTimeInterval(-day))]),
            item("undated", title: "lime"),
        ])
        let results = try store.search("lime")
        #expect(results.map(\.item.uniqueIdentifier) == ["new", "old", "undated"])
        #expect(results[0].score.age == day)
        #expect(results[2].score.age == nil && results[2].score.recencyFactor == 1)
    }

    @Test func theBreakdownMultipliesToTheTotal() throws {
        let clock = TestClock()
        let store = try memoryStore(clock: clock)
        try store.index([item("a", title: "mango", ["rankingHint": .number(50), "lastUsedDate": .date(clock.now.addingTimeInterval(-30 * day))]),
                         item("b", title: "mango tree")])
        try store.recordEngagement(.view, itemIdentifier: "a")
        for result in try store.search("mango") {
            let s = result.score
            #expect(abs(s.total - s.product) < 1e-12 * max(1, s.total))
            #expect(s.text > 0)
            #expect(!s.explanation.isEmpty)
        }
        let a = try #require(try store.search("mango").first { $0.item.uniqueIdentifier == "a" })
        #expect(abs(a.score.recencyFactor - 1.125) < 1e-12, "a 30-day-old item gets half the recency lift")
    }
}
