import Foundation

/// The ranked index's share of the ranking formula (``RankingWeights``):
/// per query term IDF × (BM25's G + the title part), G as SQLite FTS5
/// computes it (k1 = 1.2, b = 0.75, length = tokens in all columns) over
/// the column-weighted, capped frequency, and the static factor with the
/// bound stored in segments.
///
/// Differences from FTS5's `bm25()`, so that top-k can stop early: a
/// prefix (or a word with Korean stems) scores by its best-matching token
/// in the item rather than the sum over all of them, with the IDF of its
/// most frequent token ("blended", as Lucene's top-terms rewrite does)
/// rather than of the union. The IDF is never below zero and has a prior
/// (``idf(documents:matching:)``), and a word's occurrences count up to
/// each column's cap.
struct RankedScoring: Sendable {
    static let k1 = 1.2
    static let b = 0.75

    var weights: RankingWeights
    /// The title (or description) part of a term's score: at most this.
    let titlePartMax: Double

    init(weights: RankingWeights) {
        self.weights = weights
        titlePartMax = max(max(0, weights.titleMatch) + max(0, weights.exactTitle), max(0, weights.descriptionMatch))
    }

    /// The frequency a posting stores: the column-weighted count in
    /// sixteenths, shifted left by two; bit 0 set when the title holds
    /// the token, bit 1 when the description does (the match-quality parts).
    @inline(__always)
    static func frequency(weighted: UInt32, columns: UInt8) -> UInt32 {
        min(max(1, weighted), UInt32.max >> 2) << 2 | UInt32(columns & 1) | UInt32(columns & 4) >> 1
    }

    /// Bit of a stored frequency: the title holds the token.
    static let titleBit: UInt32 = 1
    /// Bit of a stored frequency: the description holds the token.
    static let descriptionBit: UInt32 = 2

    /// BM25's frequency factor G of a stored frequency, with `norm` =
    /// k1 × (1 − b + b × length / average length).
    @inline(__always)
    static func g(frequency: UInt32, norm: Double) -> Double {
        let tf = Double(frequency >> 2) / SegmentFormat.tfScale
        return tf * (k1 + 1) / (tf + norm)
    }

    @inline(__always)
    static func norm(length: Double, avgLength: Double) -> Double {
        k1 * (1 - b + b * length / max(avgLength, 1e-9))
    }

    /// The title part of a term whose token the title holds: the title
    /// match, and the exact-title share (all of it for a one-word title
    /// that is the whole query), × `share` = the typed words the title holds
    /// ÷ the words typed.
    @inline(__always)
    func titlePart(titleLength: Double, share: Double = 1) -> Double {
        max(0, weights.titleMatch) + max(0, weights.exactTitle) * share / max(1, titleLength)
    }

    /// What a token's frequencies are and'ed with: the match-quality bits
    /// cleared for a prefix's completions (`libx` is no title match of
    /// `libxml2`, whose BM25 still counts the title's weight), kept otherwise.
    @inline(__always)
    static func titleMask(_ id: Int, completions: Range<Int>) -> UInt32 {
        completions.contains(id) ? ~(titleBit | descriptionBit) : ~UInt32(0)
    }

    /// The most a term can score in a document before IDF: G, plus the
    /// title part when the title holds the token, else the description
    /// part when the description does (what segments store maxima of).
    @inline(__always)
    func termScore(frequency: UInt32, norm: Double, titleLength: @autoclosure () -> Double) -> Double {
        let g = Self.g(frequency: frequency, norm: norm)
        if frequency & Self.titleBit != 0 { return g + titlePart(titleLength: titleLength()) }
        return frequency & Self.descriptionBit != 0 ? g + max(0, weights.descriptionMatch) : g
    }

    /// A bound on a list's (or block's) largest term score × S at the
    /// store's average length, from its maxima stored at the segment's:
    /// `maxGS` (term score × S) and `maxS` (S), `ratio` = the segment's
    /// average / the store's.
    ///
    /// With K = 1 − b + b·length/avg, G = tf(k1+1)/(tf + k1·K); a longer
    /// average shrinks only the length part of K, so a G of g grows to at
    /// most g(k1+1)/(r(k1+1) + (1−r)g), r = ratio: ×1/r for a small g, ×1
    /// at G's ceiling k1 + 1 (``rescaledG(maxGS:maxS:ratio:)``). The title
    /// and description parts do not move, so a posting with one is bounded
    /// by that plus the largest of them × S; and every score grows by at
    /// most 1/r. A
    /// ratio ≥ 1 (a shorter store average) only lowers G: `maxGS` stands.
    ///
    /// ```swift
    /// scoring.rescaled(maxGS: 2.2, maxS: 1, ratio: 0.5)   // 2.2: the ceiling does not move
    /// ```
    @inline(__always)
    func rescaled(maxGS: Double, maxS: Double, ratio: Double) -> Double {
        guard ratio < 1, maxS > 0, maxGS > 0 else { return maxGS }
        return min(maxGS / ratio, Self.rescaledG(maxGS: maxGS, maxS: maxS, ratio: ratio) + titlePartMax * maxS)
    }

    /// The bound of ``rescaled(maxGS:maxS:ratio:)`` for G alone.
    ///
    /// ```swift
    /// RankedScoring.rescaledG(maxGS: 0.1, maxS: 1, ratio: 0.5)   // ≈ 0.191: almost ×2
    /// ```
    @inline(__always)
    static func rescaledG(maxGS: Double, maxS: Double, ratio: Double) -> Double {
        guard ratio < 1, maxS > 0, maxGS > 0 else { return maxGS }
        let g = maxGS / maxS, ceiling = k1 + 1
        return maxS * g * ceiling / (ratio * ceiling + (1 - ratio) * min(g, ceiling))
    }

