public import Foundation

/// One piece of an app's content in a store: Apple's `CSSearchableItem`,
/// with its attribute set flattened into typed ``attributes``.
///
/// ```swift
/// var item = SearchableItem(uniqueIdentifier: "contact-42", domainIdentifier: "acct1.work",
///                           contentType: "public.contact")
/// item.attributes["displayName"] = .string("Zoë Martin")
/// item.attributes["phoneNumbers"] = .strings(["+33 1 23 45 67 89"])
/// try store.index([item])
/// ```
///
/// Indexing an item whose ``uniqueIdentifier`` is already stored replaces
/// that item. An item with ``isUpdate`` set merges its attributes into the
/// stored one instead (and is dropped if there is none), as Apple's
/// `isUpdate` does.
public struct SearchableItem: Sendable, Hashable {
    /// The app-unique key of the item (1 to ``StoreLimits/maxIdentifierBytes`` UTF-8 bytes).
    public var uniqueIdentifier: String
    /// A dotted domain (`account.mailbox`) for deleting groups of items.
    public var domainIdentifier: String?
    /// The item's uniform type identifier, such as `public.contact`.
    public var contentType: String?
    /// When the item expires. `nil` means the default: 30 days after indexing.
    public var expirationDate: Date?
    /// The attributes by name: Apple's `CSSearchableItemAttributeSet`
    /// property names (`title`, `keywords`, …) or custom keys.
    public var attributes: [String: AttributeValue]
    /// When true, indexing merges ``attributes`` into the stored item.
    public var isUpdate: Bool
    /// For an update: attribute names to remove from the stored item.
    public var removedAttributes: Set<String>

    public init(
        uniqueIdentifier: String,
        domainIdentifier: String? = nil,
        contentType: String? = nil,
        expirationDate: Date? = nil,
        attributes: [String: AttributeValue] = [:],
        isUpdate: Bool = false,
        removedAttributes: Set<String> = []
    ) {
        self.uniqueIdentifier = uniqueIdentifier
        self.domainIdentifier = domainIdentifier
        self.contentType = contentType
        self.expirationDate = expirationDate
        self.attributes = attributes
        self.isUpdate = isUpdate
        self.removedAttributes = removedAttributes
    }

    /// The item's content type and every type it conforms to, most specific first.
    public var contentTypeTree: [String] {
        guard let contentType else { return [] }
        return ContentType(contentType).conformanceTree
    }

    /// The title as shown in results: `title`, else `displayName`.
    public var displayTitle: String? {
        attributes["title"]?.texts?.first ?? attributes["displayName"]?.texts?.first
    }
}

/// A stored item with what the store knows about it beyond what the app gave.
public struct StoredItem: Sendable, Hashable {
    /// The item as indexed (``SearchableItem/isUpdate`` is false).
    public var item: SearchableItem
    /// When the item was last written.
    public var indexedAt: Date
    /// When the item expires: its expiration date, or 30 days after ``indexedAt``.
    public var expiresAt: Date
}
