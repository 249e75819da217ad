public import Foundation
import PublicIndexProtocol
import SpotlightIndex
import SpotlightSystem
public import SpotlightService

/// The JSON shapes of the HTTP API, version 1 (`/v1/…`). Fields are only
/// ever added within a version; `/v1/openapi.json` documents each one.
public enum API {
    /// The API version in every path.
    public static let version = 1
}

extension API {
    /// `GET /v1/search`: results grouped by app, best app first, then web results.
    public struct SearchResponse: Codable, Sendable, Hashable {
        /// What was searched.
        public var query: String
        /// The store root the service reads (`spotlight search` uses the service only when it is its own).
        public var root: String
        public var groups: [Group]
        public var web: [WebResult]
        /// Apps whose stores could not be read this time; their results are missing.
        public var unavailableApps: [String]
        /// What went wrong with them, one sentence each.
        public var problems: [String]
        /// Time spent searching, in milliseconds.
        public var tookMilliseconds: Double
        /// Results of the public index, under the device's own (only when the
        /// device opted in: `spotlight public device --enable URL`).
        public var publicResults: [PublicResult] = []
    }

    /// A result of the public index: an activity enough people used, or a crawled page.
    public struct PublicResult: Codable, Sendable, Hashable {
        /// `activity` or `page`.
        public var kind: String
        public var title: String
        public var description: String?
        public var url: String?
        /// The site it is sharded by (a page's host, an activity's app).
        public var site: String
        /// How many distinct devices used it.
        public var users: Int
        public var score: Double
        /// The registered app that opens it, if any, and how it was found (`app`, `universal-link`…).
        public var app: String?
        public var appName: String?
        public var appMatch: String?
        /// The app the public index names, installed here or not.
        public var publicApp: String?
    }

    /// One app's results.
    public struct Group: Codable, Sendable, Hashable {
        public var app: App
        public var results: [Result]
        public var hasMoreResults: Bool
        /// Whether "Search in App" is offered (`POST /v1/search-in-app`).
        public var offersSearchInApp: Bool
    }

    /// A registered app, as front ends show it.
    public struct App: Codable, Sendable, Hashable {
        public var bundleIdentifier: String
        public var displayName: String
        /// `/v1/apps/<bundle id>/icon` when the app's icon is an image file the service can serve.
        public var icon: String?
        public var activityTypes: [String]
        public var supportsSearchContinuation: Bool
    }

    /// One result row.
    public struct Result: Codable, Sendable, Hashable {
        /// `<bundle id>/<index>/<item id>`: what open, action, show and explain take.
        public var reference: String
        public var title: String
        public var description: String?
        /// `/v1/thumbnail?ref=…` when the item carries `thumbnailData`.
        public var thumbnail: String?
        /// The item's `thumbnailURL` as given (never fetched by the service).
        public var thumbnailURL: String?
        public var contentType: String?
        public var actions: [Action]
        public var score: Double
        public var explanation: String
        /// 0 to 5 stars.
        public var rating: Double?
        public var ratingDescription: String?
        public var price: Double?
        public var address: String?
        public var latitude: Double?
        public var longitude: Double?
        /// In meters, with a search near a place.
        public var distance: Double?
    }

    /// What a result offers besides opening: `POST /v1/action` with the kind carries it out.
    public struct Action: Codable, Sendable, Hashable {
        /// call, email, navigate or openURL.
        public var kind: String
        public var label: String
        /// The URI handed to the opener (`tel:`, `mailto:`, `geo:`, `https:`).
        public var uri: String
    }

    /// A page of the public web index.
    public struct WebResult: Codable, Sendable, Hashable {
        public var url: String
        public var title: String
        public var description: String?
        public var imageURL: String?
        /// The registered app that opens it (`POST /v1/open` with `web`), if any.
        public var app: String?
        public var appName: String?
        public var appMatch: String?
        public var deepLink: String?
        public var appStoreID: String?
        public var associatedApps: [String]
        public var score: Double
        public var explanation: String
    }

