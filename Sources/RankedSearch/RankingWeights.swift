public import Foundation

/// Every factor of a result's score, each with why it exists.
///
/// score = text × hint × engagement × recency × metadata × engagement ratio
///
/// - **text** = Σ over the typed words of IDF × (BM25 + title match). It
///   means the same in a 1-item store and a 1M-item store:
///   - IDF is FTS5's `ln((N − n + 0.5) / (n + 0.5))` (at least 1e-6) over
///     N items, n of them holding the word, with a prior of
///     ``idfPriorDocuments`` items of which ``idfPriorMatches`` hold it
///     added to both: a store of one item does not give its only word an
///     IDF of 1e-6, and a big store's statistics dominate the prior. System
///     search sums N and n over every store it reads
///     (``SearchStatistics``), so every store's results share one IDF.
///   - BM25 (k1 = 1.2, b = 0.75) counts a word's occurrences weighted by
///     column (``titleWeight``…``otherTextWeight``), each column's count
///     capped (``titleCap``…``otherTextCap``): repeating a word saturates
///     at once, so stuffed keywords gain nothing, and as BM25's G stays
///     under k1 + 1 = 2.2 however much a word is repeated, keywords never
///     outweigh a title match, which adds its title part besides.
///   - Match quality: a word in the title adds ``titleMatch`` plus
///     ``exactTitle`` ÷ the title's words (× the share of the typed words
///     the title holds), so the title that is exactly what was typed comes
///     first, then titles holding it among few words. Only whole words
///     typed take the exact-title share: a prefix's completions
///     (`kiwifruit` for `kiwi`) and a last word under four letters (still
///     being typed) get ``titleMatch`` alone.
/// - **hint** `1 + rankingHint × hint/100`: the app's own judgment.
/// - **engagement** `1 + engagement × ln(1 + decayed engagement)`: views
///   (``viewWeight``) and selections (``selectionWeight``), halving every
///   ``engagementHalfLife``, so recent choices lead and old ones fade.
/// - **recency** `1 + recency × ½^(age / recencyHalfLife)`, age from the
///   newest of `lastUsedDate`, `contentModificationDate`,
///   `metadataModificationDate`, `contentCreationDate`, `addedDate`.
/// - **metadata** (made when the item is indexed): up to ``metadataLift``
///   for a title, a description and a thumbnail (Apple's guide asks for
///   complete metadata and says rank reflects it), times a demotion when
///   keyword occurrences pass ``stuffingRatio`` × the words of title,
///   description and other text (stuffing), to at least ``stuffingFloor``.
/// - **engagement ratio** (at most 1): results shown (impressions,
///   `SpotlightStore.recordImpressions(itemIdentifiers:at:)`) and not
///   chosen sink. The ratio chosen ÷ shown, smoothed by
///   ``impressionPrior`` impressions at ``expectedRatio``, below
///   ``expectedRatio`` lowers the score towards ``passedOverFloor``.
///   Impressions decay with engagement, so a demotion fades, and a choice
///   lifts it again.
///
/// System search multiplies each result by its app's engagement ratio
/// factor: the same ratio over all of the app's results, smoothed by
/// ``appImpressionPrior``, floored at ``appPassedOverFloor`` (an app that
/// indexes noise loses a little across all its items). Typo matches come
/// after exact ones, their text × ``typoFactor``.
///
/// ```swift
/// var weights = RankingWeights()
/// weights.rankingHint = 1.0      // a hint of 100 doubles the score
/// ```
public struct RankingWeights: Sendable, Hashable {
    /// BM25 weight of the title and display name.
    public var titleWeight: Double = 10
    /// BM25 weight of keywords and alternate names.
    public var keywordsWeight: Double = 5
    /// BM25 weight of `contentDescription`: 4, so that two words recalled
    /// from an item's summary find it before items holding them in a long
    /// text (two summary words, success@3 0.87 at 2, 0.92 at 4).
    public var descriptionWeight: Double = 4
    /// BM25 weight of every other text attribute.
    public var otherTextWeight: Double = 1
    /// Occurrences of a word counted in the title (more add nothing).
    public var titleCap: Int = 2
    /// Occurrences counted in keywords: one, so stuffing a keyword gains nothing.
    public var keywordsCap: Int = 1
    /// Occurrences counted in the description.
    public var descriptionCap: Int = 1
    /// Occurrences counted in other text.
    public var otherTextCap: Int = 2
    /// Added to a word's BM25 (at most 2.2) when the title holds it.
    public var titleMatch: Double = 1
    /// Also added for a whole word typed, divided by the title's words and ×
    /// the share of the typed words the title holds: the whole title typed
    /// gets all of it.
    public var exactTitle: Double = 1
    /// Items of the IDF's prior collection.
    public var idfPriorDocuments: Double = 1_000
    /// Of them, those holding any word.
    public var idfPriorMatches: Double = 1
    /// Lift of an item with title, description and thumbnail (a third each).
    public var metadataLift: Double = 0.1
    /// Keyword occurrences per word of content past which an item is stuffed.
    public var stuffingRatio: Double = 3
    /// The lowest factor stuffing can give.
    public var stuffingFloor: Double = 0.5
    /// Lift of a `rankingHint` of 100 (0.5: half again).
    public var rankingHint: Double = 0.5
    /// Lift per unit of ln(1 + decayed engagement).
    public var engagement: Double = 0.3
    /// Lift of a brand-new item; halves every ``recencyHalfLife``.
    public var recency: Double = 0.25
    /// Engagement added by one view.
    public var viewWeight: Double = 1
    /// Engagement added by one selection.
    public var selectionWeight: Double = 3
    /// Engagement (and impressions) halve over this many seconds (14 days).
    public var engagementHalfLife: TimeInterval = 14 * 24 * 3600
    /// The recency lift halves over this many seconds (30 days).
    public var recencyHalfLife: TimeInterval = 30 * 24 * 3600
    /// Impressions of an item's smoothing prior (at ``expectedRatio``).
    public var impressionPrior: Double = 10
    /// Choices per impression that cost nothing; fewer sink the item.
    public var expectedRatio: Double = 0.1
    /// The factor of an item shown ever more and never chosen.
    public var passedOverFloor: Double = 0.6
    /// Impressions of an app's smoothing prior.
    public var appImpressionPrior: Double = 50
    /// The factor of an app whose results are shown ever more and never chosen.
    public var appPassedOverFloor: Double = 0.9
    /// What a match found only with typos has its text multiplied by.
    public var typoFactor: Double = 0.25

