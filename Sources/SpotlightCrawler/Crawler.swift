public import Foundation
import SpotlightIndex
public import SpotlightSystem
import WebMarkup

/// A polite crawler, reading marked-up pages into the public ``WebStore`` as
/// Applebot reads them into Apple's web index.
///
/// ```swift
/// let crawler = Crawler(store: try WebStore())
/// let report = try await crawler.crawl(from: [URL(string: "https://shop.example.com/")!]) { progress in
///     print(progress.fetchedPages, progress.lastURL)
/// }
/// print(report.indexed.count, "pages indexed")
/// ```
///
/// Manners: robots.txt first (Applebot's group, else Googlebot's, else `*`; a 4xx
/// robots.txt allows everything, a 5xx or no answer forbids everything), its
/// `Crawl-delay` (bounded) or ``CrawlConfiguration/minimumDelay`` from one
/// answer of a host to the next request to it, one request at a time, pages of the start sites only,
/// redirects at most 5 and never in a loop (each hop checked against robots.txt
/// and the site), `nofollow` pages and links not followed, limits on pages,
/// bytes, depth and time. Pages whose canonical URL was already stored are
/// duplicates and are not stored again.
///
/// A page is stored when it is indexable as Apple requires: not `noindex`, a
/// title, a description, and a deep link — from its markup (Smart App Banner,
/// App Links, Twitter app card) or because the site's apple-app-site-association
/// hands the page's URL to an app (a universal link). Crawling again forgets
/// stored pages that are now gone (404, 410) or no longer indexable (`noindex`,
/// markup removed), unless this crawl stored them from another address.
public final class Crawler: Sendable {
    public let configuration: CrawlConfiguration
    private let store: (any CrawlDestination)?
    private let fetcher: (any WebFetching)?

    /// - Parameters:
    ///   - store: where indexable pages go; `nil` to crawl without storing (a dry run).
    ///   - fetcher: what fetches (kept open by its owner); `nil`, a ``WebFetcher``
    ///     with ``CrawlConfiguration/fetcher`` for each crawl.
    public init(configuration: CrawlConfiguration = CrawlConfiguration(), store: WebStore?, fetcher: (any WebFetching)? = nil) {
        self.configuration = configuration
        self.store = store
        self.fetcher = fetcher
    }

    /// - Parameters:
    ///   - destination: where indexable pages go (the local ``WebStore``,
    ///     the public index…); `nil` to crawl without storing.
    ///   - fetcher: what fetches (kept open by its owner); `nil`, a ``WebFetcher``
    ///     with ``CrawlConfiguration/fetcher`` for each crawl.
    public init(configuration: CrawlConfiguration = CrawlConfiguration(), destination: (any CrawlDestination)?, fetcher: (any WebFetching)? = nil) {
        self.configuration = configuration
        store = destination
        self.fetcher = fetcher
    }

    /// Crawls from `seeds` until nothing is left or a limit is reached.
    /// - Throws: only when the store cannot be written; fetch problems are reported per page.
    public func crawl(from seeds: [URL], progress: (@Sendable (CrawlProgress) -> Void)? = nil) async throws -> CrawlReport {
        if let fetcher {
            var run = CrawlRun(configuration: configuration, fetcher: fetcher, store: store, progress: progress)
            return try await run.crawl(seeds)
        }
        let fetcher = WebFetcher(configuration: configuration.fetcher)
        do {
            var run = CrawlRun(configuration: configuration, fetcher: fetcher, store: store, progress: progress)
            let report = try await run.crawl(seeds)
            try? await fetcher.shutdown()
            return report
        } catch {
            try? await fetcher.shutdown()
            throw error
        }
    }
}

/// One crawl's state: the frontier, what was seen, each host's robots.txt and
/// association file, and the report being written.
struct CrawlRun {
    let configuration: CrawlConfiguration
    let fetcher: any WebFetching
    let store: (any CrawlDestination)?
    let progress: (@Sendable (CrawlProgress) -> Void)?

    var frontier: [(url: URL, depth: Int)] = []
    var next = 0
    var seen: Set<String> = []
    var sites: Set<String> = []
    var storedIdentities: Set<String> = []
    var hosts: [String: HostState] = [:]
    var pending: [WebPage] = []
    /// Stored pages found gone (404, 410) or no longer indexable, deleted at the next flush.
    var gone: [URL] = []
    var report = CrawlReport()
    var started = Date()
    /// Set when a page did not fit in what was left of ``CrawlConfiguration/maximumTotalBytes``.
    var budgetExhausted = false
    /// When the crawl must end (``CrawlConfiguration/maximumDuration`` after it started): every
    /// fetch and wait is cut there, so a slow page cannot hold the crawl past it.
    var deadline: Date { started.addingTimeInterval(configuration.maximumDuration) }
    /// Set when a fetch was cut by the deadline.
    var timedOut = false

