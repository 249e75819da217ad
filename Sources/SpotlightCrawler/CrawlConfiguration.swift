public import Foundation

/// The limits and manners of a crawl.
///
/// ```swift
/// var configuration = CrawlConfiguration()
/// configuration.maximumPages = 50
/// configuration.maximumDepth = 2
/// ```
public struct CrawlConfiguration: Sendable {
    /// Pages fetched at most (robots.txt, sitemaps and association files not counted).
    public var maximumPages = 100
    /// Bytes of bodies read at most, all fetches together.
    public var maximumTotalBytes = 64 << 20
    /// Links followed at most this many steps from a start address (sitemap entries are one step).
    public var maximumDepth = 5
    /// The crawl stops after this long (seconds).
    public var maximumDuration: TimeInterval = 300
    /// When true (the default), only pages of the start addresses' sites are fetched:
    /// the same host, or the same host with or without `www.`.
    public var sameSiteOnly = true
    /// Minimum wait between two requests to one host (seconds); robots.txt's
    /// `Crawl-delay` raises it, up to ``maximumCrawlDelay``.
    public var minimumDelay: TimeInterval = 0.25
    /// The most a `Crawl-delay` is honoured (seconds).
    public var maximumCrawlDelay: TimeInterval = 30
    /// Whether robots.txt is obeyed (it always is, unless a test turns it off).
    public var obeysRobots = true
    /// Whether `Sitemap:` lines of robots.txt seed the crawl.
    public var readsSitemaps = true
    /// Most sitemap files read per host (a sitemap index may name many).
    public var maximumSitemaps = 10
    /// HTTP behaviour: user agent, redirects (5), body limit per page, timeout, connections per host (1).
    public var fetcher = WebFetcher.Configuration()

    public init() {}
}

/// Two addresses are of one site when their hosts are equal once lower-cased
/// and stripped of a leading `www.`.
enum Site {
    static func key(_ url: URL) -> String? {
        guard var host = url.host?.lowercased() else { return nil }
        if host.hasPrefix("www.") { host.removeFirst(4) }
        return host
    }

    /// Whether the crawl may go to `url`: any address when `sameSiteOnly` is off, else one of `sites`.
    static func allows(_ url: URL, sites: Set<String>, sameSiteOnly: Bool) -> Bool {
        !sameSiteOnly || key(url).map(sites.contains) == true
    }

    /// `scheme://host[:port]` — the origin robots.txt and association files belong to.
    static func origin(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        return url.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }

    /// The address without its fragment, scheme and host lower-cased: one key per page.
    static func normalized(_ url: URL) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        components.fragment = nil
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if components.path.isEmpty { components.path = "/" }
        if (components.scheme == "http" && components.port == 80) || (components.scheme == "https" && components.port == 443) {
            components.port = nil
        }
        return components.url
    }
}
