public import Foundation
public import SpotlightIndex

/// A request from the system to an app's index extension, made when the
/// app is not running: index everything again (the store was lost or
/// damaged) or re-index items about to expire — what Apple's
/// `CSIndexExtensionRequestHandler` receives.
///
/// ```swift
/// for request in try IndexRequest.pending(bundleIdentifier: "com.example.notes") {
///     print(request.kind, request.indexName, request.identifiers.count)
/// }
/// ```
///
/// It reaches the app as JSON in the environment (``environmentKey``) and
/// in the `{request}` argument of the app's index extension command.
public struct IndexRequest: Sendable, Hashable, Codable {
    /// The environment variable holding the request as JSON.
    public static let environmentKey = "OPENSPOTLIGHT_INDEX_REQUEST"

    public enum Kind: String, Sendable, Hashable, Codable {
        /// Index every item of the index again, then acknowledge.
        case reindexAll
        /// Index these items again (they expire within a day).
        case reindexItems
        /// Write an item's data of a type to ``outputFile`` (another app's
        /// `CSSearchableIndex.fetchData(forBundleIdentifier:…)`).
        case provideData
    }

    /// What to do.
    public var kind: Kind
    /// The index concerned (`default` for Apple's default index).
    public var indexName: String
    /// For ``Kind/reindexAll``: why (`storeMissing`, `storeCorrupt`, `incompatibleVersion`).
    public var reason: String?
    /// For ``Kind/reindexItems``: the items; for ``Kind/provideData``: the one item.
    public var identifiers: [String]
    /// For ``Kind/provideData``: the uniform type identifier of the data wanted.
    public var typeIdentifier: String?
    /// For ``Kind/provideData``: where the extension writes the data.
    public var outputFile: String?

    public init(kind: Kind, indexName: String, reason: String? = nil, identifiers: [String] = [],
                typeIdentifier: String? = nil, outputFile: String? = nil) {
        self.kind = kind
        self.indexName = indexName
        self.reason = reason
        self.identifiers = identifiers
        self.typeIdentifier = typeIdentifier
        self.outputFile = outputFile
    }

    /// The requests an app has pending: a reindex of each index that asks
    /// for one (until the app acknowledges it), and the items of each
    /// index that expire within `interval`.
    public static func pending(bundleIdentifier: String, location: StoreLocation = .automatic,
                               expiringWithin interval: TimeInterval = 24 * 3600,
                               options: StoreOptions = StoreOptions()) throws -> [IndexRequest] {
        var requests: [IndexRequest] = []
        for name in SpotlightStore.knownIndexNames(bundleIdentifier: bundleIdentifier, location: location) {
            let store = try SpotlightStore(bundleIdentifier: bundleIdentifier, indexName: name, location: location, options: options)
            if let reason = try store.pendingReindex {
                requests.append(IndexRequest(kind: .reindexAll, indexName: name, reason: reason.rawValue))
            }
            let expiring = try store.itemsExpiring(within: interval).map(\.uniqueIdentifier)
            if !expiring.isEmpty { requests.append(IndexRequest(kind: .reindexItems, indexName: name, identifiers: expiring)) }
        }
        return requests
    }

    /// The request as compact JSON with sorted keys.
    public func jsonData() throws -> Data {
        try CanonicalJSON.encode(self)
    }
}
