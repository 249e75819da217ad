public import Foundation

/// An app's activities donated to search — Apple's `NSUserActivity` made
/// current with `isEligibleForSearch` — in a store of their own beside the
/// app's indexes (`<root>/<bundle id>/.activities.sqlite`, a name no index
/// can take).
///
/// ```swift
/// let activities = try UserActivityStore(bundleIdentifier: "com.example.recipes")
/// var record = UserActivityRecord(activityType: "com.example.recipes.view")
/// record.title = "Tarte Tatin"
/// record.userInfo = ["recipe": .string("r7")]
/// try activities.donate(record, contentAttributes: ["relatedUniqueIdentifier": .string("r7")])
/// ```
///
/// Apple's rules, as its guide states them:
/// - Donating the same content again (see
///   ``UserActivityRecord/identifier(relatedUniqueIdentifier:)``) replaces the
///   earlier donation and counts one more view.
/// - An activity whose `relatedUniqueIdentifier` names a Core Spotlight item
///   is that item: each donation counts a view for the item (in whichever of
///   the app's indexes holds it), and deleting the item deletes the activity
///   (``removingActivitiesLinked(to:during:)``).
/// - A `domainIdentifier` in its content attributes lets domain deletes reach it.
public final class UserActivityStore: Sendable {
    /// The reserved index name of the activity store.
    public static let indexName = ".activities"

    /// The app.
    public let bundleIdentifier: String
    /// The underlying store: activities are items in it, searchable like any.
    public let store: SpotlightStore
    private let location: StoreLocation
    private let options: StoreOptions
    private let itemStores = StoreCache()

    /// Opens (creating if needed) the app's activity store.
    /// - Throws: ``SpotlightIndexError`` as ``SpotlightStore/init(bundleIdentifier:indexName:location:options:)``.
    public init(bundleIdentifier: String, location: StoreLocation = .automatic, options: StoreOptions = StoreOptions()) throws {
        self.bundleIdentifier = bundleIdentifier
        self.location = location
        self.options = options
        self.store = try SpotlightStore(bundleIdentifier: bundleIdentifier, checkedIndexName: Self.indexName,
                                        location: location, options: options)
    }

    /// True when the app has an activity store file (opening one creates it).
    public static func exists(bundleIdentifier: String, location: StoreLocation = .automatic) -> Bool {
        guard (try? StoreName.validateBundleIdentifier(bundleIdentifier)) != nil,
              let file = location.filePath(of: bundleIdentifier, index: indexName) else { return false }
        return StorePath.kind(file) != .missing // a link counts: opening it says why it is refused
    }

    // MARK: - Donating

    /// Stores an activity the user is viewing, or refreshes it, and counts a
    /// view for it and for the item it is related to.
    ///
    /// - Parameters:
    ///   - record: the activity, as the app set it.
    ///   - contentAttributes: the activity's `contentAttributeSet`, as
    ///     engine attributes (`domainIdentifier`, `contentType` and
    ///     `relatedUniqueIdentifier` included).
    ///   - date: when the view happened; the store's clock by default.
    /// - Returns: the activity as stored.
    ///
    /// An activity eligible for prediction only (`isEligibleForPrediction`
    /// without `isEligibleForSearch`) is kept too, for suggestions such as
    /// the places the user looked at; system search does not show it
    /// (``StoredActivity/isSearchable``).
    /// - Throws: ``SpotlightIndexError`` `.invalidArgument` for an activity
    ///   eligible neither for search nor for prediction, or already expired,
    ///   `.invalidItem`/`.limitExceeded` for one the store refuses (an
    ///   empty type, a non-web `webpageURL`, an attribute over a limit);
    ///   nothing is stored then.
    @discardableResult
    public func donate(_ record: UserActivityRecord, contentAttributes: [String: AttributeValue] = [:], at date: Date? = nil) throws -> StoredActivity {
        let now = options.clock()
        guard record.isEligibleForSearch || record.isEligibleForPrediction else {
            throw SpotlightIndexError(.invalidArgument, "activity \(StoreName.quoted(record.activityType)) is eligible neither for search nor for prediction; set isEligibleForSearch to index it")
        }
        if record.activityType.isEmpty || record.activityType.utf8.count > 255 {
            throw SpotlightIndexError(.invalidItem, "an activity type must be 1 to 255 bytes, reverse DNS such as com.example.app.view")
        }
        if let expiration = record.expirationDate, expiration <= now {
            throw SpotlightIndexError(.invalidArgument, "activity \(StoreName.quoted(record.activityType)) expired at \(expiration); it is no longer offered")
        }
        if let url = record.webpageURL, !["http", "https"].contains(url.scheme?.lowercased() ?? "") {
            throw SpotlightIndexError(.invalidItem, "webpageURL \(StoreName.quoted(url.absoluteString)) is not an http or https URL")
        }
        var attributes = contentAttributes
        let domain = attributes.removeValue(forKey: "domainIdentifier")?.texts?.first
        let contentType = attributes.removeValue(forKey: "contentType")?.texts?.first
        attributes["contentTypeTree"] = nil
        if attributes["title"] == nil, let title = record.title { attributes["title"] = .string(title) }
        let keywords = Set(attributes["keywords"]?.texts ?? []).union(record.keywords)
        if !keywords.isEmpty { attributes["keywords"] = .strings(keywords.sorted()) }
        attributes[AttributeVocabulary.activityRecord] = .data(try record.jsonData())
        let related = attributes["relatedUniqueIdentifier"]?.texts?.first
        let identifier = record.identifier(relatedUniqueIdentifier: related)
        let item = SearchableItem(uniqueIdentifier: identifier, domainIdentifier: domain, contentType: contentType,
                                  expirationDate: record.expirationDate, attributes: attributes)
        if let refusal = try store.index([item]).refused.first {
            throw SpotlightIndexError(refusal.error.code, refusal.error.message.replacingOccurrences(of: "item \(StoreName.quoted(identifier))", with: "activity \(StoreName.quoted(record.activityType))"))
        }
        try store.recordEngagement(.view, itemIdentifier: identifier, at: date)
        if let target = related ?? attributes["weakRelatedUniqueIdentifier"]?.texts?.first {
            try recordView(ofItem: target, at: date)
        }
        guard let stored = try store.item(withIdentifier: identifier).flatMap(StoredActivity.init) else {
            throw SpotlightIndexError(.storeUnavailable, "activity \(StoreName.quoted(record.activityType)) was written but cannot be read back")
        }
        return stored
    }

