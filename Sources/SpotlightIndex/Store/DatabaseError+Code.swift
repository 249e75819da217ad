import GRDB
import GRDBSQLite

extension DatabaseError {
    /// The error of a call to SQLite's C API that returned `code` on
    /// `connection`, with the connection's own message (what GRDB gives
    /// for its statements): for the store's paths that call the C API
    /// directly (``ItemInserter``, `Statement.eachRow`, an inline
    /// segment's blob).
    ///
    /// ```swift
    /// guard code == SQLITE_DONE else { throw DatabaseError(code: code, on: connection, sql: sql) }
    /// ```
    init(code: CInt, on connection: OpaquePointer?, sql: String? = nil) {
        self.init(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }
}
