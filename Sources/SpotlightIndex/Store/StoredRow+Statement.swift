import Foundation
import GRDB
import GRDBSQLite

extension StoredRow {
    /// Steps `statement` (a cached statement selecting ``columns``) with
    /// `rowids` bound to its first parameters and `then` after them, and
    /// hands `body` each row's rowid and item, until it returns false;
    /// the statement is reset and its bindings cleared after. Used for a
    /// page of search results and the query language's candidates.
    /// With `fetching`, items hold only the attributes it names
    /// (``isFetched(_:_:)``); an empty set reads none.
    static func eachItem(_ statement: Statement, rowids: some Collection<Int64>, then more: [Double] = [], fetching: Set<String>? = nil,
                         _ db: Database, _ body: (Int64, StoredItem) throws -> Bool) throws {
        try eachItem(statement, rowids: rowids, then: more, keeping: fetching.map(AttributeCodec.FetchedNames.init),
                     fetchesNone: fetching?.isEmpty == true, db, body)
    }

    /// ``eachItem(_:rowids:then:fetching:_:_:)`` with the names to keep made
    /// already (``FetchedAttributes``), or nil for every attribute.
    static func eachItem(_ statement: Statement, rowids: some Collection<Int64>, then more: [Double] = [], keeping: AttributeCodec.FetchedNames?,
                         fetchesNone: Bool, _ db: Database, _ body: (Int64, StoredItem) throws -> Bool) throws {
        let raw = statement.sqliteStatement
        defer { sqlite3_clear_bindings(raw) }
        var index: Int32 = 1
        for rowid in rowids {
            sqlite3_bind_int64(raw, index, rowid)
            index += 1
        }
        for value in more {
            sqlite3_bind_double(raw, index, value)
            index += 1
        }
        try statement.eachRow(db) { row in try body(sqlite3_column_int64(row, 0), try item(row, keeping: keeping, fetchesNone: fetchesNone)) }
    }

    /// The item of the row a statement selecting ``columns`` is on, read
    /// through SQLite's C API: a search reads 20 items per keystroke, and
    /// GRDB's rows (a cursor, a row object, a generic decoding per column,
    /// the attributes copied once as `Data` and again as bytes) were a
    /// quarter of reading them.
    /// With `fetching`, only the attributes it names are made; with none,
    /// the attributes column is not read at all (nor its overflow pages).
    static func item(_ statement: OpaquePointer, fetching: Set<String>? = nil) throws -> StoredItem {
        try item(statement, keeping: fetching.map(AttributeCodec.FetchedNames.init), fetchesNone: fetching?.isEmpty == true)
    }

    /// ``item(_:fetching:)`` with the names to keep made once for many rows.
    static func item(_ statement: OpaquePointer, keeping: AttributeCodec.FetchedNames?, fetchesNone: Bool) throws -> StoredItem {
        func text(_ column: Int32) -> String? {
            guard sqlite3_column_type(statement, column) != SQLITE_NULL, let bytes = sqlite3_column_text(statement, column) else { return nil }
            return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
        }
        func number(_ column: Int32) -> Double? {
            sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_double(statement, column)
        }
        let uid = text(1) ?? ""
        var blob: [UInt8] = []
        if !fetchesNone, sqlite3_column_type(statement, 7) != SQLITE_NULL, let bytes = sqlite3_column_blob(statement, 7) {
            blob = Array(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, 7))))
        }
        let item = SearchableItem(
            uniqueIdentifier: uid,
            domainIdentifier: text(2),
            contentType: text(3),
            expirationDate: number(4).map { Date(timeIntervalSinceReferenceDate: $0) },
            attributes: fetchesNone ? [:] : try attributes(bytes: blob, uid: uid, keeping: keeping))
        return StoredItem(item: item,
                          indexedAt: Date(timeIntervalSince1970: number(6) ?? 0),
                          expiresAt: Date(timeIntervalSince1970: number(5) ?? 0))
    }
}
