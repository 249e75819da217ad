import Foundation
import GRDB
import GRDBSQLite
import RankedSearch
import Synchronization

/// The ranked text index of a store: immutable segments (``Segment``)
/// derived from the store's items, kept in step with every write
/// transaction and read by ``SpotlightStore/search(_:limit:)``.
///
/// **Where segments live.** Table `ranked_segments` lists the live
/// segments: each has a random `token` (its name in caches), its bytes
/// either inline (`data`, for small segments and in-memory stores) or in a
/// file `<store>.ranked/<token>.seg`, and its deleted documents (`deleted`,
/// varint doc ids, with a `deleted_version`). The table is written in the
/// same transaction as the items, so a reader's snapshot always names the
/// segments of exactly the items it sees; a segment file is written and
/// synced before the transaction that names it commits, and removed only
/// after the transaction that drops it has committed.
///
/// **Keeping in step.** The writer notes every rowid of `items` it
/// stores, deletes or re-ranks (``provide(rowid:columns:)``,
/// ``changed(rowid:)``, ``removedAll()``; a temporary trigger did this
/// first, and cost 70 µs per item). At the end of each write transaction (``flush(_:)``) those rowids' old documents are
/// marked deleted in their segments and their current versions go into one
/// new segment; then segments are merged, eight of a size at a time
/// (``MergePolicy``), off the write lock (``MergeScheduler``), so a
/// store has a few dozen segments at most.
///
/// **Rebuilding.** `meta.ranked_format` records the segment format, the
/// tokenizer and the ranking weights the segments were built with; a store
/// opened with others, or whose segments fail to load (bad header,
/// checksum, missing file), is rebuilt from its items: the index is derived
/// data, never the record.
final class RankedIndex: Sendable {
    /// `<store>.ranked/`, nil for an in-memory store (segments inline).
    let directory: URL?
    let scoring: RankedScoring
    /// The store's clock: segments record when they were built by it.
    let clock: @Sendable () -> Date

    /// Segments up to this size are kept inline in SQLite.
    let inlineLimit: Int
    /// Segments up to this size are checksummed as they are loaded; larger
    /// ones are files checked once after each change to them
    /// (``SegmentVerification``: a record of the file's identity when it was
    /// verified, written by the writer that made it), then again by a
    /// background queue reading the file (not through the map, so that the
    /// check does not make every page resident): opening a large store and
    /// answering at once stays fast, and a file damaged in place is never read.
    let checksumLimit: Int
    /// Whether segment files verified as they are are checked again in the background.
    let backgroundChecks: Bool
    /// Whether loaded segments keep the dense tails they read (``Segment/keepsDenseTails``).
    let keepsDenseTails: Bool
    /// Documents per segment while rebuilding (then merged).
    let rebuildChunk: Int
    /// Whether a transaction that only inserts builds its segment as it
    /// writes (``ContentsPipeline``).
    let pipelinesContents: Bool
    /// This index's ``partialFlushDocuments`` (tests lower it).
    let partialFlushThreshold: Int
    /// Flushes whose segment the contents pipeline built (for tests).
    let pipelinedFlushes = Atomic<Int>(0)

    struct Loaded {
        var segment: Segment
        var deletedVersion: Int64
        var deleted: DeletionSet
    }

    struct WriteState {
        /// Rowids this transaction stored, changed or deleted.
        var changed: Set<Int64> = []
        /// Their documents, where the writer had all of them.
        var documents: [Int64: RankedDocument] = [:]
        /// Their content, where the writer had it but not the signals.
        var contents: [Int64: Content] = [:]
        /// Identifier hashes of the rows this transaction inserted, each
        /// with its first rowid: not in any segment until ``flush(_:)``.
        var insertedUIDs: [UInt64: Int64] = [:]
        /// The hashes inserted more than once (an identifier given twice,
        /// or two sharing a hash), with every rowid: kept apart, so that
        /// the usual one rowid a hash costs no array of its own.
        var insertedAgain: [UInt64: [Int64]] = [:]
        /// The segments as this transaction started, read once for its lookups.
        var segments: [SegmentSnapshot]?
        var removedAll = false
        var createdFiles: [URL] = []
        var droppedFiles: [URL] = []
        /// The new segment, built as the transaction goes (``ContentsPipeline``).
        var pipelining = PipelineState()
        /// Segments this transaction wrote before its end (``flushIfLarge(_:)``).
        var partialFlushes = 0

