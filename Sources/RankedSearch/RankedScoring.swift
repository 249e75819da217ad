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
package struct RankedScoring: Sendable {
    @_spi(Inspection) public static let k1 = 1.2
    static let b = 0.75

    package var weights: RankingWeights

    package init(weights: RankingWeights) {
        self.weights = weights
    }

    /// The frequency a posting stores: the column-weighted count in
    /// sixteenths, shifted left by one, bit 0 set when the title holds the
    /// token (the title part).
    @inline(__always)
    static func frequency(weighted: UInt32, columns: UInt8) -> UInt32 {
        min(max(1, weighted), UInt32.max >> 2) << 1 | UInt32(columns & 1)
    }

    /// Bit of a stored frequency: the title holds the token.
    static let titleBit: UInt32 = 1
    /// Bit set at query time (never stored): the token is a whole word
    /// typed (not a prefix's completion, nor a last word under four
    /// letters, still being typed): it takes the exact-title share.
    static let wholeWordBit: UInt32 = 1 << 31

    /// BM25's frequency factor G of a stored frequency, with `norm` =
    /// k1 × (1 − b + b × length / average length).
    @inline(__always)
    static func g(frequency: UInt32, norm: Double) -> Double {
        let tf = Double((frequency & ~wholeWordBit) >> 1) / SegmentFormat.tfScale
        return tf * (k1 + 1) / (tf + norm)
    }

    @inline(__always)
    @_spi(Inspection) public static func norm(length: Double, avgLength: Double) -> Double {
        k1 * (1 - b + b * length / max(avgLength, 1e-9))
    }

    /// Whether a term's score in a document, × `factor` (its IDF × the
    /// document's static bound), is surely below `need`, without dividing:
    /// the bound a driver's posting is checked against before its other
    /// terms are, for every posting of a long list. `normBase` and
    /// `normPerLength` are ``norm(length:avgLength:)``'s parts, k1(1 − b)
    /// and k1·b / average length. False when unsure: the title holds the
    /// token (its title part), or the margin of rounding.
    ///
    /// ```swift
    /// RankedScoring.surelyBelow(frequency: 16 << 1, length: 10, normBase: 0.3, normPerLength: 0.09, factor: 2, need: 5)   // true: 2 × G = 2
    /// ```
    @inline(__always)
    @_spi(Inspection) public static func surelyBelow(frequency: UInt32, length: Double, normBase: Double, normPerLength: Double,
                                                     factor: Double, need: Double) -> Bool {
        guard frequency & titleBit == 0 else { return false }
        // G = tf(k1 + 1) / (tf + norm) < need / factor, both sides times (tf + norm) > 0.
        let tf = Double((frequency & ~wholeWordBit) >> 1) * (1 / SegmentFormat.tfScale)
        return factor * tf * (k1 + 1) < need * (tf + normBase + normPerLength * length) * (1 - 1e-9)
    }

    /// The least stored frequency (``frequency(weighted:columns:)``, title
    /// bit clear) whose score × `factor` may reach `need` in any document:
    /// G at length 0, tf(k1 + 1) / (tf + k1(1 − b)), is G's largest for a
    /// frequency. A posting outside the title stored below it is surely
    /// below `need` wherever it is, with `factor` its IDF × the largest
    /// static bound of its block: checked on the posting alone, before its
    /// document's bound and length are read. 0 when none is surely below
    /// (`need` ≤ 0, or either is NaN); `UInt32.max` when every one is (G's
    /// ceiling, k1 + 1, × `factor` is below `need`).
    ///
    /// ```swift
    /// RankedScoring.outsideTitleCut(factor: 2, need: 3)   // 22: tf under 0.643, 11 sixteenths, shifted
    /// ```
    @_spi(Inspection) public static func outsideTitleCut(factor: Double, need: Double) -> UInt32 {
        // (A NaN, from damaged maxima, cuts nothing: bounds compared with it pass.)
        guard need > 0, factor >= 0, factor.isFinite else { return 0 }
        let reach = factor * (k1 + 1) - need
        guard reach > 0 else { return .max }
        // tf(k1 + 1)·factor < need·(tf + k1(1 − b))  ⇔  tf < need·k1(1 − b) / reach.
        let tf = need * k1 * (1 - b) / reach * (1 - 1e-9)
        let stored = (tf * SegmentFormat.tfScale).rounded(.up)
        guard stored < Double(UInt32.max >> 2) else { return .max }
        return UInt32(stored) << 1
    }

    /// ``norm(length:avgLength:)`` = `base` + `perLength` × length, for ``surelyBelow(frequency:length:normBase:normPerLength:factor:need:)``.
    @_spi(Inspection) public static func normParts(avgLength: Double) -> (base: Double, perLength: Double) {
        (k1 * (1 - b), k1 * b / max(avgLength, 1e-9))
    }

    /// Every token of a term is a whole word (a word that is not the last,
    /// or has typos): ``flag(_:wholeWord:)`` flags them all.
    static let everyToken = -2

    /// What a token's frequencies are or'ed with at query time: the
    /// whole-word bit for a whole word typed (`wholeWord`: its id,
    /// ``everyToken``, or -1 for none).
    @inline(__always)
    static func flag(_ id: Int, wholeWord: Int) -> UInt32 {
        wholeWord == everyToken || id == wholeWord ? wholeWordBit : 0
    }

    /// Whether `id` is a whole word typed (``flag(_:wholeWord:)``).
    @inline(__always)
    static func isWholeWord(_ id: Int, wholeWord: Int) -> Bool { wholeWord == everyToken || id == wholeWord }

    /// A term's score in a document before IDF, at the most the query can
    /// make of it: G, plus the title part when the title holds the token
    /// (with the exact-title share at its largest for a whole word typed).
    /// Segments store maxima of it both ways (`wholeWord` true and false).
    @inline(__always)
    @_spi(Inspection) public func termScore(frequency: UInt32, norm: Double, titleLength: @autoclosure () -> Double, wholeWord: Bool) -> Double {
        let g = Self.g(frequency: frequency, norm: norm)
        guard frequency & Self.titleBit != 0 else { return g }
        return g + max(0, weights.titleMatch) + (wholeWord ? max(0, weights.exactTitle) / max(1, titleLength()) : 0)
    }

    /// ``termScore(frequency:norm:titleLength:wholeWord:)`` for a frequency
    /// that carries its whole-word bit.
    @inline(__always)
    func termBound(frequency: UInt32, norm: Double, titleLength: @autoclosure () -> Double) -> Double {
        termScore(frequency: frequency, norm: norm, titleLength: titleLength(), wholeWord: frequency & Self.wholeWordBit != 0)
    }

    /// The title part of a term whose token the title holds: the title
    /// match, and for a whole word typed the exact-title share (all of it
    /// for a one-word title that is the whole query) × `share` = the typed
    /// words the title holds ÷ the words typed.
    @inline(__always)
    func titlePart(titleLength: Double, share: Double = 1) -> Double {
        max(0, weights.titleMatch) + max(0, weights.exactTitle) * share / max(1, titleLength)
    }

    /// A bound on a list's (or block's) largest term score × S at the
    /// store's average length, from its maxima stored at the segment's:
    /// `maxGS` (term score × S) and `maxS` (S), `ratio` = the segment's
    /// average / the store's, `growth` = ``growth(ratio:)``.
    ///
    /// With K = 1 − b + b·length/avg, G = tf(k1+1)/(tf + k1·K); a longer
    /// average shrinks only the length part of K, so a G of g grows to at
    /// most f(g) = g(k1+1)/(r(k1+1) + (1−r)g), r = ratio: ×1/r for a small
    /// g, ×1 at G's ceiling k1 + 1. The match-quality parts do not move, so
    /// a posting's score grows by at most f(G) − G ≤ `growth` (its largest
    /// over 0…k1 + 1), × its S: the stored maximum plus `growth` × `maxS`.
    /// Every score also grows by at most 1/r. A ratio ≥ 1 (a shorter store
    /// average) only lowers G: `maxGS` stands.
    ///
    /// ```swift
    /// RankedScoring.rescaled(maxGS: 3.2, maxS: 1, ratio: 0.95, growth: RankedScoring.growth(ratio: 0.95))   // ≈ 3.23
    /// ```
    @inline(__always)
    @_spi(Inspection) public static func rescaled(maxGS: Double, maxS: Double, ratio: Double, growth: Double) -> Double {
        guard ratio < 1, maxS > 0, maxGS > 0 else { return maxGS }
        return min(maxGS / ratio, maxGS + growth * maxS)
    }

    /// The most G can grow (f(G) − G, see ``rescaled(maxGS:maxS:ratio:growth:)``)
    /// when the average length grows by 1/`ratio`: h(x) = (1−r)·x(c−x)/(rc +
    /// (1−r)x), c = k1 + 1, is largest at x = (√(a² + (1−r)·c·a) − a)/(1−r),
    /// a = rc. Computed once per segment and search.
    @_spi(Inspection) public static func growth(ratio: Double) -> Double {
        guard ratio < 1, ratio > 0 else { return 0 }
        let c = k1 + 1, d = 1 - ratio, a = ratio * c
        let x = min(c, max(0, ((a * a + d * c * a).squareRoot() - a) / d))
        return d * x * (c - x) / (a + d * x)
    }

    /// The tighter bound for G alone (no match-quality part), at a longer average.
    ///
    /// ```swift
    /// RankedScoring.rescaledG(maxGS: 0.1, maxS: 1, ratio: 0.5)   // ≈ 0.191: almost ×2
    /// ```
    @inline(__always)
    @_spi(Inspection) public static func rescaledG(maxGS: Double, maxS: Double, ratio: Double) -> Double {
        guard ratio < 1, maxS > 0, maxGS > 0 else { return maxGS }
        let g = maxGS / maxS, ceiling = k1 + 1
        return maxS * g * ceiling / (ratio * ceiling + (1 - ratio) * min(g, ceiling))
    }

    /// IDF over `documents` items, `matching` of them holding the word,
    /// with the prior collection of ``RankingWeights/idfPriorDocuments``
    /// and ``RankingWeights/idfPriorMatches`` added: FTS5's
    /// `ln((N − n + 0.5) / (n + 0.5))`, at least 1e-6, so that a word in
    /// every item of a small store still counts (without the prior a
    /// one-item store gave its only item's words 1e-6), while a word in
    /// most of a big store's items weighs nothing, as in FTS5.
    ///
    /// ```swift
    /// scoring.idf(documents: 1, matching: 1)   // ≈ 6.0 with the default prior, not 1e-6
    /// ```
    package func idf(documents: Double, matching: Double) -> Double {
        let n = max(0, documents) + max(0, weights.idfPriorDocuments)
        let m = min(max(0, matching) + max(0, weights.idfPriorMatches), n)
        return max(1e-6, log((n - m + 0.5) / (m + 0.5)))
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
        return weights.breakdown(text: text, hint: hint, engagement: engagement * decay, recency: recency, now: now,
                                 matchQuality: matchQuality, quality: quality, impressions: impressions * decay)
    }

    /// A document's text score and its match-quality share: Σ IDF × (G +
    /// the title part where the title holds the term's token, with the
    /// exact-title share only for a whole word typed), over the terms' best
    /// frequencies in it. Never above the sum of
    /// ``termBound(frequency:norm:titleLength:)``.
    @inline(__always)
    func text<C: RandomAccessCollection>(_ frequencies: C, idf: [Double], norm: Double,
                                         titleLength: @autoclosure () -> Double) -> (text: Double, title: Double)
        where C.Element == UInt32, C.Index == Int {
        var text = 0.0
        var inTitle = 0
        for frequency in frequencies { inTitle += Int(frequency & Self.titleBit) }
        var quality = 0.0
        var term = 0
        let share = Double(inTitle) / Double(max(1, frequencies.count))
        let length = inTitle > 0 ? titleLength() : 1
        for frequency in frequencies {
            text += idf[term] * Self.g(frequency: frequency, norm: norm)
            if frequency & Self.titleBit != 0 {
                quality += idf[term] * (frequency & Self.wholeWordBit != 0
                    ? titlePart(titleLength: length, share: share) : max(0, weights.titleMatch))
            }
            term += 1
        }
        return (text + quality, quality)
    }

    /// The breakdown of a segment's document scoring `text`.
    @inline(__always)
    package func breakdown(text: Double, matchQuality: Double, _ segment: Segment, _ doc: Int, now: Double) -> ScoreBreakdown {
        breakdown(text: text, matchQuality: matchQuality, hint: segment.hint(doc), engagement: segment.engagement(doc),
                  impressions: segment.impressions(doc), engagedAt: segment.engagedAt(doc), recency: segment.recency(doc),
                  quality: segment.quality(doc), now: now)
    }

    /// A typo-tier result's breakdown: text scaled by ``RankingWeights/typoFactor``.
    package func withTypos(_ score: ScoreBreakdown) -> ScoreBreakdown {
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
    package var fingerprint: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for value in [weights.titleWeight, weights.keywordsWeight, weights.descriptionWeight, weights.otherTextWeight,
                      Double(weights.titleCap), Double(weights.keywordsCap), Double(weights.descriptionCap), Double(weights.otherTextCap),
                      weights.titleMatch, weights.exactTitle, weights.metadataLift, weights.stuffingRatio, weights.stuffingFloor,
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
