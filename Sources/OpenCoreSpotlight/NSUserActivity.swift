public import Foundation
import Logging
import SpotlightIndex

/// An app-chosen key for deleting donated activities later.
public typealias NSUserActivityPersistentIdentifier = String

/// What the user is doing in the app, as Apple's `NSUserActivity` — the
/// search side: an activity eligible for search is indexed when it becomes
/// current, and each time it does counts as a view that lifts its rank.
///
/// ```swift
/// let activity = NSUserActivity(activityType: "com.example.recipes.view")
/// activity.title = "Tarte Tatin"
/// activity.userInfo = ["recipe": "r7"]
/// activity.keywords = ["dessert", "apple"]
/// activity.isEligibleForSearch = true
/// let attributes = CSSearchableItemAttributeSet(contentType: .content)
/// attributes.relatedUniqueIdentifier = "r7"   // the Core Spotlight item it is: one result, not two
/// activity.contentAttributeSet = attributes
/// activity.becomeCurrent()
/// ```
///
/// Foundation on Linux has no `NSUserActivity`, so this module provides it.
/// On Linux the donation is written when ``becomeCurrent()`` returns (on
/// Apple's platforms it happens later, in another process); a donation the
/// store refuses is logged, as Apple logs it, and the app carries on.
/// Handoff and continuation streams are not part of OpenSpotlight: their
/// properties are kept but do nothing.
open class NSUserActivity: NSObject {
    /// The reverse-DNS type the app continues (listed in `NSUserActivityTypes`).
    public let activityType: String
    /// The title shown in search results, and searched.
    open var title: String?
    /// The state the app needs to restore the activity: property-list
    /// values, URLs and UUIDs, with string keys.
    open var userInfo: [AnyHashable: Any]?
    /// The keys of ``userInfo`` needed to restore the activity; when set,
    /// only these are saved with a donation.
    open var requiredUserInfoKeys: Set<String>?
    /// Extra search terms.
    open var keywords: Set<String> = []
    /// Index the activity for search when it becomes current. Default false.
    open var isEligibleForSearch = false
    /// Let a public index learn of it once enough users engage. Default false.
    /// Only when the device opted in (`spotlight public device --enable URL`)
    /// and the activity is also eligible for search and has a title and a
    /// `webpageURL` or `requiredUserInfoKeys`: then ``becomeCurrent()``
    /// queues a hash of its public form for the public index.
    open var isEligibleForPublicIndexing = false
    /// Offer it to the user's other devices. Default true (kept, not used on Linux).
    open var isEligibleForHandoff = true
    /// Let suggestions learn from it. Default false.
    open var isEligibleForPrediction = false
    /// A key for deleting it later with ``deleteSavedUserActivities(withPersistentIdentifiers:completionHandler:)``.
    open var persistentIdentifier: NSUserActivityPersistentIdentifier?
    /// After this date the activity is no longer offered.
    open var expirationDate: Date?
    /// The web page showing the same content. Only `http` and `https`
    /// URLs are accepted; Apple raises an exception for others, this
    /// module logs an error and keeps the previous value.
    open var webpageURL: URL? {
        get { storedWebpageURL }
        set {
            if let url = newValue, !["http", "https"].contains(url.scheme?.lowercased() ?? "") {
                Self.logger.error("NSUserActivity.webpageURL must be http or https, not \(url.absoluteString); the value was not set")
                return
            }
            storedWebpageURL = newValue
        }
    }
    /// The web page that led to the activity.
    open var referrerURL: URL?
    /// Which window or scene should continue it.
    open var targetContentIdentifier: String?
    /// Rich search metadata: description, thumbnail, `relatedUniqueIdentifier`, `domainIdentifier`…
    open var contentAttributeSet: CSSearchableItemAttributeSet?
    /// Set to have ``NSUserActivityDelegate/userActivityWillSave(_:)`` called
    /// before the activity is next saved (at ``becomeCurrent()``).
    open var needsSave = false
    /// Handoff streams (kept, not used on Linux).
    open var supportsContinuationStreams = false
    /// Told before the activity is saved.
    open weak var delegate: (any NSUserActivityDelegate)?

    private var storedWebpageURL: URL?
    /// The place MapKit's `mapItem` set (an `MKMapItem`), kept here because
    /// an extension in another module cannot store it.
    package var mapItemStorage: AnyObject?
    private var isInvalidated = false
    /// The outcome of the last donation, for tests and diagnostics.
    private(set) var lastDonation: Result<StoredActivity, any Error>?

    static let logger = Logger(label: "openspotlight.useractivity")

    /// An activity of a type the app continues.
    public init(activityType: String) {
        self.activityType = activityType
        super.init()
    }

    /// An activity of the first type in the app's `NSUserActivityTypes`.
    @available(*, deprecated, message: "use init(activityType:)")
    public override convenience init() {
        let types = Bundle.main.object(forInfoDictionaryKey: "NSUserActivityTypes") as? [String]
        self.init(activityType: types?.first ?? "")
    }

    /// Merges entries into ``userInfo``.
    open func addUserInfoEntries(from otherDictionary: [AnyHashable: Any]) {
        userInfo = (userInfo ?? [:]).merging(otherDictionary) { _, new in new }
    }