        /// Forgets the changes noted so far (the files stay noted until
        /// the transaction ends).
        mutating func forgetChanges() {
            changed = []
            documents = [:]
            contents = [:]
            insertedUIDs = [:]
            insertedAgain = [:]
            segments = nil
            removedAll = false
            pipelining = PipelineState()
            partialFlushes = 0
        }
    }

    /// What an item's text and values give the index, apart from its signals.
    struct Content: Sendable {
        var tokens: DocumentTokens
        var uid: String
        var uidHash: UInt64
        var numbers: [(String, Double)]
    }

    let cache = Mutex<[Int64: Loaded]>([:])
    /// The last few resolutions of a query's terms in a snapshot: a system
    /// search's statistics and its matches resolve the same terms.
    let resolutions = ResolutionMemo()
    /// The segments a reader saw last (``recentSnapshot``).
    private let lastRead = Mutex<(segments: [SegmentSnapshot], stamp: RankedSnapshotStamp)?>(nil)
    /// Segments whose background check failed: the next read rebuilds.
    private let failedChecks = Mutex<Set<Int64>>([])
    let writeState = Mutex(WriteState())
    /// Merges running off the write lock (``MergeScheduler``).
    let merges = MergeScheduler()
    /// The store's writer, for the transactions that install merges.
    let writer: any DatabaseWriter

    init(directory: URL?, weights: RankingWeights, inlineLimit: Int = 1 << 20, checksumLimit: Int = 1 << 20, backgroundChecks: Bool = true, keepsDenseTails: Bool = true,
         rebuildChunk: Int = 50_000, pipelinesContents: Bool = true, partialFlushDocuments: Int = RankedIndex.partialFlushDocuments,
         writer: any DatabaseWriter, clock: @escaping @Sendable () -> Date) {
        self.backgroundChecks = backgroundChecks
        self.keepsDenseTails = keepsDenseTails
        self.pipelinesContents = pipelinesContents
        self.partialFlushThreshold = max(1, partialFlushDocuments)
        self.rebuildChunk = max(1, rebuildChunk)
        self.directory = directory
        self.writer = writer
        self.inlineLimit = inlineLimit
        self.checksumLimit = checksumLimit
        self.scoring = RankedScoring(weights: weights)
        self.clock = clock
    }

    /// `<root>/<bundle>/<index name>.ranked/` beside `<index name>.sqlite`.
    static func directory(forStore file: URL) -> URL {
        file.deletingPathExtension().appendingPathExtension("ranked")
    }

    /// What `meta.ranked_format` must say for the segments to be usable.
    var formatTag: String { "\(SegmentFormat.version).\(TextTokenizer.version).\(String(scoring.fingerprint, radix: 16))" }

    static let createTable = """
        CREATE TABLE IF NOT EXISTS ranked_segments(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            token INTEGER NOT NULL UNIQUE,
            documents INTEGER NOT NULL,
            file TEXT,
            data BLOB,
            deleted BLOB NOT NULL DEFAULT x'',
            deleted_count INTEGER NOT NULL DEFAULT 0,
            deleted_version INTEGER NOT NULL DEFAULT 0
        )
        """

    // MARK: - Reading

    /// The live segments of the reader's snapshot.
    func snapshot(_ db: Database) throws -> [SegmentSnapshot] { try stampedSnapshot(db).segments }

