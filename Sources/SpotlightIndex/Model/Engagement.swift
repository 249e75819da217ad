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
}
