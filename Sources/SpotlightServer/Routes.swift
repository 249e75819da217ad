import Foundation
import Hummingbird
import SpotlightService

/// The HTTP API's routes (version 1) over one ``SpotlightAPI``.
///
/// ```swift
/// let router = Routes(api: api, token: token, listener: .unixSocket).router()
/// ```
/// Every route is listed in ``all`` and documented in `/v1/openapi.json`
/// (``OpenAPIDocument``); a test holds the two together.
struct Routes: Sendable {
    let api: SpotlightAPI
    let token: ServiceToken
    let listener: Listener

    /// Method and path of every route (`{id}` marks a path parameter).
    static let all: [(method: String, path: String)] = [
        ("GET", "/"), ("GET", "/v1/search"), ("GET", "/v1/search/live"), ("POST", "/v1/open"), ("POST", "/v1/search-in-app"),
        ("POST", "/v1/action"), ("POST", "/v1/impressions"), ("GET", "/v1/suggestions/places"), ("GET", "/v1/show"), ("GET", "/v1/explain"), ("GET", "/v1/apps"), ("GET", "/v1/apps/{bundleIdentifier}/icon"),
        ("GET", "/v1/thumbnail"), ("GET", "/v1/health"), ("GET", "/v1/metrics"), ("GET", "/v1/openapi.json"),
    ]

    /// The route a path belongs to, for metrics' labels (a bounded set: unknown paths are "other").
    static func metricName(for path: String) -> String {
        if path.hasPrefix("/v1/apps/") && path.hasSuffix("/icon") { return "/v1/apps/{bundleIdentifier}/icon" }
        return all.contains { $0.path == path } ? path : "other"
    }

    func router() -> Router<ServiceRequestContext> {
        let router = Router(context: ServiceRequestContext.self)
        router.add(middleware: RequestGuard(listener: listener, token: token, limits: api.limits, metrics: api.metrics))
        let api = self.api, token = self.token, listener = self.listener

        router.get("/") { _, _ in SearchPage.response(token: token, listener: listener) }
        router.get("/v1/search") { request, _ in
            let query = try QueryParameters(request.uri.query)
            let found = try api.search(try query.required("q"), resultsPerApp: try query.integer("perApp", default: 3),
                                       webResults: try query.integer("web", default: 3), near: try query.area(), via: "http")
            return JSONBody.response(bytes: try SearchResponseJSON.encode(found))
        }
        router.get("/v1/search/live") { _, _ -> Response in
            throw APIError(.invalidRequest, "/v1/search/live is a WebSocket: send Connection: Upgrade, Upgrade: websocket")
        }
        router.post("/v1/open") { request, context in
            try JSONBody.response(try await api.open(try await JSONBody.decode(API.OpenRequest.self, request, limit: api.limits.maximumBodyBytes)))
        }
        router.post("/v1/search-in-app") { request, _ in
            try JSONBody.response(try await api.searchInApp(try await JSONBody.decode(API.SearchInAppRequest.self, request, limit: api.limits.maximumBodyBytes)))
        }
        router.post("/v1/action") { request, _ in
            try JSONBody.response(try await api.perform(try await JSONBody.decode(API.ActionRequest.self, request, limit: api.limits.maximumBodyBytes)))
        }
        router.post("/v1/impressions") { request, _ in
            try JSONBody.response(try api.recordImpressions(try await JSONBody.decode(API.ImpressionsRequest.self, request, limit: api.limits.maximumBodyBytes)),
                                  status: .accepted)
        }
        router.get("/v1/suggestions/places") { request, _ in
            let query = try QueryParameters(request.uri.query)
            return try JSONBody.response(try api.placeSuggestions(context: query["context"], limit: try query.integer("limit", default: 3)))
        }
        router.get("/v1/show") { request, _ in
            try JSONBody.response(try api.show(try QueryParameters(request.uri.query).required("ref")))
        }
        router.get("/v1/explain") { request, _ in
            let query = try QueryParameters(request.uri.query)
            return try JSONBody.response(try api.explain(try query.required("ref"), text: try query.required("q")))
        }
        router.get("/v1/apps") { _, _ in try JSONBody.response(try api.apps()) }
        router.get("/v1/apps/{bundleIdentifier}/icon") { _, context in
            let (data, type) = try api.icon(try context.parameters.require("bundleIdentifier"))
            return Self.image(data, type)
        }
        router.get("/v1/thumbnail") { request, _ in
            let (data, type) = try api.thumbnail(try QueryParameters(request.uri.query).required("ref"))
            return Self.image(data, type)
        }
        router.get("/v1/health") { _, _ in try JSONBody.response(api.health()) }
        router.get("/v1/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: api.metrics.exposition())))
        }
        router.get("/v1/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.json)))
        }
        return router
    }

    /// An image answer; SVG (which can hold scripts) is sandboxed.
    static func image(_ data: Data, _ type: String) -> Response {
        var headers: HTTPFields = [.contentType: type]
        headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// JSON bodies in and out.
enum JSONBody {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        response(bytes: try encoder.encode(value), status: status)
    }

    /// A body already encoded (``SearchResponseJSON``).
    static func response(bytes: some Sequence<UInt8>, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The body, read up to `limit` bytes, as `T`.
    static func decode<T: Decodable>(_ type: T.Type, _ request: Request, limit: Int) async throws -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch {
            throw APIError(.bodyTooLarge, "the body is larger than \(limit) bytes")
        }
        return try decode(type, Data(buffer.readableBytesView))
    }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch DecodingError.keyNotFound(let key, _) {
            throw APIError(.invalidRequest, "the JSON body lacks \(key.stringValue.debugDescription)")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            throw APIError(.invalidRequest, "the JSON body's \(context.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type")
        } catch {
            throw APIError(.invalidRequest, "the body is not JSON of the expected shape")
        }
    }
}