    /// Makes this the user's current activity: if it is eligible for search
    /// and not expired, it is indexed (or refreshed) and a view is counted
    /// for it and for the item its `relatedUniqueIdentifier` names. One
    /// eligible for prediction only is kept for suggestions and not shown by
    /// search. No effect after ``invalidate()``.
    open func becomeCurrent() {
        guard !isInvalidated else { return }
        if needsSave {
            needsSave = false
            delegate?.userActivityWillSave(self)
        }
        // Eligible for prediction only: kept for suggestions (the places the
        // user looked at), never shown by search.
        guard isEligibleForSearch || isEligibleForPrediction else { return }
        if let expirationDate, expirationDate <= Date() { return }
        do {
            let record = try self.record()
            let attributes = contentAttributeSet?.storage.engineAttributes ?? [:]
            let store = try AppActivities.store()
            lastDonation = .success(try store.donate(record, contentAttributes: attributes))
            queuePublicDonation(record, in: store)
        } catch {
            lastDonation = .failure(error)
            Self.logger.error("NSUserActivity \(activityType) was not indexed: \(error)")
        }
    }

    /// No longer the current activity; it stays indexed. (Nothing else
    /// depends on the current activity on Linux: there is no Handoff.)
    open func resignCurrent() {}

    /// Ends the activity: it can no longer become current (it stays indexed).
    open func invalidate() {
        resignCurrent()
        isInvalidated = true
    }

    /// The activity as the engine keeps it.
    func record() throws -> UserActivityRecord {
        var record = UserActivityRecord(activityType: activityType)
        record.title = title
        record.userInfo = try UserInfoConversion.values(userInfo ?? [:])
        record.requiredUserInfoKeys = requiredUserInfoKeys
        record.keywords = keywords
        record.webpageURL = webpageURL
        record.referrerURL = referrerURL
        record.targetContentIdentifier = targetContentIdentifier
        record.persistentIdentifier = persistentIdentifier
        record.expirationDate = expirationDate
        record.isEligibleForSearch = isEligibleForSearch
        record.isEligibleForPublicIndexing = isEligibleForPublicIndexing
        record.isEligibleForHandoff = isEligibleForHandoff
        record.isEligibleForPrediction = isEligibleForPrediction
        return record
    }

    /// The activity an app continues, rebuilt from what the store kept.
    convenience init(record: UserActivityRecord) {
        self.init(activityType: record.activityType)
        title = record.title
        userInfo = UserInfoConversion.foundation(record.storedUserInfo)
        requiredUserInfoKeys = record.requiredUserInfoKeys
        keywords = record.keywords
        storedWebpageURL = record.webpageURL
        referrerURL = record.referrerURL
        targetContentIdentifier = record.targetContentIdentifier
        persistentIdentifier = record.persistentIdentifier
        expirationDate = record.expirationDate
        isEligibleForSearch = record.isEligibleForSearch
        isEligibleForPublicIndexing = record.isEligibleForPublicIndexing
        isEligibleForHandoff = record.isEligibleForHandoff
        isEligibleForPrediction = record.isEligibleForPrediction
    }

    open override var description: String {
        "NSUserActivity(\(activityType), title: \(title ?? "nil"))"
    }

    // MARK: - Deleting donations

    /// Deletes the app's donated activities that have any of these persistent identifiers.
    ///
    /// ```swift
    /// NSUserActivity.deleteSavedUserActivities(withPersistentIdentifiers: ["recipe-r7"]) { print("gone") }
    /// ```
    open class func deleteSavedUserActivities(withPersistentIdentifiers persistentIdentifiers: [NSUserActivityPersistentIdentifier],
                                              completionHandler handler: @escaping @Sendable () -> Void) {
        let bundle = OpenSpotlightConfiguration.bundleIdentifier
        let location = OpenSpotlightConfiguration.location
        AppActivities.queue.async {
            do {
                try AppActivities.existingStore(bundleIdentifier: bundle, location: location)?
                    .deleteActivities(withPersistentIdentifiers: persistentIdentifiers)
            } catch {
                logger.error("deleting saved user activities failed: \(error)")
            }
            handler()
        }
    }

    open class func deleteSavedUserActivities(withPersistentIdentifiers persistentIdentifiers: [NSUserActivityPersistentIdentifier]) async {
        await withCheckedContinuation { continuation in
            deleteSavedUserActivities(withPersistentIdentifiers: persistentIdentifiers) { continuation.resume() }
        }
    }

    /// Deletes every activity the app donated.
    open class func deleteAllSavedUserActivities(completionHandler handler: @escaping @Sendable () -> Void) {
        let bundle = OpenSpotlightConfiguration.bundleIdentifier
        let location = OpenSpotlightConfiguration.location
        AppActivities.queue.async {
            do {
                try AppActivities.existingStore(bundleIdentifier: bundle, location: location)?.deleteAllActivities()
            } catch {
                logger.error("deleting all saved user activities failed: \(error)")
            }
            handler()
        }
    }

    open class func deleteAllSavedUserActivities() async {
        await withCheckedContinuation { continuation in
            deleteAllSavedUserActivities { continuation.resume() }
        }
    }
}