    /// `POST /v1/open`: a result (`reference`) or a web result (`web`).
    public struct OpenRequest: Codable, Sendable, Hashable {
        public var reference: String?
        public var web: String?
        public init(reference: String? = nil, web: String? = nil) {
            self.reference = reference
            self.web = web
        }
    }

    /// `POST /v1/search-in-app`.
    public struct SearchInAppRequest: Codable, Sendable, Hashable {
        public var app: String
        public var text: String
        public init(app: String, text: String) {
            self.app = app
            self.text = text
        }
    }

    /// `POST /v1/action`: one of the result's own actions, by kind (the URI is the stored item's, never the client's).
    public struct ActionRequest: Codable, Sendable, Hashable {
        public var reference: String
        public var kind: String
        public init(reference: String, kind: String) {
            self.reference = reference
            self.kind = kind
        }
    }

    /// `GET /v1/suggestions/places`: the places a front end offers before anything
    /// is typed (or after "meet me at"), from the activities viewed last.
    public struct PlaceSuggestionsResponse: Codable, Sendable, Hashable {
        /// The text the suggestions answer, when one was given.
        public var context: String?
        public var suggestions: [PlaceSuggestion]
        /// Apps whose activities could not be read, one sentence each.
        public var problems: [String]
    }

    /// One suggested place.
    public struct PlaceSuggestion: Codable, Sendable, Hashable {
        /// The activity it comes from: `POST /v1/open` opens it in its app, `POST /v1/action` carries out an action.
        public var reference: String
        public var app: String
        public var appName: String
        /// "From GreenGrocer".
        public var attribution: String
        public var name: String
        public var address: String?
        public var latitude: Double?
        public var longitude: Double?
        public var phoneNumber: String?
        /// Navigate, and Call when there is a number.
        public var actions: [Action]
        public var lastViewed: Date
    }

    /// `POST /v1/impressions`: the results a client displayed (references, at most 500).
    public struct ImpressionsRequest: Codable, Sendable, Hashable {
        public var references: [String]
        public init(references: [String]) {
            self.references = references
        }
    }

    /// `POST /v1/impressions` answer: how many were taken into the next batch
    /// (a result already waiting in it counts once).
    public struct ImpressionsResponse: Codable, Sendable, Hashable {
        public var accepted: Int
    }

    /// What opening a result or "Search in App" did.
    public struct OpenResponse: Codable, Sendable, Hashable {
        public var app: String
        public var appName: String
        public var activityType: String
        /// What the app printed.
        public var output: String
        public var recordedSelection: Bool
    }

    /// What an action did.
    public struct ActionResponse: Codable, Sendable, Hashable {
        public var kind: String
        public var label: String
        public var uri: String
        public var command: [String]
    }

    /// `GET /v1/show`: every attribute of a result, as `spotlight show` prints them.
    public struct ShowResponse: Codable, Sendable, Hashable {
        public var reference: String
        public var attributes: [String: String]
        public var indexedAt: Date
        public var expiresAt: Date
        public var views: Int
        public var selections: Int
    }

    /// `GET /v1/explain`: why a result ranks where it does for a text.
    public struct ExplainResponse: Codable, Sendable, Hashable {
        public struct Term: Codable, Sendable, Hashable {
            public var term: String
            public var foundIn: [String]
        }
        public var reference: String
        public var text: String
        public var matches: Bool
        public var rank: Int?
        public var matchCount: Int
        public var score: Double?
        public var summary: String
        public var terms: [Term]
    }

    /// `GET /v1/apps`.
    public struct AppsResponse: Codable, Sendable, Hashable {
        public var apps: [App]
        public var problems: [String]
    }

