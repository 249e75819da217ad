import Dispatch
import Foundation
public import SpotlightIndex
public import SpotlightSystem
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
    private let layouts = AppLayouts()
    let registered: RegisteredApps
    let answers: SearchAnswers?
    /// The registry's, the root's and the apps' folders, watched (``FolderWatch``).
    private let watch: FolderWatch?
    /// What the last search found of the apps and their stores, and the
    /// watch's generation before it looked: reused while nothing changed.
    private let lookedUp = Mutex<LookedUp?>(nil)

    private struct LookedUp {
        var generation: UInt64
        var apps: [AppRegistration]
        var problems: [String]
        /// Each app whose stores all opened, by bundle identifier.
        var searched: [String: SearchedApp]
    }

    /// - Parameter keepsAnswers: reuse an answer for the same question while
    ///   none of the stores it was made from changed (for at most 10 s): for a
    ///   resident front end answering as users type. Every commit to a store
    ///   is still seen by the next search.
    /// - Parameter watchesFolders: for a resident front end: learn through
    ///   inotify (``FolderWatch``) that an app was registered or removed, or
    ///   a store made, removed or replaced, instead of looking at the
    ///   registry's folder, every app's folder and every store's file on
    ///   every search. Where inotify is missing, it looks every time.
    public init(registry: AppRegistry = AppRegistry(), options: StoreOptions = StoreOptions(), keepsAnswers: Bool = false,
                watchesFolders: Bool = false) {
        self.registry = registry
        self.options = options
        registered = RegisteredApps(registry: registry)
        answers = keepsAnswers ? SearchAnswers() : nil
        watch = watchesFolders ? FolderWatch() : nil
    }

    /// How many searches were answered from memory (``init(registry:options:keepsAnswers:)``).
    public var reusedAnswers: Int { answers?.reused.load(ordering: .relaxed) ?? 0 }

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
    ///   cannot be read is reported in ``SystemSearchResults/problems`` and
    ///   ``SystemSearchResults/unavailableApps``. `CancellationError` when the
    ///   calling task is cancelled (checked before each app: a front end
    ///   answering as the user types drops a search the next keystroke replaced).
    ///   Apps are searched on every core at once.
    public func search(_ text: String, resultsPerApp: Int = 3, webResults: Int = 3, near: SearchArea? = nil) throws -> SystemSearchResults {
        Self.searchesRunning.add(1, ordering: .relaxed)
        defer { Self.searchesRunning.subtract(1, ordering: .relaxed) }
        // Read before looking: a change made while this search looks shows as a new generation next time.
        let seen = watch?.generation()
        let known = seen.flatMap { seen in lookedUp.withLock { $0?.generation == seen ? $0 : nil } }
        if let watch, known == nil { watchFolders(watch) }
        let (apps, registryProblems) = try known.map { ($0.apps, $0.problems) } ?? registered.scan()
        // Each app's folder watched before it is looked at: a store replaced after the look is an event.
        if let watch, known == nil { for app in apps { appFolder(app).map { watch.watch($0, storesOnly: true) } } }
        let made = ContinuousClock.now
        var kept: (SearchAnswers, SearchAnswers.Question, SearchAnswers.Sources)?
        if let answers, registryProblems.isEmpty {
            let question = SearchAnswers.Question(text: text, resultsPerApp: resultsPerApp, webResults: webResults,
                                                  near: near.map { [$0.center.latitude, $0.center.longitude, $0.radius ?? -1] } ?? [])
            if let sources = try? sources(of: apps, webResults: webResults, answers) {
                if let answer = answers.answer(question, from: sources) { return answer }
                kept = (answers, question, sources)
            }
        }
        var problems = registryProblems
        var groups: [AppResultGroup] = []
        var unavailable: [String] = []
        let perApp = max(1, resultsPerApp)
        let hasWeb = webResults > 0 && (near == nil || !text.isEmpty) && WebStore.exists(location: registry.location)
        // Split once for every store; one scale: IDF and average length over every store read here.
        let terms = TextTokenizer.queryTerms(text)
        // The apps' stores and the statistics over all of them, then each app's matches.
        func lookUp() throws -> (apps: [SearchedApp], statistics: SearchStatistics?) {
            let found = try searchedApps(apps, terms: terms, text: text, web: hasWeb, recent: true, known: known?.searched ?? [:])
            if let seen, known == nil {
                var searched: [String: SearchedApp] = [:]
                for app in found.apps where (try? app.stores.get()) != nil {
                    var skeleton = app
                    skeleton.statisticsStamps = []
                    searched[app.app.bundleIdentifier] = skeleton
                }
                lookedUp.withLock { $0 = LookedUp(generation: seen, apps: apps, problems: registryProblems, searched: searched) }
            }
            return found
        }
        func searchEveryApp(_ searched: (apps: [SearchedApp], statistics: SearchStatistics?), typos: Bool) throws
            -> [(outcome: AppOutcome, stale: Bool)?]
        {
            try Self.inParallel(searched.apps) {
                self.appOutcome($0, text, terms, perApp: perApp, near: near, statistics: searched.statistics, typos: typos)
            }
        }
        var searched = try lookUp()
        // Exact matches first; typos only when every app together found few
        // (``typosBelow``), on the same statistics.
        var typos = false
        var outcomes = try searchEveryApp(searched, typos: typos)
        if Self.exactMatches(outcomes) < Self.typosBelow, RankedQuery(terms).allowingTypos() != nil {
            typos = true
            outcomes = try searchEveryApp(searched, typos: typos)
        }
        if searched.statistics != nil, outcomes.contains(where: { $0?.stale == true }) {
            // A commit came between the statistics (each store's last read) and
            // the matches: score again, on statistics of what the matches were read from.
            searched = try lookUp()
            outcomes = try searchEveryApp(searched, typos: typos)
        }
        let statistics = searched.statistics
        for (app, outcome) in zip(apps, outcomes.map { $0?.outcome ?? .nothing }) {
            switch outcome {
            case .found(let group): groups.append(group)
            case .nothing: break
            case .missing(let why):
                problems.append("\(app.displayName) (\(app.bundleIdentifier)): \(why)")
                unavailable.append(app.bundleIdentifier)
            }
        }
        groups.sort(by: Self.groupRanksBefore)
        var results = SystemSearchResults(query: text, groups: groups, problems: problems, unavailableApps: unavailable)
        if hasWeb {
            do {
                try addWebResults(to: &results, text, limit: webResults, statistics: statistics, apps: apps)
            } catch {
                results.problems.append("the public web index: \(error)")
            }
        }
        if let (answers, question, sources) = kept { answers.keep(results, for: question, from: sources, madeAt: made) }
        return results
    }

    /// Opens every registered app's stores and loads their indexes, on
    /// every core, so that the first search does not pay for it: a resident
    /// front end calls it once as it starts (a first keystroke over 20
    /// stores of 50,000 items otherwise waited about 2 s). Stores that cannot
    /// be opened are left for the searches to report.
    ///
    /// ```swift
    /// let search = SystemSearch(keepsAnswers: true)
    /// let opened = search.prepareStores()   // in the background, while the service starts answering
    /// ```
    /// - Returns: how many stores were opened.
    @discardableResult
    public func prepareStores() -> Int {
        guard let (apps, _) = try? registered.scan() else { return 0 }
        let opened = (try? Self.inParallel(apps) { app -> Int in
            var count = 0
            for name in self.layout(of: app).names {
                // Statistics read every segment's header and dictionary, as a search does.
                if let store = try? self.store(app.bundleIdentifier, name), (try? store.searchStatistics("a")) != nil { count += 1 }
            }
            return count
        }) ?? []
        return opened.reduce(0) { $0 + ($1 ?? 0) }
    }

    /// What an answer is made from now: the apps, and each store's file and change counter.
    private func sources(of apps: [AppRegistration], webResults: Int, _ answers: SearchAnswers) throws -> SearchAnswers.Sources {
        let location = registry.location
        var stores: [String: SearchAnswers.StoreState] = [:]
        func note(_ bundle: String, _ index: String, _ store: SpotlightStore) throws {
            let key = "\(bundle)/\(index)"
            stores[key] = try answers.state(of: store, key: key, identity: StoreFileIdentity(bundleIdentifier: bundle, indexName: index, location: location))
        }
        for app in apps {
            for name in layout(of: app).names { try note(app.bundleIdentifier, name, try store(app.bundleIdentifier, name)) }
        }
        if webResults > 0, WebStore.exists(location: location) {
            try note(WebStore.bundleIdentifier, WebStore.indexName, try webStore().store)
        }
        return SearchAnswers.Sources(apps: apps, stores: stores)
    }

    /// What searching one app gave.
    enum AppOutcome: Sendable {
        case found(AppResultGroup)
        case nothing
        /// The app's stores could not be read, or its index is gone or awaits a reindex.
        case missing(String)
    }

    /// Exact matches across apps under which a system search also tries
    /// typos. Each store used to try them whenever it found fewer than it
    /// was asked for, so one app's exact answer (`bioconductor assay co`)
    /// sent the 19 others through every typo tier, half a keystroke's CPU
    /// over 20 apps, for matches ranked below every exact one. Typos are
    /// for a word typed wrong, which finds little or nothing anywhere.
    static let typosBelow = 3

    /// The exact matches the apps found (each app's up to its limit).
    static func exactMatches(_ outcomes: [(outcome: AppOutcome, stale: Bool)?]) -> Int {
        outcomes.reduce(0) { count, outcome in
            guard case .found(let group) = outcome?.outcome else { return count }
            return count + group.results.count + (group.hasMoreResults ? 1 : 0)
        }
    }

    /// What searching one app gave, and whether one of its stores was read
    /// in another state than its statistics came from (``SearchedApp/statisticsStamps``).
    /// - Parameter typos: whether its stores try typos when they find too few exact matches.
    func appOutcome(_ searched: SearchedApp, _ text: String, _ terms: [TextTokenizer.QueryTerm], perApp: Int, near: SearchArea?,
                    statistics: SearchStatistics?, typos: Bool = true) -> (outcome: AppOutcome, stale: Bool) {
        let app = searched.app
        do {
            let (found, more, stale) = try results(of: searched, text, terms, limit: perApp + 1, shown: perApp, near: near,
                                                   statistics: statistics, typos: typos)
            guard !found.isEmpty else { return (try missingIndex(app).map(AppOutcome.missing) ?? .nothing, stale) }
            return (.found(AppResultGroup(app: app, results: Array(found.prefix(perApp)), hasMoreResults: more,
                                          offersSearchInApp: app.supportsSearchContinuation)), stale)
        } catch {
            return (.missing("\(error)"), false)
        }
    }

    /// `work` for every element, on ``parallelism`` threads at once (apps
    /// are independent and the stores' readers are concurrent), in the
    /// elements' order; nil for those skipped once the calling task is cancelled.
    /// - Throws: `CancellationError` when the calling task is cancelled.
    static func inParallel<Element: Sendable, Outcome: Sendable>(_ elements: [Element],
                                                                  _ work: @escaping @Sendable (Element) -> Outcome) throws -> [Outcome?] {
        try Task.checkCancellation()
        let cancelled = Atomic<Bool>(false)
        let outcomes = Mutex<[Outcome?]>(Array(repeating: nil, count: elements.count))
        let next = Atomic<Int>(0)
        // The calling thread is one of the workers: there `Task.isCancelled` is the caller's task's.
        // While other searches run, they keep the other cores busy: this one stays on its thread.
        let threads = searchesRunning.load(ordering: .relaxed) > 1 ? 1 : parallelism
        DispatchQueue.concurrentPerform(iterations: min(elements.count, threads)) { _ in
            while true {
                if Task.isCancelled { cancelled.store(true, ordering: .relaxed) }
                guard !cancelled.load(ordering: .relaxed) else { return }
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < elements.count else { return }
                let outcome = work(elements[index])
                outcomes.withLock { $0[index] = outcome }
            }
        }
        try Task.checkCancellation()
        return outcomes.withLock { $0 }
    }

    /// How many apps are searched at once: the machine's cores, at most 4.
    static let parallelism = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))

    /// Searches running in this process now (``search(_:resultsPerApp:webResults:near:)``):
    /// with another one running, a search uses one thread, since splitting
    /// it over cores the other already uses only adds hand-offs.
    static let searchesRunning = Atomic<Int>(0)

    /// Every store's statistics for `text` (apps' indexes and activities,
    /// and the web index), summed: the text scores of all of them are then
    /// on one scale. Nil without a word; a store that cannot be read adds
    /// nothing (its search reports it).
    func collectionStatistics(_ text: String, apps: [AppRegistration], web: Bool) throws -> SearchStatistics? {
        try searchedApps(apps, terms: TextTokenizer.queryTerms(text), text: text, web: web, recent: false).statistics
    }

    /// Every app's stores, looked up once for the whole search
    /// (``SearchedApp``), and ``collectionStatistics(_:apps:web:)`` of them:
    /// with `recent`, from the segments each store's last search read
    /// (``SpotlightStore/recentSearchStatistics(terms:)``, no transaction;
    /// the search checks their stamps against what it reads next), else
    /// each in a read transaction of its own.
    /// - Parameter known: apps looked up by an earlier search, by bundle
    ///   identifier, reused as they are (nothing changed since: ``FolderWatch``).
    func searchedApps(_ apps: [AppRegistration], terms: [TextTokenizer.QueryTerm], text: String, web: Bool, recent: Bool,
                      known: [String: SearchedApp] = [:]) throws
        -> (apps: [SearchedApp], statistics: SearchStatistics?)
    {
        let counts = !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        // Per app on every core, as the searches that follow: the first search of a
        // process opens every store here.
        let parts = try Self.inParallel(apps) { app -> (SearchedApp, SearchStatistics) in
            var searched = known[app.bundleIdentifier]
                ?? SearchedApp(app, layout: self.layout(of: app)) { try self.store(app.bundleIdentifier, $0) }
            var part = SearchStatistics()
            if counts, case .success(let stores) = searched.stores {
                for (_, store) in stores {
                    if recent {
                        let read = try? store.recentSearchStatistics(terms: terms)
                        searched.statisticsStamps.append(read?.stamp)
                        if let read { part.add(read.statistics) }
                    } else if let statistics = try? store.searchStatistics(terms: terms) {
                        part.add(statistics)
                    }
                }
            }
            return (searched, part)
        }
        // None is skipped: inParallel throws when the search was cancelled.
        let done = parts.compactMap { $0 }
        var total = SearchStatistics()
        for (_, statistics) in done { total.add(statistics) }
        let searched = done.map(\.0)
        if counts, web, let part = try? webStore().store.searchStatistics(terms: terms) { total.add(part) }
        return (searched, counts && total.documents > 0 ? total : nil)
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
        var raised = false
        for found in pages {
            if let (g, r) = claimed[found.page.url.absoluteString] {
                var result = results.groups[g].results[r]
                if found.score.total > result.score {
                    result.appendToExplanation("; its web page scores \(NumberText.short(found.score.total)): \(found.score.explanation)")
                    result.score = found.score.total
                    raised = true
                }
                results.groups[g].results[r] = result
                continue
            }
            guard results.web.count < limit else { continue }
            results.web.append(WebResult(found.page, score: found.score.total, explanation: found.score.explanation, apps: apps))
        }
        // A result that took its page's higher score takes its place by it, and its app too.
        if raised {
            for g in results.groups.indices { results.groups[g].results.sort(by: Self.ranksBefore) }
            results.groups.sort(by: Self.groupRanksBefore)
        }
    }

    /// The order of one app's results: exact matches before typo matches, then by score.
    static func ranksBefore(_ a: SystemSearchResult, _ b: SystemSearchResult) -> Bool {
        if a.typos != b.typos { return !a.typos }
        // The references' text only on a tie: made for every comparison, it was most of the sort.
        if a.score != b.score { return a.score > b.score }
        return a.reference.description < b.reference.description
    }

    /// The order of the apps: by their best results, as ``ranksBefore(_:_:)``, then by name.
    static func groupRanksBefore(_ a: AppResultGroup, _ b: AppResultGroup) -> Bool {
        let (x, y) = (a.results[0], b.results[0])
        if x.typos != y.typos { return !x.typos }
        return (x.score, b.app.displayName) > (y.score, a.app.displayName)
    }

    /// One app's best results: its items and its activities, merged by
    /// score (exact matches before typo matches), each times the app's
    /// factor (``RankingWeights/appPassedOverFactor(engagement:impressions:)``).
    /// Each store is read once: its matches and its engagement totals together.
    /// `stale`: a store was read in another state than its statistics came
    /// from (``SearchedApp/statisticsStamps``).
    /// - Parameter shown: how many results the caller shows (below `limit`):
    ///   `more` says whether the app has more than that. An app of one store
    ///   (no activities, no place) reads the items of those only.
    func results(of searched: SearchedApp, _ text: String, _ terms: [TextTokenizer.QueryTerm], limit: Int, shown: Int? = nil,
                 near area: SearchArea? = nil, statistics: SearchStatistics? = nil, typos: Bool = true) throws
        -> (results: [SystemSearchResult], more: Bool, stale: Bool)
    {
        let app = searched.app
        let stores = try searched.stores.get()
        let browsing = area != nil && text.trimmingCharacters(in: .whitespaces).isEmpty
        // Near a place, more text matches are weighed by distance than are shown.
        let pool = area == nil ? limit : max(limit * 10, 200)
        // One store's matches are in their final order (the app's factor
        // scales them all): the items of those shown are enough.
        let rows = area == nil && stores.count == 1 && stores[0].name != UserActivityStore.indexName ? shown ?? .max : .max
        var matches = 0
        var totals = (engagement: 0.0, impressions: 0.0)
        var stale = false
        /// The store's matches, each with its item's attributes; its engagement totals added to `totals`.
        func found(in store: SpotlightStore, _ indexName: String, at position: Int, limit: Int) throws -> [(SystemSearchResult, [String: AttributeValue])] {
            if browsing, let area {
                var located: [(SystemSearchResult, [String: AttributeValue])] = []
                try store.query(area.boundingBoxQuery) { batch in
                    located += batch.map {
                        (SystemSearchResult($0, score: 1, explanation: "in the area", bundleIdentifier: app.bundleIdentifier, indexName: indexName), $0.attributes)
                    }
                }
                let part = try store.engagementTotals()
                totals = (totals.engagement + part.engagement, totals.impressions + part.impressions)
                return located
            }
            let part = try store.systemSearchPart(terms, limit: limit, rows: rows, statistics: statistics, typos: typos,
                                                  fetching: Self.readAttributes)
            matches += part.matches
            totals = (totals.engagement + part.totals.engagement, totals.impressions + part.totals.impressions)
            if statistics != nil, searched.statisticsStamps.indices.contains(position), searched.statisticsStamps[position] != part.stamp { stale = true }
            return part.results.map { (SystemSearchResult($0, bundleIdentifier: app.bundleIdentifier, indexName: indexName), $0.item.attributes) }
        }
        var merged: [SystemSearchResult] = []
        var itemStores: [SpotlightStore] = []
        for (position, (name, store)) in stores.enumerated() where name != UserActivityStore.indexName {
            itemStores.append(store)
            merged += try found(in: store, name, at: position, limit: pool).map(\.0)
        }
        for (position, (name, activities)) in stores.enumerated() where name == UserActivityStore.indexName {
            for (result, attributes) in try found(in: activities, name, at: position, limit: pool * 2) {
                if attributes["relatedUniqueIdentifier"]?.texts?.first != nil { continue }
                if !StoredActivity.isSearchable(attributes: attributes) { continue }
                if let weak = attributes["weakRelatedUniqueIdentifier"]?.texts?.first,
                   try itemStores.contains(where: { try $0.containsItem(withIdentifier: weak) }) { continue }
                merged.append(result)
            }
        }
        let factor = options.ranking.appPassedOverFactor(engagement: totals.engagement, impressions: totals.impressions)
        if factor < 1 {
            let factorText = appFactor(totals).explanation
            for index in merged.indices {
                merged[index].score *= factor
                merged[index].appendToExplanation(factorText)
            }
        }
        if let area { merged = area.rank(merged) }
        merged.sort(by: Self.ranksBefore)
        let more = rows < .max ? matches > rows : merged.count > (shown ?? limit)
        return (Array(merged.prefix(limit)), more, stale)
    }

    /// The attributes a system search reads of its results: what their rows
    /// show and act on (``ShownAttributes``), and what an activity result
    /// is judged by (its record, the item it stands for). An item's other
    /// attributes (a package's long description, its keywords) are passed
    /// over in its stored bytes, never made into strings.
    static let readAttributes = FetchedAttributes(ShownAttributes.names.union([
        UserActivityStore.recordAttributeName, "relatedUniqueIdentifier", "weakRelatedUniqueIdentifier",
    ]))

    /// The factor every result of an app is multiplied by: below 1 when the
    /// app's results are shown often and chosen rarely
    /// (``RankingWeights/appPassedOverFactor(engagement:impressions:)``,
    /// over all its indexes and activities), with its explanation's words.
    func appFactor(_ app: AppRegistration) throws -> (factor: Double, explanation: String) {
        var totals = (engagement: 0.0, impressions: 0.0)
        for name in layout(of: app).names {
            let part = try store(app.bundleIdentifier, name).engagementTotals()
            totals = (totals.engagement + part.engagement, totals.impressions + part.impressions)
        }
        return appFactor(totals)
    }

    /// The app's factor from its stores' engagement totals, summed.
    func appFactor(_ totals: (engagement: Double, impressions: Double)) -> (factor: Double, explanation: String) {
        let factor = options.ranking.appPassedOverFactor(engagement: totals.engagement, impressions: totals.impressions)
        return (factor, " × app(shown \(NumberText.short(totals.impressions)), engaged \(NumberText.short(totals.engagement))) \(NumberText.short(factor))")
    }

    /// Why an app that found nothing may have lost results: an index whose file
    /// is gone (deleted; maintenance asks the app to index again), or one that
    /// came back empty after it was lost or damaged and awaits the app's reindex.
    func missingIndex(_ app: AppRegistration) throws -> String? {
        let location = registry.location
        let existing = SpotlightStore.indexNames(bundleIdentifier: app.bundleIdentifier, location: location)
        if let lost = SpotlightStore.knownIndexNames(bundleIdentifier: app.bundleIdentifier, location: location).first(where: { !existing.contains($0) }) {
            return "its index \(lost) is gone (deleted?); maintenance asks the app to index it again"
        }
        for name in existing {
            if let reason = try store(app.bundleIdentifier, name).pendingReindex {
                return "its index \(name) is empty until the app indexes again (\(reason.rawValue); a reindex was requested)"
            }
        }
        return nil
    }

    /// Records that these results were shown (impressions), one
    /// transaction per store (``recordImpressions(_:at:)``).
    /// `spotlight search` calls it for what it prints.
    ///
    /// ```swift
    /// let found = try search.search("pear")
    /// try search.recordImpressions(of: found)
    /// ```
    public func recordImpressions(of results: SystemSearchResults) throws {
        try recordImpressions(results.groups.flatMap { $0.results.map(\.reference) })
    }

    /// The folders whose changes matter to a search (``FolderWatch``): the
    /// root (apps' folders made or removed) and the registry's; each app's
    /// own is added once the app is looked up.
    private func watchFolders(_ watch: FolderWatch) {
        if let root = registry.location.rootDirectory?.path { watch.watch(root) }
        if let directory = try? registry.directory.path { watch.watch(directory) }
    }

    /// The app's folder of stores; nil in memory.
    private func appFolder(_ app: AppRegistration) -> String? { registry.location.folderPath(of: app.bundleIdentifier) }

    /// The app's stores as its folder holds them now (``AppLayouts``).
    func layout(of app: AppRegistration) -> AppLayout {
        layouts.layout(of: app.bundleIdentifier, location: registry.location)
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
