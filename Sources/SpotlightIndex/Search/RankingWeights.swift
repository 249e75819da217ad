public import Foundation

/// How the signals of a result combine into its score.
///
/// score = text × (1 + `rankingHint` × hint/100)
///              × (1 + `engagement` × ln(1 + decayed engagement))
///              × (1 + `recency` × ½^(age / `recencyHalfLife`))
///
/// `text` is SQLite FTS5's BM25 with per-field weights (title and display
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
    public var titleWeight: Double = 10
    public var keywordsWeight: Double = 5
    public var descriptionWeight: Double = 2
    public var otherTextWeight: Double = 1
    public var rankingHint: Double = 0.5
    public var engagement: Double = 0.3
    public var recency: Double = 0.25
    public var viewWeight: Double = 1
    public var selectionWeight: Double = 3
    public var engagementHalfLife: TimeInterval = 14 * 24 * 3600
    public var recencyHalfLife: TimeInterval = 30 * 24 * 3600

    public init() {}
}