    /// ``snapshot(_:)`` with its stamp: each segment's token and deletion version.
    private func stampedSnapshot(_ db: Database) throws -> (segments: [SegmentSnapshot], stamp: RankedSnapshotStamp) {
        // Every keystroke reads this list: a cached statement stepped through SQLite's C API.
        var rows: [(id: Int64, token: Int64, file: String?, version: Int64)] = []
        try db.cachedStatement(sql: "SELECT id, token, file, deleted_version FROM ranked_segments ORDER BY id").eachRow(db) { row in
            let file = sqlite3_column_text(row, 2).map { String(cString: $0) }
            rows.append((sqlite3_column_int64(row, 0), sqlite3_column_int64(row, 1), file, sqlite3_column_int64(row, 3)))
            return true
        }
        var out: [SegmentSnapshot] = []
        out.reserveCapacity(rows.count)
        var live = Set<Int64>(minimumCapacity: rows.count)
        var stamp: [Int64] = []
        stamp.reserveCapacity(2 * rows.count)
        let failed = failedChecks.withLock { $0 }
        let cached = cache.withLock { $0 }
        for (id, token, file, version) in rows {
            live.insert(token)
            stamp.append(token)
            stamp.append(version)
            if failed.contains(token) { throw SegmentError.corrupt("segment \(String(UInt64(bitPattern: token), radix: 16)) failed its checksum") }
            if let loaded = cached[token], loaded.deletedVersion == version {
                out.append(SegmentSnapshot(segment: loaded.segment, deleted: loaded.deleted))
                continue
            }
            let segment: Segment
            if let loaded = cached[token] {
                segment = loaded.segment
            } else {
                segment = try load(db, id: id, token: token, file: file)
            }
            let blob = Array(try Data.fetchOne(db, sql: "SELECT deleted FROM ranked_segments WHERE id = ?", arguments: [id]) ?? Data())
            let deleted = DeletionSet(documentCount: segment.documentCount, deleted: try DeletionSet.decode(blob))
            cache.withLock { $0[token] = Loaded(segment: segment, deletedVersion: version, deleted: deleted) }
            out.append(SegmentSnapshot(segment: segment, deleted: deleted))
        }
        if cached.count > live.count {
            cache.withLock { cache in cache = cache.filter { live.contains($0.key) } }
        }
        return (out, RankedSnapshotStamp(values: stamp))
    }

    /// ``snapshot(_:)`` for a reader, with its stamp, kept as the store's
    /// ``recentSnapshot``. Only read transactions call it (system search's,
    /// and a store's own search on a reader slot): a writer's snapshot may
    /// hold what it has not committed, and the kept
    /// snapshot keeps its segments mapped (files a merge removed included)
    /// until the next one replaces it.
    /// - Parameter memo: the reader slot's memo: the segments it holds are
    ///   used while the store is unchanged, and no background check failed.
    func readerSnapshot(_ db: Database, memo: ReadMemo? = nil) throws -> (segments: [SegmentSnapshot], stamp: RankedSnapshotStamp) {
        let read: (segments: [SegmentSnapshot], stamp: RankedSnapshotStamp)
        if let kept = memo?.snapshot, failedChecks.withLock({ $0.isEmpty }) {
            read = kept
        } else {
            read = try stampedSnapshot(db)
            memo?.snapshot = read
        }
        lastRead.withLock { $0 = read }
        return read
    }

    /// The segments the last reader saw (``readerSnapshot(_:)``), nil before
    /// any: at most one keystroke old while a front end searches the store
    /// as the user types.
    var recentSnapshot: (segments: [SegmentSnapshot], stamp: RankedSnapshotStamp)? { lastRead.withLock { $0 } }

    private func load(_ db: Database, id: Int64, token: Int64, file: String?) throws -> Segment {
        let bytes: SegmentBytes
        if let file {
            guard let directory, Self.isSegmentFileName(file) else { throw SegmentError.corrupt("segment file \(file) has no directory") }
            guard StorePath.kind(directory.path) == .directory else {
                throw SegmentError.corrupt("\(directory.path) is not the store's own folder (a link, or gone)")
            }
            bytes = try SegmentBytes(mapping: directory.appendingPathComponent(file).path)
        } else {
            bytes = try Self.inlineBytes(db, id: id)
        }
        let checkNow = bytes.buffer.count <= checksumLimit
        var segment = try Segment(bytes, verifyChecksum: checkNow)
        segment.keepsDenseTails = keepsDenseTails
        guard segment.fingerprint == scoring.fingerprint else { throw SegmentError.corrupt("built with other ranking weights") }
        if !checkNow, let file, let directory {
            let url = directory.appendingPathComponent(file)
            let stored = segment.storedChecksum
            if SegmentVerification.isVerified(url, checksum: stored) {
                // Verified as it is now: checked again in the background, for
                // damage below the file system, once its record is a day old.
                if backgroundChecks, SegmentVerification.isDueForRecheck(url) {
                    Self.verifier.async { [weak self] in
                        if (try? Self.checksumOfFile(url.path)) == stored {
                            SegmentVerification.record(url, checksum: stored)
                        } else {
                            self?.failedChecks.withLock { _ = $0.insert(token) }
                        }
                    }
                }
            } else {
                // Never verified, or written to since: checked whole before any query reads it.
                guard try Self.checksumOfFile(url.path) == stored else {
                    throw SegmentError.corrupt("segment file \(url.path) fails its checksum (damaged since it was written)")
                }
                SegmentVerification.record(url, checksum: stored)
            }
        }
        return segment
    }

