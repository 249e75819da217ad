/// Why a fetch or a crawl failed: a stable ``Code`` and a message that says
/// what happened and what to do.
///
/// ```swift
/// catch let error as CrawlError where error.code == .tooManyRedirects { … }
/// ```
public struct CrawlError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// A URL the crawler cannot fetch (not http or https, no host).
        public static let unsupportedURL = Code("unsupportedURL")
        /// More redirects than allowed, or a redirect where none is allowed (association files).
        public static let tooManyRedirects = Code("tooManyRedirects")
        /// A redirect back to an address already visited in the same chain.
        public static let redirectLoop = Code("redirectLoop")
        /// A body over the size limit.
        public static let tooLarge = Code("tooLarge")
        /// No answer: connection refused, timed out, DNS failure, TLS failure.
        public static let unreachable = Code("unreachable")
        /// robots.txt forbids the address.
        public static let blockedByRobots = Code("blockedByRobots")
        /// The crawl's time limit came while the address was being fetched.
        public static let timeLimit = Code("timeLimit")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
