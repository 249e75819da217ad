import Foundation
import GRDB
import GRDBSQLite

/// The insert of a new item's row (its attributes included), through
/// SQLite's C API on the writer's connection.
///
/// Bulk indexing runs it once per item: through GRDB's statements, the
/// arguments' boxing and per-execution bookkeeping cost ~3 µs of the
/// ~6 µs an item took. Used inside one write transaction, then dropped.
///
/// ```swift
/// let inserter = try ItemInserter(db)
/// let rowid = try inserter.insert(item, expiration: nil, expires: now + 30 * 86_400, indexedAt: now)
/// ```
final class ItemInserter {
    private let connection: OpaquePointer
    private let item: OpaquePointer

    static let itemSQL = """
        INSERT INTO items(uid, domain, content_type, expiration, expires, indexed_at, hint, recency, attributes)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    init(_ db: Database) throws {
        guard let connection = db.sqliteConnection else { throw DatabaseError(message: "the store's connection is closed") }
        self.connection = connection
        item = try Self.prepare(ItemInserter.itemSQL, connection)
    }

    deinit {
        sqlite3_finalize(item)
    }

    private static func prepare(_ sql: String, _ connection: OpaquePointer) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw DatabaseError(code: code, on: connection, sql: sql) }
        return statement
    }

    /// Inserts a new item's rows; returns its rowid.
    func insert(_ prepared: PreparedItem, expiration: Double?, expires: Double, indexedAt: Double) throws -> Int64 {
        let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
        func text(_ value: String?, _ index: CInt) {
            guard var value else { sqlite3_bind_null(item, index); return }
            value.withUTF8 { bytes in
                guard let base = bytes.baseAddress else { _ = sqlite3_bind_text(item, index, "", 0, transient); return }
                _ = sqlite3_bind_text(item, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), CInt(bytes.count), transient)
            }
        }
        func real(_ value: Double?, _ index: CInt) {
            if let value { sqlite3_bind_double(item, index, value) } else { sqlite3_bind_null(item, index) }
        }
        text(prepared.uid, 1)
        text(prepared.domain, 2)
        text(prepared.contentType, 3)
        real(expiration, 4)
        real(expires, 5)
        real(indexedAt, 6)
        real(prepared.hint, 7)
        real(prepared.recency, 8)
        try prepared.blob.withUnsafeBytes { blob in
            // A zero-length blob still binds as a blob, not NULL.
            sqlite3_bind_blob(item, 9, blob.baseAddress ?? UnsafeRawPointer(bitPattern: 1), CInt(blob.count), nil)
            defer { sqlite3_bind_null(item, 9) }   // no pointer into the array outlives this call
            try step(item, Self.itemSQL)
        }
        return sqlite3_last_insert_rowid(connection)
    }

    private func step(_ statement: OpaquePointer, _ sql: String) throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw DatabaseError(code: code, on: connection, sql: sql) }
    }
}