    /// An inline segment's bytes, read from SQLite's row straight into
    /// memory of their own (a store's small segments are read on its first
    /// search, ~1.6 MB at 10,000 items), through incremental blob I/O: read
    /// as a column, SQLite first assembled the whole value in memory of its
    /// own from the row's overflow pages, then freed it once copied, ~40%
    /// of a 10,000-item store's first search (perf).
    private static func inlineBytes(_ db: Database, id: Int64) throws -> SegmentBytes {
        if let connection = db.sqliteConnection {
            var blob: OpaquePointer?
            if sqlite3_blob_open(connection, "main", "ranked_segments", "data", id, 0, &blob) == SQLITE_OK, let blob {
                defer { sqlite3_blob_close(blob) }
                let count = Int(sqlite3_blob_bytes(blob))
                if count > 0 {
                    return try SegmentBytes(count: count) { buffer in
                        let read = sqlite3_blob_read(blob, buffer.baseAddress, CInt(count), 0)
                        guard read == SQLITE_OK else { throw DatabaseError(code: read, on: connection) }
                    }
                }
            } else {
                // A NULL or missing value cannot be opened: the query below says which.
                sqlite3_blob_close(blob)
            }
        }
        let statement = try db.cachedStatement(sql: "SELECT data FROM ranked_segments WHERE id = ?")
        statement.arguments = [id]
        var bytes: SegmentBytes?
        try statement.eachRow(db) { row in
            let count = Int(sqlite3_column_bytes(row, 0))
            guard sqlite3_column_type(row, 0) == SQLITE_BLOB, count > 0, let blob = sqlite3_column_blob(row, 0) else { return false }
            bytes = SegmentBytes(count: count) { $0.copyMemory(from: UnsafeRawBufferPointer(start: blob, count: count)) }
            return false
        }
        guard let bytes else { throw SegmentError.corrupt("segment \(id) has neither a file nor data") }
        return bytes
    }

    // MARK: - Writing (inside the store's write transactions)

    /// Starts a write transaction.
    func begin(_ db: Database) throws {
        writeState.withLock { $0 = WriteState() }
    }

    /// Notes an item inserted, with everything the index stores of it,
    /// so that ``flush(_:)`` neither reads nor tokenizes it again.
    func provide(_ document: RankedDocument) {
        writeState.withLock { state in
            state.documents[document.rowid] = document
            state.contents[document.rowid] = nil
            state.changed.insert(document.rowid)
            if let first = state.insertedUIDs[document.uidHash] {
                state.insertedAgain[document.uidHash, default: [first]].append(document.rowid)
            } else {
                state.insertedUIDs[document.uidHash] = document.rowid
            }
            state.pipelining.provided(document)
        }
    }

    /// Notes an item replaced, with its content; ``flush(_:)`` reads its
    /// signals (engagement stays with the row).
    func provide(rowid: Int64, content: Content) {
        writeState.withLock { state in
            state.documents[rowid] = nil
            state.contents[rowid] = content
            state.changed.insert(rowid)
            state.pipelining.abandon()
        }
    }

    /// Notes an item deleted, or changed in a ranking signal.
    func changed(rowid: Int64) {
        writeState.withLock { state in
            state.documents[rowid] = nil
            state.contents[rowid] = nil
            state.changed.insert(rowid)
            state.pipelining.abandon()
        }
    }

