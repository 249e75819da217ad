public import Foundation

/// How a store is opened and how it behaves.
///
/// ```swift
/// var options = StoreOptions()
/// options.busyTimeout = 2                 // seconds to wait for another process's write
/// options.clock = { fixedNow }            // tests of expiration and decay
/// let store = try SpotlightStore(bundleIdentifier: "com.example.app", options: options)
/// ```
public struct StoreOptions: Sendable {
    /// Limits on items and the store.
    public var limits = StoreLimits()
    /// How the text, rank hint, engagement and recency combine.
    public var ranking = RankingWeights()
    /// How long a write waits for another process to release the store, in seconds. Default 5.
    public var busyTimeout: TimeInterval = 5
    /// Check the file with SQLite's `quick_check` on open (default true). A store
    /// that fails is moved aside and recreated empty, with a reindex requested.
    public var checksIntegrityOnOpen = true
    /// The current time; replace it in tests.
    public var clock: @Sendable () -> Date = { Date() }
    /// The time zone of the query language's `$time` periods (today, this
    /// week…): the system's at the time of each query unless set. Looked up
    /// when a query needs it, not when options are made: finding the
    /// system's zone loads ICU's zone data, a few milliseconds of a
    /// process that opens a store to answer one search.
    public var timeZone: TimeZone {
        get { chosenTimeZone ?? .current }
        set { chosenTimeZone = newValue }
    }
    private var chosenTimeZone: TimeZone?
    /// The first day of the week for `$time.this_week`: 1 = Sunday (Apple's en_US default), 2 = Monday.
    public var firstWeekday = 1
    /// How long one query string may run, in seconds, before it stops with
    /// ``SpotlightIndexErrorCode/queryTooExpensive`` (planning and checking
    /// items included): no pattern or query can hold a reader longer.
    public var queryTimeBudget: TimeInterval = 10
    /// How long an item lives when it has no expiration date: 30 days, as Apple's.
    public var defaultLifetime: TimeInterval = 30 * 24 * 3600
    /// Ranked-index segments up to this many bytes stay inside the SQLite
    /// file; larger ones get a file of their own (tests lower it).
    var rankedInlineLimit = 1 << 20
    /// Segments up to this many bytes are checksummed whole as they are
    /// loaded; larger files once per change (``SegmentVerification``). Tests lower it.
    var rankedChecksumLimit = 1 << 20
    /// Items a rebuild of the ranked index tokenizes into one segment
    /// before it merges them all (tests lower it).
    var rankedRebuildChunk = 50_000
    /// WAL frames (16 KB pages) past which a pool's writer has its WAL
    /// copied back into the file by a thread of its own
    /// (``WALCheckpointer``); 4,096 frames, 64 MB (tests lower it).
    var walCheckpointPages: Int32 = 4_096
    /// Whether a transaction that only inserts builds its segment as it
    /// writes (``ContentsPipeline``); tests turn it off to compare.
    var rankedPipelinesContents = true
    /// Documents past which such a transaction writes the segment of those
    /// it inserted so far before it goes on
    /// (``RankedIndex/partialFlushDocuments``; tests lower it).
    var rankedPartialFlushDocuments = RankedIndex.partialFlushDocuments
    /// Whether verified segment files are checked again in the background
    /// (tests of the load-time checks turn it off; so does a process that
    /// answers one search and exits, such as `spotlight search`, which
    /// leaves the rechecks to the service and maintenance: its rechecks
    /// would read every segment of every store only to be cut short).
    package var rankedBackgroundChecks = true
    /// Whether segments keep the long dense tails they read for the
    /// searches that follow (``PrefixMemo``). A process that answers one
    /// search and exits (`spotlight search`) turns it off: a tail kept is
    /// read whole, every document, where one read for a single search
    /// reads only the blocks that can hold the driving term's documents.
    package var rankedKeepsDenseTails = true
    /// Whether the store's file is opened with one SQLite connection that
    /// reads and writes in turn, instead of a writer and a pool of readers
    /// (GRDB's `DatabaseQueue` rather than `DatabasePool`). Opening costs one
    /// connection, not two (each parses the schema; the pool's writer also
    /// makes sure of the WAL file), but reads wait on writes and on each
    /// other. For a process that opens many stores to answer one search and
    /// exits, as `spotlight search` does; an app or the service keeps the pool.
    package var opensOneConnection = false

    public init() {}
}

/// Why the store asks its app to index everything again.
public enum ReindexReason: String, Sendable, Hashable {
    /// The store had been created before and its file is gone.
    case storeMissing
    /// The store failed SQLite's integrity check or could not be read; the
    /// damaged file was moved aside (see ``SpotlightStore/movedAsideFile``).
    case storeCorrupt
    /// The store was written by a newer OpenSpotlight and cannot be read.
    case incompatibleVersion
}
