public import Foundation

/// A user's engagement with an item, which lifts its rank.
///
/// ```swift
/// try store.recordEngagement(.view, itemIdentifier: "recipe-7")       // NSUserActivity became current
/// try store.recordEngagement(.selection, itemIdentifier: "recipe-7")  // result tapped
/// ```
public enum EngagementKind: String, Sendable, Hashable, CaseIterable {
    /// The user viewed the item in the app (an activity made current).
    case view
    /// The user selected the item in search results.
    case selection
}

/// Engagement counts of one item.
public struct EngagementSummary: Sendable, Hashable {
    /// Views recorded (activities made current).
    public var views: Int
    /// Selections recorded (results chosen).
    public var selections: Int
    /// When the last engagement happened.
    public var lastEngagedAt: Date?
    /// The decayed, weighted engagement score at the time it was read.
    public var score: Double
    /// Times it was shown in results (``SpotlightStore/recordImpressions(itemIdentifiers:at:)``).
    public var impressions: Int = 0

    public init(views: Int, selections: Int, lastEngagedAt: Date?, score: Double, impressions: Int = 0) {
        self.views = views
        self.selections = selections
        self.lastEngagedAt = lastEngagedAt
        self.score = score
        self.impressions = impressions
    }
}