    init(configuration: CrawlConfiguration, fetcher: any WebFetching, store: (any CrawlDestination)?, progress: (@Sendable (CrawlProgress) -> Void)?) {
        self.configuration = configuration
        self.fetcher = fetcher
        self.store = store
        self.progress = progress
    }

    mutating func crawl(_ seeds: [URL]) async throws -> CrawlReport {
        started = Date()
        for seed in seeds {
            guard let url = Site.normalized(seed), let site = Site.key(url) else { continue }
            sites.insert(site)
            enqueue(url, depth: 0)
        }
        while next < frontier.count {
            if let reason = limitReached() {
                report.stopReason = reason
                break
            }
            let (url, depth) = frontier[next]
            next += 1
            try await visit(url, depth: depth)
            if pending.count + gone.count >= 20 { try await flush() }
        }
        // The last page may have run into the time limit: the crawl did not finish then.
        if report.stopReason == .finished, Date() >= deadline, next < frontier.count || timedOut { report.stopReason = .maximumDuration }
        try await flush()
        report.duration = Date().timeIntervalSince(started)
        return report
    }

    func limitReached() -> CrawlReport.StopReason? {
        if Task.isCancelled { return .cancelled }
        if report.fetchedPages >= configuration.maximumPages { return .maximumPages }
        if budgetExhausted || report.bytesRead >= configuration.maximumTotalBytes { return .maximumTotalBytes }
        if timedOut || Date() >= deadline { return .maximumDuration }
        return nil
    }

    /// Addresses waiting at most: enough for every page the crawl may still fetch, many times over,
    /// so a page with a million links cannot grow the frontier without bound.
    var frontierLimit: Int { max(1_000, configuration.maximumPages * 10) }

    /// Whether the crawl may go to `url` (``CrawlConfiguration/sameSiteOnly``).
    func isOnSite(_ url: URL) -> Bool {
        Site.allows(url, sites: sites, sameSiteOnly: configuration.sameSiteOnly)
    }

    mutating func enqueue(_ url: URL, depth: Int) {
        guard frontier.count - next < frontierLimit, depth <= configuration.maximumDepth, let normalized = Site.normalized(url),
              let scheme = normalized.scheme, scheme == "http" || scheme == "https" else { return }
        guard isOnSite(normalized) else { return }
        guard seen.insert(normalized.absoluteString).inserted else { return }
        frontier.append((normalized, depth))
    }

    mutating func flush() async throws {
        defer {
            pending.removeAll()
            gone.removeAll()
        }
        guard let store else { return }
        // A page stored in this crawl is not gone, whatever another address said.
        try await store.deletePages(at: gone.filter { !storedIdentities.contains($0.absoluteString) })
        if !pending.isEmpty { try await store.save(pending) }
    }

    // MARK: - One page

