@_exported public import SpotlightErrors

/// Input the public index refuses: which rule it broke, in a sentence a person can act on.
///
/// ```swift
/// do { _ = try ActivityHash(hex: "xyz") }
/// catch let error as PublicIndexProtocolError { print(error.code, error.message) }  // invalidHash …
/// ```
///
/// The package's one error shape (``CodedError``) with the protocol's codes.
public typealias PublicIndexProtocolError = CodedError<PublicIndexProtocolErrorCode>

/// The rule a ``PublicIndexProtocolError`` is about; it encodes as its name (`"hashMismatch"`),
/// the code of the HTTP API's refusals.
///
/// ```swift
/// catch let error as PublicIndexProtocolError where error.code == .hashMismatch { print(error.message) }
/// ```
public struct PublicIndexProtocolErrorCode: ErrorCode {
    /// The code's name, as printed and encoded: `"invalidHash"`.
    public let name: String
    /// The code with this name; the protocol's checks throw the `static let`s below.
    public init(_ name: String) { self.name = name }

    /// Not 64 lowercase hexadecimal digits (a SHA-256).
    public static let invalidHash = Self("invalidHash")
    /// A device token that is not 64 hexadecimal digits.
    public static let invalidToken = Self("invalidToken")
    /// A bundle identifier that is not reverse DNS (letters, digits, `-` and `.`, at most 255 bytes).
    public static let invalidApp = Self("invalidApp")
    /// A field over its limit, empty where it must not be, or not an `http`/`https` URL.
    public static let invalidContent = Self("invalidContent")
    /// Content whose canonical public form does not hash to the hash it was sent for.
    public static let hashMismatch = Self("hashMismatch")
    /// A batch that is empty, too long, or names one donation twice.
    public static let invalidBatch = Self("invalidBatch")
}
