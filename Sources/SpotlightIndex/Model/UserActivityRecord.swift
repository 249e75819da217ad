public import Foundation

/// What the system keeps of an `NSUserActivity` donated to search: enough
/// to show it as a result and to hand it back to the app that continues it.
///
/// ```swift
/// var record = UserActivityRecord(activityType: "com.example.recipes.view")
/// record.title = "Tarte Tatin"
/// record.userInfo = ["recipe": .string("r7")]
/// record.keywords = ["dessert", "apple"]
/// let donated = try activities.donate(record)
/// ```
///
/// Its JSON form (``jsonData()``, ``init(jsonData:)``) is stable: keys are
/// the property names, optional ones absent when nil, sets sorted, URLs as
/// strings, dates as seconds since 1970, `userInfo` values as
/// ``UserInfoValue`` gives them. It is how the system side hands an
/// activity to the app that continues it.
public struct UserActivityRecord: Sendable, Hashable, Codable {
    /// The reverse-DNS type the app continues (`NSUserActivityTypes`).
    public var activityType: String
    /// The title shown in results and searched.
    public var title: String?
    /// The state needed to restore the activity (only the
    /// ``requiredUserInfoKeys`` when those are set; see ``storedUserInfo``).
    public var userInfo: [String: UserInfoValue]
    /// The keys of ``userInfo`` needed to restore the activity; when set,
    /// only these are kept.
    public var requiredUserInfoKeys: Set<String>?
    /// Extra search terms.
    public var keywords: Set<String>
    /// The web page showing the same content (`http` or `https`).
    public var webpageURL: URL?
    /// The page that led to the activity.
    public var referrerURL: URL?
    /// Which window or scene should continue it.
    public var targetContentIdentifier: String?
    /// The app's key for deleting the activity later (several activities may share one).
    public var persistentIdentifier: String?
    /// When the activity stops being offered; nil: the store's default (30 days after its last donation).
    public var expirationDate: Date?
    /// Whether search may index it (only eligible activities are donated).
    public var isEligibleForSearch: Bool
    /// Whether a public index may learn of it once enough users engage with it.
    public var isEligibleForPublicIndexing: Bool
    /// Whether it is offered to the user's other devices.
    public var isEligibleForHandoff: Bool
    /// Whether suggestions may learn from it.
    public var isEligibleForPrediction: Bool

    public init(activityType: String) {
        self.activityType = activityType
        self.userInfo = [:]
        self.keywords = []
        self.isEligibleForSearch = true
        self.isEligibleForPublicIndexing = false
        self.isEligibleForHandoff = true
        self.isEligibleForPrediction = false
    }

    /// ``userInfo`` as stored: only the required keys when
    /// ``requiredUserInfoKeys`` is set and not empty, as Apple keeps only
    /// those when it saves an activity.
    public var storedUserInfo: [String: UserInfoValue] {
        guard let required = requiredUserInfoKeys, !required.isEmpty else { return userInfo }
        return userInfo.filter { required.contains($0.key) }
    }

    /// The key of the activity in the store: the same content donated
    /// again (type, stored user info, web page, persistent identifier, and
    /// the item it is related to) replaces the earlier donation. The title
    /// counts when the activity has neither user info nor a web page.
    public func identifier(relatedUniqueIdentifier: String? = nil) -> String {
        struct Key: Encodable {
            var type: String
            var info: [String: UserInfoValue]
            var url: String?
            var persistent: String?
            var related: String?
            var title: String?
        }
        let info = storedUserInfo
        let url = webpageURL?.absoluteString
        let key = Key(type: activityType, info: info, url: url, persistent: persistentIdentifier,
                      related: relatedUniqueIdentifier, title: info.isEmpty && url == nil ? title : nil)
        let bytes = (try? CanonicalJSON.encode(key)) ?? Data(activityType.utf8)
        return "activity-" + TermHash(of: bytes).hex
    }

    // MARK: - JSON

