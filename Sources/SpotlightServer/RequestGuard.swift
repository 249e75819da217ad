import Foundation
import HTTPTypes
import Hummingbird

/// In front of every route: the origin policy of the listener (``Listener``),
/// the token on every POST, bounded bodies, JSON errors with stable codes for
/// everything that fails (unknown routes too), security headers, and metrics.
struct RequestGuard: RouterMiddleware {
    typealias Context = ServiceRequestContext

    let listener: Listener
    let token: ServiceToken
    let limits: ServiceLimits
    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let clock = ContinuousClock()
        let start = clock.now
        var response: Response
        do {
            try check(request)
            if case .loopback(let port) = listener, let refusal = LoopbackPeer.refusal(remote: context.remoteAddress, port: port) { throw refusal }
            response = try await next(request, context)
        } catch {
            response = try Self.errorResponse(error, request: request, context: context)
        }
        Self.secure(&response.headers)
        metrics.request(route: Routes.metricName(for: request.uri.path), status: response.status.code, seconds: (clock.now - start).seconds)
        return response
    }

    private func check(_ request: Request) throws {
        if let refusal = listener.refusal(authority: request.head.authority, request.headers) { throw refusal }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limits.maximumBodyBytes {
            throw APIError(.bodyTooLarge, "the body is \(length) bytes; at most \(limits.maximumBodyBytes)")
        }
        switch request.method {
        case .get, .head:
            return
        case .post:
            let authorization = request.headers[.authorization] ?? ""
            guard authorization.hasPrefix("Bearer "), token.matches(String(authorization.dropFirst("Bearer ".count))) else {
                throw APIError(.unauthorized, "POST requests need Authorization: Bearer <token>, the token in the service's 0600 token file (spotlight serve prints where)")
            }
            let type = request.headers[.contentType]?.lowercased() ?? ""
            guard type.hasPrefix("application/json") else {
                throw APIError(.invalidRequest, "POST bodies are JSON: send Content-Type: application/json")
            }
        default:
            throw APIError(.methodNotAllowed, "\(request.method.rawValue) is not allowed here (no CORS: other origins cannot call the service)")
        }
    }

    /// Any error as the API's JSON error.
    static func errorResponse(_ error: any Error, request: Request, context: Context) throws -> Response {
        let apiError: APIError
        if let error = error as? HTTPError {
            switch error.status {
            case .notFound: apiError = APIError(.notFound, "no route \(request.method.rawValue) \(request.uri.path); see /v1/openapi.json")
            case .methodNotAllowed: apiError = APIError(.methodNotAllowed, "\(request.method.rawValue) is not allowed on \(request.uri.path)")
            case .contentTooLarge: apiError = APIError(.bodyTooLarge, "the body is larger than \(context.maxUploadSize) bytes")
            default: apiError = APIError(.invalidRequest, error.body ?? error.status.reasonPhrase)
            }
        } else {
            apiError = APIError(error)
        }
        return try apiError.response(from: request, context: context)
    }

    /// Headers every answer carries: nothing is cached, sniffed, framed or referred.
    static func secure(_ headers: inout HTTPFields) {
        headers[.xContentTypeOptions] = "nosniff"
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        if headers[.contentSecurityPolicy] == nil {
            headers[.contentSecurityPolicy] = "default-src 'none'; frame-ancestors 'none'"
        }
    }
}
