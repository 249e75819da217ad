public import Foundation
import SpotlightIndex
public import SpotlightSystem
public import SpotlightService

/// What the service does, apart from how it is asked: every front end of the
/// service (HTTP routes, the live socket, the GNOME Shell provider) calls
/// these, and they call the system layer (``SystemSearch``, ``AppLauncher``,
/// ``ActionRunner``) with stores kept open for the service's lifetime.
///
/// ```swift
/// let api = SpotlightAPI(registry: AppRegistry())
/// let found = try api.search("pear", resultsPerApp: 3, webResults: 3, via: "example")
/// print(found.groups.map(\.app.displayName))
/// ```
public final class SpotlightAPI: Sendable {
    /// Where apps and stores are.
    public let registry: AppRegistry
    /// The search, with its stores kept.
    public let search: SystemSearch
    let launcher: AppLauncher
    let runner: ActionRunner
    let limits: ServiceLimits
    let metrics: ServiceMetrics
    let started = Date()
    let maintenanceStatus = MaintenanceStatus()
    let impressions = ImpressionBatcher()
    let places: LocationSuggestions

    /// - Parameter readTimeout: how long a search waits for a store another process
    ///   holds locked before it answers without that app (seconds).
    /// - Parameter reusesAnswers: answer a repeated question from memory while no store it came from changed.
    public init(registry: AppRegistry, limits: ServiceLimits = ServiceLimits(), runner: ActionRunner = ActionRunner(),
                launchTimeout: TimeInterval = 30, readTimeout: TimeInterval = 0.25, reusesAnswers: Bool = false) {
        var options = StoreOptions()
        options.busyTimeout = readTimeout
        self.registry = registry
        search = SystemSearch(registry: registry, options: options, keepsAnswers: reusesAnswers, watchesFolders: true)
        places = LocationSuggestions(registry: registry, options: options)
        launcher = AppLauncher(registry: registry, timeout: launchTimeout)
        self.runner = runner
        self.limits = limits
        metrics = ServiceMetrics()
    }

    /// The store root, as ``API/SearchResponse/root`` reports it.
    public var root: String { registry.location.rootDirectory?.path ?? ":memory:" }

    /// Searches every app. `CancellationError` when the calling task is cancelled.
    /// - Parameter near: rank results with coordinates by their distance from a place (``SearchArea``).
    public func search(_ text: String, resultsPerApp: Int = 3, webResults: Int = 3, near: SearchArea? = nil, via channel: String) throws -> API.SearchResponse {
        guard text.utf8.count <= limits.maximumQueryBytes else {
            throw APIError(.queryTooLong, "the search text is \(text.utf8.count) bytes; at most \(limits.maximumQueryBytes)")
        }
        guard (1...limits.maximumResultsPerApp).contains(resultsPerApp) else {
            throw APIError(.invalidRequest, "perApp must be 1 to \(limits.maximumResultsPerApp), not \(resultsPerApp)")
        }
        guard (0...limits.maximumWebResults).contains(webResults) else {
            throw APIError(.invalidRequest, "web must be 0 to \(limits.maximumWebResults), not \(webResults)")
        }
        let clock = ContinuousClock()
        let start = clock.now
        let reusedBefore = search.reusedAnswers
        let found = try search.search(text, resultsPerApp: resultsPerApp, webResults: webResults, near: near)
        let seconds = (clock.now - start).seconds
        metrics.search(via: channel, seconds: seconds, unavailableApps: found.unavailableApps.count,
                       fromMemory: search.reusedAnswers > reusedBefore)
        return API.SearchResponse(found, root: root, tookMilliseconds: (seconds * 1e6).rounded() / 1e3)
    }

