public import Foundation

/// One result of the public index: an activity that enough people used, or a crawled page.
///
/// ```swift
/// for hit in response.results { print(hit.title, hit.app ?? hit.url?.absoluteString ?? "") }
/// ```
public struct PublicSearchHit: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case activity
        case page
    }

    public var kind: Kind
    /// The distribution key: an activity's app, a page's host.
    public var site: String
    /// The activity's hash (hex), or the page's URL: with ``site``, what `POST /v1/opens` names.
    public var key: String
    public var title: String
    public var description: String?
    /// The activity's `webpageURL`, or the page.
    public var url: URL?
    public var thumbnailURL: URL?
    public var keywords: [String]
    /// The app that opens an activity (bundle identifier).
    public var app: String?
    public var activityType: String?
    /// The activity's required `userInfo` as canonical JSON, for the app that opens it.
    public var publicIdentifier: String?
    /// A page's deep links into apps (`apple-itunes-app`, `al:ios`, `universal-link`…).
    public var deepLinks: [PublicDeepLink]
    /// The apps (`TEAMID.bundle`) a page's site association hands it to.
    public var applicationIdentifiers: [String]
    /// Distinct devices that donated it (0 for a page).
    public var users: Int
    public var score: Double

    public init(kind: Kind, site: String, key: String, title: String, description: String? = nil, url: URL? = nil,
                thumbnailURL: URL? = nil, keywords: [String] = [], app: String? = nil, activityType: String? = nil,
                publicIdentifier: String? = nil, deepLinks: [PublicDeepLink] = [], applicationIdentifiers: [String] = [],
                users: Int = 0, score: Double = 0) {
        self.kind = kind
        self.site = site
        self.key = key
        self.title = title
        self.description = description
        self.url = url
        self.thumbnailURL = thumbnailURL
        self.keywords = keywords
        self.app = app
        self.activityType = activityType
        self.publicIdentifier = publicIdentifier
        self.deepLinks = deepLinks
        self.applicationIdentifiers = applicationIdentifiers
        self.users = users
        self.score = score
    }
}

/// A page's link into an app, as its markup declares it.
public struct PublicDeepLink: Sendable, Hashable, Codable {
    public var source: String
    public var url: String
    public var appStoreID: String?

    public init(source: String, url: String, appStoreID: String? = nil) {
        self.source = source
        self.url = url
        self.appStoreID = appStoreID
    }
}

/// The answer to `GET /v1/search?q=…`.
public struct PublicSearchResponse: Sendable, Hashable, Codable {
    public var query: String
    public var results: [PublicSearchHit]
    /// True when some shards did not answer: the results come from the others.
    public var partial: Bool
    /// The shards that did not answer.
    public var missingShards: [String]

    public init(query: String, results: [PublicSearchHit], partial: Bool = false, missingShards: [String] = []) {
        self.query = query
        self.results = results
        self.partial = partial
        self.missingShards = missingShards
    }
}

/// What `POST /v1/opens` takes: a device opened a public result (its engagement ratio's numerator).
public struct OpenReport: Sendable, Hashable, Codable {
    public var token: DeviceToken
    public var site: String
    public var key: String

    public init(token: DeviceToken, site: String, key: String) {
        self.token = token
        self.site = site
        self.key = key
    }
}

/// The answer to `GET /v1/status`.
public struct PublicIndexStatus: Sendable, Hashable, Codable {
    /// One node of the index.
    public struct Shard: Sendable, Hashable, Codable {
        public var name: String
        /// `host:port` (never a password).
        public var address: String
        public var partitions: [Int]
        public var reachable: Bool
        public init(name: String, address: String, partitions: [Int], reachable: Bool) {
            self.name = name
            self.address = address
            self.partitions = partitions
            self.reachable = reachable
        }
    }

    public var schemaVersion: Int
    /// Distinct devices needed before an activity's content is asked for.
    public var threshold: Int
    public var partitions: Int
    public var shards: [Shard]
    /// Hashes being counted (below the threshold or not).
    public var countedHashes: Int
    /// Hashes at the threshold whose content has not arrived yet.
    public var wantedHashes: Int
    public var activities: Int
    public var pages: Int
    /// False when a shard did not answer (the counts leave it out).
    public var complete: Bool

    public init(schemaVersion: Int, threshold: Int, partitions: Int, shards: [Shard], countedHashes: Int, wantedHashes: Int,
                activities: Int, pages: Int, complete: Bool) {
        self.schemaVersion = schemaVersion
        self.threshold = threshold
        self.partitions = partitions
        self.shards = shards
        self.countedHashes = countedHashes
        self.wantedHashes = wantedHashes
        self.activities = activities
        self.pages = pages
        self.complete = complete
    }
}

/// The JSON every party uses: ISO 8601 dates, sorted keys, unescaped slashes.
public enum PublicIndexJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
