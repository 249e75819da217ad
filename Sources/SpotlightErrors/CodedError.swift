/// An error of this package: its kind (``code``), a sentence a person can act on (``message``),
/// what it is about (``subject``) and what caused it (``underlying``).
///
/// Every module's error is this shape with a code type of its own, declared as a type alias:
///
/// ```swift
/// public typealias CrawlError = CodedError<CrawlErrorCode>
///
/// do {
///     try await crawler.crawl(from: [url])
/// } catch let error as CrawlError where error.code == .tooManyRedirects {
///     print(error.message, error.subject ?? "")
/// }
///
/// throw SpotlightIndexError(.storeUnavailable, "cannot open the store; check the directory's permissions",
///                           subject: path, underlying: posixError)
/// ```
///
/// Two errors are equal when their code, message, subject and underlying error's description are.
/// Modelled on NIOFS's `FileSystemError`: an extensible code plus a cause kept as an error.
public struct CodedError<Code: ErrorCode>: Error, Sendable, Hashable, CustomStringConvertible {
    /// The code type, named as a member so that `SpotlightIndexError.Code.itemNotFound` reads as it did.
    ///
    /// ```swift
    /// let expected: SpotlightIndexError.Code = .itemNotFound
    /// ```
    public typealias Code = Code

    /// The kind of error; compare it with the module's codes.
    ///
    /// ```swift
    /// if error.code == .itemNotFound { … }
    /// ```
    public var code: Code

    /// A sentence a person can act on: what went wrong and what to do next.
    ///
    /// ```swift
    /// print(error.message)  // no item "n1" in this store; index it before recording engagement
    /// ```
    public var message: String

    /// What the error is about, when it is about one thing: an item's identifier, a URL, a file, an app.
    ///
    /// ```swift
    /// refused[error.subject ?? "?"] = error.code
    /// ```
    public var subject: String?

    /// The error that caused this one (SQLite's, the file system's, the network's), if any.
    /// `Error` is `Sendable`, so the cause travels with the error across tasks.
    ///
    /// ```swift
    /// if let posix = error.underlying as? POSIXError, posix.code == .EACCES { … }
    /// ```
    public var underlying: (any Error)?

    /// An error of kind `code` with its message, and what it is about and what caused it when known.
    ///
    /// ```swift
    /// throw CrawlError(.unsupportedURL, "only http and https addresses can be crawled", subject: url.absoluteString)
    /// ```
    public init(_ code: Code, _ message: String, subject: String? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.subject = subject
        self.underlying = underlying
    }

    /// The message, followed by the underlying error in parentheses when there is one.
    ///
    /// ```swift
    /// print(error)  // cannot open the store; check the directory's permissions (Permission denied)
    /// ```
    public var description: String {
        guard let underlying else { return message }
        return "\(message) (\(underlying))"
    }

    /// Whether two errors have the same code, message, subject and underlying error's description.
    ///
    /// ```swift
    /// #expect(error == CrawlError(.tooLarge, "the page is over 10 MB"))
    /// ```
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.subject == rhs.subject
            && lhs.underlyingDescription == rhs.underlyingDescription
    }

    /// Hashes what ``==(_:_:)`` compares.
    ///
    /// ```swift
    /// let distinct = Set(errors)
    /// ```
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(subject)
        hasher.combine(underlyingDescription)
    }

    private var underlyingDescription: String? { underlying.map { String(describing: $0) } }
}