    /// IDF over `documents` items, `matching` of them holding the word,
    /// with the prior collection of ``RankingWeights/idfPriorDocuments``
    /// and ``RankingWeights/idfPriorMatches`` added:
    /// `ln(1 + (N − n + 0.5) / (n + 0.5))`, always above zero, so a word
    /// in every item of a small store still counts (FTS5's floor of 1e-6
    /// made a one-item store's best match score nothing).
    ///
    /// ```swift
    /// scoring.idf(documents: 1, matching: 1)   // ≈ 6.0 with the default prior, not 1e-6
    /// ```
    func idf(documents: Double, matching: Double) -> Double {
        let n = max(0, documents) + max(0, weights.idfPriorDocuments)
        let m = min(max(0, matching) + max(0, weights.idfPriorMatches), n)
        return log(1 + (n - m + 0.5) / (m + 0.5))
    }

    /// Σ weight × count over the four columns, the frequency BM25 sees.
    func weightedFrequency(title: Int, keywords: Int, description: Int, other: Int) -> Double {
        weights.titleWeight * Double(title) + weights.keywordsWeight * Double(keywords)
            + weights.descriptionWeight * Double(description) + weights.otherTextWeight * Double(other)
    }

    /// The static factor at `time`, counting engagement undecayed and the
    /// engagement ratio at 1 (it only lowers): never below the exact factor
    /// at any later time.
    func staticBound(hint: Double, engagement: Double, recency: Double?, quality: Double, at time: Double) -> Double {
        let hintFactor = 1 + weights.rankingHint * hint / 100
        let engagementFactor = engagement == 0 ? 1 : 1 + weights.engagement * log(1 + engagement)
        let recencyFactor = recency.map { 1 + weights.recency * exp2(-max(0, time - $0) / weights.recencyHalfLife) } ?? 1
        return hintFactor * engagementFactor * recencyFactor * quality
    }

    /// The breakdown of a result, every factor of ``RankingWeights``.
    func breakdown(text: Double, matchQuality: Double, hint: Double, engagement: Double, impressions: Double, engagedAt: Double,
                   recency: Double?, quality: Double, now: Double) -> ScoreBreakdown {
        let decay = engagement == 0 && impressions == 0 ? 0 : exp2(-max(0, now - engagedAt) / weights.engagementHalfLife)
        return ScoringSQL(weights: weights).breakdown(text: text, hint: hint, engagement: engagement * decay, recency: recency,
                                                      now: now, matchQuality: matchQuality, quality: quality,
                                                      impressions: impressions * decay)
    }

    /// A document's text score and its match-quality share: Σ IDF × (G +
    /// the title part where the title holds the term's token, or the
    /// description part where the description holds every typed word, two
    /// or more),
    /// over the terms' best frequencies in it. Never above the sum of
    /// ``termScore(frequency:norm:titleLength:)``, which bounds are made of.
    @inline(__always)
    func text<C: RandomAccessCollection>(_ frequencies: C, idf: [Double], norm: Double,
                                         titleLength: @autoclosure () -> Double) -> (text: Double, title: Double)
        where C.Element == UInt32, C.Index == Int {
        var text = 0.0
        // The description part needs two words or more in it: one word in
        // a description is no sign the item is what was meant.
        var inTitle = 0, allInDescription = frequencies.count > 1 ? Self.descriptionBit : 0
        for frequency in frequencies {
            inTitle += Int(frequency & Self.titleBit)
            allInDescription &= frequency
        }
        var quality = 0.0
        var term = 0
        let share = Double(inTitle) / Double(max(1, frequencies.count))
        let length = inTitle > 0 ? titleLength() : 1
        for frequency in frequencies {
            text += idf[term] * Self.g(frequency: frequency, norm: norm)
            if frequency & Self.titleBit != 0 {
                quality += idf[term] * titlePart(titleLength: length, share: share)
            } else if allInDescription != 0 {
                quality += idf[term] * max(0, weights.descriptionMatch)
            }
            term += 1
        }
        return (text + quality, quality)
    }

    /// The breakdown of a segment's document scoring `text`.
    @inline(__always)
    func breakdown(text: Double, matchQuality: Double, _ segment: Segment, _ doc: Int, now: Double) -> ScoreBreakdown {
        breakdown(text: text, matchQuality: matchQuality, hint: segment.hint(doc), engagement: segment.engagement(doc),
                  impressions: segment.impressions(doc), engagedAt: segment.engagedAt(doc), recency: segment.recency(doc),
                  quality: segment.quality(doc), now: now)
    }

    /// A typo-tier result's breakdown: text scaled by ``RankingWeights/typoFactor``.
    func withTypos(_ score: ScoreBreakdown) -> ScoreBreakdown {
        var score = score
        score.text *= weights.typoFactor
        score.matchQuality *= weights.typoFactor
        score.typos = true
        score.total = score.product
        return score
    }

    /// Identifies the weights that shape stored values (column weights and
    /// caps, the title part, the static factor): a segment built with
    /// others is rebuilt.
    var fingerprint: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for value in [weights.titleWeight, weights.keywordsWeight, weights.descriptionWeight, weights.otherTextWeight,
                      Double(weights.titleCap), Double(weights.keywordsCap), Double(weights.descriptionCap), Double(weights.otherTextCap),
                      weights.titleMatch, weights.exactTitle, weights.descriptionMatch, weights.metadataLift, weights.stuffingRatio, weights.stuffingFloor,
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
