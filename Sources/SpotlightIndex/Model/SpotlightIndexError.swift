/// An error of the engine: what went wrong, about what, and what to do next.
///
/// ```swift
/// do {
///     try store.endBatch(expectedClientState: old, newClientState: new)
/// } catch let error as SpotlightIndexError where error.code == .mismatchedClientState {
///     // Another writer committed first: fetch the state and resume from it.
/// }
/// ```
///
/// Modelled on NIOFS's `FileSystemError`: an extensible ``Code`` and a
/// message that names the item, the limit or the file involved.
public struct SpotlightIndexError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of error. New codes may be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        enum Value: String, Sendable, Hashable {
            case invalidStoreName, invalidItem, limitExceeded, invalidClientState
            case mismatchedClientState, batchState, itemNotFound, storeBusy
            case storeUnavailable, storeCorrupt, invalidArgument, invalidQuery
            case queryTooExpensive
        }
        let value: Value
        init(_ value: Value) { self.value = value }
        public var description: String { value.rawValue }

        /// A bundle identifier or index name that cannot name a store (empty, `..`, `/`, NUL, too long).
        public static let invalidStoreName = Code(.invalidStoreName)
        /// An item is malformed: empty identifier, wrong type for an attribute, bad name.
        public static let invalidItem = Code(.invalidItem)
        /// An item, attribute, identifier or store is over a documented ``StoreLimits`` limit.
        public static let limitExceeded = Code(.limitExceeded)
        /// Client state over 250 bytes.
        public static let invalidClientState = Code(.invalidClientState)
        /// `endBatch(expectedClientState:…)` found another stored state; nothing changed.
        public static let mismatchedClientState = Code(.mismatchedClientState)
        /// A batch was begun twice, or ended without being begun.
        public static let batchState = Code(.batchState)
        /// No item has that identifier.
        public static let itemNotFound = Code(.itemNotFound)
        /// Another process held the store's write lock past the busy timeout.
        public static let storeBusy = Code(.storeBusy)
        /// The store's directory or file cannot be created, opened or read.
        public static let storeUnavailable = Code(.storeUnavailable)
        /// SQLite reported corruption while the store was in use; reopen it to recover.
        public static let storeCorrupt = Code(.storeCorrupt)
        /// A query string that does not parse; the message gives the column.
        public static let invalidQuery = Code(.invalidQuery)
        /// An argument out of its range (negative limit, …).
        public static let invalidArgument = Code(.invalidArgument)
        /// A query ran past its time budget (``StoreOptions/queryTimeBudget``); nothing it found was delivered after that.
        public static let queryTooExpensive = Code(.queryTooExpensive)
    }

    /// The kind of error.
    public var code: Code
    /// A sentence a person can act on.
    public var message: String
    /// The item the error is about, if any.
    public var itemIdentifier: String?
    /// The underlying error (SQLite, file system), if any.
    public var underlyingDescription: String?

    public init(_ code: Code, _ message: String, itemIdentifier: String? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.itemIdentifier = itemIdentifier
        self.underlyingDescription = underlying.map { String(describing: $0) }
    }

    public var description: String {
        var text = message
        if let underlyingDescription { text += " (\(underlyingDescription))" }
        return text
    }
}
