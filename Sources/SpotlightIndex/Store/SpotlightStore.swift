public import Foundation
import GRDB
import Logging
import Synchronization

/// One app's search index: a durable SQLite store of items, searched as a
/// user types and ranked by text, the app's hint, engagement and recency.
///
/// ```swift
/// let store = try SpotlightStore(bundleIdentifier: "com.example.grocer", indexName: "produce")
/// if store.pendingReindex != nil {
///     try store.index(allMyItems())          // the store was lost: index everything again
///     try store.acknowledgeReindex()
/// }
/// var apple = SearchableItem(uniqueIdentifier: "apple", contentType: "public.item")
/// apple.attributes["title"] = .string("Apple")
/// apple.attributes["contentDescription"] = .string("Crisp, sweet, grown in Normandy")
/// try store.index([apple])
/// let results = try store.search("appl")     // every word must match, the last as a prefix
/// print(results.first?.item.uniqueIdentifier, results.first?.score.explanation)
/// ```
///
/// One store per (bundle identifier, index name), in
/// `<root>/<bundle identifier>/<index name>.sqlite` (see ``StoreLocation``).
/// A store is safe to use from any thread: readers never wait for the
/// writer (SQLite WAL), writes apply in the order they were submitted, and
/// two processes writing the same store take turns, each waiting up to
/// ``StoreOptions/busyTimeout`` before failing with
/// ``SpotlightIndexErrorCode/storeBusy``.
///
/// ## Topics
///
/// ### Writing items
/// - ``index(_:)``
/// - ``prepare(_:)``
/// - ``index(prepared:)``
/// - ``deleteItems(withIdentifiers:)``
/// - ``deleteItems(inDomains:)``
/// - ``deleteAllItems()``
///
/// ### Batches
/// - ``beginBatch()``
/// - ``endBatch(clientState:)``
/// - ``endBatch(expectedClientState:newClientState:)``
/// - ``lastClientState()``
///
/// ### Searching
/// - ``search(_:limit:statistics:fetching:)``
/// - ``recordEngagement(_:itemIdentifier:at:)``
///
/// ### Expiration
/// - ``itemsExpiring(within:)``
/// - ``purgeExpiredItems()``
///
/// ### Lost stores
/// - ``pendingReindex``
/// - ``acknowledgeReindex()``
public final class SpotlightStore: Sendable {
    /// The app that owns the store.
    public let bundleIdentifier: String
    /// The index's name within the app (`"default"` for Apple's default index).
    public let indexName: String
    /// The store's SQLite file; nil in memory.
    public let fileURL: URL?
    /// Where a damaged file was moved when this store was opened, if it was.
    public let movedAsideFile: URL?
    /// True when the store's file or folder cannot be written (a read-only
    /// file system, or permissions): it is read as it is, and every write
    /// fails with `.storeUnavailable`.
    public let isReadOnly: Bool
    /// The options the store was opened with.
    public let options: StoreOptions

    let writer: any DatabaseWriter
    /// Where reads go first (``ReaderSlots``); nil: through `writer`.
    let readers: ReaderSlots?
    /// Checkpoints the writer's WAL off the writer; nil for one connection or memory.
    let checkpointer: WALCheckpointer?
    let validator: ItemValidator
    /// The open batch's writes (``beginBatch()``); nil without one.
    let batch = Mutex<BatchSpill?>(nil)
    let ranked: RankedIndex
    let logger: Logger

    /// Opens (creating if needed) the store of an app's index.
    ///
    /// Opening a store whose file was lost, or is damaged, gives an empty
    /// store with ``pendingReindex`` set; a damaged file is moved aside, never
    /// deleted.
    /// - Throws: ``SpotlightIndexError`` with `.invalidStoreName` for names
    ///   that cannot make a path, `.storeUnavailable` when the directory or
    ///   file cannot be used.
    public convenience init(
        bundleIdentifier: String,
        indexName: String = "default",
        location: StoreLocation = .automatic,
        options: StoreOptions = StoreOptions()
    ) throws {
        try StoreName.validateIndexName(indexName)
        try self.init(bundleIdentifier: bundleIdentifier, checkedIndexName: indexName, location: location, options: options)
    }