    /// `GET /v1/health`.
    public struct Health: Codable, Sendable, Hashable {
        public var status: String
        public var version: Int
        public var root: String
        public var apps: Int
        public var uptimeSeconds: Double
        /// When scheduled maintenance last ran, and what it delivered.
        public var lastMaintenance: Date?
        public var lastMaintenanceDeliveries: Int?
        /// Impressions waiting for the next batch.
        public var pendingImpressions: Int
    }
}

extension API.App {
    init(_ app: AppRegistration) {
        bundleIdentifier = app.bundleIdentifier
        displayName = app.displayName
        icon = AppIcon.servableFile(app.icon) != nil ? "/v1/apps/\(app.bundleIdentifier)/icon" : nil
        activityTypes = app.activityTypes
        supportsSearchContinuation = app.supportsSearchContinuation
    }
}

extension API.Result {
    init(_ result: SystemSearchResult) {
        reference = result.reference.description
        title = result.title
        description = result.description
        thumbnail = result.hasThumbnailData ? "/v1/thumbnail?ref=\(Self.queryEscaped(result.reference.description))" : nil
        thumbnailURL = result.thumbnailURL?.absoluteString
        contentType = result.contentType
        actions = result.actions.map { API.Action(kind: $0.kind, label: $0.label, uri: $0.uri.absoluteString) }
        score = result.score
        explanation = result.explanation
        rating = result.rating
        ratingDescription = result.ratingDescription
        price = result.price
        address = result.address
        latitude = result.coordinate?.latitude
        longitude = result.coordinate?.longitude
        distance = result.distance
    }

    static func queryEscaped(_ text: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#?/")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

extension API.WebResult {
    init(_ result: SpotlightService.WebResult) {
        url = result.url.absoluteString
        title = result.title
        description = result.description
        imageURL = result.imageURL?.absoluteString
        app = result.app?.bundleIdentifier
        appName = result.app?.displayName
        appMatch = result.appMatch
        deepLink = result.deepLink
        appStoreID = result.appStoreID
        associatedApps = result.associatedApps
        score = result.score
        explanation = result.explanation
    }
}

extension API.SearchResponse {
    /// The API's form of a system search.
    public init(_ found: SystemSearchResults, root: String, tookMilliseconds: Double) {
        query = found.query
        self.root = root
        groups = found.groups.map {
            API.Group(app: API.App($0.app), results: $0.results.map(API.Result.init), hasMoreResults: $0.hasMoreResults,
                      offersSearchInApp: $0.offersSearchInApp)
        }
        web = found.web.map(API.WebResult.init)
        unavailableApps = found.unavailableApps
        problems = found.problems
        self.tookMilliseconds = tookMilliseconds
        publicResults = found.publicResults.map(API.PublicResult.init)
    }
}

extension API.PlaceSuggestion {
    /// The API's form of a suggested place.
    public init(_ place: SpotlightService.PlaceSuggestion) {
        reference = place.reference.description
        app = place.bundleIdentifier
        appName = place.appName
        attribution = place.attribution
        name = place.name
        address = place.address
        latitude = place.coordinate?.latitude
        longitude = place.coordinate?.longitude
        phoneNumber = place.phoneNumber
        actions = place.actions.map { API.Action(kind: $0.kind, label: $0.label, uri: $0.uri.absoluteString) }
        lastViewed = place.lastViewed
    }
}

extension API.PublicResult {
    /// The API's form of a public index result.
    public init(_ result: SpotlightService.PublicResult) {
        kind = result.hit.kind.rawValue
        title = result.hit.title
        description = result.hit.description
        url = result.hit.url?.absoluteString
        site = result.hit.site
        users = result.hit.users
        score = result.hit.score
        app = result.app?.bundleIdentifier
        appName = result.app?.displayName
        appMatch = result.appMatch
        publicApp = result.hit.app
    }
}

extension API.OpenResponse {
    init(_ outcome: AppLauncher.Outcome) {
        app = outcome.app.bundleIdentifier
        appName = outcome.app.displayName
        activityType = outcome.activity.activityType
        output = outcome.output
        recordedSelection = outcome.recordedSelection
    }
}