    public init() {}

    /// The engagement ratio factor of an item: 1 until it is shown more
    /// than its choices explain, then down towards ``passedOverFloor``.
    /// Choices are decayed engagement ÷ ``selectionWeight`` (a selection is
    /// one, a view a third); the ratio choices ÷ impressions is smoothed by
    /// ``impressionPrior`` impressions at ``expectedRatio``.
    ///
    /// ```swift
    /// RankingWeights().passedOverFactor(engagement: 0, impressions: 0)    // 1
    /// RankingWeights().passedOverFactor(engagement: 0, impressions: 40)   // 0.68: shown 40 times, never chosen
    /// RankingWeights().passedOverFactor(engagement: 12, impressions: 40)  // 1: chosen 4 times in 40
    /// ```
    public func passedOverFactor(engagement: Double, impressions: Double) -> Double {
        Self.ratioFactor(chosen: engagement / max(selectionWeight, 1e-9), shown: impressions, prior: impressionPrior,
                         expected: expectedRatio, floor: passedOverFloor)
    }

    /// The same for a whole app: its results' decayed engagement and
    /// impressions summed, smoothed by ``appImpressionPrior``, floored at
    /// ``appPassedOverFloor``.
    public func appPassedOverFactor(engagement: Double, impressions: Double) -> Double {
        Self.ratioFactor(chosen: engagement / max(selectionWeight, 1e-9), shown: impressions, prior: appImpressionPrior,
                         expected: expectedRatio, floor: appPassedOverFloor)
    }

    static func ratioFactor(chosen: Double, shown: Double, prior: Double, expected: Double, floor: Double) -> Double {
        guard shown > 0, expected > 0 else { return 1 }
        let prior = max(prior, 1e-9)
        let ratio = (max(0, chosen) + prior * expected) / (shown + prior)
        let floor = min(max(floor, 0), 1)
        return floor + (1 - floor) * min(1, ratio / expected)
    }
}

extension RankingWeights {
    /// The breakdown of a result from its signals, every factor above:
    /// the one Swift form of the formula, for the ranked index and the
    /// reference FTS5 search alike.
    ///
    /// ```swift
    /// let score = RankingWeights().breakdown(text: 2, hint: 50, engagement: 0, recency: nil, now: 0)
    /// score.total   // 2.5: text 2 × the hint's factor 1.25
    /// ```
    package func breakdown(text: Double, hint: Double, engagement: Double, recency: Double?, now: Double,
                           matchQuality: Double = 0, quality: Double = 1, impressions: Double = 0) -> ScoreBreakdown {
        let hintFactor = 1 + rankingHint * hint / 100
        let engagementFactor = 1 + self.engagement * log(1 + engagement)
        let age = recency.map { max(0, now - $0) }
        let recencyFactor = 1 + (age.map { self.recency * exp2(-$0 / recencyHalfLife) } ?? 0)
        let passedOver = passedOverFactor(engagement: engagement, impressions: impressions)
        var score = ScoreBreakdown(text: text, matchQuality: matchQuality, rankingHint: hint, hintFactor: hintFactor, engagement: engagement,
                                   engagementFactor: engagementFactor, age: age, recencyFactor: recencyFactor, metadataFactor: quality,
                                   impressions: impressions, passedOverFactor: passedOver, total: 0)
        score.total = score.product
        return score
    }
}
