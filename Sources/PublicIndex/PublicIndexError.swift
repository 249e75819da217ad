@_exported public import SpotlightErrors

/// An error of the public index: what went wrong and what to do next.
///
/// ```swift
/// do { try await index.submitContent(content, for: hash, donor: token) }
/// catch let error as PublicIndexError where error.code == .notWanted { print(error.message) }
/// ```
///
/// The package's one error shape (``CodedError``) with the public index's codes.
public typealias PublicIndexError = CodedError<PublicIndexErrorCode>

/// The kind of a ``PublicIndexError``; it encodes as its name (`"notWanted"`), the code of the HTTP API's refusals.
///
/// ```swift
/// catch let error as PublicIndexError where error.code == .shardUnavailable { try await retryLater() }
/// ```
public struct PublicIndexErrorCode: ErrorCode {
    /// The code's name, as printed and encoded: `"notWanted"`.
    public let name: String
    /// The code with this name; the public index throws the `static let`s below.
    public init(_ name: String) { self.name = name }

    /// Input that breaks a rule of the protocol (bad hash, content that does not match it…).
    public static let invalidInput = Self("invalidInput")
    /// Content for a hash that has not reached the threshold: it is not stored.
    public static let notWanted = Self("notWanted")
    /// The shard holding the data did not answer: try again later (nothing was changed there).
    public static let shardUnavailable = Self("shardUnavailable")
    /// The database refused or failed a statement.
    public static let database = Self("database")
    /// A cluster could not be created, started or stopped.
    public static let cluster = Self("cluster")
    /// A configuration that cannot work (a bad URL, a layout that differs from the stored one).
    public static let configuration = Self("configuration")
}
