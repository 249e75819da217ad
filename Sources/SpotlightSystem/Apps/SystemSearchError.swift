@_exported public import SpotlightErrors

/// An error of the system side: what went wrong and what to do next.
///
/// ```swift
/// do { try launcher.open(reference: "com.example.notes/default/n1") }
/// catch let error as SystemSearchError where error.code == .appNotRegistered { print(error.message) }
/// ```
///
/// The package's one error shape (``CodedError``) with the system layer's codes.
public typealias SystemSearchError = CodedError<SystemSearchErrorCode>

/// The kind of a ``SystemSearchError``; it encodes as its name (`"appNotRegistered"`).
///
/// ```swift
/// catch let error as SystemSearchError where error.code == .launchFailed { print(error.message) }
/// ```
public struct SystemSearchErrorCode: ErrorCode {
    /// The code's name, as printed and encoded: `"appNotRegistered"`.
    public let name: String
    /// The code with this name; the system layer throws the `static let`s below.
    public init(_ name: String) { self.name = name }

    /// A registration or manifest that cannot be used (bad bundle identifier, no command…).
    public static let invalidRegistration = Self("invalidRegistration")
    /// No app with that bundle identifier is registered.
    public static let appNotRegistered = Self("appNotRegistered")
    /// The registry directory cannot be read or written.
    public static let registryUnavailable = Self("registryUnavailable")
    /// A result reference that does not parse, or names nothing stored.
    public static let resultNotFound = Self("resultNotFound")
    /// The app does not continue this kind of activity (type not listed, no "Search in App").
    public static let notContinuable = Self("notContinuable")
    /// The app's command could not be started, or ran past the time limit.
    public static let launchFailed = Self("launchFailed")
    /// The app ran and said (non-zero exit) that it did not handle the activity.
    public static let notHandled = Self("notHandled")
    /// A result's action (call, email, navigate, open) could not be carried out:
    /// the opener (`xdg-open`) is missing, or no application handles the URI.
    public static let actionFailed = Self("actionFailed")
}
