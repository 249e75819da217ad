import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1

/// What one fetch got: the final address, the status, the body (bounded) and
/// every redirect followed on the way.
public struct FetchResponse: Sendable {
    /// The address the body came from (after redirects).
    public var url: URL
    public var statusCode: Int
    /// `Content-Type`, as sent.
    public var contentType: String?
    public var body: Data
    /// Each address redirected to, in order; empty when there was no redirect.
    public var redirects: [URL]

    /// The media type without parameters, lower-case (`text/html`).
    public var mediaType: String? {
        contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// The `charset` parameter of `Content-Type`, if any.
    public var charset: String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "charset" { return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) }
        }
        return nil
    }
}

/// HTTP for the crawler and the validator, on AsyncHTTPClient: one connection
/// per host, redirects followed by hand (so each hop is counted, loops caught,
/// and association files can refuse them), bodies read up to a limit. A refused
/// connection fails at once (AsyncHTTPClient would otherwise retry until the timeout).
///
/// ```swift
/// let fetcher = WebFetcher()
/// let response = try await fetcher.fetch(URL(string: "https://example.com/")!)
/// try await fetcher.shutdown()
/// ```
public final class WebFetcher: Sendable {
    /// How fetches behave.
    public struct Configuration: Sendable {
        /// Sent as `User-Agent`; contains `Applebot` so sites apply their Applebot rules.
        public var userAgent = "Mozilla/5.0 (compatible; OpenSpotlight/1.0; Applebot/0.1; +https://github.com/openspotlight)"
        /// Most redirects followed for a page (the spec's 5).
        public var maximumRedirects = 5
        /// Largest body read; a larger one fails with ``CrawlError/Code/tooLarge``.
        public var maximumBodyBytes = 5 << 20
        /// Time allowed for one request, body included.
        public var timeout: TimeInterval = 15
        /// Connections kept per host (1: one request at a time per site).
        public var connectionsPerHost = 1

        public init() {}
    }

    public let configuration: Configuration
    private let client: HTTPClient

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        var http = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(Int64(max(1, configuration.timeout))), read: .seconds(Int64(max(1, configuration.timeout)))))
        http.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, configuration.connectionsPerHost))
        // A refused connection is an answer: report it now rather than retrying until the deadline.
        http.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: http)
    }

    /// Closes the connections. Call once, when done.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    /// Fetches `url`, following up to `maximumRedirects` redirects (0: none; a
    /// redirect is then an error, as Apple requires of association files).
    /// - Parameter maximumBytes: the body limit for this fetch (default: the configuration's).
    /// - Throws: ``CrawlError``: `.unsupportedURL`, `.tooManyRedirects`, `.redirectLoop`, `.tooLarge`, `.unreachable`.
    /// - Parameter deadline: when the fetch must have ended, whatever the
    ///   server does (a slow trickle of bytes included); past it,
    ///   ``CrawlError/Code/timeLimit``.
    public func fetch(_ url: URL, maximumRedirects: Int? = nil, maximumBytes: Int? = nil, deadline: Date? = nil,
                      redirectCheck: (@Sendable (URL) -> CrawlError?)? = nil) async throws -> FetchResponse {
        let allowed = maximumRedirects ?? configuration.maximumRedirects
        var current = url
        var redirects: [URL] = []
        var visited: Set<String> = [url.absoluteString]
        while true {
            guard let scheme = current.scheme?.lowercased(), scheme == "http" || scheme == "https", current.host != nil else {
                throw CrawlError(.unsupportedURL, "\(current.absoluteString) is not an http or https address")
            }
            let limit = maximumBytes ?? configuration.maximumBodyBytes
            let address = current
            let (status, headers, body) = try await Self.withDeadline(deadline, url: address) { try await self.get(address, maximumBytes: limit) }
            if (300..<400).contains(status), status != 304, let location = headers.first(name: "location") {
                guard let next = URL(string: location, relativeTo: current)?.absoluteURL else {
                    throw CrawlError(.unsupportedURL, "\(current.absoluteString) redirects to an unreadable address \(location.debugDescription)")
                }
                if redirects.count >= allowed {
                    throw CrawlError(.tooManyRedirects, allowed == 0
                        ? "\(current.absoluteString) redirects (\(status)) to \(next.absoluteString); no redirect is allowed here"
                        : "\(url.absoluteString) redirected more than \(allowed) times (last to \(next.absoluteString))")
                }
                guard visited.insert(next.absoluteString).inserted else {
                    throw CrawlError(.redirectLoop, "\(url.absoluteString) redirects in a loop back to \(next.absoluteString)")
                }
                if let refusal = redirectCheck?(next) { throw refusal }
                redirects.append(next)
                current = next
                continue
            }
            return FetchResponse(url: current, statusCode: status, contentType: headers.first(name: "content-type"),
                                 body: body, redirects: redirects)
        }
    }

    /// Runs `body`, cancelled at `deadline` (AsyncHTTPClient stops the
    /// request when its task is cancelled).
    static func withDeadline<T: Sendable>(_ deadline: Date?, url: URL, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let deadline else { return try await body() }
        let left = deadline.timeIntervalSinceNow
        let expired = CrawlError(.timeLimit, "\(url.absoluteString) was still being fetched when the crawl's time limit came")
        guard left > 0 else { throw expired }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(left * 1e9))
                return nil
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let value = result { return value }
                throw expired
            }
            throw expired
        }
    }

    private func get(_ url: URL, maximumBytes: Int) async throws -> (Int, HTTPHeaders, Data) {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: configuration.userAgent)
        request.headers.add(name: "Accept", value: "text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8")
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .seconds(Int64(max(1, configuration.timeout))))
        } catch {
            throw CrawlError(.unreachable, "\(url.absoluteString) could not be fetched: \(error)")
        }
        if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > maximumBytes {
            throw CrawlError(.tooLarge, "\(url.absoluteString) is \(length) bytes; at most \(maximumBytes) are read")
        }
        var body = Data()
        do {
            for try await chunk in response.body {
                body.append(contentsOf: chunk.readableBytesView)
                if body.count > maximumBytes {
                    throw CrawlError(.tooLarge, "\(url.absoluteString) is larger than \(maximumBytes) bytes; at most \(maximumBytes) are read")
                }
            }
        } catch let error as CrawlError {
            throw error
        } catch {
            throw CrawlError(.unreachable, "\(url.absoluteString): the body could not be read: \(error)")
        }
        return (Int(response.status.code), response.headers, body)
    }
}
