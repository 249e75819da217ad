public import AsyncHTTPClient
public import Foundation
public import NIOCore
import NIOHTTP1
public import PublicIndexProtocol

/// The device's client of the public index service's HTTP API.
///
/// ```swift
/// let client = PublicIndexClient(serviceURL: URL(string: "http://127.0.0.1:8780")!)
/// let found = try await client.search("tarte tatin")
/// ```
public struct PublicIndexClient: Sendable {
    /// Why a request did not get its answer.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The HTTP status, or nil when the service did not answer at all.
        public var status: Int?
        /// The service's error code (`tooManyRequests`, `hashMismatch`…) or the transport's.
        public var code: String
        public var message: String
        /// Seconds to wait before trying again, when the service said.
        public var retryAfter: Double?

        /// True when trying again later may succeed: no answer, 408, 429, 5xx.
        public var isTransient: Bool {
            guard let status else { return true }
            return status == 408 || status == 429 || status >= 500
        }

        public var description: String { status.map { "HTTP \($0) \(code): \(message)" } ?? "no answer: \(message)" }
    }

    public let serviceURL: URL
    /// How long one request may take.
    public var timeout: TimeAmount
    let http: HTTPClient

    public init(serviceURL: URL, timeout: TimeAmount = .seconds(10), httpClient: HTTPClient = .shared) {
        self.serviceURL = serviceURL
        self.timeout = timeout
        http = httpClient
    }

    public func donate(_ batch: DonationBatch) async throws -> DonationBatchResponse {
        try await send("POST", "v1/donations", body: batch, accepting: [200, 503])
    }

    public func submitContent(_ content: PublicActivityContent, for hash: ActivityHash, token: DeviceToken) async throws -> ContentResponse {
        try await send("PUT", "v1/activities/\(hash.hex)", body: ContentSubmission(token: token, content: content))
    }

    public func search(_ text: String, limit: Int = 10) async throws -> PublicSearchResponse {
        var parts = URLComponents()
        parts.queryItems = [URLQueryItem(name: "q", value: text), URLQueryItem(name: "limit", value: String(limit))]
        return try await send("GET", "v1/search?" + (parts.percentEncodedQuery ?? ""), body: Optional<String>.none)
    }

    public func status() async throws -> PublicIndexStatus {
        try await send("GET", "v1/status", body: Optional<String>.none)
    }

    /// Tells the index a result was opened (its engagement ratio).
    public func reportOpen(_ report: OpenReport) async throws {
        let _: Empty = try await send("POST", "v1/opens", body: report, accepting: [202])
    }

    struct Empty: Decodable {}

    func send<Body: Encodable, Answer: Decodable>(_ method: String, _ path: String, body: Body?, accepting: Set<Int> = [200, 201]) async throws -> Answer {
        let base = serviceURL.absoluteString.hasSuffix("/") ? serviceURL.absoluteString : serviceURL.absoluteString + "/"
        var request = HTTPClientRequest(url: base + path)
        request.method = HTTPMethod(rawValue: method)
        request.headers.add(name: "Accept", value: "application/json")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try PublicIndexJSON.encoder().encode(body)))
        }
        let response: HTTPClientResponse
        let data: Data
        do {
            response = try await http.execute(request, timeout: timeout)
            data = Data(try await response.body.collect(upTo: 8 << 20).readableBytesView)
        } catch {
            throw Failure(status: nil, code: "unreachable", message: "\(serviceURL.absoluteString) did not answer: \(error)")
        }
        let status = Int(response.status.code)
        let retryAfter = response.headers.first(name: "Retry-After").flatMap(Double.init)
        guard accepting.contains(status) else {
            let refusal = try? PublicIndexJSON.decoder().decode(ErrorResponse.self, from: data)
            throw Failure(status: status, code: refusal?.error ?? "http", message: refusal?.message ?? response.status.reasonPhrase, retryAfter: retryAfter)
        }
        if Answer.self == Empty.self, let empty = Empty() as? Answer { return empty }
        do {
            return try PublicIndexJSON.decoder().decode(Answer.self, from: data)
        } catch {
            throw Failure(status: status, code: "badAnswer", message: "the service's answer is not the JSON expected: \(error)")
        }
    }
}
