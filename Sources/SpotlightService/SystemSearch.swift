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
/// text, `rankingHint`, engagement, recency), every store's text scored
/// with statistics over all of them so that scores compare across apps. An activity tied to an item
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
        let hasWeb = webResults > 0 && (near == nil || !text.isEmpty) && WebStore.exists(location: registry.location)
        // One scale: IDF and average length over every store read here.
        let statistics = collectionStatistics(text, apps: apps, web: hasWeb)
        for app in apps {
            do {
                let found = try results(of: app, text, limit: perApp + 1, near: near, statistics: statistics)
                guard !found.isEmpty else { continue }
                groups.append(AppResultGroup(app: app, results: Array(found.prefix(perApp)), hasMoreResults: found.count > perApp,
                                             offersSearchInApp: app.supportsSearchContinuation))
            } catch {
                problems.append("\(app.displayName) (\(app.bundleIdentifier)): \(error)")
            }
        }
        groups.sort { a, b in
            let (x, y) = (a.results[0], b.results[0])
            if x.typos != y.typos { return !x.typos }
            return (x.score, b.app.displayName) > (y.score, a.app.displayName)
        }
        var results = SystemSearchResults(query: text, groups: groups, problems: problems)
        if hasWeb {
            do {
                try addWebResults(to: &results, text, limit: webResults, statistics: statistics, apps: apps)
            } catch {
                results.problems.append("the public web index: \(error)")
            }
        }
        return results
    }

    /// Every store's statistics for `text` (apps' indexes and activities,
    /// and the web index), summed: the text scores of all of them are then
    /// on one scale. Nil without a word; a store that cannot be read adds
    /// nothing (its search reports it).
    func collectionStatistics(_ text: String, apps: [AppRegistration], web: Bool) -> SearchStatistics? {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        var total = SearchStatistics()
        for app in apps {
            for name in SpotlightStore.indexNames(bundleIdentifier: app.bundleIdentifier, location: registry.location) {
                if let part = try? store(app.bundleIdentifier, name).searchStatistics(text) { total.add(part) }
            }
            if UserActivityStore.exists(bundleIdentifier: app.bundleIdentifier, location: registry.location),
               let part = try? store(app.bundleIdentifier, UserActivityStore.indexName).searchStatistics(text) {
                total.add(part)
            }
        }
        if web, let part = try? webStore().store.searchStatistics(text) { total.add(part) }
        return total.documents > 0 ? total : nil
    }

    /// Pages of the public web index, on the apps' scale. A page whose
    /// canonical URL an app result has (its `contentURL` or `webpageURL`)
    /// is that result: shown once, as the app's, which takes the page's
    /// score when that is higher.
    func addWebResults(to results: inout SystemSearchResults, _ text: String, limit: Int, statistics: SearchStatistics?,
                       apps: [AppRegistration]) throws {
        var claimed: [String: (group: Int, result: Int)] = [:]
        for (g, group) in results.groups.enumerated() {
            for (r, result) in group.results.enumerated() {
                if let url = result.url?.absoluteString, claimed[url] == nil { claimed[url] = (g, r) }
            }
        }
        let pages = try webStore().search(text, limit: limit + claimed.count, statistics: statistics)
        for found in pages {
            if let (g, r) = claimed[found.page.url.absoluteString] {
                var result = results.groups[g].results[r]
                if found.score.total > result.score {
                    result.explanation += "; its web page scores \(String(format: "%.4g", found.score.total)): \(found.score.explanation)"
                    result.score = found.score.total
                }
                results.groups[g].results[r] = result
                continue
            }
            guard results.web.count < limit else { continue }
            results.web.append(WebResult(found.page, score: found.score.total, explanation: found.score.explanation, apps: apps))
        }
    }

    /// One app's best results: its items and its activities, merged by
    /// score (exact matches before typo matches), each times the app's
    /// factor (``RankingWeights/appPassedOverFactor(engagement:impressions:)``).
    func results(of app: AppRegistration, _ text: String, limit: Int, near area: SearchArea? = nil,
                 statistics: SearchStatistics? = nil) throws -> [SystemSearchResult] {
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
            return try store.search(text, limit: limit, statistics: statistics)
                .map { (SystemSearchResult($0, bundleIdentifier: app.bundleIdentifier, indexName: indexName), $0.item.attributes) }
        }
        var merged: [SystemSearchResult] = []
        var itemStores: [SpotlightStore] = []
        var totals = (engagement: 0.0, impressions: 0.0)
        for name in SpotlightStore.indexNames(bundleIdentifier: app.bundleIdentifier, location: location) {
            let store = try store(app.bundleIdentifier, name)
            itemStores.append(store)
            merged += try found(in: store, name, limit: pool).map(\.0)
            let part = try store.engagementTotals()
            totals = (totals.engagement + part.engagement, totals.impressions + part.impressions)
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
            let part = try activities.engagementTotals()
            totals = (totals.engagement + part.engagement, totals.impressions + part.impressions)
        }
        let factor = options.ranking.appPassedOverFactor(engagement: totals.engagement, impressions: totals.impressions)
        if factor < 1 {
            for index in merged.indices {
                merged[index].score *= factor
                merged[index].explanation += String(format: " × app(shown %.4g, engaged %.4g) %.4g", totals.impressions, totals.engagement, factor)
            }
        }
        if let area { merged = area.rank(merged) }
        merged.sort { a, b in
            if a.typos != b.typos { return !a.typos }
            return (a.score, b.reference.description) > (b.score, a.reference.description)
        }
        return Array(merged.prefix(limit))
    }

    /// Records that these results were shown (impressions), one
    /// transaction per store; results of a store that cannot be written
    /// are skipped. `spotlight search` calls it for what it prints.
    ///
    /// ```swift
    /// let found = try search.search("pear")
    /// try search.recordImpressions(of: found)
    /// ```
    public func recordImpressions(of results: SystemSearchResults) throws {
        var byStore: [String: (bundle: String, index: String, ids: [String])] = [:]
        for result in results.groups.flatMap(\.results) {
            let key = result.reference.bundleIdentifier + "/" + result.reference.indexName
            byStore[key, default: (result.reference.bundleIdentifier, result.reference.indexName, [])].ids.append(result.reference.itemIdentifier)
        }
        for (_, entry) in byStore.sorted(by: { $0.key < $1.key }) {
            try store(entry.bundle, entry.index).recordImpressions(itemIdentifiers: entry.ids)
        }
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
