public import Foundation

/// What the crawler and the validator fetch through: one GET at a time, no
/// redirect followed. ``WebFetcher`` (AsyncHTTPClient) is the real one and
/// every default; a test can hand the crawler a stand-in that answers from a
/// table, with no server.
///
/// Redirects, the deadline and robots.txt are this protocol's extension
/// (``fetch(_:maximumRedirects:maximumBytes:deadline:redirectCheck:)``), the
/// same whichever fetcher answers.
///
/// ```swift
/// struct Table: WebFetching {
///     var configuration = WebFetcher.Configuration()
///     var pages: [String: FetchResponse]
///     func get(_ url: URL, maximumBytes: Int) async throws -> FetchResponse {
///         pages[url.absoluteString] ?? FetchResponse(url: url, statusCode: 404)
///     }
/// }
/// let crawler = Crawler(store: nil, fetcher: Table(pages: [:]))
/// ```
public protocol WebFetching: Sendable {
    /// How fetches behave: the redirects followed, the body limit.
    var configuration: WebFetcher.Configuration { get }

    /// Sends one GET for `url` and reads its body up to `maximumBytes`, following
    /// no redirect: a 3xx is returned as it is, its `Location` in
    /// ``FetchResponse/location``.
    /// - Throws: ``CrawlError``: `.unreachable`, `.tooLarge`.
    func get(_ url: URL, maximumBytes: Int) async throws -> FetchResponse
}

extension WebFetching {
    /// Fetches `url`, following up to `maximumRedirects` redirects (0: none; a
    /// redirect is then an error, as Apple requires of association files).
    /// - Parameter maximumBytes: the body limit for this fetch (default: the configuration's).
    /// - Throws: ``CrawlError``: `.unsupportedURL`, `.tooManyRedirects`, `.redirectLoop`, `.tooLarge`, `.unreachable`.
    /// - Parameter deadline: when the fetch must have ended, whatever the
    ///   server does (a slow trickle of bytes included); past it,
    ///   ``CrawlErrorCode/timeLimit``.
    public func fetch(_ url: URL, maximumRedirects: Int? = nil, maximumBytes: Int? = nil, deadline: Date? = nil,
                      redirectCheck: (@Sendable (URL) -> CrawlError?)? = nil) async throws -> FetchResponse {
        let allowed = maximumRedirects ?? configuration.maximumRedirects
        var current = url
        var redirects: [URL] = []
        var visited: Set<String> = [url.absoluteString]
        while true {
            guard let scheme = current.scheme?.lowercased(), scheme == "http" || scheme == "https", current.host != nil else {
                throw CrawlError(.unsupportedURL, "\(current.absoluteString) is not an http or https address", subject: current.absoluteString)
            }
            let limit = maximumBytes ?? configuration.maximumBodyBytes
            let address = current
            var response = try await withDeadline(deadline, url: address) { try await self.get(address, maximumBytes: limit) }
            let status = response.statusCode
            if (300..<400).contains(status), status != 304, let location = response.location {
                guard let next = URL(string: location, relativeTo: current)?.absoluteURL else {
                    throw CrawlError(.unsupportedURL, "\(current.absoluteString) redirects to an unreadable address \(location.debugDescription)",
                                     subject: current.absoluteString)
                }
                if redirects.count >= allowed {
                    throw CrawlError(.tooManyRedirects, allowed == 0
                        ? "\(current.absoluteString) redirects (\(status)) to \(next.absoluteString); no redirect is allowed here"
                        : "\(url.absoluteString) redirected more than \(allowed) times (last to \(next.absoluteString))", subject: url.absoluteString)
                }
                guard visited.insert(next.absoluteString).inserted else {
                    throw CrawlError(.redirectLoop, "\(url.absoluteString) redirects in a loop back to \(next.absoluteString)", subject: url.absoluteString)
                }
                if let refusal = redirectCheck?(next) { throw refusal }
                redirects.append(next)
                current = next
                continue
            }
            response.url = current
            response.redirects = redirects
            return response
        }
    }
}

/// Runs `body`, cancelled at `deadline` (AsyncHTTPClient stops the request
/// when its task is cancelled).
func withDeadline<T: Sendable>(_ deadline: Date?, url: URL, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    guard let deadline else { return try await body() }
    let left = deadline.timeIntervalSinceNow
    let expired = CrawlError(.timeLimit, "\(url.absoluteString) was still being fetched when the crawl's time limit came", subject: url.absoluteString)
    guard left > 0 else { throw expired }
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try? await Task.sleep(nanoseconds: UInt64(left * 1e9))
            return nil
        }
        defer { group.cancelAll() }
        do {
            while let result = try await group.next() {
                if let value = result { return value }
                throw expired
            }
        } catch {
            // Past the deadline, whatever ended the fetch (a read timeout,
            // a reset), the crawl's time limit came first: the timer's
            // task may not have run on time when every thread of the
            // cooperative pool was busy (the whole test suite at once on
            // two cores: a 2 s limit ended by a 90 s read timeout).
            if Date() >= deadline { throw expired }
            throw error
        }
        throw expired
    }
}
