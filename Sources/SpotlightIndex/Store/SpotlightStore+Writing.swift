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

    /// Counts what one write of a call did.
    mutating func add(_ outcome: SpotlightStore.WriteOutcome) {
        accepted += outcome.accepted
        droppedUpdates += outcome.droppedUpdates
        refused += outcome.refused
    }

    /// Adds what another write of the same call did.
    mutating func add(_ other: IndexReport) {
        accepted += other.accepted
        droppedUpdates += other.droppedUpdates
        refused += other.refused
    }
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
            var checking = validator
            checking.checksOnly = true
            if let report = try indexInBatch(ItemPreparation.Pipeline(items, validator: checking), packed: false) { return report }
        }
        return try index(prepared: prepare(items))
    }

    /// Writes items prepared by ``prepare(_:)``, as ``index(_:)`` writes
    /// them: their preparation went on in the background since, so a
    /// caller that prepares its next items before writing these keeps
    /// both cores busy (``PreparedItems``).
    ///
    /// ```swift
    /// let next = store.prepare(nextPage)
    /// let report = try store.index(prepared: current)
    /// ```
    /// - Throws: as ``index(_:)``.
    @discardableResult
    public func index(prepared: PreparedItems) throws -> IndexReport {
        if prepared.count == 0 { return IndexReport() }
        if isBatchOpen, let report = try indexInBatch(prepared.chunks(for: self), packed: true) { return report }
        // No batch, or it ended meanwhile: written now.
        let pipeline = prepared.chunks(for: self)
        return try write(chunks: pipeline.next)
    }

    /// Writes several calls' items in one transaction, in order, each call
    /// with its report: as ``index(prepared:)`` once for each, but one
    /// commit for all and their segments by size
    /// (``RankedIndex/partialFlushDocuments``), not one per call. Each
    /// call's items are prepared (`calls[i]()`, which may return
    /// preparation already started) as the call before is written, so a
    /// few chunks of two calls are prepared at most. With a batch open,
    /// each call goes to the batch as ``index(prepared:)`` sends it.
    ///
    /// ```swift
    /// let reports = try store.index(preparedEach: [{ store.prepare(first) }, { store.prepare(second) }])
    /// ```
    /// - Throws: as ``index(_:)``; then no call's items are stored.
    package func index(preparedEach calls: [() -> PreparedItems]) throws -> [IndexReport] {
        guard calls.count > 1, !isBatchOpen else { return try calls.map { try index(prepared: $0()) } }
        return try WriteProfile.measure("index call") { try write { db in
            var reports: [IndexReport] = []
            var next: ItemPreparation.Pipeline? = calls[0]().chunks(for: self)
            for index in calls.indices {
                guard let pipeline = next else { break }
                // The next call's preparation starts as this one's is written.
                next = index + 1 < calls.count ? calls[index + 1]().chunks(for: self) : nil
                reports.append(try write(chunks: pipeline.next, db))
            }
            return reports
        } }
    }

    /// Writes chunks of prepared items in one transaction, each chunk's
    /// segment contents built while the next is written, and a segment
    /// written whenever those reach ``RankedIndex/partialFlushDocuments``.
    private func write(chunks next: () -> ([PreparedItem], [ItemRefusal])?) throws -> IndexReport {
        try WriteProfile.measure("index call") { try write { db in try write(chunks: next, db) } }
    }

    /// Writes chunks of prepared items in the transaction under way.
    func write(chunks next: () -> ([PreparedItem], [ItemRefusal])?, _ db: Database) throws -> IndexReport {
        var report = IndexReport()
        while let (prepared, refused) = WriteProfile.measure("wait-prepare", { next() }) {
            report.refused += refused
            ranked.handAhead(Self.newDocuments(prepared))
            report.add(try applyChunk(.index(prepared), db))
        }
        return report
    }

    /// The documents a chunk's items make if each is new: what the
    /// contents pipeline adds while their rows are inserted
    /// (``RankedIndex/handAhead(_:)``), their rowids and expiries to come.
    /// None for a chunk with an update, which merges into a stored item.
    static func newDocuments(_ items: [PreparedItem]) -> [RankedDocument] {
        guard !items.contains(where: \.isUpdate) else { return [] }
        return items.map { $0.document(rowid: 0, expires: 0) }
    }

    /// Applies one chunk of a transaction's writes: its segment's contents
    /// are built while the next is written (``RankedIndex/handOff()``), a
    /// segment is written each ``RankedIndex/partialFlushDocuments``
    /// documents, and its items are freed off the writer
    /// (``Parallelism/release(_:)``) once written, so that a call or a
    /// batch of many items never holds all of them prepared.
    func applyChunk(_ pending: consuming PendingWrite, _ db: Database) throws -> WriteOutcome {
        let outcome = try WriteProfile.measure("apply") { try apply(pending, db) }
        ranked.handOff()
        try ranked.flushIfLarge(db)
        Parallelism.release(consume pending)
        return outcome
    }

    /// Deletes the items with these identifiers; unknown ones are ignored.
    public func deleteItems(withIdentifiers identifiers: [String]) throws {
        if try identifiers.isEmpty || enqueueInBatch(.deleteIdentifiers(identifiers)) { return }
        _ = try write { db in try apply(.deleteIdentifiers(identifiers), db) }
    }

    /// Deletes the items of these domains and of their dotted sub-domains:
    /// `acct1` deletes `acct1` and `acct1.inbox`, not `acct10`.
    public func deleteItems(inDomains domains: [String]) throws {
        if try domains.isEmpty || enqueueInBatch(.deleteDomains(domains)) { return }
        _ = try write { db in try apply(.deleteDomains(domains), db) }
    }

    /// Deletes every item, their engagement, and the batch client state.
    public func deleteAllItems() throws {
        if try enqueueInBatch(.deleteAll) { return }
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
            let inserts = try ItemInserter(db)
            let stored = try WriteProfile.measure("apply.lookup") { try ranked.segmentCandidates(uidHashes: items.map(\.uidHash), db) }
            for (item, candidates) in zip(items, stored) {
                do {
                    if let added = try store(item, candidates: candidates, db, inserts, now: now, count: count) {
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
            try db.execute(sql: "DELETE FROM items; DELETE FROM engagement")
            ranked.removedAll()
            try db.setMeta("item_count", 0)
            try db.setMeta("client_state", nil)
        }
        return outcome
    }

    /// Inserts, replaces or merges one item. Returns 1 for a new item, 0
    /// for a replaced one, nil for an update with nothing to update.
    ///
    /// The identifier is looked up through the ranked index's hashes
    /// (``RankedIndex/candidateRowids(uid:_:)``): a new item costs no read
    /// of `items`, and `items` has no index on `uid` to write.
    /// `candidates` are the rowids the segments hold for its identifier.
    private func store(_ item: PreparedItem, candidates: [Int64], _ db: Database, _ inserts: ItemInserter, now: Double, count: Int) throws -> Int? {
        let inserted = ranked.insertedRowids(uidHash: item.uidHash)
        let existing = try Self.checkedRowid(uid: item.uid, candidates: inserted.isEmpty ? candidates : inserted + candidates, db)
        guard item.isUpdate else { return try write(item, existing: existing, db, inserts, now: now, count: count) }
        guard let existing, let row = try fetchStored(rowid: existing, db) else { return nil }
        return try write(try validator.merge(item, into: try StoredRow.item(row).item), existing: existing, db, inserts, now: now, count: count)
    }

    /// ``store(_:candidates:_:_:now:count:)`` once the item is whole (an
    /// update merged into its stored item) and its row known, if any. The
    /// item is read where it lies: copied (as a `var` to merge into), it
    /// cost a retain and a release of each of its arrays and strings.
    private func write(_ item: PreparedItem, existing: Int64?, _ db: Database, _ inserts: ItemInserter, now: Double, count: Int) throws -> Int? {
        let expires = item.expiration.map { $0.timeIntervalSince1970 } ?? now + options.defaultLifetime
        let expiration = item.expiration?.timeIntervalSinceReferenceDate
        guard let rowid = existing else {
            if count >= options.limits.maxItemsPerStore {
                throw SpotlightIndexError(.limitExceeded, "item \(StoreName.quoted(item.uid)) refused: the store holds \(count) items, its limit (StoreLimits.maxItemsPerStore); delete items first", subject: item.uid)
            }
            let rowid = try WriteProfile.measure("apply.insert") {
                try inserts.insert(item, expiration: expiration, expires: expires, indexedAt: now)
            }
            WriteProfile.measure("apply.provide") { ranked.provide(item.document(rowid: rowid, expires: expires)) }
            return 1
        }
        try db.cachedStatement(sql: """
            UPDATE items SET domain = ?, content_type = ?, expiration = ?, expires = ?, indexed_at = ?, hint = ?, recency = ?,
                attributes = ?
            WHERE rowid = ?
            """).execute(arguments: [item.domain, item.contentType, expiration, expires, now, item.hint, item.recency, Data(item.blob), rowid])
        ranked.provide(rowid: rowid, content: RankedIndex.Content(tokens: item.tokens, uid: item.uid, uidHash: item.uidHash, numbers: item.numbers))
        return 0
    }

    /// The stored row (``StoredRow/columns``) of the item `uid`, expired or not.
    func fetchStored(uid: String, _ db: Database) throws -> Row? {
        guard let rowid = try fetchStoredRowid(uid: uid, db) else { return nil }
        return try fetchStored(rowid: rowid, db)
    }

    func fetchStored(rowid: Int64, _ db: Database) throws -> Row? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(StoredRow.columns) FROM \(StoredRow.tables) WHERE i.rowid = ?"), arguments: [rowid])
    }

    /// The rowid of the item `uid` in a write transaction, expired or not:
    /// the ranked index's candidates, each checked against its row.
    func fetchStoredRowid(uid: String, _ db: Database) throws -> Int64? {
        try Self.checkedRowid(uid: uid, candidates: try ranked.candidateRowids(uid: uid, db), db)
    }

    /// The last of `candidates` whose row has identifier `uid`.
    static func checkedRowid(uid: String, candidates: [Int64], _ db: Database) throws -> Int64? {
        guard !candidates.isEmpty else { return nil }
        let statement = try db.cachedStatement(sql: "SELECT uid FROM items WHERE rowid = ?")
        var found: Int64?
        for rowid in candidates where rowid > (found ?? .min) {
            if try String.fetchOne(statement, arguments: [rowid]) == uid { found = rowid }
        }
        return found
    }

    /// Removes one stored item, its tokens and its engagement.
    func remove(_ row: Row, _ db: Database) throws {
        let rowid: Int64 = row["rowid"]
        try db.cachedStatement(sql: "DELETE FROM items WHERE rowid = ?").execute(arguments: [rowid])
        ranked.changed(rowid: rowid)
        try db.cachedStatement(sql: "DELETE FROM engagement WHERE uid = ?").execute(arguments: [row["uid"] as String])
    }

    func adjustCount(_ delta: Int, _ db: Database) throws {
        guard delta != 0 else { return }
        try db.execute(sql: "UPDATE meta SET value = max(0, value + ?) WHERE key = 'item_count'", arguments: [delta])
    }
}