    private enum CodingKeys: String, CodingKey {
        case activityType, title, userInfo, requiredUserInfoKeys, keywords, webpageURL, referrerURL
        case targetContentIdentifier, persistentIdentifier, expirationDate
        case isEligibleForSearch, isEligibleForPublicIndexing, isEligibleForHandoff, isEligibleForPrediction
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func url(_ key: CodingKeys) throws -> URL? {
            guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(text) is not a URL")
            }
            return url
        }
        activityType = try container.decode(String.self, forKey: .activityType)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        userInfo = try container.decodeIfPresent([String: UserInfoValue].self, forKey: .userInfo) ?? [:]
        requiredUserInfoKeys = try container.decodeIfPresent([String].self, forKey: .requiredUserInfoKeys).map(Set.init)
        keywords = Set(try container.decodeIfPresent([String].self, forKey: .keywords) ?? [])
        webpageURL = try url(.webpageURL)
        referrerURL = try url(.referrerURL)
        targetContentIdentifier = try container.decodeIfPresent(String.self, forKey: .targetContentIdentifier)
        persistentIdentifier = try container.decodeIfPresent(String.self, forKey: .persistentIdentifier)
        expirationDate = try container.decodeIfPresent(Double.self, forKey: .expirationDate).map(Date.init(timeIntervalSince1970:))
        isEligibleForSearch = try container.decodeIfPresent(Bool.self, forKey: .isEligibleForSearch) ?? true
        isEligibleForPublicIndexing = try container.decodeIfPresent(Bool.self, forKey: .isEligibleForPublicIndexing) ?? false
        isEligibleForHandoff = try container.decodeIfPresent(Bool.self, forKey: .isEligibleForHandoff) ?? true
        isEligibleForPrediction = try container.decodeIfPresent(Bool.self, forKey: .isEligibleForPrediction) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(activityType, forKey: .activityType)
        try container.encodeIfPresent(title, forKey: .title)
        if !userInfo.isEmpty { try container.encode(userInfo, forKey: .userInfo) }
        try container.encodeIfPresent(requiredUserInfoKeys?.sorted(), forKey: .requiredUserInfoKeys)
        if !keywords.isEmpty { try container.encode(keywords.sorted(), forKey: .keywords) }
        try container.encodeIfPresent(webpageURL?.absoluteString, forKey: .webpageURL)
        try container.encodeIfPresent(referrerURL?.absoluteString, forKey: .referrerURL)
        try container.encodeIfPresent(targetContentIdentifier, forKey: .targetContentIdentifier)
        try container.encodeIfPresent(persistentIdentifier, forKey: .persistentIdentifier)
        try container.encodeIfPresent(expirationDate?.timeIntervalSince1970, forKey: .expirationDate)
        try container.encode(isEligibleForSearch, forKey: .isEligibleForSearch)
        try container.encode(isEligibleForPublicIndexing, forKey: .isEligibleForPublicIndexing)
        try container.encode(isEligibleForHandoff, forKey: .isEligibleForHandoff)
        try container.encode(isEligibleForPrediction, forKey: .isEligibleForPrediction)
    }

    /// The record as compact JSON with sorted keys.
    public func jsonData() throws -> Data {
        try CanonicalJSON.encode(self)
    }

    /// A record from its JSON form.
    /// - Throws: `DecodingError` saying which key is wrong.
    public init(jsonData: Data) throws {
        self = try JSONDecoder().decode(UserActivityRecord.self, from: jsonData)
    }
}

extension UserActivityRecord {
    /// Apple's `CSSearchableItemActionType`: the activity that opens a Core Spotlight item.
    public static let searchableItemActionType = "com.apple.corespotlightitem"
    /// Apple's `CSSearchableItemActivityIdentifier`: the `userInfo` key of the item's identifier.
    public static let searchableItemIdentifierKey = "kCSSearchableItemActivityIdentifier"
    /// Apple's `CSQueryContinuationActionType`: "Search in App".
    public static let queryContinuationActionType = "com.apple.corespotlightquerycontinuation"
    /// Apple's `CSSearchQueryString`: the `userInfo` key of the text to search in the app.
    public static let searchQueryStringKey = "kCSSearchQueryString"

    /// The activity an app receives when the user opens one of its items from search.
    ///
    /// ```swift
    /// UserActivityRecord.openingItem("r7").userInfo   // ["kCSSearchableItemActivityIdentifier": .string("r7")]
    /// ```
    public static func openingItem(_ identifier: String) -> UserActivityRecord {
        var record = UserActivityRecord(activityType: searchableItemActionType)
        record.userInfo = [searchableItemIdentifierKey: .string(identifier)]
        return record
    }

    /// Apple's `NSUserActivityTypeBrowsingWeb`: a universal link or web result handed to the app.
    public static let browsingWebActivityType = "NSUserActivityTypeBrowsingWeb"
    /// The `userInfo` key holding the deep link a web result's markup gave, as written
    /// (a custom-scheme link cannot be a `webpageURL`).
    public static let deepLinkKey = "OpenSpotlightDeepLink"

    /// The activity an app receives when the user opens a web result that belongs
    /// to it: `NSUserActivityTypeBrowsingWeb` with the page as `webpageURL`.
    ///
    /// ```swift
    /// UserActivityRecord.browsingWeb(URL(string: "https://shop.example.com/pear")!).webpageURL
    /// ```
    public static func browsingWeb(_ url: URL, deepLink: String? = nil) -> UserActivityRecord {
        var record = UserActivityRecord(activityType: browsingWebActivityType)
        record.webpageURL = url
        if let deepLink { record.userInfo = [deepLinkKey: .string(deepLink)] }
        return record
    }

    /// The activity an app receives for "Search in App" with what the user typed.
    public static func continuingQuery(_ text: String) -> UserActivityRecord {
        var record = UserActivityRecord(activityType: queryContinuationActionType)
        record.userInfo = [searchQueryStringKey: .string(text)]
        return record
    }
}
