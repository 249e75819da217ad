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
    /// - Parameter resultsPerApp: at most this many results per app (Spotlight shows 3).
    /// - Throws: ``SystemSearchError`` `.registryUnavailable`; a store that
    ///   cannot be read is reported in ``SystemSearchResults/problems``.
    /// - Parameter webResults: at most this many pages of the public web index (0: none).
    public func search(_ text: String, resultsPerApp: Int = 3, webResults: Int = 3) throws -> SystemSearchResults {
        let (apps, registryProblems) = try registry.scan()
        var problems = registryProblems
        var groups: [AppResultGroup] = []
        let perApp = max(1, resultsPerApp)
        for app in apps {
            do {
                let found = try results(of: app, text, limit: perApp + 1)
                guard !found.isEmpty else { continue }
                groups.append(AppResultGroup(app: app, results: Array(found.prefix(perApp)), hasMoreResults: found.count > perApp,
                                             offersSearchInApp: app.supportsSearchContinuation))
            } catch {
                problems.append("\(app.displayName) (\(app.bundleIdentifier)): \(error)")
            }
        }
        groups.sort { ($0.results[0].score, $1.app.displayName) > ($1.results[0].score, $0.app.displayName) }
        var results = SystemSearchResults(query: text, groups: groups, problems: problems)
        if webResults > 0, WebStore.exists(location: registry.location) {
            do {
                results.web = try webStore().search(text, limit: webResults).map { WebResult($0.page, score: $0.score.total, explanation: $0.score.explanation, apps: apps) }
            } catch {
                results.problems.append("the public web index: \(error)")
            }
        }
        return results
    }

    /// One app's best results: its items and its activities, merged by score.
    func results(of app: AppRegistration, _ text: String, limit: Int) throws -> [SystemSearchResult] {
        let location = registry.location
        var merged: [SystemSearchResult] = []
        var itemStores: [SpotlightStore] = []
        for name in SpotlightStore.indexNames(bundleIdentifier: app.bundleIdentifier, location: location) {
            let store = try store(app.bundleIdentifier, name)
            itemStores.append(store)
            merged += try store.search(text, limit: limit).map { SystemSearchResult($0, bundleIdentifier: app.bundleIdentifier, indexName: name) }
        }
        if UserActivityStore.exists(bundleIdentifier: app.bundleIdentifier, location: location) {
            let activities = try store(app.bundleIdentifier, UserActivityStore.indexName)
            for found in try activities.search(text, limit: limit * 2) {
                let attributes = found.item.attributes
                if attributes["relatedUniqueIdentifier"]?.texts?.first != nil { continue }
                if let weak = attributes["weakRelatedUniqueIdentifier"]?.texts?.first,
                   try itemStores.contains(where: { try $0.containsItem(withIdentifier: weak) }) { continue }
                merged.append(SystemSearchResult(found, bundleIdentifier: app.bundleIdentifier, indexName: UserActivityStore.indexName))
            }
        }
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
