public import Foundation

/// One result of ``SpotlightStore/search(_:limit:statistics:fetching:)``.
public struct SearchResult: Sendable, Hashable {
    /// The matching item.
    public var item: SearchableItem
    /// Its score and how it was made.
    public var score: ScoreBreakdown
}
