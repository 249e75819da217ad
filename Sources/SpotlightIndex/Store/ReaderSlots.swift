import GRDB
import GRDBSQLite
import Synchronization

/// A few read-only connections of a store's own, beside its GRDB pool, for
/// the reads that come many times a second: a system search reads every
/// store once per keystroke.
///
/// Taking a reader from GRDB's pool goes through a barrier queue, a
/// semaphore, a dispatch group, a lock, and a key path built for every
/// call (`first(where: \.isAvailable)`): ~37,000 instructions a read,
/// ~0.7M of a keystroke's ~7.8M over 20 stores. Here a read takes the
/// first free slot with one atomic exchange and runs on its connection
/// (a `DatabaseQueue`, opened read-only on the store's file the first
/// time the slot is used, configured as the pool's readers are); with
/// every slot busy it reads through the pool as before. The read is the
/// same as the pool's: a deferred transaction of its own on a connection
/// of its own, so it sees every write committed before it began.
///
/// ```swift
/// let slots = ReaderSlots(path: file.path, configuration: readerConfiguration, count: 2)
/// let count = try slots.read { db, began in
///     try db.execute(sql: "BEGIN DEFERRED TRANSACTION"); _ = try began(db)
///     defer { try? db.execute(sql: "COMMIT") }
///     return try Int.fetchOne(db, sql: "SELECT count(*) FROM items")
/// } ?? pool.read { … }
/// ```
final class ReaderSlots: Sendable {
    private final class Slot: @unchecked Sendable {  // `queue` and `schemaVersion`: only the thread holding `busy`
        let busy = Atomic<Bool>(false)
        /// Opened on first use.
        var queue: DatabaseQueue?
        /// The schema version GRDB's schema cache on `queue` was made at.
        var schemaVersion: Int32 = -1
        /// What its reads keep while the store is unchanged.
        let memo = ReadMemo()
    }

    private let path: String
    private let configuration: Configuration
    private let slots: [Slot]

    /// Slots per store: the cores a system search reads stores on.
    static let count = 2

    init(path: String, configuration: Configuration, count: Int = ReaderSlots.count) {
        self.path = path
        var configuration = configuration
        configuration.readonly = true
        self.configuration = configuration
        slots = (0..<max(1, count)).map { _ in Slot() }
    }

    /// Closes the slots' connections, before the store's pool closes its own:
    /// the last connection to close checkpoints the WAL into the file and
    /// removes it, which a read-only one cannot do.
    func close() {
        for slot in slots {
            // Waits for a read in progress (a store is closed when nothing holds it, so none is).
            while !slot.busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {}
            slot.queue = nil
            slot.busy.store(false, ordering: .releasing)
        }
    }

    /// Runs `body` on a free slot's connection; nil when every slot is
    /// busy (the caller reads through its pool then). `body` calls the
    /// closure it is given once its read transaction has begun: GRDB's
    /// cache of the schema (`tableExists`…) is cleared when the schema
    /// changed since this connection last read. A pool's readers do so on
    /// their own; a `DatabaseQueue` expects to be its file's only writer
    /// and would keep saying a table some other connection made is missing.
    ///
    /// The closure returns the slot's ``ReadMemo``, emptied if the store
    /// changed since the slot's last read (nil when SQLite cannot say).
    func read<T>(_ body: (Database, _ transactionBegan: (Database) throws -> ReadMemo?) throws -> T) throws -> T? {
        for slot in slots where slot.busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            defer { slot.busy.store(false, ordering: .releasing) }
            let queue: DatabaseQueue
            if let opened = slot.queue {
                queue = opened
            } else {
                queue = try DatabaseQueue(path: path, configuration: configuration)
                slot.queue = queue
            }
            return try queue.inDatabase { db in
                try body(db) { db in
                    var version: Int32 = 0
                    try db.cachedStatement(sql: "PRAGMA schema_version").eachRow(db) { row in
                        version = Int32(truncatingIfNeeded: sqlite3_column_int64(row, 0))
                        return false
                    }
                    if version != slot.schemaVersion {
                        db.clearSchemaCache()
                        slot.schemaVersion = version
                    }
                    return slot.memo.validate(ReadMemo.dataVersion(db))
                }
            }
        }
        return nil
    }
}