    /// Rowids that may hold the item `uid` in this write transaction: rows
    /// it inserted, and live documents of its segments with the identifier's
    /// hash. A superset: the caller checks each row's `uid`. Damaged or
    /// missing segments are rebuilt from the items first.
    func candidateRowids(uid: String, _ db: Database) throws -> [Int64] {
        let hash = RankedDocument.uidHash(uid)
        return insertedRowids(uidHash: hash) + (try segmentCandidates(uidHashes: [hash], db)[0])
    }

    /// Rows this transaction inserted with identifier hash `hash`.
    func insertedRowids(uidHash hash: UInt64) -> [Int64] {
        writeState.withLock { state in
            if let again = state.insertedAgain[hash] { return again }
            return state.insertedUIDs[hash].map { [$0] } ?? []
        }
    }

    /// For each hash, the rowids of the live documents of this
    /// transaction's segments that have it. The segments do not change
    /// until ``flush(_:)``, so a chunk's lookups are done together, segment
    /// by segment: independent reads, whose cache misses overlap (one at a
    /// time they cost the writer ~3 µs an item at 1M items).
    func segmentCandidates(uidHashes hashes: [UInt64], _ db: Database) throws -> [[Int64]] {
        let segments = try writerSegments(db)
        var out = [[Int64]](repeating: [], count: hashes.count)
        for snapshot in segments {
            let segment = snapshot.segment
            func lookUp(_ index: Int, _ hash: UInt64) {
                for doc in segment.documents(uidHash: hash) where !snapshot.deleted.contains(doc) {
                    out[index].append(segment.rowid(doc))
                }
            }
            // Most identifiers of a chunk are new: the segment's filter says
            // so at once. (A lookup or two, as a delete's, is not worth building it.)
            // The filter is probed in a loop of its own, not through an
            // optional per hash (a retain and release of it each time).
            guard hashes.count >= Self.filteredLookups else {
                for (index, hash) in hashes.enumerated() { lookUp(index, hash) }
                continue
            }
            let filter = segment.uidFilter
            hashes.withUnsafeBufferPointer { hashes in
                for index in hashes.indices where filter.mayContain(hashes[index]) { lookUp(index, hashes[index]) }
            }
        }
        return out
    }

    /// Identifiers looked up at once from which each segment's ``UIDFilter``
    /// answers first: a writer's chunk of items (64 or 256), not a delete's one.
    static let filteredLookups = 32

    /// The segments as this write transaction found them, read once.
    private func writerSegments(_ db: Database) throws -> [SegmentSnapshot] {
        if let known = writeState.withLock({ $0.segments }) { return known }
        let segments: [SegmentSnapshot]
        do {
            segments = try snapshot(db)
        } catch is SegmentError {
            // Derived data gone bad: it is rebuilt from the rows, which
            // hold this transaction's writes so far.
            try rebuild(db)
            segments = try snapshot(db)
        }
        writeState.withLock { $0.segments = segments }
        return segments
    }

    /// Notes that every item was deleted.
    func removedAll() {
        writeState.withLock { state in
            state.removedAll = true
            state.pipelining.abandon()
            state.changed.removeAll()
            state.documents.removeAll()
            state.contents.removeAll()
            state.insertedUIDs.removeAll()
            state.insertedAgain.removeAll()
        }
    }

    /// Brings the segments in step with this transaction's changes.
    func flush(_ db: Database) throws {
        let taken = writeState.withLock { state in
            var taken = state
            // The segments the transaction read are let go of here, as
            // before: a merge may have dropped them since, and a late
            // release would keep their bytes.
            taken.segments = nil
            state.forgetChanges()
            return taken
        }
        // What the transaction was made of (its documents, tokens and
        // identifiers) is freed off the writer, which commits meanwhile.
        defer { Parallelism.release(taken) }
        let (changedSet, provided, providedContents, removedAll, pipelining) =
            (taken.changed, taken.documents, taken.contents, taken.removedAll, taken.pipelining)
        if removedAll {
            for row in try Row.fetchAll(db, sql: "SELECT id, token, file FROM ranked_segments") {
                try drop(id: row["id"], token: row["token"], file: row["file"], db)
            }
        }
        guard !changedSet.isEmpty else {
            // Segments written before the end may make a size class full.
            if taken.partialFlushes > 0 { try WriteProfile.measure("flush.merge") { try maintainSegments(db) } }
            return
        }
        try writeSegment(changed: changedSet, provided: provided, contents: providedContents, pipelining: pipelining, db)
        try WriteProfile.measure("flush.merge") { try maintainSegments(db) }
    }

