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
    /// `Location`, as sent (a redirect's target).
    public var location: String?

    /// A response as a ``WebFetching`` other than ``WebFetcher`` answers one GET
    /// (`WebFetching`'s `fetch` sets `url` and `redirects` when it follows redirects).
    public init(url: URL, statusCode: Int, contentType: String? = nil, body: Data = Data(), location: String? = nil, redirects: [URL] = []) {
        self.url = url
        self.statusCode = statusCode
        self.contentType = contentType
        self.body = body
        self.location = location
        self.redirects = redirects
    }

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
/// and association files can refuse them; see ``WebFetching``), bodies read up
/// to a limit. A refused connection fails at once (AsyncHTTPClient would
/// otherwise retry until the timeout).
///
/// ```swift
/// let fetcher = WebFetcher()
/// let response = try await fetcher.fetch(URL(string: "https://example.com/")!)
/// try await fetcher.shutdown()
/// ```
public final class WebFetcher: WebFetching {
    /// How fetches behave.
    public struct Configuration: Sendable {
        /// Sent as `User-Agent`; contains `Applebot` so sites apply their Applebot rules.
        public var userAgent = "Mozilla/5.0 (compatible; OpenSpotlight/1.0; Applebot/0.1; +https://github.com/openspotlight)"
        /// Most redirects followed for a page (the spec's 5).
        public var maximumRedirects = 5
        /// Largest body read; a larger one fails with ``CrawlErrorCode/tooLarge``.
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

    /// One GET, no redirect followed (``WebFetching``).
    public func get(_ url: URL, maximumBytes: Int) async throws -> FetchResponse {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: configuration.userAgent)
        request.headers.add(name: "Accept", value: "text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8")
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .seconds(Int64(max(1, configuration.timeout))))
        } catch {
            throw CrawlError(.unreachable, "\(url.absoluteString) could not be fetched: \(error)", subject: url.absoluteString)
        }
        if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > maximumBytes {
            throw CrawlError(.tooLarge, "\(url.absoluteString) is \(length) bytes; at most \(maximumBytes) are read", subject: url.absoluteString)
        }
        var body = Data()
        do {
            for try await chunk in response.body {
                body.append(contentsOf: chunk.readableBytesView)
                if body.count > maximumBytes {
                    throw CrawlError(.tooLarge, "\(url.absoluteString) is larger than \(maximumBytes) bytes; at most \(maximumBytes) are read",
                                     subject: url.absoluteString)
                }
            }
        } catch let error as CrawlError {
            throw error
        } catch {
            throw CrawlError(.unreachable, "\(url.absoluteString): the body could not be read: \(error)", subject: url.absoluteString)
        }
        return FetchResponse(url: url, statusCode: Int(response.status.code), contentType: response.headers.first(name: "content-type"),
                             body: body, location: response.headers.first(name: "location"))
    }
}
