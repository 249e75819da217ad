import Foundation
import GRDB
import RankedSearch
import Synchronization

/// Merging segments off the write lock.
///
/// A write transaction ends by planning merges (``MergePolicy``)
/// among the segments no merge is working on, and hands each to a
/// background queue with the inputs as the transaction saw them (segments
/// are immutable; only their deletion sets change). The merge is encoded,
/// and written to a synced file if large, without any lock; then a short
/// transaction of its own installs it: if every input is still listed, the
/// merged segment replaces them, and the documents deleted from the inputs
/// meanwhile are deleted in it, through the merge's doc maps. An input that
/// is gone (a rebuild, everything deleted) discards the merge.
///
/// Small merges (outputs under ``RankedIndex/largeMergeDocuments``) and
/// large ones have a queue each, so that one long merge of a large store
/// does not let the small segments pile up behind it. A merge no longer
/// costs the write that triggered it (the 512k-document merge of a 1M
/// store took seconds), and on two cores it runs while the writer commits
/// or waits. ``RankedIndex/finishMerging()`` waits for every merge, as
/// bulk indexing tools do before they exit; a merge a process abandons
/// leaves its inputs in place and at most an orphan file, which the next
/// writer removes.
final class MergeScheduler: Sendable {
    struct Input: Sendable {
        var id: Int64
        var token: Int64
        var snapshot: SegmentSnapshot
    }

    struct Completed: Sendable {
        var inputs: [Input]
        var docMaps: [[Int32]]
        var documentCount: Int
        var token: Int64
        /// A file written and synced, or the bytes to keep inline.
        var file: String?
        var bytes: [UInt8]?
        var segment: Segment
    }

    struct State {
        /// Segments some merge is reading.
        var inFlight: Set<Int64> = []
        /// Files of merges not installed yet: not orphans.
        var pendingFiles: Set<String> = []
        var completed: [Completed] = []
    }

    let state = Mutex(State())
    let group = DispatchGroup()
    let small = DispatchQueue(label: "openspotlight.ranked.merge.small", qos: .utility)
    let large = DispatchQueue(label: "openspotlight.ranked.merge.large", qos: .utility)
}

extension MergePolicy.SegmentSize {
    /// A segment as the policy sees it, from a `ranked_segments` row with `id`, `documents` and `deleted_count`.
    init(row: Row) {
        self.init(id: row["id"], live: (row["documents"] as Int) - (row["deleted_count"] as Int), deleted: row["deleted_count"])
    }
}

extension RankedIndex {
    /// Live documents from which a merge goes to the queue of large ones.
    static let largeMergeDocuments = 32_000

    /// In a write transaction: installs the merges that completed, then
    /// schedules what the plan asks of the segments no merge is reading.
    /// A damaged segment found on the way is derived data gone bad: the
    /// index is rebuilt from the items, which hold this transaction's writes.
    func maintainSegments(_ db: Database) throws {
        do {
            try installCompletedMerges(db)
            try scheduleMerges(db)
        } catch is SegmentError {
            try rebuild(db)
        }
    }

    private func scheduleMerges(_ db: Database) throws {
        while true {
            let rows = try Row.fetchAll(db, sql: "SELECT id, token, file, documents, deleted, deleted_count FROM ranked_segments ORDER BY id")
            let busy = merges.state.withLock { $0.inFlight }
            let sizes = rows.filter { !busy.contains($0["id"] as Int64) }
                .map(MergePolicy.SegmentSize.init(row:))
            guard let plan = MergePolicy.plan(sizes) else { return }
            let inputs = try mergeInputs(plan, rows: rows, db)
            let live = inputs.reduce(0) { $0 + $1.snapshot.segment.documentCount - $1.snapshot.deleted.count }
            merges.group.enter()
            (live >= Self.largeMergeDocuments ? merges.large : merges.small).async { [self, inputs] in
                defer { merges.group.leave() }
                runMerge(inputs)
            }
        }
    }

