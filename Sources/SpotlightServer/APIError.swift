import Foundation
public import Hummingbird
import SpotlightIndex
import SpotlightSystem
import SpotlightService

/// An error answer of the HTTP API: a status, a stable code and a sentence,
/// as JSON `{"error": {"code": "resultNotFound", "message": "…"}}`.
///
/// ```swift
/// throw APIError(.queryTooLong, "the query is 1,204 bytes; at most 1,024")
/// ```
///
/// Codes are part of the API (`/v1/openapi.json` lists them): clients branch
/// on the code, people read the message.
public struct APIError: HTTPResponseError, Sendable, Hashable {
    /// The stable codes.
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        case invalidRequest, queryTooLong, bodyTooLarge, unauthorized, forbiddenOrigin, notFound, methodNotAllowed
        case appNotRegistered, resultNotFound, notContinuable, launchFailed, notHandled, actionFailed
        case registryUnavailable, invalidRegistration, storeUnavailable, internalError

        /// The HTTP status the code is sent with.
        public var status: HTTPResponse.Status {
            switch self {
            case .invalidRequest, .invalidRegistration: .badRequest
            case .queryTooLong: .uriTooLong
            case .bodyTooLarge: .contentTooLarge
            case .unauthorized: .unauthorized
            case .forbiddenOrigin: .forbidden
            case .notFound, .appNotRegistered, .resultNotFound: .notFound
            case .methodNotAllowed: .methodNotAllowed
            case .notContinuable: .conflict
            case .launchFailed, .notHandled, .actionFailed: .badGateway
            case .registryUnavailable, .storeUnavailable: .serviceUnavailable
            case .internalError: .internalServerError
            }
        }
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var status: HTTPResponse.Status { code.status }

    /// The JSON body.
    public struct Body: Codable, Sendable, Hashable {
        public struct Detail: Codable, Sendable, Hashable {
            public var code: String
            public var message: String
        }
        public var error: Detail
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = (try? JSONEncoder().encode(Body(error: .init(code: code.rawValue, message: message)))) ?? Data()
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if code == .unauthorized { headers[.wwwAuthenticate] = "Bearer realm=\"openspotlight\"" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The API error for an error of the system layer or the engine.
    public init(_ error: any Error) {
        switch error {
        case let error as APIError:
            self = error
        case let error as SystemSearchError:
            let code: Code = switch error.code {
            case .invalidRegistration: .invalidRegistration
            case .appNotRegistered: .appNotRegistered
            case .registryUnavailable: .registryUnavailable
            case .resultNotFound: .resultNotFound
            case .notContinuable: .notContinuable
            case .launchFailed: .launchFailed
            case .notHandled: .notHandled
            case .actionFailed: .actionFailed
            default: .internalError  // a code added to the system layer and not yet to the API
            }
            self.init(code, error.message)
        case let error as SpotlightIndexError:
            switch error.code {
            case .invalidStoreName, .invalidArgument, .invalidQuery: self.init(.invalidRequest, error.description)
            case .itemNotFound: self.init(.resultNotFound, error.description)
            default: self.init(.storeUnavailable, error.description)
            }
        default:
            self.init(.internalError, "\(error)")
        }
    }
}
