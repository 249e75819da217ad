public import Foundation

/// A donated activity as the store keeps it: the record the app continues,
/// the content attributes it is searched and shown by, and its lifetime.
///
/// ```swift
/// for activity in try activities.allActivities() {
///     print(activity.identifier, activity.record.activityType, activity.relatedUniqueIdentifier ?? "-")
/// }
/// ```
public struct StoredActivity: Sendable, Hashable {
    /// The activity's key in the store (see ``UserActivityRecord/identifier(relatedUniqueIdentifier:)``).
    public var identifier: String
    /// What the app gets back when the activity is continued.
    public var record: UserActivityRecord
    /// The domain from the activity's `contentAttributeSet`, which domain deletes also reach.
    public var domainIdentifier: String?
    /// The content type from the activity's `contentAttributeSet`.
    public var contentType: String?
    /// The attributes it is searched and shown by: its `contentAttributeSet`,
    /// with the activity's title and keywords folded in.
    public var attributes: [String: AttributeValue]
    /// When it was last donated.
    public var indexedAt: Date
    /// When it stops being offered.
    public var expiresAt: Date

    /// The Core Spotlight item this activity is (Apple's `relatedUniqueIdentifier`):
    /// never a result of its own, its views count for the item, and deleting
    /// the item deletes it.
    public var relatedUniqueIdentifier: String? { attributes["relatedUniqueIdentifier"]?.texts?.first }

    /// The item this activity shows as while that item exists, without
    /// sharing its lifetime (Apple's `weakRelatedUniqueIdentifier`).
    public var weakRelatedUniqueIdentifier: String? { attributes["weakRelatedUniqueIdentifier"]?.texts?.first }

    /// True when search may show it (`isEligibleForSearch`); an activity
    /// eligible for prediction only is kept for suggestions.
    public var isSearchable: Bool { record.isEligibleForSearch }

    /// Whether the activity whose stored attributes these are may be shown
    /// by search (false for one eligible for prediction only, or not an activity).
    public static func isSearchable(attributes: [String: AttributeValue]) -> Bool {
        guard case .data(let json)? = attributes[AttributeVocabulary.activityRecord],
              let record = try? UserActivityRecord(jsonData: json) else { return false }
        return record.isEligibleForSearch
    }

    /// Nil for a stored item that is not a well-formed activity.
    init?(_ stored: StoredItem) {
        var attributes = stored.item.attributes
        guard case .data(let json)? = attributes.removeValue(forKey: AttributeVocabulary.activityRecord),
              let record = try? UserActivityRecord(jsonData: json) else { return nil }
        self.identifier = stored.item.uniqueIdentifier
        self.record = record
        self.domainIdentifier = stored.item.domainIdentifier
        self.contentType = stored.item.contentType
        self.attributes = attributes
        self.indexedAt = stored.indexedAt
        self.expiresAt = stored.expiresAt
    }
}