    /// Opens a store whose index name is valid or one of the engine's
    /// reserved names (``UserActivityStore/indexName``).
    init(bundleIdentifier: String, checkedIndexName indexName: String, location: StoreLocation, options: StoreOptions) throws {
        try StoreName.validateBundleIdentifier(bundleIdentifier, allowingReserved: indexName == StoreName.webIndexName)
        self.bundleIdentifier = bundleIdentifier
        self.indexName = indexName
        self.options = options
        self.validator = ItemValidator(limits: options.limits, columnWeights: DocumentTokens.ColumnWeights(options.ranking))
        self.logger = Logger(label: "openspotlight.index.\(bundleIdentifier).\(indexName)")
        let opened = try StoreOpener(bundleIdentifier: bundleIdentifier, indexName: indexName,
                                     location: location, options: options).open()
        self.writer = opened.writer
        self.readers = opened.readers
        self.checkpointer = opened.checkpointer
        self.fileURL = opened.fileURL
        self.movedAsideFile = opened.movedAside
        self.ranked = RankedIndex(directory: opened.fileURL.map(RankedIndex.directory(forStore:)),
                                  weights: options.ranking, inlineLimit: options.rankedInlineLimit,
                                  checksumLimit: options.rankedChecksumLimit, backgroundChecks: options.rankedBackgroundChecks,
                                  keepsDenseTails: options.rankedKeepsDenseTails,
                                  rebuildChunk: options.rankedRebuildChunk, pipelinesContents: options.rankedPipelinesContents,
                                  partialFlushDocuments: options.rankedPartialFlushDocuments,
                                  writer: opened.writer, clock: options.clock)
        if let reason = opened.reindexReason {
            logger.warning("store needs a full reindex: \(reason.rawValue)")
        }
        isReadOnly = opened.readOnly
        if !isReadOnly {
            try prepareRankedIndex()
            _ = try? purgeExpiredItems()
        }
    }

    /// True when the store's file exists (opening a store creates it).
    ///
    /// ```swift
    /// if !SpotlightStore.exists(bundleIdentifier: "com.example.notes") { print("nothing indexed yet") }
    /// ```
    public static func exists(bundleIdentifier: String, indexName: String = "default", location: StoreLocation = .automatic) -> Bool {
        guard (try? StoreName.validateBundleIdentifier(bundleIdentifier)) != nil, (try? StoreName.validateIndexName(indexName)) != nil,
              let file = location.filePath(of: bundleIdentifier, index: indexName) else { return false }
        return StorePath.kind(file) != .missing // a link counts: opening it says why it is refused
    }

