import Foundation
public import SpotlightIndex
import Synchronization

/// Search across every registered app, as the user swipes down and types on
/// an iPhone: results ranked across apps, grouped by app in order of each
/// app's best result, a few per app.
///
/// ```swift
/// let search = SystemSearch()
/// let found = try search.search("zoe", resultsPerApp: 3)
/// for group in found.groups {
///     print(group.app.displayName, group.offersSearchInApp ? "(Search in App)" : "")
///     for result in group.results { print("  \(result.title)  \(result.reference)") }
/// }
/// ```
///
/// Each app's indexes and its donated activities are searched with the
/// engine's free-text search (every word, the last as a prefix; ranked by
/// text, `rankingHint`, engagement, recency). An activity tied to an item
/// (`relatedUniqueIdentifier`) is never a result of its own: the item is; one
/// tied weakly is hidden while that item exists. Stores are opened once per
/// `SystemSearch` and kept (a store replaced on disk is opened anew): keep
/// one for a front end's lifetime; every search sees every committed write.
public final class SystemSearch: Sendable {
    /// The apps searched.
    public let registry: AppRegistry
    private let options: StoreOptions
    private let stores = StoreCache()
    private let webStores = Mutex<WebStore?>(nil)

    public init(registry: AppRegistry = AppRegistry(), options: StoreOptions = StoreOptions()) {
        self.registry = registry
        self.options = options
    }

    /// Searches every registered app.
    ///
    /// ```swift
    /// let nearby = try SystemSearch().search("grocer", near: SearchArea(center: here, radius: 2_000))
    /// ```
    /// - Parameter resultsPerApp: at most this many results per app (Spotlight shows 3).
    /// - Parameter webResults: at most this many pages of the public web index (0: none).
    /// - Parameter near: rank results with coordinates by their distance from a
    ///   place (``SearchArea/factor(distance:)``), and with a radius keep only
    ///   those within it. With empty `text`, every result with coordinates
    ///   in the area (50 km unless a radius is given), nearest first.
    /// - Throws: ``SystemSearchError`` `.registryUnavailable`; a store that
    ///   cannot be read is reported in ``SystemSearchResults/problems``.
    public func search(_ text: String, resultsPerApp: Int = 3, webResults: Int = 3, near: SearchArea? = nil) throws -> SystemSearchResults {
        let (apps, registryProblems) = try registry.scan()
        var problems = registryProblems
        var groups: [AppResultGroup] = []
        let perApp = max(1, resultsPerApp)
        for app in apps {
            do {
                let found = try results(of: app, text, limit: perApp + 1, near: near)
                guard !found.isEmpty else { continue }
                groups.append(AppResultGroup(app: app, results: Array(found.prefix(perApp)), hasMoreResults: found.count > perApp,
                                             offersSearchInApp: app.supportsSearchContinuation))
            } catch {
                problems.append("\(app.displayName) (\(app.bundleIdentifier)): \(error)")
            }
        }
        groups.sort { ($0.results[0].score, $1.app.displayName) > ($1.results[0].score, $0.app.displayName) }
        var results = SystemSearchResults(query: text, groups: groups, problems: problems)
        if webResults > 0, near == nil || !text.isEmpty, WebStore.exists(location: registry.location) {
            do {
                results.web = try webStore().search(text, limit: webResults).map { WebResult($0.page, score: $0.score.total, explanation: $0.score.explanation, apps: apps) }
            } catch {
                results.problems.append("the public web index: \(error)")
            }
        }
        return results
    }

    /// One app's best results: its items and its activities, merged by score.
    func results(of app: AppRegistration, _ text: String, limit: Int, near area: SearchArea? = nil) throws -> [SystemSearchResult] {
        let location = registry.location
        let browsing = area != nil && text.trimmingCharacters(in: .whitespaces).isEmpty
        // Near a place, more text matches are weighed by distance than are shown.
        let pool = area == nil ? limit : max(limit * 10, 200)
        /// The store's matches, each with its item's attributes.
        func found(in store: SpotlightStore, _ indexName: String, limit: Int) throws -> [(SystemSearchResult, [String: AttributeValue])] {
            if browsing, let area {
                var located: [(SystemSearchResult, [String: AttributeValue])] = []
                try store.query(area.boundingBoxQuery) { batch in
                    located += batch.map {
                        (SystemSearchResult($0, score: 1, explanation: "in the area", bundleIdentifier: app.bundleIdentifier, indexName: indexName), $0.attributes)
                    }
                }
                return located
            }
            return try store.search(text, limit: limit).map { (SystemSearchResult($0, bundleIdentifier: app.bundleIdentifier, indexName: indexName), $0.item.attributes) }
        }
        var merged: [SystemSearchResult] = []
        var itemStores: [SpotlightStore] = []
        for name in SpotlightStore.indexNames(bundleIdentifier: app.bundleIdentifier, location: location) {
            let store = try store(app.bundleIdentifier, name)
            itemStores.append(store)
            merged += try found(in: store, name, limit: pool).map(\.0)
        }
        if UserActivityStore.exists(bundleIdentifier: app.bundleIdentifier, location: location) {
            let activities = try store(app.bundleIdentifier, UserActivityStore.indexName)
            for (result, attributes) in try found(in: activities, UserActivityStore.indexName, limit: pool * 2) {
                if attributes["relatedUniqueIdentifier"]?.texts?.first != nil { continue }
                if !StoredActivity.isSearchable(attributes: attributes) { continue }
                if let weak = attributes["weakRelatedUniqueIdentifier"]?.texts?.first,
                   try itemStores.contains(where: { try $0.containsItem(withIdentifier: weak) }) { continue }
                merged.append(result)
            }
        }
        if let area { merged = area.rank(merged) }
        merged.sort { ($0.score, $1.reference.description) > ($1.score, $0.reference.description) }
        return Array(merged.prefix(limit))
    }

    /// The public web index, opened once.
    func webStore() throws -> WebStore {
        try webStores.withLock { cached in
            if let cached { return cached }
            let store = try WebStore(location: registry.location, options: options)
            cached = store
            return store
        }
    }

    /// The store of an app's index (or of its activities), opened once per
    /// file: a store replaced on disk since (lost, moved aside, made anew by
    /// the app) is opened afresh, never read from its old, unlinked file.
    func store(_ bundleIdentifier: String, _ indexName: String) throws -> SpotlightStore {
        try stores.store(bundleIdentifier: bundleIdentifier, indexName: indexName, location: registry.location) {
            indexName == UserActivityStore.indexName
                ? try UserActivityStore(bundleIdentifier: bundleIdentifier, location: registry.location, options: options).store
                : try SpotlightStore(bundleIdentifier: bundleIdentifier, indexName: indexName, location: registry.location, options: options)
        }
    }
}
