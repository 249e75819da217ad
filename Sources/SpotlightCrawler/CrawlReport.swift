public import Foundation

/// What a crawl did, page by page and in total.
public struct CrawlReport: Sendable, Encodable {
    /// Why the crawl ended.
    public enum StopReason: String, Sendable, Encodable {
        /// Nothing was left to fetch.
        case finished
        case maximumPages
        case maximumTotalBytes
        case maximumDuration
        /// The task was cancelled.
        case cancelled
    }

    /// One page fetched and what became of it.
    public struct PageOutcome: Sendable, Encodable {
        public enum Kind: String, Sendable, Encodable {
            /// Stored in the web store.
            case indexed
            /// Its canonical URL was already stored from another address.
            case duplicate
            /// Fetched, but not indexable (reasons say why).
            case notIndexable
            /// robots.txt forbids it; not fetched.
            case blockedByRobots
            /// Not HTML.
            case notHTML
            /// The fetch failed (status, redirect loop, too large, unreachable).
            case failed
        }
        public var url: URL
        public var kind: Kind
        /// The page's identity when fetched (its canonical URL, else the final address).
        public var canonical: URL?
        /// Why it was not indexed, or what failed.
        public var reasons: [String]
    }

    public var pages: [PageOutcome] = []
    public var fetchedPages = 0
    public var bytesRead = 0
    public var stopReason: StopReason = .finished
    public var duration: TimeInterval = 0

    /// Pages stored.
    public var indexed: [URL] { pages.filter { $0.kind == .indexed }.compactMap(\.canonical) }
    public func count(_ kind: PageOutcome.Kind) -> Int { pages.filter { $0.kind == kind }.count }
}

/// Where a crawl is, for a progress line.
public struct CrawlProgress: Sendable {
    public var fetchedPages: Int
    public var maximumPages: Int
    public var indexedPages: Int
    public var queuedPages: Int
    public var bytesRead: Int
    /// The page just handled.
    public var lastURL: URL
}
