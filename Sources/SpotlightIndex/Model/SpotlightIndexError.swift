@_exported public import SpotlightErrors

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
/// The package's one error shape (``/SpotlightErrors/CodedError``) with the engine's codes: the message names the
/// item, the limit or the file involved; ``/SpotlightErrors/CodedError/subject`` is the item's identifier when the
/// error is about one item, and ``/SpotlightErrors/CodedError/underlying`` the SQLite or file system error, if any.
public typealias SpotlightIndexError = CodedError<SpotlightIndexErrorCode>

/// The kind of a ``SpotlightIndexError``. New codes may be added.
///
/// ```swift
/// catch let error as SpotlightIndexError where error.code == .storeBusy { retryLater() }
/// ```
public struct SpotlightIndexErrorCode: ErrorCode {
    /// The code's name, as printed and encoded: `"storeBusy"`.
    public let name: String
    /// The code with this name; the engine throws the `static let`s below.
    public init(_ name: String) { self.name = name }

    /// A bundle identifier or index name that cannot name a store (empty, `..`, `/`, NUL, too long).
    public static let invalidStoreName = Self("invalidStoreName")
    /// An item is malformed: empty identifier, wrong type for an attribute, bad name.
    public static let invalidItem = Self("invalidItem")
    /// An item, attribute, identifier or store is over a documented ``StoreLimits`` limit.
    public static let limitExceeded = Self("limitExceeded")
    /// Client state over 250 bytes.
    public static let invalidClientState = Self("invalidClientState")
    /// `endBatch(expectedClientState:…)` found another stored state; nothing changed.
    public static let mismatchedClientState = Self("mismatchedClientState")
    /// A batch was begun twice, or ended without being begun.
    public static let batchState = Self("batchState")
    /// No item has that identifier.
    public static let itemNotFound = Self("itemNotFound")
    /// Another process held the store's write lock past the busy timeout.
    public static let storeBusy = Self("storeBusy")
    /// The store's directory or file cannot be created, opened or read.
    public static let storeUnavailable = Self("storeUnavailable")
    /// SQLite reported corruption while the store was in use; reopen it to recover.
    public static let storeCorrupt = Self("storeCorrupt")
    /// A query string that does not parse; the message gives the column.
    public static let invalidQuery = Self("invalidQuery")
    /// An argument out of its range (negative limit, …).
    public static let invalidArgument = Self("invalidArgument")
    /// A query ran past its time budget (``StoreOptions/queryTimeBudget``); nothing it found was delivered after that.
    public static let queryTooExpensive = Self("queryTooExpensive")
}