    /// The segments `plan` names, as this transaction sees them, marked as
    /// read by a merge (so no other plan takes them).
    private func mergeInputs(_ plan: [Int64], rows: [Row], _ db: Database) throws -> [MergeScheduler.Input] {
        var inputs: [MergeScheduler.Input] = []
        for row in rows where plan.contains(row["id"] as Int64) {
            let segment = try segment(db, id: row["id"], token: row["token"], file: row["file"])
            let deleted = DeletionSet(documentCount: segment.documentCount,
                                      deleted: try DeletionSet.decode(Array(row["deleted"] as Data? ?? Data())))
            inputs.append(MergeScheduler.Input(id: row["id"], token: row["token"], snapshot: SegmentSnapshot(segment: segment, deleted: deleted)))
        }
        merges.state.withLock { $0.inFlight.formUnion(plan) }
        return inputs
    }

    /// Merges every segment into one (``MergePolicy/consolidation(_:)``)
    /// on the caller's thread, and installs it; returns how many segments
    /// were merged (0 when the index was one segment already, or another
    /// store object's merge took one of them first). Writes go
    /// on meanwhile: the merge is planned in a short transaction and
    /// installed in another, as background merges are.
    func mergeAll() throws -> Int {
        try finishMerging()
        var inputs: [MergeScheduler.Input] = []
        try ownTransaction { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, token, file, documents, deleted, deleted_count FROM ranked_segments ORDER BY id")
            let sizes = rows.map(MergePolicy.SegmentSize.init(row:))
            do {
                guard let plan = MergePolicy.consolidation(sizes) else { return }
                inputs = try mergeInputs(plan, rows: rows, db)
            } catch is SegmentError {
                try rebuild(db)   // a damaged segment: rebuilt from the items, as one segment
            }
        }
        guard !inputs.isEmpty else { return 0 }
        merges.group.enter()
        let token = runMerge(inputs)
        merges.group.leave()
        try finishMerging()   // installs it, if the store was busy when the merge ended
        // Dropped at its install when another store object merged an input first.
        guard let token, try writer.read({ db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM ranked_segments WHERE token = ?)", arguments: [token]) }) == true else {
            return 0
        }
        return inputs.count
    }

    /// Whether merging `snapshots` writes a file of its own, as it
    /// encodes (``SegmentMerger/mergeEncoded(_:scoring:buildTime:streamingTo:bufferSize:parallelPostings:)``):
    /// in a store with a folder, when the inputs exceed the inline limit
    /// (the output is no larger than they are).
    func mergeGoesToFile(_ snapshots: [SegmentSnapshot]) -> Bool {
        directory != nil && snapshots.reduce(0) { $0 + $1.segment.byteCount } > inlineLimit
    }

