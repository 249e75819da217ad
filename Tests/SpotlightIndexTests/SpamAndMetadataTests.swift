import Foundation
import Testing
@testable import SpotlightIndex

/// Spam sinks, good metadata rises (``RankingWeights``: column caps, the
/// title part, the metadata factor).
@Suite struct SpamAndMetadataTests {
    /// Each row: items, a query, the order expected.
    static let cases: [(name: String, items: [SearchableItem], query: String, expected: [String])] = [
        ("stuffed keywords never outweigh a title",
         [item("stuffed", title: "Fruit basket", ["keywords": .strings(Array(repeating: "pear", count: 12))]),
          item("williams", title: "Williams Pear")],
         "pear", ["williams", "stuffed"]),
        ("keywords, description and other text together weigh less than the title",
         [item("everywhere", title: "Basket", ["keywords": .strings(["pear", "pear"]), "contentDescription": .string("pear pear pear"),
                                                "textContent": .string("pear pear pear pear")]),
          item("title", title: "Pear", ["textContent": .string("a long text about orchards and their many trees in the valley")])],
         "pear", ["title", "everywhere"]),
        ("a word repeated in the title counts twice at most",
         [item("repeated", title: "Pear pear pear pear pear"), item("plain", title: "Pear")],
         "pear", ["plain", "repeated"]),
        ("the title that is exactly the query comes first",
         [item("longer", title: "Kiwi smoothie bowl"), item("exact", title: "Kiwi", ["contentDescription": .string("a fuzzy green fruit from far away")])],
         "kiwi", ["exact", "longer"]),
        ("stuffed keywords demote the item, not only their own weight",
         [item("stuffed", title: "Pear jam", ["keywords": .strings((0..<30).map { "jam\($0)" })]),
          item("honest", title: "Pear jam", ["keywords": .strings(["preserve"])])],
         "pear jam", ["honest", "stuffed"]),
        ("complete metadata lifts an otherwise equal item",
         [item("bare", title: "Quince"),
          item("complete", title: "Quince", ["contentDescription": .string("Quince"),
                                             "thumbnailURL": .url(URL(string: "https://example.com/q.png")!)])],
         "quince", ["complete", "bare"]),
    ]

    @Test(arguments: cases.indices)
    func spamSinksAndGoodMetadataRises(_ index: Int) throws {
        let row = Self.cases[index]
        let store = try memoryStore()
        try store.index(row.items)
        #expect(try store.ids(row.query) == row.expected, "\(row.name)")
    }

    @Test func theMetadataFactorShowsInTheScore() throws {
        let store = try memoryStore()
        try store.index([
            item("bare", title: "Medlar"),
            item("described", title: "Medlar", ["contentDescription": .string("an old fruit")]),
            item("complete", title: "Medlar", ["contentDescription": .string("an old fruit"), "thumbnailData": .data(Data([1, 2, 3]))]),
            item("stuffed", title: "Medlar", ["keywords": .strings((0..<40).map { "k\($0)" })]),
            item("spam", title: "Medlar", ["keywords": .strings(["alpha", "beta", "gamma", "delta"])]),
        ])
        let scores = Dictionary(uniqueKeysWithValues: try store.search("medlar").map { ($0.item.uniqueIdentifier, $0.score) })
        let lift = RankingWeights().metadataLift
        #expect(abs(scores["bare"]!.metadataFactor - (1 + lift / 3)) < 1e-12)
        #expect(abs(scores["described"]!.metadataFactor - (1 + 2 * lift / 3)) < 1e-12)
        #expect(abs(scores["complete"]!.metadataFactor - (1 + lift)) < 1e-12)
        // 40 keyword words against a one-word title: 3 allowed per word, 3/40 floored at 0.5.
        #expect(abs(scores["stuffed"]!.metadataFactor - (1 + lift / 3) * 0.5) < 1e-12)
        // 4 keywords for one title word: a little over the ratio, 3/4.
        #expect(abs(scores["spam"]!.metadataFactor - (1 + lift / 3) * 0.75) < 1e-12)
        for score in scores.values { #expect(abs(score.total - score.product) < 1e-12 * score.total) }
        #expect(scores["bare"]!.explanation.contains("metadata"))
    }
}

/// Impressions: results shown and not chosen sink, gradually and reversibly.
@Suite struct ImpressionTests {
    let day: TimeInterval = 86_400