    /// Opens a result in its app (the launch runs off the caller's thread; it may take up to the launch timeout).
    public func open(_ request: API.OpenRequest) async throws -> API.OpenResponse {
        let launcher = self.launcher
        let outcome: AppLauncher.Outcome
        do {
            switch (request.reference, request.web) {
            case (let reference?, nil):
                let parsed = try ResultReference(parsing: reference)
                outcome = try await Self.offThread { try launcher.open(reference: parsed) }
            case (nil, let web?):
                guard let url = URL(string: web), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
                    throw APIError(.invalidRequest, "web must be an http(s) URL, not \(web.debugDescription)")
                }
                outcome = try await Self.offThread { try launcher.openWebPage(url) }
            default:
                throw APIError(.invalidRequest, "give exactly one of reference (a result) or web (a web result's URL)")
            }
        } catch {
            metrics.opened("result", succeeded: false)
            throw error
        }
        metrics.opened("result", succeeded: true)
        return API.OpenResponse(outcome)
    }

    /// "Search in App": hands the app what the user typed.
    public func searchInApp(_ request: API.SearchInAppRequest) async throws -> API.OpenResponse {
        guard request.text.utf8.count <= limits.maximumQueryBytes else {
            throw APIError(.queryTooLong, "the text is \(request.text.utf8.count) bytes; at most \(limits.maximumQueryBytes)")
        }
        let launcher = self.launcher
        do {
            let outcome = try await Self.offThread { try launcher.searchInApp(request.app, text: request.text) }
            metrics.opened("searchInApp", succeeded: true)
            return API.OpenResponse(outcome)
        } catch {
            metrics.opened("searchInApp", succeeded: false)
            throw error
        }
    }

    /// Carries out one of a result's actions, chosen by kind among those its stored
    /// attributes allow (the URI is the item's, never the client's), and counts a selection.
    public func perform(_ request: API.ActionRequest) async throws -> API.ActionResponse {
        let reference = try ResultReference(parsing: request.reference)
        let offered = try launcher.actions(of: reference).map(\.kind)
        guard offered.contains(request.kind) else {
            throw APIError(.invalidRequest, "\(reference) offers no \(request.kind.debugDescription) action; it offers \(offered.isEmpty ? "none" : offered.joined(separator: ", "))")
        }
        let launcher = self.launcher, runner = self.runner
        do {
            let done = try await Self.offThread { try launcher.perform(request.kind, of: reference, runner: runner) }
            metrics.opened("action", succeeded: true)
            return API.ActionResponse(kind: request.kind, label: done.label, uri: done.uri.absoluteString, command: done.command)
        } catch {
            metrics.opened("action", succeeded: false)
            throw error
        }
    }

    /// Takes the results a client displayed into the next batch of impressions
    /// (written every few seconds, one transaction per store).
    public func recordImpressions(_ request: API.ImpressionsRequest) throws -> API.ImpressionsResponse {
        guard request.references.count <= limits.maximumImpressionsPerReport else {
            throw APIError(.invalidRequest, "\(request.references.count) references; at most \(limits.maximumImpressionsPerReport) per report")
        }
        let references = try request.references.map { text in
            do { return try ResultReference(parsing: text) } catch {
                throw APIError(.invalidRequest, "\(text.debugDescription) is not a result reference (<bundle id>/<index>/<item id>)")
            }
        }
        return API.ImpressionsResponse(accepted: impressions.add(references))
    }

    /// The places to offer: before anything is typed (no context), or for
    /// text that asks for one ("meet me at", "directions to ray").
    public func placeSuggestions(context: String?, limit: Int = 3) throws -> API.PlaceSuggestionsResponse {
        if let context, context.utf8.count > limits.maximumQueryBytes {
            throw APIError(.queryTooLong, "the context is \(context.utf8.count) bytes; at most \(limits.maximumQueryBytes)")
        }
        guard (1...limits.maximumResultsPerApp).contains(limit) else {
            throw APIError(.invalidRequest, "limit must be 1 to \(limits.maximumResultsPerApp), not \(limit)")
        }
        let found = try places.suggestions(context: context, limit: limit)
        return API.PlaceSuggestionsResponse(context: found.context, suggestions: found.suggestions.map(API.PlaceSuggestion.init),
                                            problems: found.problems)
    }

    /// Every attribute of a result.
    public func show(_ reference: String) throws -> API.ShowResponse {
        let details = try search.details(of: try ResultReference(parsing: reference))
        var attributes = details.item.item.attributes.mapValues { AttributeText.text($0) }
        if let type = details.item.item.contentType { attributes["contentType"] = type }
        if let domain = details.item.item.domainIdentifier { attributes["domainIdentifier"] = domain }
        return API.ShowResponse(reference: reference, attributes: attributes, indexedAt: details.item.indexedAt,
                                expiresAt: details.item.expiresAt, views: details.engagement.views, selections: details.engagement.selections)
    }

    /// Why a result ranks where it does for `text`.
    public func explain(_ reference: String, text: String) throws -> API.ExplainResponse {
        guard text.utf8.count <= limits.maximumQueryBytes else {
            throw APIError(.queryTooLong, "the text is \(text.utf8.count) bytes; at most \(limits.maximumQueryBytes)")
        }
        let why = try search.explain(try ResultReference(parsing: reference), text: text)
        return API.ExplainResponse(reference: reference, text: text, matches: why.matches, rank: why.rank, matchCount: why.matchCount,
                                   score: why.score?.total, summary: why.summary,
                                   terms: why.terms.map { .init(term: $0.text, foundIn: $0.foundIn) })
    }

    /// The registered apps.
    public func apps() throws -> API.AppsResponse {
        let (apps, problems) = try registry.scan()
        return API.AppsResponse(apps: apps.map(API.App.init), problems: problems)
    }

    /// Whether the service answers, and what it last did.
    public func health() -> API.Health {
        let apps = (try? registry.apps().count) ?? 0
        let last = maintenanceStatus.last
        return API.Health(status: "ok", version: API.version, root: root, apps: apps, uptimeSeconds: Date().timeIntervalSince(started),
                          lastMaintenance: last?.at, lastMaintenanceDeliveries: last?.deliveries, pendingImpressions: impressions.count)
    }

    /// The thumbnail bytes of a result and their media type.
    func thumbnail(_ reference: String) throws -> (Data, String) {
        guard let data = try search.thumbnailData(of: try ResultReference(parsing: reference)) else {
            throw APIError(.notFound, "\(reference) has no thumbnail data")
        }
        guard let type = AppIcon.sniff(data) else { throw APIError(.notFound, "\(reference)'s thumbnail data is not an image") }
        return (data, type)
    }

    /// An app's icon file and its media type.
    func icon(_ bundleIdentifier: String) throws -> (Data, String) {
        guard let app = try registry.app(bundleIdentifier) else {
            throw APIError(.appNotRegistered, "\(bundleIdentifier) is not registered")
        }
        guard let file = AppIcon.servableFile(app.icon),
              let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
              (attributes[.size] as? Int ?? .max) <= AppIcon.maximumBytes,
              let data = FileManager.default.contents(atPath: file.path), AppIcon.sniff(data) != nil else {
            throw APIError(.notFound, "\(app.displayName) has no icon image the service can serve")
        }
        return (data, AppIcon.sniff(data) ?? file.mediaType)
    }

    /// Runs blocking work (an app's launch, an opener) on a thread of its own, not the task's.
    static func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