    /// Marks the `changed` rowids deleted in the segments that hold them
    /// and writes the segment of their current documents: built as the
    /// transaction went when it only inserted (`pipelining`), else here.
    func writeSegment(changed changedSet: Set<Int64>, provided: [Int64: RankedDocument], contents providedContents: [Int64: Content],
                      pipelining: PipelineState, _ db: Database) throws {
        let changed = changedSet.sorted()
        let pipelined = WriteProfile.measure("flush.pipelined") { Self.pipelinedContents(pipelining, documents: changed.count) }
        if pipelined != nil { pipelinedFlushes.add(1, ordering: .relaxed) }
        let documents = pipelined == nil ? try currentDocuments(changed, provided: provided, contents: providedContents, db) : []
        try WriteProfile.measure("flush.markDeleted") { try markDeleted(changed, db) }
        if let contents = pipelined ?? (documents.isEmpty ? nil : WriteProfile.measure("flush.contents") { SegmentContents.building(documents) }) {
            try WriteProfile.measure("flush.add") { try add(contents, db) }
        }
    }

    /// The current documents of the `changed` rowids (sorted), deleted
    /// ones left out: those the writer provided, the others read from
    /// their rows (replaced, re-ranked), tokenized again unless their
    /// content was provided.
    private func currentDocuments(_ changed: [Int64], provided: [Int64: RankedDocument], contents providedContents: [Int64: Content],
                                  _ db: Database) throws -> [RankedDocument] {
        var documents: [RankedDocument] = []
        documents.reserveCapacity(changed.count)
        var unknown: [Int64] = []
        for rowid in changed {
            if let document = provided[rowid] { documents.append(document) } else { unknown.append(rowid) }
        }
        // Replaced, re-ranked or deleted: the row says what is left.
        let builder = DocumentTokens.Builder(weights: DocumentTokens.ColumnWeights(scoring.weights))
        for chunk in stride(from: 0, to: unknown.count, by: 500) {
            let rowids = unknown[chunk..<min(chunk + 500, unknown.count)]
            let rows = try Row.fetchAll(db, sql: """
                SELECT rowid, expires, hint, recency, eng, eng_at, imp FROM items
                WHERE rowid IN (\(rowids.map(String.init).joined(separator: ",")))
                """)
            for row in rows {
                let rowid: Int64 = row[0]
                let content: Content
                if let known = providedContents[rowid] {
                    content = known
                } else {
                    guard let stored = try Row.fetchOne(db.cachedStatement(sql: "SELECT uid, domain, content_type, attributes FROM items WHERE rowid = ?"),
                                                        arguments: [rowid]) else { continue }
                    content = Self.content(uid: stored["uid"], domain: stored["domain"], contentType: stored["content_type"],
                                           attributes: try StoredRow.attributes(stored), tokens: builder)
                }
                documents.append(RankedDocument(rowid: rowid, expires: row[1], hint: row[2], recency: row[3],
                                                engagement: row[4], engagedAt: row[5], impressions: row[6], tokens: content.tokens,
                                                uid: content.uid, uidHash: content.uidHash, numbers: content.numbers))
            }
        }
        return documents
    }

    /// What the index keeps of a stored item's identifier and attributes.
    static func content(uid: String, domain: String?, contentType: String?, attributes: [String: AttributeValue],
                        tokens builder: DocumentTokens.Builder) -> Content {
        builder.add(attributes)
        return Content(tokens: builder.finish(), uid: uid, uidHash: RankedDocument.uidHash(uid),
                       numbers: NumericIndex.entries(attributes, domain: domain, contentType: contentType))
    }

    /// The transaction committed: files of dropped segments can go.
    func committed() {
        let dropped = writeState.withLock { state in
            let files = state.droppedFiles
            state = WriteState()
            return files
        }
        for file in dropped {
            try? FileManager.default.removeItem(at: file)
            SegmentVerification.remove(for: file)
        }
    }

