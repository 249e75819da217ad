import Foundation
import GRDB
import Synchronization

/// Building the index again from the store's `items`: when the format,
/// the tokenizer or the weights changed, or a segment was found damaged.
extension RankedIndex {
    /// True when the store's segments were built as this code builds them.
    func isCurrent(_ db: Database) throws -> Bool {
        try db.meta("ranked_format", as: String.self) == formatTag
    }

    /// Derives every segment again from `items`, in one transaction. What
    /// this transaction wrote before is in `items` and so in the new
    /// segments: the changes noted so far are dropped.
    ///
    /// Two rows with one identifier (which only a lost identifier lookup
    /// could have written, as from segment bytes damaged before their
    /// checksum was read) are settled first: the later row is the item.
    func rebuild(_ db: Database) throws {
        writeState.withLock { $0.forgetChanges() }
        try Self.removeDuplicateIdentifiers(db)
        let old = try Row.fetchAll(db, sql: "SELECT id, file FROM ranked_segments")
        for row in old { try drop(id: row["id"], file: row["file"], db) }
        cache.withLock { $0.removeAll() }
        if let directory {
            try StorePath.makePrivateDirectory(directory, below: directory.deletingLastPathComponent())
        }
        // Files of a lost or moved-aside store's index, or of a crash.
        try removeOrphanFiles(db)
        let rows = try Row.fetchCursor(db, sql: """
            SELECT i.rowid AS rowid, i.uid AS uid, i.expires AS expires, i.hint AS hint, i.recency AS recency,
                   i.eng AS eng, i.eng_at AS eng_at, i.imp AS imp, a.attributes AS attributes
            FROM items i JOIN item_attributes a ON a.rowid = i.rowid ORDER BY i.rowid
            """)
        var chunk: [RankedDocument] = []
        var built: [SegmentContents] = []
        let builder = DocumentTokens.Builder(weights: DocumentTokens.ColumnWeights(scoring.weights))
        func finishChunk() {
            guard !chunk.isEmpty else { return }
            built.append(SegmentContents.building(chunk))
            chunk.removeAll(keepingCapacity: true)
        }
        while let row = try rows.next() {
            let content = Self.content(uid: row["uid"], attributes: try StoredRow.attributes(row), tokens: builder)
            chunk.append(RankedDocument(rowid: row["rowid"], expires: row["expires"], hint: row["hint"], recency: row["recency"],
                                        engagement: row["eng"], engagedAt: row["eng_at"], impressions: row["imp"],
                                        tokens: content.tokens, uidHash: content.uidHash, numbers: content.numbers))
            if chunk.count >= Self.rebuildChunk { finishChunk() }
        }
        finishChunk()
        if built.count > 1 {
            let now = clock().timeIntervalSince1970
            let parts = try built.map { contents in
                SegmentSnapshot(segment: try Segment(SegmentBytes(copying: SegmentEncoder.encode(contents, scoring: scoring, buildTime: now)),
                                                     verifyChecksum: false),
                                deleted: DeletionSet(documentCount: contents.documentCount, deleted: []))
            }
            built = [try SegmentMerger.merge(parts)]
        }
        for contents in built { try add(contents, db) }
        try db.setMeta("ranked_format", formatTag)
    }

    /// Deletes all but the last row of each identifier held by several.
    static func removeDuplicateIdentifiers(_ db: Database) throws {
        let duplicates = try Row.fetchAll(db, sql: "SELECT uid, max(rowid) AS keep FROM items GROUP BY uid HAVING count(*) > 1")
        guard !duplicates.isEmpty else { return }
        var removed = 0
        for row in duplicates {
            let rowids = try Int64.fetchAll(db, sql: "SELECT rowid FROM items WHERE uid = ? AND rowid < ?", arguments: [row["uid"] as String, row["keep"] as Int64])
            for rowid in rowids {
                try db.execute(sql: "DELETE FROM items WHERE rowid = ?", arguments: [rowid])
                try db.execute(sql: "DELETE FROM item_attributes WHERE rowid = ?", arguments: [rowid])
            }
            removed += rowids.count
        }
        try db.execute(sql: "UPDATE meta SET value = max(0, value - ?) WHERE key = 'item_count'", arguments: [removed])
    }
}
