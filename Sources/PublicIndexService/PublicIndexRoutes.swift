import Foundation
import Hummingbird
import Logging
import NIOCore
import PublicIndex
import PublicIndexProtocol

/// The handlers of ``PublicIndexServer``: decode, check, call the index, answer.
struct PublicIndexRoutes: Sendable {
    let server: PublicIndexServer

    var index: PublicIndex { server.index }

    func add(to router: Router<BasicRequestContext>) {
        router.post("/v1/donations") { request, _ in await answer { try await donate(request) } }
        router.put("/v1/activities/:hash") { request, context in
            await answer { try await submit(request, hash: context.parameters.get("hash") ?? "") }
        }
        router.get("/v1/search") { request, _ in await answer { try await search(request) } }
        router.post("/v1/opens") { request, _ in await answer { try await open(request) } }
        router.get("/v1/status") { _, _ in await answer { try Self.json(try await index.status()) } }
    }

    // MARK: - Handlers

    func donate(_ request: Request) async throws -> Response {
        let batch = try await decode(DonationBatch.self, from: request)
        try batch.validate()
        try spend(batch.donations.count, token: batch.token)
        let outcomes = try await index.donate(batch)
        let allDeferred = outcomes.allSatisfy { $0.status == .deferred }
        var response = try Self.json(DonationBatchResponse(outcomes: outcomes), status: allDeferred ? .serviceUnavailable : .ok)
        if allDeferred { response.headers[.retryAfter] = "5" }
        return response
    }

    func submit(_ request: Request, hash text: String) async throws -> Response {
        let hash = try ActivityHash(hex: text)
        let submission = try await decode(ContentSubmission.self, from: request)
        try spend(1, token: submission.token)
        let status = try await index.submitContent(submission.content, for: hash, token: submission.token)
        return try Self.json(ContentResponse(status: status), status: status == .stored ? .created : .ok)
    }

    func search(_ request: Request) async throws -> Response {
        let parameters = request.uri.queryParameters
        guard let query = parameters["q"].map(String.init), !query.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw Refusal(.badRequest, "missing", "give the text to search as ?q=")
        }
        guard query.utf8.count <= 512 else { throw Refusal(.badRequest, "tooLong", "a search is at most 512 bytes") }
        let limit = parameters["limit"].flatMap { Int(String($0)) } ?? 10
        guard (1...PublicIndex.maximumResults).contains(limit) else {
            throw Refusal(.badRequest, "badLimit", "limit is 1 to \(PublicIndex.maximumResults)")
        }
        return try Self.json(try await index.search(query, limit: limit))
    }

    func open(_ request: Request) async throws -> Response {
        let report = try await decode(OpenReport.self, from: request)
        guard !report.site.isEmpty, report.site.utf8.count <= 255, !report.key.isEmpty, report.key.utf8.count <= 2_048 else {
            throw Refusal(.badRequest, "invalidContent", "an open names a result's site and key as search gave them")
        }
        try spend(1, token: report.token)
        index.noteOpen(site: report.site, key: report.key)
        return Response(status: .accepted)
    }

    // MARK: - Helpers

    /// Charges the token's flood budget, or refuses with 429.
    func spend(_ units: Int, token: DeviceToken) throws {
        if let wait = server.limiter.take(units, for: server.secret.memoryKey(of: token, purpose: "flood")) {
            let seconds = wait.isFinite ? Int(wait.rounded(.up)) : 3_600
            throw Refusal(.tooManyRequests, "tooManyRequests", "this device sent more than its share; try again in \(seconds) s", retryAfter: seconds)
        }
    }

    /// The body, at most ``PublicIndexServer/Limits/maximumBodyBytes``, as JSON.
    func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        let maximum = server.limits.maximumBodyBytes
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maximum {
            throw Refusal(.contentTooLarge, "tooLarge", "the body is over \(maximum) bytes")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximum)
        } catch {
            throw Refusal(.contentTooLarge, "tooLarge", "the body is over \(maximum) bytes")
        }
        do {
            return try PublicIndexJSON.decoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw Refusal(.badRequest, "badJSON", Self.explain(error))
        }
    }

    static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context): return "\(path(context).isEmpty ? "the body" : path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context): return "missing \((path(context).isEmpty ? "" : path(context) + ".") + key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(path(context)): wrong type"
        @unknown default: return "the body is not the JSON expected"
        }
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try PublicIndexJSON.encoder().encode(value)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Runs a handler; turns each kind of refusal into its status and an ``ErrorResponse``.
    func answer(_ handler: () async throws -> Response) async -> Response {
        do {
            return try await handler()
        } catch let refusal as Refusal {
            return refusal.response
        } catch let error as PublicIndexProtocolError {
            let status: HTTPResponse.Status = error.code == .hashMismatch ? .unprocessableContent : .badRequest
            return Refusal(status, error.code.name, error.message).response
        } catch let error as PublicIndexError {
            switch error.code {
            case .notWanted: return Refusal(.conflict, "notWanted", error.message).response
            case .invalidInput: return Refusal(.badRequest, "invalidInput", error.message).response
            case .shardUnavailable: return Refusal(.serviceUnavailable, "shardUnavailable", error.message, retryAfter: 5).response
            default:
                server.logger.error("request failed: \(error.message)")
                return Refusal(.internalServerError, error.code.name, "the index failed; the error is in the service's log").response
            }
        } catch {
            server.logger.error("request failed: \(error)")
            return Refusal(.internalServerError, "internal", "the index failed; the error is in the service's log").response
        }
    }
}

/// A 4xx/5xx answer with its reason.
struct Refusal: Error {
    var status: HTTPResponse.Status
    var body: ErrorResponse
    var retryAfter: Int?

    init(_ status: HTTPResponse.Status, _ code: String, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        body = ErrorResponse(error: code, message: message)
        self.retryAfter = retryAfter
    }

    var response: Response {
        var response = (try? PublicIndexRoutes.json(body, status: status)) ?? Response(status: status)
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }
}
