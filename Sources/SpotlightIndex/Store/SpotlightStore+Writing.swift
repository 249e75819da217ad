import Foundation
import GRDB

/// What an ``SpotlightStore/index(_:)`` call did with each item.
///
/// ```swift
/// let report = try store.index(items)
/// for refusal in report.refused {
///     print("\(refusal.itemIdentifier): \(refusal.error.message)")
/// }
/// ```
public struct IndexReport: Sendable, Hashable {
    /// Items stored (inserted, replaced or merged), or queued in the open batch.
    public var accepted: Int = 0
    /// Updates dropped because no stored item has their identifier (Apple's rule).
    public var droppedUpdates: [String] = []
    /// Items refused, each with the reason; the others were stored.
    public var refused: [ItemRefusal] = []

    /// True when every item was accepted.
    public var isComplete: Bool { refused.isEmpty }
}

/// An item refused by the store, and why.
public struct ItemRefusal: Error, Sendable, Hashable {
    /// The item's identifier as given.
    public var itemIdentifier: String
    /// What was wrong: an `invalidItem` or `limitExceeded` error naming the limit.
    public var error: SpotlightIndexError
}

/// A write waiting in an open batch, or applied at once.
enum PendingWrite: Sendable {
    case index([PreparedItem])
    case deleteIdentifiers([String])
    case deleteDomains([String])
    case deleteAll
}

extension SpotlightStore {
    /// Adds items, replacing stored items with the same identifier; an item
    /// with ``SearchableItem/isUpdate`` merges into the stored one.
    ///
    /// ```swift
    /// var item = SearchableItem(uniqueIdentifier: "n1", attributes: ["title": .string("Meeting notes")])
    /// try store.index([item])
    /// item = SearchableItem(uniqueIdentifier: "n1", attributes: ["keywords": .strings(["q3"])], isUpdate: true)
    /// try store.index([item])                 // title kept, keywords added
    /// ```
    ///
    /// A bad item is refused alone: the report says which and why, and the
    /// rest are stored. Inside a batch the items wait for ``endBatch(clientState:)``.
    /// - Throws: only when the store itself fails (busy, full, damaged);
    ///   then nothing of this call is stored. Items past
    ///   ``StoreLimits/maxItemsPerStore`` are refused in the report.
    @discardableResult
    public func index(_ items: [SearchableItem]) throws -> IndexReport {
        if items.isEmpty { return IndexReport() }
        if isBatchOpen {
            let (prepared, refused) = ItemPreparation.prepare(items[...], validator: validator, threads: ItemPreparation.cores)
            var report = IndexReport(refused: refused)
            if !prepared.isEmpty, enqueueInBatch(.index(prepared)) {
                report.accepted = prepared.count
                return report
            }
            if prepared.isEmpty { return report }
        }
        // Tokenizing the next chunk overlaps writing this one, in one transaction.
        let pipeline = ItemPreparation.Pipeline(items, validator: validator)
        return try write { db in
            var report = IndexReport()
            while let (prepared, refused) = pipeline.next() {
                report.refused += refused
                let outcome = try apply(.index(prepared), db)
                report.accepted += outcome.accepted
                report.droppedUpdates += outcome.droppedUpdates
                report.refused += outcome.refused
            }
            return report
        }
    }

    /// Deletes the items with these identifiers; unknown ones are ignored.
    public func deleteItems(withIdentifiers identifiers: [String]) throws {
        if identifiers.isEmpty || enqueueInBatch(.deleteIdentifiers(identifiers)) { return }
        _ = try write { db in try apply(.deleteIdentifiers(identifiers), db) }
    }

    /// Deletes the items of these domains and of their dotted sub-domains:
    /// `acct1` deletes `acct1` and `acct1.inbox`, not `acct10`.
    public func deleteItems(inDomains domains: [String]) throws {
        if domains.isEmpty || enqueueInBatch(.deleteDomains(domains)) { return }
        _ = try write { db in try apply(.deleteDomains(domains), db) }
    }

    /// Deletes every item, their engagement, and the batch client state.
    public func deleteAllItems() throws {
        if enqueueInBatch(.deleteAll) { return }
        _ = try write { db in try apply(.deleteAll, db) }
    }

    // MARK: - Applying writes (inside a write transaction)

    struct WriteOutcome {
        var accepted = 0
        var droppedUpdates: [String] = []
        var refused: [ItemRefusal] = []
    }

