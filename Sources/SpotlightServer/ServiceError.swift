@_exported public import SpotlightErrors

/// An error of the service itself (not of a request): where it cannot listen, or keep its files.
///
/// ```swift
/// do { try await SpotlightServer(configuration: configuration).run() }
/// catch let error as ServiceError where error.code == .alreadyRunning { print(error.message) }
/// ```
///
/// The package's one error shape (``CodedError``) with the service's codes.
public typealias ServiceError = CodedError<ServiceErrorCode>

/// The kind of a ``ServiceError``.
///
/// ```swift
/// catch let error as ServiceError where error.code == .notRunning { print("start it with spotlight serve") }
/// ```
public struct ServiceErrorCode: ErrorCode {
    /// The code's name, as printed and encoded: `"alreadyRunning"`.
    public let name: String
    /// The code with this name; the service throws the `static let`s below.
    public init(_ name: String) { self.name = name }

    /// The runtime directory is a link, someone else's, or cannot be made.
    public static let unsafeRuntimeDirectory = Self("unsafeRuntimeDirectory")
    /// Another service answers on the socket already.
    public static let alreadyRunning = Self("alreadyRunning")
    /// The token file cannot be read or written privately.
    public static let tokenUnavailable = Self("tokenUnavailable")
    /// The service cannot be reached (not running, or an old socket).
    public static let notRunning = Self("notRunning")
    /// The service answered something that is not its API.
    public static let badResponse = Self("badResponse")
    /// The desktop files cannot be written or removed.
    public static let installFailed = Self("installFailed")
}