    /// The transaction rolled back: files it wrote are not named by any row.
    func rolledBack() {
        let created = writeState.withLock { state in
            let files = state.createdFiles
            state = WriteState()
            return files
        }
        for file in created {
            try? FileManager.default.removeItem(at: file)
            SegmentVerification.remove(for: file)
        }
    }

    /// Marks the old documents of changed rowids deleted in their segments.
    private func markDeleted(_ rowids: [Int64], _ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT id, token, file, deleted, documents FROM ranked_segments ORDER BY id")
        for row in rows {
            let id: Int64 = row["id"]
            let segment = try segment(db, id: id, token: row["token"], file: row["file"])
            guard let range = segment.rowidRange else { continue }
            var found: [UInt32] = []
            for rowid in rowids where range.contains(rowid) {
                if let doc = segment.document(rowid: rowid) { found.append(UInt32(doc)) }
            }
            guard !found.isEmpty else { continue }
            let before = try DeletionSet.decode(Array(row["deleted"] as Data? ?? Data()))
            let set = DeletionSet(documentCount: segment.documentCount, deleted: before + found)
            if set.count >= segment.documentCount {
                try drop(id: id, token: row["token"], file: row["file"], db)
            } else {
                try db.execute(sql: """
                    UPDATE ranked_segments SET deleted = ?, deleted_count = ?, deleted_version = deleted_version + 1 WHERE id = ?
                    """, arguments: [Data(DeletionSet.encode(set.documents)), set.count, id])
            }
        }
    }

    /// A segment by row, from the cache or loaded (the writer's view).
    func segment(_ db: Database, id: Int64, token: Int64, file: String?) throws -> Segment {
        if let loaded = cache.withLock({ $0[token] }) { return loaded.segment }
        let segment = try load(db, id: id, token: token, file: file)
        cache.withLock { $0[token] = Loaded(segment: segment, deletedVersion: -1, deleted: DeletionSet(documentCount: 0, deleted: [])) }
        return segment
    }

    /// Encodes `contents` and names it in `ranked_segments`.
    func add(_ contents: SegmentContents, _ db: Database) throws {
        guard contents.documentCount > 0 else { return }
        let bytes = WriteProfile.measure("encode") { SegmentEncoder.encode(contents, scoring: scoring, buildTime: clock().timeIntervalSince1970) }
        try install(consume bytes, documentCount: contents.documentCount, db)
    }

    /// Lists a new segment of `documentCount` documents in this
    /// transaction: in a synced file of its own when large, else inside
    /// the SQLite file.
    ///
    /// Inside the file, the bytes are held once: copied into the segment
    /// this writer keeps (``remember(_:_:)``), the encoder's array freed,
    /// and written from there into the row's pages (``insertInline(_:token:documentCount:_:)``).
    func install(_ bytes: consuming [UInt8], documentCount: Int, _ db: Database) throws {
        let token = Int64.random(in: 1...Int64.max)
        if let directory, bytes.count > inlineLimit {
            let name = Self.segmentFileName(token: token)
            let url = directory.appendingPathComponent(name)
            writeState.withLock { $0.createdFiles.append(url) }
            try removeOrphanFiles(db)
            try WriteProfile.measure("writeSynced") { try Self.writeSynced(bytes, to: url, directory: directory) }
            try installFile(name, token: token, documentCount: documentCount, db)
        } else {
            let kept = SegmentBytes(copying: consume bytes)
            try Self.insertInline(kept.buffer, token: token, documentCount: documentCount, db)
            remember(token, try Segment(kept, verifyChecksum: false))
        }
    }

