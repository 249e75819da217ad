public import Foundation

/// Why a result scored what it did: each signal and the factor it gave.
///
/// `total == text × hintFactor × engagementFactor × recencyFactor ×
/// metadataFactor × passedOverFactor` (see ``RankingWeights``); system
/// search multiplies by its app's factor too.
///
/// ```swift
/// for result in try store.search("apple") {
///     print(result.item.uniqueIdentifier, result.score.explanation)
/// }
/// // apple  3.21 = text 2.14 (match 0.9) × hint(80) 1.4 × engagement(2.5) 1.38 × recency(3.0 days) 1.23 × metadata 1 × shown(0) 1
/// ```
public struct ScoreBreakdown: Sendable, Hashable {
    /// Text relevance, higher is better: Σ over the typed words of IDF ×
    /// (BM25 over the column-weighted, capped counts + the title part),
    /// the same scale in every store.
    public var text: Double
    /// The share of ``text`` that match quality gave: the title part (a
    /// word in the title, more for a title of few words, the exact title
    /// most); the rest is BM25 (where the description weighs 4).
    public var matchQuality: Double = 0
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
    /// Complete metadata's lift, times stuffed keywords' demotion.
    public var metadataFactor: Double = 1
    /// Decayed impressions (times shown in results) now.
    public var impressions: Double = 0
    /// At most 1: results shown often and chosen rarely sink
    /// (``RankingWeights/passedOverFactor(engagement:impressions:)``).
    public var passedOverFactor: Double = 1
    /// The product of the above: what results are ordered by.
    public var total: Double
    /// True for a match found only with typos: its `text` is scaled by
    /// ``RankingWeights/typoFactor``, and it comes after every exact match.
    public var typos = false

    public init(text: Double, matchQuality: Double = 0, rankingHint: Double, hintFactor: Double, engagement: Double,
                engagementFactor: Double, age: TimeInterval?, recencyFactor: Double, metadataFactor: Double = 1,
                impressions: Double = 0, passedOverFactor: Double = 1, total: Double, typos: Bool = false) {
        self.text = text
        self.matchQuality = matchQuality
        self.rankingHint = rankingHint
        self.hintFactor = hintFactor
        self.engagement = engagement
        self.engagementFactor = engagementFactor
        self.age = age
        self.recencyFactor = recencyFactor
        self.metadataFactor = metadataFactor
        self.impressions = impressions
        self.passedOverFactor = passedOverFactor
        self.total = total
        self.typos = typos
    }

    /// text × every factor.
    public var product: Double {
        text * hintFactor * engagementFactor * recencyFactor * metadataFactor * passedOverFactor
    }

    /// One line: the total and each factor.
    ///
    /// Every result of a system search carries one (80 a keystroke over 20
    /// apps), so it is written into one buffer: made of a dozen numbers'
    /// strings and interpolations it took 6% of a keystroke's CPU.
    public var explanation: String {
        var line: [UInt8] = []
        line.reserveCapacity(192)
        func add(_ words: StaticString) { line.append(contentsOf: UnsafeBufferPointer(start: words.utf8Start, count: words.utf8CodeUnitCount)) }
        func add(_ value: Double) { NumberText.appendShort(value, to: &line) }
        add(total)
        add(typos ? " = text (typos) " : " = text ")
        add(text)
        add(" (match ")
        add(matchQuality)
        add(") × hint(")
        add(rankingHint)
        add(") ")
        add(hintFactor)
        add(" × engagement(")
        add(engagement)
        add(") ")
        add(engagementFactor)
        add(" × recency(")
        if let age {
            NumberText.appendOneDecimal(age / 86_400, to: &line)
            add(" days")
        } else {
            add("none")
        }
        add(") ")
        add(recencyFactor)
        add(" × metadata ")
        add(metadataFactor)
        add(" × shown(")
        add(impressions)
        add(") ")
        add(passedOverFactor)
        return String(decoding: line, as: UTF8.self)
    }
}