    /// The attribute an activity's record is stored in (read by ``record(of:)``):
    /// what a reader that fetches only some attributes must ask for.
    package static let recordAttributeName = AttributeVocabulary.activityRecord

    /// The record of an activity as search returns it (nil for an item
    /// that is not a donated activity).
    ///
    /// ```swift
    /// let url = UserActivityStore.record(of: result.item)?.webpageURL
    /// ```
    public static func record(of item: SearchableItem) -> UserActivityRecord? {
        guard case .data(let json)? = item.attributes[AttributeVocabulary.activityRecord] else { return nil }
        return try? UserActivityRecord(jsonData: json)
    }

    /// Counts a view for the app's item with this identifier, in the first
    /// index (`default` first) that holds it. Returns that index's name.
    @discardableResult
    func recordView(ofItem identifier: String, at date: Date?) throws -> String? {
        let names = SpotlightStore.indexNames(bundleIdentifier: bundleIdentifier, location: location)
        for name in names.sorted(by: { ($0 == "default" ? 0 : 1, $0) < ($1 == "default" ? 0 : 1, $1) }) {
            let store = try itemStore(named: name)
            if try store.containsItem(withIdentifier: identifier) {
                try store.recordEngagement(.view, itemIdentifier: identifier, at: date)
                return name
            }
        }
        return nil
    }

    private func itemStore(named name: String) throws -> SpotlightStore {
        try itemStores.store(bundleIdentifier: bundleIdentifier, indexName: name, location: location) {
            try SpotlightStore(bundleIdentifier: bundleIdentifier, indexName: name, location: location, options: options)
        }
    }

    // MARK: - Reading

    /// The live activity with this identifier.
    public func activity(withIdentifier identifier: String) throws -> StoredActivity? {
        try store.item(withIdentifier: identifier).flatMap(StoredActivity.init)
    }

    /// Every live activity, in the order first donated.
    public func allActivities() throws -> [StoredActivity] {
        try store.allItems().compactMap(StoredActivity.init)
    }

    /// How many live activities the app has.
    public func activityCount() throws -> Int { try store.itemCount() }

    // MARK: - Deleting

    /// Deletes the activities donated with any of these persistent
    /// identifiers (Apple's `deleteSavedUserActivities(withPersistentIdentifiers:)`).
    /// - Returns: how many were deleted.
    @discardableResult
    public func deleteActivities(withPersistentIdentifiers identifiers: [String]) throws -> Int {
        let wanted = Set(identifiers)
        guard !wanted.isEmpty else { return 0 }
        let doomed = try allActivities().filter { $0.record.persistentIdentifier.map(wanted.contains) ?? false }.map(\.identifier)
        try store.deleteItems(withIdentifiers: doomed)
        return doomed.count
    }

    /// Deletes activities by their store identifiers.
    public func deleteActivities(withIdentifiers identifiers: [String]) throws {
        try store.deleteItems(withIdentifiers: identifiers)
    }

    /// Deletes the activities whose content attributes put them in these
    /// domains or their sub-domains.
    public func deleteActivities(inDomains domains: [String]) throws {
        try store.deleteItems(inDomains: domains)
    }

    /// Deletes every activity of the app (Apple's `deleteAllSavedUserActivities`).
    public func deleteAllActivities() throws {
        try store.deleteAllItems()
    }

    /// Runs `write` on one of the app's item stores, then deletes the
    /// activities related (by `relatedUniqueIdentifier`) to items that it
    /// removed from that store: deleting an item deletes its activity, as
    /// on Apple's platforms. Wrap deletes and batch ends with it.
    ///
    /// ```swift
    /// try activities.removingActivitiesLinked(to: notes) { try notes.deleteItems(inDomains: ["archive"]) }
    /// ```
    ///
    /// The two stores are separate files: if the process dies between the
    /// two writes, the orphaned activities stay until they expire, never
    /// shown on their own since they name an item.
    public func removingActivitiesLinked<T>(to itemStore: SpotlightStore, during write: () throws -> T) throws -> T {
        let links = try allActivities().compactMap { activity in activity.relatedUniqueIdentifier.map { (activity.identifier, $0) } }
        if links.isEmpty { return try write() }
        let present = try links.filter { try itemStore.containsItem(withIdentifier: $0.1) }
        let result = try write()
        let gone = try present.filter { try !itemStore.containsItem(withIdentifier: $0.1) }.map(\.0)
        if !gone.isEmpty { try store.deleteItems(withIdentifiers: gone) }
        return result
    }
}