    mutating func visit(_ url: URL, depth: Int) async throws {
        let host = try await hostState(for: url)
        if configuration.obeysRobots, !host.robots.isAllowed(url) {
            report.pages.append(.init(url: url, kind: .blockedByRobots, canonical: nil,
                                      reasons: [host.robotsProblem ?? "robots.txt disallows it for Applebot"]))
            return
        }
        await politeWait(url)
        if Date() >= deadline {
            timedOut = true
            return
        }
        report.fetchedPages += 1
        let response: FetchResponse
        do {
            let robots = host.robots
            let obeys = configuration.obeysRobots
            let sameSite = configuration.sameSiteOnly
            let sites = self.sites
            let remaining = max(0, configuration.maximumTotalBytes - report.bytesRead)
            if remaining < configuration.fetcher.maximumBodyBytes { budgetExhausted = true }  // cleared below if the page fits
            response = try await fetcher.fetch(url, maximumBytes: min(configuration.fetcher.maximumBodyBytes, remaining), deadline: deadline) { next in
                if !Site.allows(next, sites: sites, sameSiteOnly: sameSite) {
                    return CrawlError(.unsupportedURL, "\(url.absoluteString) redirects off the site, to \(next.absoluteString)", subject: url.absoluteString)
                }
                if obeys, Site.origin(next) == Site.origin(url), !robots.isAllowed(next) {
                    return CrawlError(.blockedByRobots, "\(url.absoluteString) redirects to \(next.absoluteString), which robots.txt disallows", subject: url.absoluteString)
                }
                return nil
            }
        } catch let error as CrawlError {
            answered(url)
            if error.code != .tooLarge { budgetExhausted = false }
            if error.code == .timeLimit { timedOut = true }
            report.pages.append(.init(url: url, kind: error.code == .blockedByRobots ? .blockedByRobots : .failed, canonical: nil, reasons: [error.message]))
            tell(url)
            return
        }
        answered(url)
        budgetExhausted = false
        report.bytesRead += response.body.count
        let final = Site.normalized(response.url) ?? response.url
        seen.insert(final.absoluteString)
        guard response.statusCode == 200 else {
            // Gone for good: a stored copy is removed, as a search engine drops a deleted page.
            if response.statusCode == 404 || response.statusCode == 410 { gone.append(final) }
            report.pages.append(.init(url: url, kind: .failed, canonical: nil, reasons: ["HTTP status \(response.statusCode)"]))
            tell(url)
            return
        }
        guard response.mediaType.map({ $0 == "text/html" || $0 == "application/xhtml+xml" }) ?? true else {
            report.pages.append(.init(url: url, kind: .notHTML, canonical: nil, reasons: ["Content-Type \(response.contentType ?? "")"]))
            tell(url)
            return
        }
        let document: HTMLDocument
        do {
            document = try HTMLDocument.parse(response.body, url: final, charset: response.charset)
        } catch {
            report.pages.append(.init(url: url, kind: .failed, canonical: nil, reasons: ["\(error)"]))
            tell(url)
            return
        }
        let metadata = PageMetadata(document)
        if !metadata.robots.nofollow, depth < configuration.maximumDepth {
            for link in Self.links(in: document) { enqueue(link, depth: depth + 1) }
        }
        record(metadata, requested: url, fetched: final, association: await association(for: final))
        tell(url)
    }

    /// Stores the page when it is indexable and not a duplicate; reports it either way.
    mutating func record(_ metadata: PageMetadata, requested: URL, fetched: URL, association: AppSiteAssociation?) {
        var identity = fetched
        var reasons: [String] = []
        if let canonical = metadata.canonical.flatMap({ URL(string: $0.value) }).flatMap(Site.normalized) {
            if isOnSite(canonical) {
                identity = canonical
                seen.insert(canonical.absoluteString)
            } else {
                reasons.append("its canonical URL \(canonical.absoluteString) is on another site; the fetched address is kept")
            }
        }
        var deepLinks = metadata.deepLinks.map { WebPage.DeepLink(source: $0.source.rawValue, url: $0.url, appStoreID: $0.appStoreID) }
        let apps = association.map { aasa in
            aasa.applicationIdentifiers.filter { aasa.match(identity, applicationIdentifier: $0) == .match }
        } ?? []
        if !apps.isEmpty { deepLinks.append(.init(source: DeepLink.Source.universalLink.rawValue, url: identity.absoluteString)) }

        if metadata.robots.noindex { reasons.append("robots meta says noindex") }
        if metadata.title == nil { reasons.append("no title") }
        if metadata.description == nil { reasons.append("no description") }
        if deepLinks.isEmpty { reasons.append("no deep link (Smart App Banner app-argument, App Links, Twitter app card or a universal link)") }
        let indexable = !metadata.robots.noindex && metadata.title != nil && metadata.description != nil && !deepLinks.isEmpty
        guard indexable, let title = metadata.title?.value else {
            gone.append(fetched)
            if metadata.robots.noindex { gone.append(identity) }
            report.pages.append(.init(url: requested, kind: .notIndexable, canonical: identity, reasons: reasons))
            return
        }
        guard storedIdentities.insert(identity.absoluteString).inserted else {
            report.pages.append(.init(url: requested, kind: .duplicate, canonical: identity,
                                      reasons: ["\(identity.absoluteString) was already indexed from another address"]))
            return
        }
        pending.append(WebPage(
            url: identity, fetchedURL: identity == fetched ? nil : fetched, title: title,
            description: metadata.robots.nosnippet ? nil : metadata.description?.value,
            imageURL: metadata.image.flatMap { URL(string: $0.value) }, deepLinks: deepLinks, applicationIdentifiers: apps,
            entities: metadata.entities.map { WebPage.Entity(types: $0.types, syntax: $0.syntax.rawValue, properties: $0.properties) },
            crawledAt: Date()))
        report.pages.append(.init(url: requested, kind: .indexed, canonical: identity, reasons: reasons))
    }

