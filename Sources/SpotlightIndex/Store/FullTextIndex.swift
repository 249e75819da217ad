import Foundation
import GRDB

/// The contentless FTS5 table `fts`: rows keyed by the item's rowid.
///
/// A contentless table cannot look a row up; removing one replays the
/// exact tokens it was given, so ``TextColumns`` must be derived from the
/// stored attributes the same way every time (``TextTokenizer/version``
/// guards that across releases).
enum FullTextIndex {
    /// True when the attribute's text goes into the index.
    static func isSearched(_ name: String) -> Bool { !TextColumns.unsearched.contains(name) }

    /// The column an attribute's tokens go to.
    static func column(of name: String) -> String {
        switch name {
        case "title", "displayName": "title"
        case "keywords", "alternateNames": "keywords"
        case "contentDescription": "description"
        default: "other"
        }
    }

    static let insertSQL = "INSERT INTO fts(rowid, title, keywords, description, other) VALUES (?, ?, ?, ?, ?)"

    static func insert(_ db: Database, rowid: Int64, _ columns: TextColumns) throws {
        try db.cachedStatement(sql: insertSQL)
            .execute(arguments: [rowid, columns.title, columns.keywords, columns.description, columns.other])
    }

    static func remove(_ db: Database, rowid: Int64, _ columns: TextColumns) throws {
        try db.cachedStatement(sql: "INSERT INTO fts(fts, rowid, title, keywords, description, other) VALUES ('delete', ?, ?, ?, ?, ?)")
            .execute(arguments: [rowid, columns.title, columns.keywords, columns.description, columns.other])
    }

    static func removeAll(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO fts(fts) VALUES ('delete-all')")
    }

    /// Derives the whole table again from `items`.
    static func rebuild(_ db: Database) throws {
        try removeAll(db)
        let rows = try Row.fetchCursor(db, sql: "SELECT i.rowid AS rowid, i.uid AS uid, a.attributes AS attributes FROM items i JOIN item_attributes a ON a.rowid = i.rowid")
        while let row = try rows.next() {
            let attributes = try StoredRow.attributes(row)
            try insert(db, rowid: row["rowid"], TextColumns(attributes: attributes))
        }
    }
}

/// Turning `items` rows back into items.
enum StoredRow {
    /// The columns of an item, from `items i JOIN item_attributes a`.
    static let columns = "i.rowid AS rowid, i.uid AS uid, i.domain AS domain, i.content_type AS content_type, i.expiration AS expiration, i.expires AS expires, i.indexed_at AS indexed_at, a.attributes AS attributes"
    /// `FROM` clause for ``columns``.
    static let tables = "items i JOIN item_attributes a ON a.rowid = i.rowid"

    static func attributes(_ row: Row) throws -> [String: AttributeValue] {
        let data: [UInt8] = (row["attributes"] as Data?).map(Array.init) ?? []
        do {
            return try AttributeCodec.decode(try BlobCompression.unpack(data))
        } catch {
            let uid: String = row["uid"] ?? "?"
            throw SpotlightIndexError(.storeCorrupt, "the stored attributes of item \(StoreName.quoted(uid)) are damaged (\(error)); open the store again to recover", itemIdentifier: uid)
        }
    }

    static func item(_ row: Row) throws -> StoredItem {
        let item = SearchableItem(
            uniqueIdentifier: row["uid"],
            domainIdentifier: row["domain"],
            contentType: row["content_type"],
            expirationDate: (row["expiration"] as Double?).map { Date(timeIntervalSinceReferenceDate: $0) },
            attributes: try attributes(row))
        return StoredItem(item: item,
                          indexedAt: Date(timeIntervalSince1970: row["indexed_at"]),
                          expiresAt: Date(timeIntervalSince1970: row["expires"]))
    }
}