    /// Inserts the row of a segment kept inside the SQLite file, its blob
    /// written by SQLite's incremental I/O straight into the row's pages
    /// from `bytes`.
    ///
    /// Bound as a value, a 1,000-item flush's ~0.9 MB segment was held
    /// four times over at once (the encoder's array, a `Data` of it,
    /// SQLite's copy of the binding and the record it assembles from it)
    /// besides the writer's own copy: ~3.7 MB of a 10,000-item index's
    /// peak. A `zeroblob` makes the record without the bytes; the write
    /// fills its pages.
    static func insertInline(_ bytes: UnsafeRawBufferPointer, token: Int64, documentCount: Int, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO ranked_segments(token, documents, data) VALUES (?, ?, zeroblob(?))",
                       arguments: [token, documentCount, bytes.count])
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        guard let connection = db.sqliteConnection else { throw DatabaseError(message: "the store's connection is closed") }
        var blob: OpaquePointer?
        let opened = sqlite3_blob_open(connection, "main", "ranked_segments", "data", db.lastInsertedRowID, 1, &blob)
        guard opened == SQLITE_OK, let blob else {
            sqlite3_blob_close(blob)
            throw DatabaseError(code: opened, on: connection)
        }
        let written = sqlite3_blob_write(blob, base, CInt(bytes.count), 0)
        let closed = sqlite3_blob_close(blob)
        guard written == SQLITE_OK else { throw DatabaseError(code: written, on: connection) }
        guard closed == SQLITE_OK else { throw DatabaseError(code: closed, on: connection) }
    }

    /// Lists segment file `name`, written and synced, in this transaction.
    func installFile(_ name: String, token: Int64, documentCount: Int, _ db: Database) throws {
        guard let directory else { throw SegmentError.corrupt("segment file \(name) has no directory") }
        let url = directory.appendingPathComponent(name)
        try db.execute(sql: "INSERT INTO ranked_segments(token, documents, file) VALUES (?, ?, ?)", arguments: [token, documentCount, name])
        let segment = try Segment(SegmentBytes(mapping: url.path), verifyChecksum: false)
        SegmentVerification.record(url, checksum: segment.storedChecksum)
        remember(token, segment)
    }

    /// Keeps a segment this writer just made, so that the next write or
    /// query does not read it back.
    func remember(_ token: Int64, _ segment: Segment) {
        cache.withLock { $0[token] = Loaded(segment: segment, deletedVersion: -1, deleted: DeletionSet(documentCount: 0, deleted: [])) }
    }

    /// Removes segment `id` from the index in this transaction (a file of
    /// its own is removed once the transaction commits).
    ///
    /// - Parameter purging: whether a segment inside the SQLite file has
    ///   its pages overwritten as its row goes (the writer's
    ///   `secure_delete`, ``StoreOpener``), so that a deleted item's words
    ///   do not stay in the file's free pages. A merge's input with nothing
    ///   deleted is dropped without (`FAST`: its leaf cell is cleared, its
    ///   overflow pages are freed as they are): every word in it is in the
    ///   merged segment, and zeroing ~0.7 MB a 1,000-item segment wrote it
    ///   through the WAL and into the file once more (~45 MB at 63,666 items).
    func drop(id: Int64, token: Int64, file: String?, _ db: Database, purging: Bool = true) throws {
        // A segment inside the SQLite file leaves the cache now, before a
        // merge this transaction schedules starts: its bytes, copied into
        // memory, would otherwise stay until the next snapshot, which a
        // store indexing in bulk does not take (the last merge of the
        // benchmark's 63,666 items ran beside the eight 1,000-item
        // segments merged before it, 5.8 MB). A read that needs it after
        // all (this transaction rolled back, or a read begun before its
        // commit) reads it again from its row, as any segment not cached.
        // A file stays cached until the next snapshot: it is removed at
        // the commit, and such a read could not load it again.
        if file == nil { _ = cache.withLock { $0.removeValue(forKey: token) } }
        if purging || file != nil {
            try db.execute(sql: "DELETE FROM ranked_segments WHERE id = ?", arguments: [id])
        } else {
            try db.execute(sql: "PRAGMA secure_delete = FAST")
            let deleting = Result { try db.execute(sql: "DELETE FROM ranked_segments WHERE id = ?", arguments: [id]) }
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try deleting.get()
        }
        if let file, let directory, Self.isSegmentFileName(file) {
            writeState.withLock { $0.droppedFiles.append(directory.appendingPathComponent(file)) }
        }
    }
}

/// Which segments, in which state of their deletions, a read of a ranked
/// index saw: two reads with equal stamps saw the same index. A system
/// search compares the stamp its statistics came from with the one its
/// matches came from (``SpotlightStore/recentSearchStatistics(terms:)``).
package struct RankedSnapshotStamp: Hashable, Sendable {
    /// Each segment's token and deletion version, in the segments' order.
    let values: [Int64]
}