    @Test func shownOftenAndNeverChosenSinksGraduallyAndComesBack() throws {
        let clock = TestClock()
        let store = try memoryStore(clock: clock)
        try store.index([item("a", title: "plum"), item("b", title: "plum")])
        #expect(try store.ids("plum") == ["a", "b"])
        var factors: [Double] = []
        for _ in 0..<6 {
            try store.recordImpressions(itemIdentifiers: Array(repeating: "a", count: 3) + ["nobody"])   // once per call
            factors.append(try #require(try store.search("plum").first { $0.item.uniqueIdentifier == "a" }).score.passedOverFactor)
        }
        #expect(factors[0] < 1 && factors[0] > 0.95, "one impression costs little: the prior expects a choice in ten")
        #expect(zip(factors, factors.dropFirst()).allSatisfy { $0 >= $1 } && factors.last! < factors.first!, "\(factors)")
        for _ in 0..<40 { try store.recordImpressions(itemIdentifiers: ["a"]) }
        #expect(try store.ids("plum") == ["b", "a"])
        let sunk = try #require(try store.search("plum").last).score
        #expect(sunk.impressions > 45 && sunk.passedOverFactor < 0.8 && sunk.passedOverFactor >= RankingWeights().passedOverFloor)
        #expect(try store.engagement(ofItem: "a").impressions == 46)
        #expect(try store.engagement(ofItem: "nobody").impressions == 0)
        // Chosen: the ratio of choices to impressions is back to what is expected.
        for _ in 0..<5 { try store.recordEngagement(.selection, itemIdentifier: "a") }
        #expect(try store.ids("plum") == ["a", "b"])
        #expect(try #require(try store.search("plum").first).score.passedOverFactor == 1)
    }

    @Test func impressionsDecaySoADemotionFades() throws {
        let clock = TestClock()
        let store = try memoryStore(clock: clock)
        var a = item("a", title: "plum"), b = item("b", title: "plum")
        a.expirationDate = .distantFuture
        b.expirationDate = .distantFuture
        try store.index([a, b])
        for _ in 0..<50 { try store.recordImpressions(itemIdentifiers: ["a", "b"]) }
        try store.recordImpressions(itemIdentifiers: ["a"])
        let before = try #require(try store.search("plum").last).score
        #expect(before.passedOverFactor < 0.8)
        clock.advance(by: 14 * day)
        let later = try #require(try store.search("plum").last).score
        #expect(abs(later.impressions - before.impressions / 2) < 1e-9, "halves every 14 days")
        #expect(later.passedOverFactor > before.passedOverFactor)
        clock.advance(by: 140 * day)
        #expect(try #require(try store.search("plum").last).score.passedOverFactor > 0.99)
    }

    @Test func impressionsOfUnknownItemsAreIgnoredAndTheStoreTotalsThem() throws {
        let clock = TestClock()
        let store = try memoryStore(clock: clock)
        try store.index((0..<20).map { item("i\($0)", title: "item \($0)") })
        try store.recordImpressions(itemIdentifiers: (0..<25).map { "i\($0)" })   // five unknown
        #expect(try store.engagementTotals().impressions == 20)
        try store.recordEngagement(.selection, itemIdentifier: "i3")
        let totals = try store.engagementTotals()
        #expect(totals.impressions == 20 && totals.engagement == RankingWeights().selectionWeight)
        clock.advance(by: 14 * day)
        #expect(abs(try store.engagementTotals().impressions - 10) < 1e-9)
        try store.recordImpressions(itemIdentifiers: [])
        // Nothing unknown is written: a store without any of the items is untouched.
        let other = try memoryStore()
        try other.recordImpressions(itemIdentifiers: ["x", "y"])
        #expect(try other.engagementTotals().impressions == 0)
    }
}