    /// The names of an app's indexes that have a store file, sorted.
    ///
    /// ```swift
    /// SpotlightStore.indexNames(bundleIdentifier: "com.example.notes")  // ["default", "notes"]
    /// ```
    public static func indexNames(bundleIdentifier: String, location: StoreLocation = .automatic) -> [String] {
        guard let root = location.rootDirectory, (try? StoreName.validateBundleIdentifier(bundleIdentifier)) != nil else { return [] }
        let directory = root.appendingPathComponent(bundleIdentifier, isDirectory: true)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".sqlite") }.map { String($0.dropLast(".sqlite".count)) }
            .filter { (try? StoreName.validateIndexName($0)) != nil }.sorted()
    }

    /// The app's indexes that exist or once existed: those with a store
    /// file, and those whose file is gone but which the registry remembers
    /// (opening one of those gives an empty store asking for a reindex).
    public static func knownIndexNames(bundleIdentifier: String, location: StoreLocation = .automatic) -> [String] {
        guard let root = location.rootDirectory, (try? StoreName.validateBundleIdentifier(bundleIdentifier)) != nil else { return [] }
        let registry = root.appendingPathComponent(".registry", isDirectory: true).appendingPathComponent(bundleIdentifier, isDirectory: true)
        let remembered = ((try? FileManager.default.contentsOfDirectory(atPath: registry.path)) ?? [])
            .filter { (try? StoreName.validateIndexName($0)) != nil }
        return Array(Set(indexNames(bundleIdentifier: bundleIdentifier, location: location) + remembered)).sorted()
    }

    /// A private store in memory, for tests and previews.
    public static func inMemory(bundleIdentifier: String = "org.openspotlight.memory", indexName: String = "default",
                                options: StoreOptions = StoreOptions()) throws -> SpotlightStore {
        try SpotlightStore(bundleIdentifier: bundleIdentifier, indexName: indexName, location: .inMemory, options: options)
    }

    /// The current time by the store's clock.
    var now: Date { options.clock() }

    /// Why the app must index all its items again, until it calls
    /// ``acknowledgeReindex()``. Survives restarts.
    public var pendingReindex: ReindexReason? {
        get throws {
            try read { db in try db.meta("pending_reindex", as: String.self).flatMap(ReindexReason.init(rawValue:)) }
        }
    }

    deinit {
        // Other connections first: the pool's last one then checkpoints the
        // WAL into the file, and leaves it one frame long (``KeptJournal``).
        checkpointer?.close()
        readers?.close()
        // Not while a merge holds the pool: it writes on after this, and the WAL
        // would be kept as long as it leaves it (GRDB then writes at the next open, as before).
        if !isReadOnly, ranked.mergesIdle, let pool = writer as? DatabasePool { KeptJournal.prepareForClose(pool, now: now) }
    }

    /// Says the app has indexed everything again after ``pendingReindex``.
    public func acknowledgeReindex() throws {
        try write { db in try db.setMeta("pending_reindex", nil) }
    }

    // MARK: - Database access

    /// One deferred read transaction around `body`, begun and ended through
    /// cached statements. GRDB's `read` compiles `BEGIN` and `COMMIT` anew
    /// and opens a savepoint scope each time: a system search reads every
    /// store once per keystroke, and that was ~12% of a keystroke that
    /// finds a rare word (`spotlight-bench service --in-process`).
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try memoizedRead({ db, _ in try body(db) })
    }

    /// ``read(_:)`` with the ``ReadMemo`` of the reader slot it runs on,
    /// holding only what was read since the store last changed; nil on the
    /// pool's readers.
    func memoizedRead<T>(_ body: (Database, ReadMemo?) throws -> T) throws -> T {
        func transaction(_ db: Database, began: (Database) throws -> ReadMemo? = { _ in nil }) throws -> T {
            try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
            let value: T
            do {
                let memo = try began(db)
                value = try body(db, memo)
                try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
            } catch {
                // (SQLite may have ended the transaction itself.)
                if db.isInsideTransaction { try? db.cachedStatement(sql: "ROLLBACK TRANSACTION").execute() }
                throw error
            }
            return value
        }
        do {
            // A free reader of the store's own, else the pool's (``ReaderSlots``).
            if let readers, let value = try readers.read({ db, began in try transaction(db, began: began) }) { return value }
            return try writer.unsafeRead { db in try transaction(db) }
        } catch { throw Self.translate(error, fileURL: fileURL) }
    }

    /// One IMMEDIATE transaction, so that two processes queue on the
    /// write lock instead of failing to upgrade a read lock.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.writeWithoutTransaction { db in
                // The ranked index's bookkeeping stays inside the writer's
                // serial access, so no other transaction interleaves.
                var result: T?
                do {
                    // Phases for WriteProfile.
                    try WriteProfile.measure("transaction") {
                        try WriteProfile.measure("begin") { try db.beginTransaction(.immediate) }
                        do {
                            try ranked.begin(db)
                            result = try WriteProfile.measure("body") { try body(db) }
                            try WriteProfile.measure("flush") { try ranked.flush(db) }
                            try WriteProfile.measure("commit") { try db.commit() }
                        } catch {
                            try? db.rollback()
                            throw error
                        }
                    }
                } catch {
                    ranked.rolledBack()
                    throw error
                }
                ranked.committed()
                return result!
            }
        } catch {
            throw Self.translate(error, fileURL: fileURL)
        }
    }

    static func translate(_ error: any Error, fileURL: URL?) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        let file = fileURL?.path ?? "in-memory store"
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return SpotlightIndexError(.storeBusy, "another process is writing \(file) and did not finish within the busy timeout; try again, or raise StoreOptions.busyTimeout", underlying: error)
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return SpotlightIndexError(.storeCorrupt, "\(file) is damaged; open the store again to move it aside and start a reindex", underlying: error)
        case .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM:
            return SpotlightIndexError(.storeUnavailable, "cannot write \(file): check the disk and its permissions", underlying: error)
        default:
            return SpotlightIndexError(.storeUnavailable, "SQLite failed on \(file)", underlying: error)
        }
    }
}
