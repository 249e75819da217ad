import Foundation
import GRDB
import GRDBSQLite

/// What a store leaves of its WAL when it closes, so that the next open
/// does not write.
///
/// GRDB's `DatabasePool` writes on open whenever the WAL file is missing or
/// empty (it creates and drops a table: GRDB issue 102), and SQLite removes
/// the WAL when the last connection closes. So every open after a clean
/// close wrote three pages and synced the WAL and its folder, ~1.2 ms of a
/// 10,000-item store's ~3.6 ms open in the benchmark's query child (five
/// runs each way), more where a sync reaches a disk.
///
/// Closing after it wrote, the store's writer instead empties the WAL (a `TRUNCATE`
/// checkpoint, with no other reader or writer anywhere), writes one small
/// transaction (the time of the close, `meta.closed`), and asks SQLite to
/// keep the file (`SQLITE_FCNTL_PERSIST_WAL`, with no size limit, which
/// would cut it to zero bytes). The last connection's close checkpoints
/// that transaction into the file as usual and leaves the WAL of one
/// frame: the next open recovers one frame and writes nothing. A store
/// that only read writes nothing, and keeps a WAL that short for the next
/// open too. One whose file was moved or replaced under it, or one a
/// merge still holds, changes nothing; when another connection holds the
/// store (another process), its close keeps the WAL as it is.
///
/// ```swift
/// KeptJournal.prepareForClose(pool, now: Date())   // the store's deinit, before the pool closes
/// ```
enum KeptJournal {
    /// The meta key written at close: when the store was last closed.
    static let closedKey = "closed"

    /// The longest WAL a store that only read keeps at its close: the
    /// header and three frames of 16 KB pages (the close's transaction
    /// changes the meta table's row and its key's index).
    static let keptLimit = 32 + 3 * (24 + StoreOpener.pageSize)

    /// Readies `pool`'s writer so that its close leaves a short WAL: after
    /// writes, one of the close's own transaction (nothing when the WAL
    /// cannot be emptied first); after reads only, the short one it found.
    static func prepareForClose(_ pool: DatabasePool, now: Date) {
        // Reentrant: a store may be released on its writer's queue (never
        // inside a transaction of its own, but that is checked, not assumed).
        try? pool.unsafeReentrantWrite { db in
            // Only a store still at its path with its WAL (not replaced or
            // moved aside under it), and not inside a transaction.
            var moved: Int32 = 0
            guard !db.isInsideTransaction,
                  sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK, moved == 0,
                  let size = StorePath.size(pool.path + "-wal") else { return }
            if db.totalChangesCount > 0 {
                // No waiting at close: another process reading is a reason to leave things as they are.
                sqlite3_busy_timeout(db.sqliteConnection, 0)
                guard let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)"), row[0] as Int == 0, row[1] as Int == 0 else {
                    return
                }
                try db.inTransaction {
                    try db.setMeta(closedKey, now.timeIntervalSince1970)
                    return .commit
                }
            } else {
                // A store that only read writes nothing (maintenance reads a
                // store's quiet time from its files' times): it keeps a WAL
                // as short as a close leaves, which its close checkpoints.
                guard size > 0, size <= keptLimit else { return }
            }
            try db.execute(sql: "PRAGMA journal_size_limit = -1")
            var persist: Int32 = 1
            _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        }
    }
}
