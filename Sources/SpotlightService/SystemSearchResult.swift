public import Foundation
public import SpotlightIndex
public import SpotlightSystem

/// Where a result is stored: `<bundle id>/<index name>/<item identifier>`,
/// the form `spotlight open` takes. Activities are in the index
/// ``UserActivityStore/indexName``.
public struct ResultReference: Sendable, Hashable, CustomStringConvertible, Encodable {
    public var bundleIdentifier: String
    public var indexName: String
    public var itemIdentifier: String

    public init(bundleIdentifier: String, indexName: String, itemIdentifier: String) {
        self.bundleIdentifier = bundleIdentifier
        self.indexName = indexName
        self.itemIdentifier = itemIdentifier
    }

    /// Parses `<bundle id>/<index name>/<item identifier>` (the identifier may contain `/`).
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            throw SystemSearchError(.resultNotFound, "\(text.debugDescription) is not a result reference; use <bundle id>/<index>/<item id> as `spotlight search` prints it")
        }
        self.init(bundleIdentifier: String(parts[0]), indexName: String(parts[1]), itemIdentifier: String(parts[2]))
    }

    public var description: String { "\(bundleIdentifier)/\(indexName)/\(itemIdentifier)" }

    /// True for a donated activity rather than a Core Spotlight item.
    public var isActivity: Bool { indexName == UserActivityStore.indexName }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// One row of system search: what the row shows and how to open it.
public struct SystemSearchResult: Sendable, Hashable, Encodable {
    /// Where it is stored; pass it to ``AppLauncher/open(_:)``.
    public var reference: ResultReference
    /// The title shown (`title`, else `displayName`, else the identifier).
    public var title: String
    /// `contentDescription`.
    public var description: String?
    /// `thumbnailURL`.
    public var thumbnailURL: URL?
    /// Whether the item carries `thumbnailData`.
    public var hasThumbnailData: Bool
    /// The item's content type.
    public var contentType: String?
    /// Call, email, navigate, open URL, as the attributes allow.
    public var actions: [ResultAction]
    /// The relevance score (higher first), comparable across apps: every
    /// store's text is scored with statistics over all the stores searched
    /// (``SearchStatistics``), times the app's factor.
    public var score: Double
    /// How the score was made.
    ///
    /// Written when first read: a system search makes more results than it
    /// returns (every store's best, before apps and stores are merged), and
    /// writing a dozen numbers for each was a tenth of a keystroke's CPU.
    public var explanation: String {
        get { explained.text }
        set { explained = .text(newValue) }
    }
    private var explained: Explanation
    /// True for a match found only with typos: it comes after every exact one.
    public var typos: Bool
    /// The item's `contentURL`, or the activity's `webpageURL`: when a
    /// crawled page has it as its canonical URL, this result stands for the
    /// page too, and the page is not listed among web results.
    public var url: URL?
    /// Where the result is (its `latitude` and `longitude`), if it says.
    public var coordinate: GeoPoint?
    /// With a search near a place: how far the result is from it, in meters.
    public var distance: Double?
    /// `rating`, 0 to 5 stars, when the item has one.
    public var rating: Double?
    /// `ratingDescription` ("4.5 stars from 120 reviews").
    public var ratingDescription: String?
    /// The item's `price` (a custom attribute as apps set it; Core Spotlight has no price of its own).
    public var price: Double?
    /// `fullyFormattedAddress`, else the address parts joined (street, city, country…).
    public var address: String?

    init(_ result: SearchResult, bundleIdentifier: String, indexName: String) {
        self.init(result.item, score: result.score.total, explained: .breakdown(result.score, then: ""),
                  bundleIdentifier: bundleIdentifier, indexName: indexName, typos: result.score.typos)
    }

    init(_ item: SearchableItem, score: Double, explanation: String, bundleIdentifier: String, indexName: String, typos: Bool = false) {
        self.init(item, score: score, explained: .text(explanation), bundleIdentifier: bundleIdentifier, indexName: indexName, typos: typos)
    }

