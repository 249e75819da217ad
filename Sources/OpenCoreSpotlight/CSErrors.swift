// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (Apple's global names, spelled as Apple spells them.)

public import Foundation
import SpotlightIndex

/// The error domain of index errors.
public let CSIndexErrorDomain = "CSIndexErrorDomain"
/// The error domain of query errors.
public let CSSearchQueryErrorDomain = "CSSearchQueryErrorDomain"

/// An index error, with Apple's codes.
///
/// ```swift
/// do { try await index.endIndexBatch(expectedClientState: old, newClientState: new) }
/// catch let error as CSIndexError where error.code == .mismatchedClientState { … }
/// ```
public struct CSIndexError: CustomNSError, LocalizedError, Hashable, Sendable {
    /// Apple's numeric codes.
    public enum Code: Int, Sendable, Hashable {
        case unknownError = -1
        case indexUnavailableError = -1000
        case invalidItemError = -1001
        case invalidClientStateError = -1002
        case remoteConnectionError = -1003
        case quotaExceeded = -1004
        case indexingUnsupported = -1005
        case mismatchedClientState = -1006
    }

    public let code: Code
    /// What went wrong, and what to do.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Apple's initializer of an error with a code, as code that throws
    /// Core Spotlight's errors itself writes it (`throw CSIndexError(.invalidItemError)`);
    /// the message is `userInfo`'s `NSLocalizedDescriptionKey`, or names the code.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.init(code, userInfo[NSLocalizedDescriptionKey] as? String ?? "Core Spotlight index error \(code) (\(code.rawValue))")
    }

    public static var errorDomain: String { CSIndexErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    /// The error's user info, as on Apple's error structs.
    public var userInfo: [String: Any] { errorUserInfo }
    public var errorDescription: String? { message }

    public static var unknownError: Code { .unknownError }
    public static var indexUnavailableError: Code { .indexUnavailableError }
    public static var invalidItemError: Code { .invalidItemError }
    public static var invalidClientStateError: Code { .invalidClientStateError }
    public static var remoteConnectionError: Code { .remoteConnectionError }
    public static var quotaExceeded: Code { .quotaExceeded }
    public static var indexingUnsupported: Code { .indexingUnsupported }
    public static var mismatchedClientState: Code { .mismatchedClientState }


    /// The engine's error in Apple's terms.
    init(_ error: any Error) {
        guard let error = error as? SpotlightIndexError else {
            self.init(.unknownError, "\(error)")
            return
        }
        let code: Code = switch error.code {
        case .invalidItem: .invalidItemError
        case .limitExceeded: error.message.contains("maxItemsPerStore") ? .quotaExceeded : .invalidItemError
        case .invalidClientState, .batchState: .invalidClientStateError
        case .mismatchedClientState: .mismatchedClientState
        case .storeBusy, .storeUnavailable, .storeCorrupt, .invalidStoreName: .indexUnavailableError
        default: .unknownError
        }
        self.init(code, error.message)
    }
}

/// A query error, with Apple's codes; an invalid query string completes
/// the query with `.invalidQuery` (−2002).
public struct CSSearchQueryError: CustomNSError, LocalizedError, Hashable, Sendable {
    public enum Code: Int, Sendable, Hashable {
        case unknown = -2000
        case indexUnreachable = -2001
        case invalidQuery = -2002
        case cancelled = -2003
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Apple's initializer of an error with a code (`CSSearchQueryError(.cancelled)`);
    /// the message is `userInfo`'s `NSLocalizedDescriptionKey`, or names the code.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.init(code, userInfo[NSLocalizedDescriptionKey] as? String ?? "Core Spotlight query error \(code) (\(code.rawValue))")
    }

    public static var errorDomain: String { CSSearchQueryErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    /// The error's user info, as on Apple's error structs.
    public var userInfo: [String: Any] { errorUserInfo }
    public var errorDescription: String? { message }

    public static var unknown: Code { .unknown }
    public static var indexUnreachable: Code { .indexUnreachable }
    public static var invalidQuery: Code { .invalidQuery }
    public static var cancelled: Code { .cancelled }

}

/// `catch CSIndexError.invalidItemError`.
public func ~= (code: CSIndexError.Code, error: any Error) -> Bool {
    (error as? CSIndexError)?.code == code
}

/// `catch CSSearchQueryError.cancelled`.
public func ~= (code: CSSearchQueryError.Code, error: any Error) -> Bool {
    (error as? CSSearchQueryError)?.code == code
}
