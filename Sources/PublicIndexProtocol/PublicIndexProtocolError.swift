/// Input the public index refuses: which rule it broke, in a sentence a person can act on.
///
/// ```swift
/// do { _ = try ActivityHash(hex: "xyz") }
/// catch let error as PublicIndexProtocolError { print(error.code, error.message) }  // invalidHash …
/// ```
public struct PublicIndexProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule broken.
    public enum Code: String, Sendable, Hashable, Codable {
        /// Not 64 lowercase hexadecimal digits (a SHA-256).
        case invalidHash
        /// A device token that is not 64 hexadecimal digits.
        case invalidToken
        /// A bundle identifier that is not reverse DNS (letters, digits, `-` and `.`, at most 255 bytes).
        case invalidApp
        /// A field over its limit, empty where it must not be, or not an `http`/`https` URL.
        case invalidContent
        /// Content whose canonical public form does not hash to the hash it was sent for.
        case hashMismatch
        /// A batch that is empty, too long, or names one donation twice.
        case invalidBatch
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
