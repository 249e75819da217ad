import Foundation

/// The ranked index's share of the ranking formula (``RankingWeights``):
/// BM25 per query term as SQLite FTS5 computes it (k1 = 1.2, b = 0.75,
/// frequencies weighted by column, length = tokens in all columns), and the
/// static factor with the bound stored in segments.
///
/// Differences from FTS5's `bm25()`, so that top-k can stop early: a
/// prefix (or a word with Korean stems) scores by its best-matching token
/// in the item rather than the sum over all of them, with the IDF of its
/// most frequent token ("blended", as Lucene's top-terms rewrite does)
/// rather than of the union.
struct RankedScoring: Sendable {
    static let k1 = 1.2
    static let b = 0.75

    var weights: RankingWeights

    /// The BM25 term-frequency factor G (without IDF).
    @inline(__always)
    static func g(tf: Double, length: Double, avgLength: Double) -> Double {
        tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / max(avgLength, 1e-9)))
    }

    /// A bound on a list's (or block's) largest G×S at the store's average
    /// length, from its maxima stored at the segment's: `maxGS` (G×S) and
    /// `maxS` (S), `ratio` = the segment's average / the store's.
    ///
    /// With K = 1 − b + b·length/avg, G = tf(k1+1)/(tf + k1·K); a longer
    /// average shrinks only the length part of K, so a G of g grows to at
    /// most g(k1+1)/(r(k1+1) + (1−r)g), r = ratio: ×1/r for a small g, ×1
    /// at G's ceiling k1+1. That is increasing in g and, through g = maxGS
    /// / S, in S, so the stored maxima give the bound. A ratio ≥ 1 (a
    /// shorter store average) only lowers G: `maxGS` stands.
    ///
    /// ```swift
    /// RankedScoring.rescaled(maxGS: 2.2, maxS: 1, ratio: 0.5)   // 2.2: the ceiling does not move
    /// RankedScoring.rescaled(maxGS: 0.1, maxS: 1, ratio: 0.5)   // ≈ 0.191: almost ×2
    /// ```
    @inline(__always)
    static func rescaled(maxGS: Double, maxS: Double, ratio: Double) -> Double {
        guard ratio < 1, maxS > 0, maxGS > 0 else { return maxGS }
        let g = maxGS / maxS, ceiling = k1 + 1
        return maxS * g * ceiling / (ratio * ceiling + (1 - ratio) * min(g, ceiling))
    }

    /// FTS5's IDF: `ln((N − n + 0.5) / (n + 0.5))`, at least 1e-6.
    static func idf(documents: Double, matching: Double) -> Double {
        max(1e-6, log((documents - matching + 0.5) / (matching + 0.5)))
    }

    /// Σ weight × count over the four columns, the frequency BM25 sees.
    func weightedFrequency(title: Int, keywords: Int, description: Int, other: Int) -> Double {
        weights.titleWeight * Double(title) + weights.keywordsWeight * Double(keywords)
            + weights.descriptionWeight * Double(description) + weights.otherTextWeight * Double(other)
    }

    /// The static factor at `time`, counting engagement undecayed: never
    /// below the exact factor at any later time.
    func staticBound(hint: Double, engagement: Double, recency: Double?, at time: Double) -> Double {
        let hintFactor = 1 + weights.rankingHint * hint / 100
        let engagementFactor = engagement == 0 ? 1 : 1 + weights.engagement * log(1 + engagement)
        let recencyFactor = recency.map { 1 + weights.recency * exp2(-max(0, time - $0) / weights.recencyHalfLife) } ?? 1
        return hintFactor * engagementFactor * recencyFactor
    }

    /// The breakdown of a result: the same formula as ``ScoringSQL``.
    func breakdown(text: Double, hint: Double, engagement: Double, engagedAt: Double, recency: Double?, now: Double) -> ScoreBreakdown {
        let decayed = engagement == 0 ? 0 : SpotlightStore.decay(engagement, age: now - engagedAt, halfLife: weights.engagementHalfLife)
        return ScoringSQL(weights: weights).breakdown(text: text, hint: hint, engagement: decayed, recency: recency, now: now)
    }

    /// What a match with typos has its text score multiplied by: it comes
    /// after every exact match of its store anyway, and this keeps it low
    /// beside other stores' exact matches.
    static let typoFactor = 0.25

    /// A typo-tier result's breakdown: text scaled by ``typoFactor``.
    func withTypos(_ score: ScoreBreakdown) -> ScoreBreakdown {
        var score = score
        score.text *= Self.typoFactor
        score.typos = true
        score.total = score.text * score.hintFactor * score.engagementFactor * score.recencyFactor
        return score
    }

    /// Identifies the weights that shape stored values (column weights and
    /// the static factor): a segment built with others is rebuilt.
    var fingerprint: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for value in [weights.titleWeight, weights.keywordsWeight, weights.descriptionWeight, weights.otherTextWeight,
                      weights.rankingHint, weights.engagement, weights.recency, weights.recencyHalfLife] {
            hash = (hash ^ value.bitPattern) &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// A Float32 never below `value` (bounds must not round down).
    @inline(__always)
    static func roundedUp(_ value: Double) -> Float {
        let single = Float(value)
        return Double(single) >= value ? single : single.nextUp
    }
}
