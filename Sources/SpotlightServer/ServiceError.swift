/// An error of the service itself (not of a request): where it cannot listen, or keep its files.
///
/// ```swift
/// do { try await SpotlightServer(configuration: configuration).run() }
/// catch let error as ServiceError where error.code == .alreadyRunning { print(error.message) }
/// ```
public struct ServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of error.
    public enum Code: String, Sendable, Hashable {
        /// The runtime directory is a link, someone else's, or cannot be made.
        case unsafeRuntimeDirectory
        /// Another service answers on the socket already.
        case alreadyRunning
        /// The token file cannot be read or written privately.
        case tokenUnavailable
        /// The service cannot be reached (not running, or an old socket).
        case notRunning
        /// The service answered something that is not its API.
        case badResponse
        /// The desktop files cannot be written or removed.
        case installFailed
    }

    public var code: Code
    /// A sentence a person can act on.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
