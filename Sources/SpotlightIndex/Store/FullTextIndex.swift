import Foundation
import GRDB

/// Which attributes are searched text, and the reference FTS5 table.
///
/// Stores keep no FTS5 table: the ranked index answers free text and the
/// query language's text candidates. ``buildReference(_:)`` derives one
/// from the items on demand (table `fts`, four columns as ``TextColumns``,
/// `bm25` ranking), for `SpotlightStore.searchFullText`, the reference the
/// ranked index is tested against.
enum FullTextIndex {
    /// True when the attribute's text goes into the index.
    static func isSearched(_ name: String) -> Bool { !TextColumns.unsearched.contains(name) }

    /// Creates (or empties) the reference table `fts` and fills it from `items`.
    ///
    /// ```swift
    /// try store.write { db in try FullTextIndex.buildReference(db) }
    /// let reference = try store.searchFullText(TextTokenizer.queryTerms("apple"), limit: 20)
    /// ```
    static func buildReference(_ db: Database) throws {
        try db.execute(sql: """
            DROP TABLE IF EXISTS fts;
            CREATE VIRTUAL TABLE fts USING fts5(title, keywords, description, other, content='', tokenize='ascii');
            """)
        let insert = try db.makeStatement(sql: "INSERT INTO fts(rowid, title, keywords, description, other) VALUES (?, ?, ?, ?, ?)")
        let rows = try Row.fetchCursor(db, sql: "SELECT rowid, attributes FROM items")
        while let row = try rows.next() {
            let columns = FullTextColumns(attributes: try StoredRow.attributes(row))
            try insert.execute(arguments: [row["rowid"] as Int64, columns.title, columns.keywords, columns.description, columns.other])
        }
    }
}

/// Turning `items` rows back into items.
package enum StoredRow {
    /// The columns of an item, from `items i`.
    static let columns = fields + ", i.attributes AS attributes"
    /// ``columns`` with `NULL` for the attributes: for reads that fetch
    /// none, so that SQLite does not copy each row's attributes out.
    static let columnsWithoutAttributes = fields + ", NULL AS attributes"
    /// ``columns`` but the attributes, which come last.
    private static let fields = "i.rowid AS rowid, i.uid AS uid, i.domain AS domain, i.content_type AS content_type, i.expiration AS expiration, i.expires AS expires, i.indexed_at AS indexed_at"
    /// `FROM` clause for ``columns``.
    static let tables = "items i"

    static func attributes(_ row: Row) throws -> [String: AttributeValue] {
        try attributes(row["attributes"] as Data?, uid: row["uid"] as String?)
    }

    private static func attributes(_ blob: Data?, uid: @autoclosure () -> String?) throws -> [String: AttributeValue] {
        try attributes(bytes: blob.map(Array.init) ?? [], uid: uid())
    }

    /// The attributes stored as `data` (compressed, encoded by ``AttributeCodec``);
    /// with `fetching`, only those it names (``isFetched(_:_:)``).
    /// - Throws: `.storeCorrupt` naming the item when they cannot be decoded.
    static func attributes(bytes data: [UInt8], uid: @autoclosure () -> String?, fetching: Set<String>? = nil) throws -> [String: AttributeValue] {
        try attributes(bytes: data, uid: uid(), keeping: fetching.map(AttributeCodec.FetchedNames.init))
    }

    /// ``attributes(bytes:uid:fetching:)`` with the names to keep made already (once per read).
    static func attributes(bytes data: [UInt8], uid: @autoclosure () -> String?, keeping: AttributeCodec.FetchedNames?) throws -> [String: AttributeValue] {
        do {
            return try AttributeCodec.decode(try BlobCompression.unpack(data), keeping: keeping)
        } catch {
            let uid = uid() ?? "?"
            throw SpotlightIndexError(.storeCorrupt, "the stored attributes of item \(StoreName.quoted(uid)) are damaged (\(error)); open the store again to recover", subject: uid)
        }
    }

    /// Whether the attribute `name` is among `fetch`, by its name or by
    /// the part before its first dot, as Core Spotlight matches a query's
    /// `fetchAttributes`.
    ///
    /// ```swift
    /// StoredRow.isFetched("title", ["title"])              // true
    /// StoredRow.isFetched("authors.persons", ["authors"])  // true
    /// StoredRow.isFetched("contentDescription", ["title"]) // false
    /// ```
    package static func isFetched(_ name: String, _ fetch: Set<String>) -> Bool {
        if fetch.contains(name) { return true }
        // Through the UTF-8 view: `name.contains(".")` is Foundation's
        // substring search, which cost more than decoding the attribute.
        guard let dot = name.utf8.firstIndex(of: UInt8(ascii: ".")) else { return false }
        return fetch.contains(String(name[..<dot]))
    }

    /// The item of a row selected with ``columns``, read by position: a
    /// search reads 20 of them per keystroke, and looking columns up by
    /// name cost a fifth of it.
    static func item(_ row: Row) throws -> StoredItem {
        assert(row.columnNames.elementsEqual(["rowid", "uid", "domain", "content_type", "expiration", "expires", "indexed_at", "attributes"]),
               "StoredRow.item reads a row of StoredRow.columns")
        let uid: String = row[1]
        let item = SearchableItem(
            uniqueIdentifier: uid,
            domainIdentifier: row[2],
            contentType: row[3],
            expirationDate: (row[4] as Double?).map { Date(timeIntervalSinceReferenceDate: $0) },
            attributes: try attributes(row[7] as Data?, uid: uid))
        return StoredItem(item: item,
                          indexedAt: Date(timeIntervalSince1970: row[6]),
                          expiresAt: Date(timeIntervalSince1970: row[5]))
    }
}

/// The tokens of an item's text, by full-text column: a row of the
/// reference FTS5 table (``FullTextIndex``).
struct FullTextColumns: Sendable, Hashable {
    var title = ""
    var keywords = ""
    var description = ""
    var other = ""

    init() {}

    /// Tokens of every text attribute, sorted by name so the same
    /// attributes always give the same text.
    init(attributes: [String: AttributeValue]) {
        for name in attributes.keys.sorted() where !TextColumns.unsearched.contains(name) {
            guard let value = attributes[name] else { continue }
            let texts: [String]
            switch value {
            case .string(let text): texts = [text]
            case .strings(let values): texts = values
            case .url(let url): texts = [url.absoluteString]
            default: continue
            }
            switch name {
            case "title", "displayName":
                for text in texts { TextTokenizer.appendIndexTokens(of: text, to: &title) }
            case "keywords", "alternateNames":
                for text in texts { TextTokenizer.appendIndexTokens(of: text, to: &keywords) }
            case "contentDescription":
                for text in texts { TextTokenizer.appendIndexTokens(of: text, to: &description) }
            default:
                for text in texts { TextTokenizer.appendIndexTokens(of: text, to: &other) }
            }
        }
    }
}
