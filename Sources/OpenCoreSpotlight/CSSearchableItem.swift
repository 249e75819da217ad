public import Foundation
import SpotlightIndex

/// One piece of app content in the index, as Apple's `CSSearchableItem`.
///
/// ```swift
/// let item = CSSearchableItem(uniqueIdentifier: "note-42", domainIdentifier: "notes.work", attributeSet: attributes)
/// item.expirationDate = .distantFuture      // keep it (the default is 30 days)
/// try await CSSearchableIndex(name: "notes").indexSearchableItems([item])
/// ```
open class CSSearchableItem: NSObject, NSCopying, @unchecked Sendable {
    /// The app's key for the item: indexing the same identifier again replaces it.
    open var uniqueIdentifier: String
    /// The item's domain, for deleting groups (`account.mailbox` is inside `account`).
    open var domainIdentifier: String?
    /// The searchable and displayable metadata.
    open var attributeSet: CSSearchableItemAttributeSet
    /// When true, indexing merges the set's attributes into the stored
    /// item (attributes set to nil are removed); an update of an item that
    /// is not stored is dropped.
    open var isUpdate = false
    /// Apple's opt-in to system post-processing (an Apple Intelligence
    /// summary, a priority flag). OpenSpotlight has no such processing:
    /// the option is kept and nothing is reported back.
    open var updateListenerOptions: UpdateListenerOptions = []

    /// Apple's `CSSearchableItem.UpdateListenerOptions`.
    public struct UpdateListenerOptions: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Ask for a `textContentSummary`.
        public static let summarization = UpdateListenerOptions(rawValue: 1 << 1)
        /// Ask for `isPriority`.
        public static let priority = UpdateListenerOptions(rawValue: 1 << 2)
    }

    private var explicitExpiration: Date?
    private let created = Date()
    /// The item's relevance for ranked queries (`CSUserQuery`); nil otherwise.
    var rank: Double?
    /// The index a query found the item in, for engagement feedback.
    var sourceIndexName: String?

    /// When the index drops the item: by default a month (30 days) after
    /// it is indexed; setting nil restores the default.
    open var expirationDate: Date! {
        get { explicitExpiration ?? created.addingTimeInterval(30 * 24 * 3600) }
        set { explicitExpiration = newValue }
    }

    /// An item; a nil identifier gets a new UUID.
    public init(uniqueIdentifier: String?, domainIdentifier: String?, attributeSet: CSSearchableItemAttributeSet) {
        self.uniqueIdentifier = uniqueIdentifier ?? UUID().uuidString
        self.domainIdentifier = domainIdentifier
        self.attributeSet = attributeSet
    }

    /// An empty item with a new identifier.
    public override convenience init() {
        self.init(uniqueIdentifier: nil, domainIdentifier: nil, attributeSet: CSSearchableItemAttributeSet())
    }

    /// Orders two results of a ranked query: the more relevant first
    /// (`.orderedAscending` when this one ranks higher).
    ///
    /// ```swift
    /// let sorted = items.sorted { $0.compare(byRank: $1) == .orderedAscending }
    /// ```
    open func compare(byRank other: CSSearchableItem) -> ComparisonResult {
        let mine = rank ?? -.infinity
        let theirs = other.rank ?? -.infinity
        if mine == theirs { return .orderedSame }
        return mine > theirs ? .orderedAscending : .orderedDescending
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = CSSearchableItem(uniqueIdentifier: uniqueIdentifier, domainIdentifier: domainIdentifier,
                                    attributeSet: attributeSet.copy() as! CSSearchableItemAttributeSet)
        copy.isUpdate = isUpdate
        copy.updateListenerOptions = updateListenerOptions
        copy.explicitExpiration = explicitExpiration
        copy.rank = rank
        copy.sourceIndexName = sourceIndexName
        return copy
    }

    open override var description: String {
        "CSSearchableItem(\(uniqueIdentifier), domain: \(domainIdentifier ?? "nil"), \(attributeSet))"
    }

    /// The item as the engine stores it.
    var engineItem: SearchableItem {
        let storage = attributeSet.storage
        var attributes = storage.engineAttributes
        let contentType = storage.string("contentType")
        attributes["contentType"] = nil
        attributes["contentTypeTree"] = nil
        return SearchableItem(
            uniqueIdentifier: uniqueIdentifier, domainIdentifier: domainIdentifier ?? storage.string("domainIdentifier"),
            contentType: contentType, expirationDate: explicitExpiration, attributes: attributes,
            isUpdate: isUpdate, removedAttributes: isUpdate ? storage.removedNames : [])
    }

    /// An item read back from the engine, with only `fetch` attributes (all when nil).
    convenience init(_ item: SearchableItem, expiresAt: Date?, fetching fetch: Set<String>?) {
        var attributes = item.attributes
        if let type = item.contentType {
            attributes["contentType"] = .string(type)
            attributes["contentTypeTree"] = .strings(item.contentTypeTree)
        }
        if let fetch {
            attributes = attributes.filter { StoredRow.isFetched($0.key, fetch) }
        }
        self.init(uniqueIdentifier: item.uniqueIdentifier, domainIdentifier: item.domainIdentifier,
                  attributeSet: CSSearchableItemAttributeSet(storage: AttributeStorage(engine: attributes)))
        explicitExpiration = expiresAt
    }
}
