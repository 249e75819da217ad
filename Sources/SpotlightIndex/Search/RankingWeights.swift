public import Foundation

/// How the signals of a result combine into its score.
///
/// score = text × (1 + `rankingHint` × hint/100)
///              × (1 + `engagement` × ln(1 + decayed engagement))
///              × (1 + `recency` × ½^(age / `recencyHalfLife`))
///
/// `text` is BM25 as SQLite FTS5 computes it (except that a prefix scores by
/// its best-matching word in the item) with per-field weights (title and display
/// name weigh most, then keywords and alternate names, then the description,
/// then every other text attribute). Engagement adds `viewWeight` per view
/// and `selectionWeight` per selection, each halving every
/// `engagementHalfLife`. Age is measured from the newest of `lastUsedDate`,
/// `contentModificationDate`, `metadataModificationDate`,
/// `contentCreationDate` and `addedDate`; an item with none gets no
/// recency lift.
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
    /// BM25 weight of `contentDescription`.
    public var descriptionWeight: Double = 2
    /// BM25 weight of every other text attribute.
    public var otherTextWeight: Double = 1
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
    /// Engagement halves over this many seconds (14 days).
    public var engagementHalfLife: TimeInterval = 14 * 24 * 3600
    /// The recency lift halves over this many seconds (30 days).
    public var recencyHalfLife: TimeInterval = 30 * 24 * 3600

    public init() {}
}
