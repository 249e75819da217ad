/// An error of the system side: what went wrong and what to do next.
///
/// ```swift
/// do { try launcher.open(reference: "com.example.notes/default/n1") }
/// catch let error as SystemSearchError where error.code == .appNotRegistered { print(error.message) }
/// ```
public struct SystemSearchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of error.
    public enum Code: String, Sendable, Hashable, Codable {
        /// A registration or manifest that cannot be used (bad bundle identifier, no command…).
        case invalidRegistration
        /// No app with that bundle identifier is registered.
        case appNotRegistered
        /// The registry directory cannot be read or written.
        case registryUnavailable
        /// A result reference that does not parse, or names nothing stored.
        case resultNotFound
        /// The app does not continue this kind of activity (type not listed, no "Search in App").
        case notContinuable
        /// The app's command could not be started, or ran past the time limit.
        case launchFailed
        /// The app ran and said (non-zero exit) that it did not handle the activity.
        case notHandled
        /// A result's action (call, email, navigate, open) could not be carried out:
        /// the opener (`xdg-open`) is missing, or no application handles the URI.
        case actionFailed
    }

    /// The kind of error.
    public var code: Code
    /// A sentence a person can act on.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
