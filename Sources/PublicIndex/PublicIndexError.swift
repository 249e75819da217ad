/// An error of the public index: what went wrong and what to do next.
///
/// ```swift
/// do { try await index.submitContent(content, for: hash, donor: token) }
/// catch let error as PublicIndexError where error.code == .notWanted { print(error.message) }
/// ```
public struct PublicIndexError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable, Codable {
        /// Input that breaks a rule of the protocol (bad hash, content that does not match it…).
        case invalidInput
        /// Content for a hash that has not reached the threshold: it is not stored.
        case notWanted
        /// The shard holding the data did not answer: try again later (nothing was changed there).
        case shardUnavailable
        /// The database refused or failed a statement.
        case database
        /// A cluster could not be created, started or stopped.
        case cluster
        /// A configuration that cannot work (a bad URL, a layout that differs from the stored one).
        case configuration
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