    func apply(_ pending: PendingWrite, _ db: Database) throws -> WriteOutcome {
        var outcome = WriteOutcome()
        let now = self.now.timeIntervalSince1970
        switch pending {
        case .index(let items):
            var count = try db.meta("item_count", as: Int.self) ?? 0
            let inserts = try InsertStatements(db)
            for item in items {
                do {
                    if let added = try store(item, db, inserts, now: now, count: count) {
                        count += added
                        outcome.accepted += 1
                    } else {
                        outcome.droppedUpdates.append(item.uid)
                    }
                } catch let error as SpotlightIndexError where error.code == .invalidItem || error.code == .limitExceeded {
                    outcome.refused.append(ItemRefusal(itemIdentifier: item.uid, error: error))
                }
            }
            try db.setMeta("item_count", count)
        case .deleteIdentifiers(let identifiers):
            var removed = 0
            for uid in identifiers {
                if let row = try fetchStored(uid: uid, db) {
                    try remove(row, db)
                    removed += 1
                }
            }
            try adjustCount(-removed, db)
        case .deleteDomains(let domains):
            var removed = 0
            for domain in domains where !domain.isEmpty {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT \(StoredRow.columns) FROM \(StoredRow.tables)
                    WHERE i.domain = ? OR (i.domain >= ? AND i.domain < ?)
                    """, arguments: [domain, domain + ".", domain + "/"])
                for row in rows { try remove(row, db) }
                removed += rows.count
            }
            try adjustCount(-removed, db)
        case .deleteAll:
            try db.execute(sql: "DELETE FROM items; DELETE FROM item_attributes; DELETE FROM attr_numbers; DELETE FROM engagement")
            ranked.removedAll()
            try db.setMeta("item_count", 0)
            try db.setMeta("client_state", nil)
        }
        return outcome
    }

    /// Inserts, replaces or merges one item. Returns 1 for a new item, 0
    /// for a replaced one, nil for an update with nothing to update.
    ///
    /// A new item is inserted first and looked up only when its identifier
    /// is taken: bulk indexing of new items costs no extra lookup.
    private func store(_ item: PreparedItem, _ db: Database, _ inserts: InsertStatements, now: Double, count: Int) throws -> Int? {
        var item = item
        var existing: Row?
        if item.isUpdate {
            existing = try fetchStored(uid: item.uid, db)
            guard let existing else { return nil }
            item = try validator.merge(item, into: try StoredRow.item(existing).item)
        }
        let expires = item.expiration.map { $0.timeIntervalSince1970 } ?? now + options.defaultLifetime
        let expiration = item.expiration?.timeIntervalSinceReferenceDate
        if existing == nil {
            if count >= options.limits.maxItemsPerStore, try fetchStored(uid: item.uid, db) == nil {
                throw SpotlightIndexError(.limitExceeded, "item \(StoreName.quoted(item.uid)) refused: the store holds \(count) items, its limit (StoreLimits.maxItemsPerStore); delete items first", itemIdentifier: item.uid)
            }
            inserts.item.setUncheckedArguments([item.uid, item.domain, item.contentType, expiration, expires, now, item.hint, item.recency])
            try inserts.item.execute()
            if db.changesCount == 1 {
                let rowid = db.lastInsertedRowID
                inserts.attributes.setUncheckedArguments([rowid, Data(item.blob)])
                try inserts.attributes.execute()
                let columns = item.columns
                ranked.provide(rowid: rowid, columns: columns)
                for (name, value) in item.numbers {
                    inserts.number.setUncheckedArguments([name, value, rowid])
                    try inserts.number.execute()
                }
                return 1
            }
            existing = try fetchStored(uid: item.uid, db)
        }
        guard let existing else { throw SpotlightIndexError(.storeCorrupt, "item \(StoreName.quoted(item.uid)) is half stored; open the store again to recover") }
        let rowid: Int64 = existing["rowid"]
        try NumericIndex.remove(db, item: rowid, try StoredRow.attributes(existing))
        try db.cachedStatement(sql: """
            UPDATE items SET domain = ?, content_type = ?, expiration = ?, expires = ?, indexed_at = ?, hint = ?, recency = ?
            WHERE rowid = ?
            """).execute(arguments: [item.domain, item.contentType, expiration, expires, now, item.hint, item.recency, rowid])
        try db.cachedStatement(sql: "UPDATE item_attributes SET attributes = ? WHERE rowid = ?").execute(arguments: [Data(item.blob), rowid])
        ranked.provide(rowid: rowid, columns: item.columns)
        try NumericIndex.insert(db, item: rowid, item.numbers)
        return 0
    }

    /// The three inserts of a new item, prepared once per chunk.
    struct InsertStatements {
        let item: Statement
        let attributes: Statement
        let number: Statement

        init(_ db: Database) throws {
            item = try db.cachedStatement(sql: """
                INSERT INTO items(uid, domain, content_type, expiration, expires, indexed_at, hint, recency)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(uid) DO NOTHING
                """)
            attributes = try db.cachedStatement(sql: "INSERT INTO item_attributes(rowid, attributes) VALUES (?, ?)")
            number = try db.cachedStatement(sql: NumericIndex.insertSQL)
        }
    }

    private func fetchStored(uid: String, _ db: Database) throws -> Row? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(StoredRow.columns) FROM \(StoredRow.tables) WHERE i.uid = ?"), arguments: [uid])
    }

    /// Removes one stored item, its tokens and its engagement.
    func remove(_ row: Row, _ db: Database) throws {
        let rowid: Int64 = row["rowid"]
        try NumericIndex.remove(db, item: rowid, try StoredRow.attributes(row))
        try db.cachedStatement(sql: "DELETE FROM items WHERE rowid = ?").execute(arguments: [rowid])
        ranked.changed(rowid: rowid)
        try db.cachedStatement(sql: "DELETE FROM item_attributes WHERE rowid = ?").execute(arguments: [rowid])
        try db.cachedStatement(sql: "DELETE FROM engagement WHERE uid = ?").execute(arguments: [row["uid"] as String])
    }

    func adjustCount(_ delta: Int, _ db: Database) throws {
        guard delta != 0 else { return }
        try db.execute(sql: "UPDATE meta SET value = max(0, value + ?) WHERE key = 'item_count'", arguments: [delta])
    }
}
