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
        let old = try Row.fetchAll(db, sql: "SELECT id, token, file FROM ranked_segments")
        for row in old { try drop(id: row["id"], token: row["token"], file: row["file"], db) }
        cache.withLock { $0.removeAll() }
        if let directory {
            try StorePath.makePrivateDirectory(directory, below: directory.deletingLastPathComponent())
        }
        // Files of a lost or moved-aside store's index, or of a crash.
        try removeOrphanFiles(db)
        let rows = try Row.fetchCursor(db, sql: """
            SELECT i.rowid AS rowid, i.uid AS uid, i.domain AS domain, i.content_type AS content_type, i.expires AS expires, i.hint AS hint, i.recency AS recency,
                   i.eng AS eng, i.eng_at AS eng_at, i.imp AS imp, i.attributes AS attributes
            FROM items i ORDER BY i.rowid
            """)
        var chunk: [RankedDocument] = []
        let chunks = RebuildChunks(index: self)
        defer { chunks.removeFiles() }
        let builder = DocumentTokens.Builder(weights: DocumentTokens.ColumnWeights(scoring.weights))
        while let row = try rows.next() {
            let content = Self.content(uid: row["uid"], domain: row["domain"], contentType: row["content_type"],
                                       attributes: try StoredRow.attributes(row), tokens: builder)
            chunk.append(RankedDocument(rowid: row["rowid"], expires: row["expires"], hint: row["hint"], recency: row["recency"],
                                        engagement: row["eng"], engagedAt: row["eng_at"], impressions: row["imp"],
                                        tokens: content.tokens, uid: content.uid, uidHash: content.uidHash, numbers: content.numbers))
            if chunk.count >= rebuildChunk {
                try chunks.add(SegmentContents.building(chunk))
                chunk.removeAll(keepingCapacity: true)
            }
        }
        if chunks.isEmpty {
            // One chunk: its segment as it is.
            try add(SegmentContents.building(chunk), db)
        } else {
            if !chunk.isEmpty { try chunks.add(SegmentContents.building(chunk)) }
            try chunks.install(db)
        }
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
            }
            removed += rowids.count
        }
        try db.execute(sql: "UPDATE meta SET value = max(0, value - ?) WHERE key = 'item_count'", arguments: [removed])
    }
}

/// A rebuild's segments of ``RankedIndex/rebuildChunk`` items each, before
/// they are merged into one: each encoded as soon as it is tokenized, and
/// (in a store with a folder) written to a file of its own and mapped, so
/// that a rebuild holds one chunk's tokens at a time, not the store's. The
/// merge streams into the index's file (``SegmentMerger/mergeEncoded(_:scoring:buildTime:streamingTo:bufferSize:parallelPostings:)``),
/// and the chunks' files are removed after it, or by the next orphan
/// sweep after a crash (they are never listed).
final class RebuildChunks {
    private let index: RankedIndex
    private let buildTime: Double
    private var snapshots: [SegmentSnapshot] = []
    private var files: [URL] = []

    init(index: RankedIndex) {
        self.index = index
        buildTime = index.clock().timeIntervalSince1970
    }

    var isEmpty: Bool { snapshots.isEmpty }

    func add(_ contents: SegmentContents) throws {
        let bytes = SegmentEncoder.encode(contents, scoring: index.scoring, buildTime: buildTime)
        let segment: Segment
        if let directory = index.directory {
            let url = directory.appendingPathComponent(RankedIndex.segmentFileName(token: Int64.random(in: 1...Int64.max)))
            try RankedIndex.writeSynced(bytes, to: url, directory: directory)
            files.append(url)
            segment = try Segment(SegmentBytes(mapping: url.path), verifyChecksum: false)
        } else {
            segment = try Segment(SegmentBytes(copying: bytes), verifyChecksum: false)
        }
        snapshots.append(SegmentSnapshot(segment: segment, deleted: DeletionSet(documentCount: contents.documentCount, deleted: [])))
    }

    /// Merges the chunks into the index's one segment, listed in this transaction.
    func install(_ db: Database) throws {
        if let directory = index.directory, index.mergeGoesToFile(snapshots) {
            let token = Int64.random(in: 1...Int64.max)
            let name = RankedIndex.segmentFileName(token: token)
            let url = directory.appendingPathComponent(name)
            index.writeState.withLock { $0.createdFiles.append(url) }
            let merged = try RankedIndex.writingSynced(to: url, directory: directory) { file in
                try SegmentMerger.mergeEncoded(snapshots, scoring: index.scoring, buildTime: buildTime, streamingTo: file)
            }
            removeFiles()
            try index.installFile(name, token: token, documentCount: merged.documentCount, db)
        } else {
            let merged = try SegmentMerger.mergeEncoded(snapshots, scoring: index.scoring, buildTime: buildTime)
            removeFiles()
            try index.install(merged.bytes, documentCount: merged.documentCount, db)
        }
    }

    /// Removes the chunks' files (once merged, or when the rebuild fails).
    func removeFiles() {
        snapshots = []
        for file in files { try? FileManager.default.removeItem(at: file) }
        files = []
    }
}
