public import Foundation
import GRDB

/// An item that will expire soon, for the reindex requests of the Apple layer.
public struct ExpiringItem: Sendable, Hashable {
    /// The item's identifier.
    public var uniqueIdentifier: String
    /// When it expires: its own date, or 30 days after it was indexed.
    public var expiresAt: Date
}

extension SpotlightStore {
    /// The stored item with this identifier, unless it has expired.
    ///
    /// ```swift
    /// if let stored = try store.item(withIdentifier: "n1") {
    ///     print(stored.item.attributes["title"] as Any, stored.expiresAt)
    /// }
    /// ```
    public func item(withIdentifier identifier: String) throws -> StoredItem? {
        let now = self.now.timeIntervalSince1970
        return try read { db in
            guard let rowid = try liveRowid(uid: identifier, now: now, db) else { return nil }
            return try fetchStored(rowid: rowid, db).map(StoredRow.item)
        }
    }

    /// True when a live (unexpired) item has this identifier; cheaper than
    /// ``item(withIdentifier:)``.
    public func containsItem(withIdentifier identifier: String) throws -> Bool {
        let now = self.now.timeIntervalSince1970
        return try read { db in try liveRowid(uid: identifier, now: now, db) != nil }
    }

    /// The rowid of the unexpired item `uid` in a read transaction: the
    /// ranked index's identifier hashes give candidates, each checked
    /// against its row. With the index damaged, every row is read instead
    /// (the next search rebuilds the index).
    func liveRowid(uid: String, now: Double, _ db: Database) throws -> Int64? {
        let rowid: Int64?
        do {
            rowid = try Self.checkedRowid(uid: uid, candidates: RankedLookups.candidateRowids(uid: uid, in: try ranked.snapshot(db)), db)
        } catch is SegmentError {
            rowid = try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM items WHERE uid = ?", arguments: [uid])
        }
        guard let rowid else { return nil }
        let expires = try Double.fetchOne(db.cachedStatement(sql: "SELECT expires FROM items WHERE rowid = ?"), arguments: [rowid])
        return (expires ?? -.infinity) > now ? rowid : nil
    }

    /// Every live item, in the order they were first indexed; `domain`
    /// limits them to a domain and its dotted sub-domains.
    public func allItems(inDomain domain: String? = nil) throws -> [StoredItem] {
        let now = self.now.timeIntervalSince1970
        return try read { db in
            if let domain {
                return try Row.fetchAll(db, sql: """
                    SELECT \(StoredRow.columns) FROM \(StoredRow.tables) WHERE i.expires > ? AND (i.domain = ? OR (i.domain >= ? AND i.domain < ?))
                    ORDER BY i.rowid
                    """, arguments: [now, domain, domain + ".", domain + "/"]).map(StoredRow.item)
            }
            return try Row.fetchAll(db, sql: "SELECT \(StoredRow.columns) FROM \(StoredRow.tables) WHERE i.expires > ? ORDER BY i.rowid",
                                    arguments: [now]).map(StoredRow.item)
        }
    }

    /// How many live (unexpired) items the store holds.
    public func itemCount() throws -> Int {
        let now = self.now.timeIntervalSince1970
        return try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM items WHERE expires > ?", arguments: [now]) ?? 0 }
    }

    /// Items that expire within `interval` from now (and have not yet),
    /// soonest first.
    ///
    /// ```swift
    /// let soon = try store.itemsExpiring(within: 24 * 3600)
    /// ```
    public func itemsExpiring(within interval: TimeInterval) throws -> [ExpiringItem] {
        let now = self.now.timeIntervalSince1970
        return try read { db in
            try Row.fetchAll(db, sql: "SELECT uid, expires FROM items WHERE expires > ? AND expires <= ? ORDER BY expires, uid",
                             arguments: [now, now + max(0, interval)])
                .map { ExpiringItem(uniqueIdentifier: $0["uid"], expiresAt: Date(timeIntervalSince1970: $0["expires"])) }
        }
    }

    /// Deletes the items that have expired; returns how many. The store also
    /// does this when it opens; expired items are never returned meanwhile.
    @discardableResult
    public func purgeExpiredItems() throws -> Int {
        let now = self.now.timeIntervalSince1970
        // Looked for first in a read (the expiry index): opening a store purges, and a
        // store with nothing expired is then opened without waiting for an app's write.
        let anyExpired = try read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM items WHERE expires <= ?)", arguments: [now]) ?? false
        }
        guard anyExpired else { return 0 }
        return try write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT \(StoredRow.columns) FROM \(StoredRow.tables) WHERE i.expires <= ?", arguments: [now])
            for row in rows { try remove(row, db) }
            try adjustCount(-rows.count, db)
            return rows.count
        }
    }

    /// Size of the store's files on disk, in bytes (0 in memory): the
    /// SQLite file, its write-ahead log, and the ranked index's segment files.
    public func fileSize() -> Int64 {
        guard let fileURL else { return 0 }
        func size(_ path: String) -> Int64 { Int64(StorePath.size(path) ?? 0) }
        var total = size(fileURL.path) + size(fileURL.path + "-wal")
        if let directory = ranked.directory, let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) {
            for file in files { total += size(directory.appendingPathComponent(file).path) }
        }
        return total
    }
}
