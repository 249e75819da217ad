import Foundation
import GRDB
import GRDBSQLite

extension StoredRow {
    /// The item of the row a statement selecting ``columns`` is on, read
    /// through SQLite's C API: a search reads 20 items per keystroke, and
    /// GRDB's rows (a cursor, a row object, a generic decoding per column,
    /// the attributes copied once as `Data` and again as bytes) were a
    /// quarter of reading them.
    static func item(_ statement: OpaquePointer) throws -> StoredItem {
        func text(_ column: Int32) -> String? {
            guard sqlite3_column_type(statement, column) != SQLITE_NULL, let bytes = sqlite3_column_text(statement, column) else { return nil }
            return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
        }
        func number(_ column: Int32) -> Double? {
            sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_double(statement, column)
        }
        let uid = text(1) ?? ""
        var blob: [UInt8] = []
        if sqlite3_column_type(statement, 7) != SQLITE_NULL, let bytes = sqlite3_column_blob(statement, 7) {
            blob = Array(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, 7))))
        }
        let item = SearchableItem(
            uniqueIdentifier: uid,
            domainIdentifier: text(2),
            contentType: text(3),
            expirationDate: number(4).map { Date(timeIntervalSinceReferenceDate: $0) },
            attributes: try attributes(bytes: blob, uid: uid))
        return StoredItem(item: item,
                          indexedAt: Date(timeIntervalSince1970: number(6) ?? 0),
                          expiresAt: Date(timeIntervalSince1970: number(5) ?? 0))
    }
}
