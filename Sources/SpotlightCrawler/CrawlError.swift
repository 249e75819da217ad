@_exported public import SpotlightErrors

/// Why a fetch or a crawl failed: a stable ``CrawlErrorCode`` and a message that says
/// what happened and what to do.
///
/// ```swift
/// catch let error as CrawlError where error.code == .tooManyRedirects { … }
/// ```
///
/// The package's one error shape (``CodedError``) with the crawler's codes.
public typealias CrawlError = CodedError<CrawlErrorCode>

/// The kind of a ``CrawlError``; compare with `==`.
///
/// ```swift
/// if error.code == .blockedByRobots { skipped.append(url) }
/// ```
public struct CrawlErrorCode: ErrorCode {
    /// The code's name, as printed and encoded: `"tooLarge"`.
    public let name: String
    /// The code with this name; the crawler throws the `static let`s below.
    public init(_ name: String) { self.name = name }

    /// A URL the crawler cannot fetch (not http or https, no host).
    public static let unsupportedURL = Self("unsupportedURL")
    /// More redirects than allowed, or a redirect where none is allowed (association files).
    public static let tooManyRedirects = Self("tooManyRedirects")
    /// A redirect back to an address already visited in the same chain.
    public static let redirectLoop = Self("redirectLoop")
    /// A body over the size limit.
    public static let tooLarge = Self("tooLarge")
    /// No answer: connection refused, timed out, DNS failure, TLS failure.
    public static let unreachable = Self("unreachable")
    /// robots.txt forbids the address.
    public static let blockedByRobots = Self("blockedByRobots")
    /// The crawl's time limit came while the address was being fetched.
    public static let timeLimit = Self("timeLimit")
}
