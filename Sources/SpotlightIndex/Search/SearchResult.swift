public import Foundation

/// One result of ``SpotlightStore/searchIdentifiers(_:limit:statistics:)``:
/// an item's unique identifier and its score, without the item.
public struct IdentifiedResult: Sendable, Hashable {
    /// The matching item's `uniqueIdentifier`.
    public var identifier: String
    /// Its score and how it was made.
    public var score: ScoreBreakdown
}

/// One result of ``SpotlightStore/search(_:limit:statistics:fetching:)``.
public struct SearchResult: Sendable, Hashable {
    /// The matching item.
    public var item: SearchableItem
    /// Its score and how it was made.
    public var score: ScoreBreakdown
}