    func tell(_ url: URL) {
        progress?(CrawlProgress(fetchedPages: report.fetchedPages, maximumPages: configuration.maximumPages,
                                indexedPages: storedIdentities.count, queuedPages: frontier.count - next,
                                bytesRead: report.bytesRead, lastURL: url))
    }

    /// `<a href>` and `<area href>` not marked `rel=nofollow`, resolved against the base.
    static func links(in document: HTMLDocument) -> [URL] {
        var links: [URL] = []
        document.root.walk { element, _ in
            if element.name == "a" || element.name == "area", let href = element.attribute("href"),
               !(element.attribute("rel")?.lowercased().split(separator: " ").contains("nofollow") ?? false),
               let url = document.resolve(href) {
                links.append(url)
            }
            return true
        }
        return links
    }

    // MARK: - Hosts

    /// What the crawler knows of one origin: its robots.txt, its association file, its last request.
    struct HostState {
        var robots: RobotsTxt
        /// Why robots.txt forbids everything when it could not be read (a 5xx, no answer).
        var robotsProblem: String?
        /// Read when the host's first page is fetched: `nil` until then, `.some(nil)` when it has none.
        var association: AppSiteAssociation??
        var lastRequest: Date?
    }

    mutating func hostState(for url: URL) async throws -> HostState {
        guard let origin = Site.origin(url) else { return HostState(robots: .disallowAll) }
        if let state = hosts[origin] { return state }
        var state = HostState(robots: .allowAll)
        if configuration.obeysRobots {
            (state.robots, state.robotsProblem) = await fetcher.robots(origin: origin, deadline: deadline)
        }
        state.lastRequest = Date()
        hosts[origin] = state
        if configuration.readsSitemaps, configuration.obeysRobots {
            await readSitemaps(state.robots.sitemaps)
        }
        return state
    }

    /// The association file of the page's origin, read once (after robots.txt let a page be fetched).
    mutating func association(for url: URL) async -> AppSiteAssociation? {
        guard let origin = Site.origin(url) else { return nil }
        if let known = hosts[origin]?.association { return known }
        let association = await association(origin: origin)
        hosts[origin, default: HostState(robots: .allowAll)].association = .some(association)
        return association
    }

    /// The origin's apple-app-site-association (`/.well-known/`, then the root), never through a redirect.
    func association(origin: String) async -> AppSiteAssociation? {
        for path in [AppSiteAssociation.wellKnownPath, AppSiteAssociation.legacyPath] {
            guard let url = URL(string: origin + path),
                  let response = try? await fetcher.fetch(url, maximumRedirects: 0, maximumBytes: 128 << 10, deadline: deadline),
                  response.statusCode == 200 else { continue }
            if let association = try? AppSiteAssociation(data: response.body) { return association }
        }
        return nil
    }

    /// Sitemap entries join the frontier one step from the start; sitemap indexes are followed, bounded.
    mutating func readSitemaps(_ sitemaps: [URL]) async {
        var queue = sitemaps
        var read = 0
        while !queue.isEmpty, read < configuration.maximumSitemaps {
            let url = queue.removeFirst()
            guard isOnSite(url) else { continue }
            read += 1
            guard let response = try? await fetcher.fetch(url, maximumBytes: 10 << 20, deadline: deadline), response.statusCode == 200,
                  let sitemap = try? Sitemap.parse(response.body) else { continue }
            report.bytesRead += response.body.count
            switch sitemap {
            case .urlSet(let entries):
                for entry in entries { enqueue(entry.location, depth: 1) }
            case .index(let more):
                queue += more
            }
        }
    }

    /// The host's delay counts from here, once its answer is in: measured
    /// from when a request left, a slow answer left the next one less than
    /// the delay after it (the host saw 0.29 s of a `Crawl-delay: 0.4`).
    mutating func answered(_ url: URL) {
        guard let origin = Site.origin(url) else { return }
        hosts[origin]?.lastRequest = Date()
    }

    mutating func politeWait(_ url: URL) async {
        guard let origin = Site.origin(url), var state = hosts[origin] else { return }
        var delay = configuration.minimumDelay
        if let crawlDelay = state.robots.crawlDelay() { delay = max(delay, min(crawlDelay, configuration.maximumCrawlDelay)) }
        if let last = state.lastRequest {
            let wait = delay - Date().timeIntervalSince(last)
            let left = deadline.timeIntervalSinceNow
            if wait > 0, left > 0 { try? await Task.sleep(nanoseconds: UInt64(min(wait, left) * 1e9)) }
        }
        state.lastRequest = Date()
        hosts[origin] = state
    }
}
