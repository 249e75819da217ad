import Foundation
import GRDBSQLite
import Synchronization

/// Tells whether anything was committed to a store since it was last asked,
/// by any process or store object: a read-only connection of its own on the
/// store's file, asking SQLite's `PRAGMA data_version` (which changes when a
/// connection other than the one asking commits; this one never writes).
///
/// ```swift
/// let observer = try StoreChangeObserver(store: store)
/// let before = try observer.version()
/// // … an app indexes …
/// if try observer.version() != before { /* results computed before are stale */ }
/// ```
///
/// Asking costs a few microseconds (SQLite reads the WAL index, no page):
/// one prepared statement stepped on SQLite's C API under a lock, not a
/// pool's queue and a transaction (which cost ~25 µs a store, half a
/// millisecond for a search over 20 apps), so a front end can check every
/// store it answered from before reusing an answer. It watches the file
/// the store opened: a store replaced on disk (see ``StoreFileIdentity``)
/// needs a new observer.
public final class StoreChangeObserver: Sendable {
    /// The connection and its one statement, used by one thread at a time.
    private final class Connection: @unchecked Sendable {
        let database: OpaquePointer
        let statement: OpaquePointer

        init(path: String) throws {
            var database: OpaquePointer?
            let opened = sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
            guard opened == SQLITE_OK, let database else {
                let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
                sqlite3_close_v2(database)
                throw SpotlightIndexError(.storeUnavailable, "cannot observe \(path): \(message)")
            }
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(database, "PRAGMA data_version", -1, &statement, nil) == SQLITE_OK, let statement else {
                let message = String(cString: sqlite3_errmsg(database))
                sqlite3_close_v2(database)
                throw SpotlightIndexError(.storeUnavailable, "cannot observe \(path): \(message)")
            }
            self.database = database
            self.statement = statement
        }

        deinit {
            sqlite3_finalize(statement)
            sqlite3_close_v2(database)
        }

        func version() throws -> Int {
            defer { sqlite3_reset(statement) }
            guard sqlite3_step(statement) == SQLITE_ROW else {
                throw SpotlightIndexError(.storeUnavailable, "cannot read the store's change counter: \(String(cString: sqlite3_errmsg(database)))")
            }
            return Int(sqlite3_column_int64(statement, 0))
        }
    }

    private let connection: Mutex<Connection>

    /// - Throws: ``SpotlightIndexError`` `.storeUnavailable` for a store in memory or a file that cannot be opened.
    public init(store: SpotlightStore) throws {
        guard let file = store.fileURL else {
            throw SpotlightIndexError(.storeUnavailable, "a store in memory has no file to observe")
        }
        connection = Mutex(try Connection(path: file.path))
    }

    /// A number that differs from the one returned before whenever a change was committed in between.
    /// - Throws: ``SpotlightIndexError`` `.storeUnavailable` when SQLite cannot read the counter (the file is damaged or gone).
    public func version() throws -> Int {
        try connection.withLock { try $0.version() }
    }
}