    private init(_ item: SearchableItem, score: Double, explained: Explanation, bundleIdentifier: String, indexName: String, typos: Bool) {
        let shown = ShownAttributes(item.attributes)
        reference = ResultReference(bundleIdentifier: bundleIdentifier, indexName: indexName, itemIdentifier: item.uniqueIdentifier)
        title = shown.displayTitle ?? item.uniqueIdentifier
        description = shown.contentDescription
        if case .url(let url)? = shown.thumbnailURL { thumbnailURL = url } else { thumbnailURL = nil }
        hasThumbnailData = shown.hasThumbnailData
        contentType = item.contentType
        actions = ResultAction.actions(for: shown)
        self.score = score
        self.explained = explained
        self.typos = typos
        if indexName == UserActivityStore.indexName {
            url = UserActivityStore.record(of: item)?.webpageURL
        } else if case .url(let contentURL)? = shown.contentURL {
            url = contentURL
        } else {
            url = nil
        }
        coordinate = shown.coordinate
        if let stars = shown.rating, stars.isFinite { rating = min(5, max(0, stars)) }
        ratingDescription = shown.ratingDescription
        if let amount = shown.price, amount.isFinite, amount >= 0 { price = amount }
        address = ShownAttributes.firstText(shown.fullyFormattedAddress) ?? shown.addressLine
    }

    /// ``explanation`` followed by `text` (a factor the search applied
    /// after the store's score), still written only when read.
    mutating func appendToExplanation(_ text: String) {
        switch explained {
        case .text(let written): explained = .text(written + text)
        case .breakdown(let breakdown, let then): explained = .breakdown(breakdown, then: then + text)
        }
    }

    /// How ``explanation`` is kept until it is read; equal when their text is.
    private enum Explanation: Sendable, Hashable {
        case text(String)
        /// The store's score, then what the search added to it.
        case breakdown(ScoreBreakdown, then: String)

        var text: String {
            switch self {
            case .text(let text): text
            case .breakdown(let breakdown, let then): breakdown.explanation + then
            }
        }

        static func == (a: Self, b: Self) -> Bool {
            if case .breakdown(let x, let s) = a, case .breakdown(let y, let t) = b, x == y, s == t { return true }
            return a.text == b.text
        }

        func hash(into hasher: inout Hasher) { hasher.combine(text) }
    }

    private enum CodingKeys: String, CodingKey {
        case reference, title, description, thumbnailURL, hasThumbnailData, contentType, actions, score, explanation, typos, url,
             coordinate, distance, rating, ratingDescription, price, address
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reference, forKey: .reference)
        try container.encode(title, forKey: .title)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(thumbnailURL, forKey: .thumbnailURL)
        try container.encode(hasThumbnailData, forKey: .hasThumbnailData)
        try container.encodeIfPresent(contentType, forKey: .contentType)
        try container.encode(actions, forKey: .actions)
        try container.encode(score, forKey: .score)
        try container.encode(explanation, forKey: .explanation)
        try container.encode(typos, forKey: .typos)
        try container.encodeIfPresent(url, forKey: .url)
        try container.encodeIfPresent(coordinate, forKey: .coordinate)
        try container.encodeIfPresent(distance, forKey: .distance)
        try container.encodeIfPresent(rating, forKey: .rating)
        try container.encodeIfPresent(ratingDescription, forKey: .ratingDescription)
        try container.encodeIfPresent(price, forKey: .price)
        try container.encodeIfPresent(address, forKey: .address)
    }
}

/// The results of one app, as system search groups them.
public struct AppResultGroup: Sendable, Hashable, Encodable {
    /// The app the results belong to.
    public var app: AppRegistration
    /// Its best results, best first (at most the per-app limit).
    public var results: [SystemSearchResult]
    /// True when the app has more matches than shown.
    public var hasMoreResults: Bool
    /// Whether the group offers "Search in App".
    public var offersSearchInApp: Bool
}

/// The answer to one system search.
public struct SystemSearchResults: Sendable, Hashable, Encodable {
    /// What was searched.
    public var query: String
    /// The apps with results, in order of each app's best result.
    public var groups: [AppResultGroup]
    /// Pages of the public web index, best first (empty when nothing was crawled).
    public var web: [WebResult] = []
    /// Results of the public index, under the device's own (only when asked and opted in).
    public var publicResults: [PublicResult] = []
    /// Stores or registrations that could not be read (the search went on without them).
    public var problems: [String]
    /// The bundle identifiers of the apps whose stores could not be read this time
    /// (deleted, damaged, locked): their results are missing, the others are here.
    public var unavailableApps: [String] = []
}