    /// Merges and encodes off the lock, then installs in a transaction of
    /// its own; returns the merged segment's token, nil when the merge was
    /// dropped (a damaged input, a file that could not be written).
    @discardableResult
    private func runMerge(_ inputs: [MergeScheduler.Input]) -> Int64? {
        let ids = Set(inputs.map(\.id))
        let token = Int64.random(in: 1...Int64.max)
        var pending: String?
        do {
            let snapshots = inputs.map(\.snapshot), buildTime = clock().timeIntervalSince1970
            var file: String?, inline: [UInt8]?
            let segment: Segment
            let docMaps: [[Int32]], documentCount: Int
            if let directory, mergeGoesToFile(snapshots) {
                // Large: written to its file as it is encoded, never held whole.
                let name = Self.segmentFileName(token: token)
                merges.state.withLock { _ = $0.pendingFiles.insert(name) }
                pending = name
                let url = directory.appendingPathComponent(name)
                let merged = try WriteProfile.measure("merge.mergeEncoded") {
                    try Self.writingSynced(to: url, directory: directory) { output in
                        try SegmentMerger.mergeEncoded(snapshots, scoring: scoring, buildTime: buildTime, streamingTo: output)
                    }
                }
                (docMaps, documentCount, file) = (merged.docMaps, merged.documentCount, name)
                segment = try Segment(SegmentBytes(mapping: url.path), verifyChecksum: false)
                SegmentVerification.record(url, checksum: segment.storedChecksum)
            } else {
                let merged = try WriteProfile.measure("merge.mergeEncoded") {
                    try SegmentMerger.mergeEncoded(snapshots, scoring: scoring, buildTime: buildTime)
                }
                (docMaps, documentCount, inline) = (merged.docMaps, merged.documentCount, merged.bytes)
                segment = try Segment(SegmentBytes(copying: merged.bytes), verifyChecksum: false)
            }
            let completed = MergeScheduler.Completed(inputs: inputs, docMaps: docMaps, documentCount: documentCount, token: token,
                                                     file: file, bytes: inline, segment: segment)
            merges.state.withLock { $0.completed.append(completed) }
        } catch {
            // A damaged input, or a file that could not be written (and is
            // removed): the merge is dropped and the inputs stay (reading a
            // damaged one gives the error that rebuilds the index).
            merges.state.withLock { state in
                state.inFlight.subtract(ids)
                if let pending { state.pendingFiles.remove(pending) }
            }
            return nil
        }
        // Installed now if the store can be written; else by the next
        // write. A transaction writing segments as it goes (a large call,
        // a batch's end) installs it itself: waiting for its end would
        // hold up the merges queued behind this one.
        if writeState.withLock({ $0.partialFlushes > 0 }) { return token }
        try? WriteProfile.measure("merge.install") { try ownTransaction { db in try maintainSegments(db) } }
        return token
    }

