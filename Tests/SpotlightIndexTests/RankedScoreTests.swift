import Foundation
import Testing
@testable import SpotlightIndex

@Suite struct RankedScoreTests {
    /// The text score as ``RankingWeights`` documents it, worked by hand:
    /// IDF with the prior, BM25 over column-weighted counts, the title part.
    @Test func aSingleWordScoresByTheDocumentedFormula() throws {
        let store = try memoryStore()
        try store.index([
            item("apple", title: "Apple", ["contentDescription": .string("Crisp Normandy pears, sweet and tart")]),
            item("sauce", title: "Pear sauce", ["contentDescription": .string("Stewed apple with cinnamon, no added sugar")]),
            item("kiwi", title: "Kiwi", ["contentDescription": .string("Green and fuzzy")]),
        ])
        let ranked = try store.search("apple", limit: 10)
        #expect(ranked.map(\.item.uniqueIdentifier) == ["apple", "sauce"])
        // 3 items (+ 1,000 of the prior), 2 with "apple" (+ 1); lengths 7, 9 and 4 tokens.
        let idf = log((1_003.0 - 3 + 0.5) / (3 + 0.5))
        let average = 20.0 / 3
        func g(_ tf: Double, _ length: Double) -> Double { tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / average)) }
        let apple = idf * (g(10, 7) + 1 + 1.0 / 1)          // in the title, a one-word title
        let sauce = idf * g(4, 9)                           // in the description (weight 4)
        #expect(abs(ranked[0].score.text - apple) < 1e-9 * apple, "\(ranked[0].score.text) vs \(apple)")
        #expect(abs(ranked[0].score.matchQuality - idf * 2) < 1e-9 * apple)
        #expect(abs(ranked[1].score.text - sauce) < 1e-9 * sauce, "\(ranked[1].score.text) vs \(sauce)")
        #expect(ranked[1].score.matchQuality == 0)
    }
}
