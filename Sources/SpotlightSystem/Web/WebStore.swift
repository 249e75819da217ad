public import Foundation
public import SpotlightIndex

/// The public web index: pages the crawler read from websites, searchable by
/// everyone beside the apps' own content, whether or not the app is installed.
///
/// It is an ordinary store under a reserved name (`public.web`, index `.pages`,
/// which no app can open through the public API), one item per page keyed by
/// the page's canonical URL, domain = the host (so one site can be dropped at once).
///
/// ```swift
/// let web = try WebStore()
/// try web.save([page])
/// for found in try web.search("pear") { print(found.page.title, found.page.url) }
/// ```
public final class WebStore: Sendable {
    /// The reserved bundle identifier of the web store's directory.
    public static let bundleIdentifier = "public.web"
    /// The reserved index name.
    public static let indexName = StoreName.webIndexName
    /// How long a page stays without being crawled again (90 days).
    public static let defaultLifetime: TimeInterval = 90 * 86_400

    /// The underlying store.
    public let store: SpotlightStore

    /// Opens (creating if needed) the web store.
    public init(location: StoreLocation = .automatic, options: StoreOptions = StoreOptions()) throws {
        store = try SpotlightStore(bundleIdentifier: Self.bundleIdentifier, reservedIndexName: Self.indexName,
                                   location: location, options: options)
    }

    /// True when a web store file exists (nothing was ever crawled otherwise).
    public static func exists(location: StoreLocation = .automatic) -> Bool {
        // A link counts: opening it says why it is refused.
        SpotlightStore.fileExists(bundleIdentifier: bundleIdentifier, indexName: indexName, location: location)
    }

    /// Stores pages, replacing those with the same URL. A page the store refuses
    /// (a URL over the identifier limit, say) is reported in the result, the others kept.
    @discardableResult
    public func save(_ pages: [WebPage], lifetime: TimeInterval = WebStore.defaultLifetime) throws -> IndexReport {
        try store.index(pages.map { try $0.searchableItem(expiration: lifetime) })
    }

    /// The page stored for `url` (its canonical URL), if any.
    public func page(at url: URL) throws -> WebPage? {
        try store.item(withIdentifier: url.absoluteString).flatMap { WebPage(item: $0.item) }
    }

    /// Every stored page, optionally of one host, in URL order.
    public func pages(onHost host: String? = nil) throws -> [WebPage] {
        try store.allItems(inDomain: host?.lowercased()).compactMap { WebPage(item: $0.item) }
            .sorted { $0.url.absoluteString < $1.url.absoluteString }
    }

    /// How many pages are stored.
    public func pageCount() throws -> Int { try store.itemCount() }

    /// Forgets the pages stored under these URLs (canonical URLs); unknown ones are ignored.
    public func deletePages(at urls: [URL]) throws {
        guard !urls.isEmpty else { return }
        try store.deleteItems(withIdentifiers: urls.map(\.absoluteString))
    }

    /// Forgets every page of these hosts.
    public func deletePages(onHosts hosts: [String]) throws {
        try store.deleteItems(inDomains: hosts.map { $0.lowercased() })
    }

    /// Pages matching what the user typed, best first: the engine's free-text
    /// search (every word, the last as a prefix) over title, description, URL and entity names.
    /// `statistics`: as `SpotlightStore.search(_:limit:statistics:fetching:)`.
    public func search(_ text: String, limit: Int = 20, statistics: SearchStatistics? = nil) throws -> [WebSearchResult] {
        try store.search(text, limit: limit, statistics: statistics).compactMap { found in
            WebPage(item: found.item).map { WebSearchResult(page: $0, score: found.score) }
        }
    }
}

/// One page found by ``WebStore/search(_:limit:statistics:fetching:)``.
public struct WebSearchResult: Sendable, Hashable {
    public var page: WebPage
    public var score: ScoreBreakdown
}