    /// Replaces the inputs of each completed merge by its segment, with the
    /// deletions made to them meanwhile; drops a merge whose inputs are gone.
    private func installCompletedMerges(_ db: Database) throws {
        let completed = merges.state.withLock { state in
            defer { state.completed = [] }
            return state.completed
        }
        for merge in completed {
            defer { merges.state.withLock { $0.inFlight.subtract(merge.inputs.map(\.id)) } }
            let file = merge.file.flatMap { name in directory?.appendingPathComponent(name) }
            // This transaction owns the file now: removed if it rolls back, or if the merge is dropped.
            if let file, let name = merge.file {
                merges.state.withLock { _ = $0.pendingFiles.remove(name) }
                writeState.withLock { $0.createdFiles.append(file) }
            }
            var rows: [Int64: Row] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, token, file, deleted FROM ranked_segments WHERE id IN (\(merge.inputs.map { String($0.id) }.joined(separator: ",")))") {
                rows[row["id"]] = row
            }
            let intact = merge.inputs.allSatisfy { rows[$0.id].map { ($0["token"] as Int64) } == $0.token }
            guard intact, file.map({ FileManager.default.fileExists(atPath: $0.path) }) ?? true else {
                if let file { writeState.withLock { $0.droppedFiles.append(file) } }
                continue
            }
            var deleted: [UInt32] = []
            var clean: Set<Int64> = []   // inputs with nothing deleted: every word of theirs is in the merge
            for (index, input) in merge.inputs.enumerated() {
                let now = try DeletionSet.decode(Array(rows[input.id]!["deleted"] as Data? ?? Data()))
                if now.isEmpty && input.snapshot.deleted.count == 0 { clean.insert(input.id) }
                for doc in now where Int(doc) < merge.docMaps[index].count && !input.snapshot.deleted.contains(Int(doc)) {
                    let mapped = merge.docMaps[index][Int(doc)]
                    if mapped >= 0 { deleted.append(UInt32(mapped)) }
                }
            }
            for input in merge.inputs {
                try drop(id: input.id, token: input.token, file: rows[input.id]!["file"], db, purging: !clean.contains(input.id))
            }
            let set = DeletionSet(documentCount: merge.documentCount, deleted: deleted)
            guard set.count < merge.documentCount else {
                if let file { writeState.withLock { $0.droppedFiles.append(file) } }
                continue
            }
            try db.execute(sql: """
                INSERT INTO ranked_segments(token, documents, file, data, deleted, deleted_count, deleted_version) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [merge.token, merge.documentCount, merge.file, merge.bytes.map { Data($0) },
                                 Data(DeletionSet.encode(set.documents)), set.count, 0])
            remember(merge.token, merge.segment)
        }
    }

    /// A write transaction of the index's own (installing merges), as the
    /// store's writes run: begun, flushed, committed, files cleaned up.
    func ownTransaction(_ body: (Database) throws -> Void) throws {
        try writer.writeWithoutTransaction { db in
            do {
                try db.inTransaction(.immediate) {
                    try begin(db)
                    try body(db)
                    try flush(db)
                    return .commit
                }
            } catch {
                rolledBack()
                throw error
            }
            committed()
        }
    }

    /// Waits until no merge is running or waiting to be installed, and
    /// nothing more needs merging.
    func finishMerging() throws {
        while true {
            merges.group.wait()
            let (waiting, running) = merges.state.withLock { (!$0.completed.isEmpty, !$0.inFlight.isEmpty) }
            if running && !waiting { continue }   // a merge between its end and its install
            try ownTransaction { db in try maintainSegments(db) }
            let idle = merges.state.withLock { $0.inFlight.isEmpty && $0.completed.isEmpty }
            if idle { return }
        }
    }

    /// Whether no merge is running or waiting to be installed: one holds
    /// the store's pool, and writes, after the store is released.
    var mergesIdle: Bool { merges.state.withLock { $0.inFlight.isEmpty && $0.completed.isEmpty } }

    /// Files of merges not yet installed (not orphans).
    var pendingMergeFiles: Set<String> { merges.state.withLock { $0.pendingFiles } }
}

extension SpotlightStore {
    /// Waits until the ranked index's background merges are done and in
    /// place. Searches are right at any time; merging keeps them fast as a
    /// store grows. Tools that index in bulk call this before they exit, so
    /// that the next open finds the index merged.
    ///
    /// ```swift
    /// for page in pages { try store.index(page) }
    /// try store.finishMerging()
    /// ```
    public func finishMerging() throws {
        do { try WriteProfile.measure("finishMerging") { try ranked.finishMerging() } } catch { throw Self.translate(error, fileURL: fileURL) }
    }

    /// Merges the ranked index's segments into one, and drops the
    /// documents deleted from them; returns how many segments were merged
    /// (0 when the index was one segment with few deletions already).
    ///
    /// Each segment costs a search a few dictionary lookups and a top-k
    /// pass of its own, so a store searched more than it is written reads
    /// fastest as one segment (Lucene's `forceMerge(1)`, Tantivy's
    /// `merge`). Merging rewrites the whole index, so it belongs where the
    /// store has gone quiet: `IndexMaintenance` (SpotlightService) calls it
    /// for stores not written for a while (`spotlight maintain`, and a
    /// running service's schedule). Writes and searches go on meanwhile;
    /// a search sees the old segments until the merged one is installed.
    ///
    /// ```swift
    /// try store.index(items)
    /// let merged = try store.mergeSegments()   // e.g. 3: the index is one segment now
    /// ```
    /// - Throws: `.storeUnavailable` for a read-only store.
    @discardableResult
    public func mergeSegments() throws -> Int {
        guard !isReadOnly else {
            throw SpotlightIndexError(.storeUnavailable, "\(fileURL?.path ?? "the store") is read-only: its segments cannot be merged")
        }
        do {
            // Nothing to do is found by reading: no write transaction, so the file stays untouched.
            let sizes = try read { db in
                try Row.fetchAll(db, sql: "SELECT id, documents, deleted_count FROM ranked_segments").map(MergePolicy.SegmentSize.init(row:))
            }
            guard MergePolicy.consolidation(sizes) != nil else { return 0 }
            return try WriteProfile.measure("mergeSegments") { try ranked.mergeAll() }
        } catch {
            throw Self.translate(error, fileURL: fileURL)
        }
    }
}
