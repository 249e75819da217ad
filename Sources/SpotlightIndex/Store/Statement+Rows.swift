import GRDB
import GRDBSQLite

extension Statement {
    /// Steps this statement (cached, its arguments bound) through SQLite's
    /// C API, handing `body` the raw statement on each row until it returns
    /// false, then resets it.
    /// For the small statements a system search runs on every store at
    /// every keystroke (the ranked segments' list, the engagement totals):
    /// GRDB's rows (a cursor, a row object, a generic decoding per column)
    /// cost more than the statement itself.
    ///
    /// ```swift
    /// try db.cachedStatement(sql: "SELECT id FROM ranked_segments").eachRow(db) { row in
    ///     ids.append(sqlite3_column_int64(row, 0))
    ///     return true
    /// }
    /// ```
    func eachRow(_ db: Database, _ body: (OpaquePointer) throws -> Bool) throws {
        let raw = sqliteStatement
        defer { sqlite3_reset(raw) }
        while true {
            let code = sqlite3_step(raw)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(code: code, on: db.sqliteConnection, sql: sql)
            }
            guard try body(raw) else { return }
        }
    }
}
