public import Foundation

/// One result of ``SpotlightStore/search(_:limit:)``.
public struct SearchResult: Sendable, Hashable {
    /// The matching item.
    public var item: SearchableItem
    /// Its score and how it was made.
    public var score: ScoreBreakdown
}

/// Why a result scored what it did: each signal and the factor it gave.
///
/// `total == text × hintFactor × engagementFactor × recencyFactor`
/// (see ``RankingWeights``).
///
/// ```swift
/// for result in try store.search("apple") {
///     print(result.item.uniqueIdentifier, result.score.explanation)
/// }
/// // apple  3.21 = text 2.14 × hint(80) 1.40 × engagement(2.5) 1.38 × recency(3 days) 1.23
/// ```
public struct ScoreBreakdown: Sendable, Hashable {
    /// Text relevance: BM25 with the field weights, higher is better.
    public var text: Double
    /// The item's `rankingHint` (0–100; 0 when absent).
    public var rankingHint: Double
    /// `1 + weight × hint / 100`.
    public var hintFactor: Double
    /// Decayed engagement (views and selections) now.
    public var engagement: Double
    /// `1 + weight × ln(1 + engagement)`.
    public var engagementFactor: Double
    /// Age in seconds of the item's newest recency date, nil without one.
    public var age: TimeInterval?
    /// `1 + weight × ½^(age / half-life)`, 1 without a date.
    public var recencyFactor: Double
    /// The product of the above: what results are ordered by.
    public var total: Double
    /// True for a match found only with typos (a word of five letters or
    /// more one edit away, two from nine letters): its `text` is a quarter of
    /// the BM25, and it comes after every exact match of its store.
    public var typos = false

    /// One line: the total and each factor.
    public var explanation: String {
        func f(_ value: Double) -> String { String(format: "%.4g", value) }
        let ageText = age.map { String(format: "%.1f days", $0 / 86_400) } ?? "none"
        let text = typos ? "text (typos, ×0.25) \(f(self.text))" : "text \(f(self.text))"
        return "\(f(total)) = \(text) × hint(\(f(rankingHint))) \(f(hintFactor)) × engagement(\(f(engagement))) \(f(engagementFactor)) × recency(\(ageText)) \(f(recencyFactor))"
    }
}
