public import Foundation
import GRDB
import Logging
import Synchronization

extension SpotlightStore {
    /// Starts a batch: the index and delete calls that follow on this store
    /// wait, and ``endBatch(clientState:)`` commits them all with the
    /// client state in one transaction.
    ///
    /// The batch's writes wait in a file of the store's folder, unlinked as
    /// soon as it is made (`BatchSpill`), not in memory: a batch of a
    /// million items holds little more memory than one of a thousand, and
    /// a process that dies mid-batch leaves nothing behind (where the
    /// folder takes no file, as a read-only store's, they wait in memory,
    /// with a warning). Its items are
    /// checked as each call makes them (a bad one is refused in that call's
    /// report), and tokenized and written at the end, by size: a segment
    /// each 16,384 documents, merged as they come, one commit.
    ///
    /// ```swift
    /// try store.beginBatch()
    /// try store.index(page)                       // checked now, stored at the end
    /// try store.endBatch(clientState: Data("page=7".utf8))
    /// // after a crash: either page 7 and "page=7" are both stored, or neither
    /// let resumeFrom = try store.lastClientState()
    /// ```
    /// - Throws: `.batchState` if a batch is already open.
    public func beginBatch() throws {
        let folder = fileURL?.deletingLastPathComponent().path
        try batch.withLock { open in
            guard open == nil else {
                throw SpotlightIndexError(.batchState, "a batch is already open on this store; end it before beginning another")
            }
            do {
                open = try BatchSpill(folder: folder)
            } catch {
                logger.warning("the batch's writes wait in memory: \(error)")
                open = try BatchSpill(folder: nil)
            }
        }
    }

    /// True while a batch is open.
    public var isBatchOpen: Bool { batch.withLock { $0 != nil } }

    /// Commits the open batch and stores `clientState` with it, atomically.
    /// - Throws: `.invalidClientState` over 250 bytes (the batch stays
    ///   open), `.batchState` without an open batch, `.storeUnavailable`
    ///   when the batch's last writes cannot reach its file (it stays open)
    ///   or cannot be read back (nothing is stored).
    @discardableResult
    public func endBatch(clientState: Data) throws -> IndexReport {
        try commitBatch(expected: nil, checksExpected: false, newState: clientState)
    }

    /// Commits the open batch only if the stored client state equals
    /// `expectedClientState` (nil: no state stored), Apple's iOS 18
    /// compare-and-swap.
    /// - Throws: `.mismatchedClientState` when it differs: nothing is
    ///   stored and the batch is discarded.
    @discardableResult
    public func endBatch(expectedClientState: Data?, newClientState: Data) throws -> IndexReport {
        try commitBatch(expected: expectedClientState, checksExpected: true, newState: newClientState)
    }

    /// Throws the open batch away without storing anything.
    public func discardBatch() {
        batch.withLock { $0 = nil }
    }

    /// The client state stored by the last committed batch; nil if none, or
    /// after ``deleteAllItems()``.
    public func lastClientState() throws -> Data? {
        try read { db in try db.meta("client_state", as: Data.self) }
    }

    /// Keeps a write in the open batch; false when no batch is open.
    /// - Throws: `.storeUnavailable` when the batch's file cannot take it.
    func enqueueInBatch(_ write: BatchSpill.Write) throws -> Bool {
        try batch.withLock { open in
            guard let open else { return false }
            try open.append(write)
            return true
        }
    }

    /// Keeps a call's items in the open batch, checked by `pipeline`
    /// (`packed`: its validator packs an item's attributes, as a full
    /// preparation does). Returns the call's report; nil when no batch is
    /// open (it ended meanwhile), and then nothing is kept.
    func indexInBatch(_ pipeline: ItemPreparation.Pipeline, packed: Bool) throws -> IndexReport? {
        var report = IndexReport()
        var kept: [BatchSpill.Item] = []
        while let (chunk, refused) = pipeline.next() {
            report.refused += refused
            for item in chunk {
                kept.append(BatchSpill.Item(uid: item.uid, domain: item.domain, contentType: item.contentType, expiration: item.expiration,
                                            isUpdate: item.isUpdate, removedAttributes: item.removedAttributes,
                                            attributes: item.blob, isPacked: packed && !item.isUpdate))
            }
        }
        if !kept.isEmpty {
            guard try enqueueInBatch(.index(kept)) else { return nil }
        } else if !isBatchOpen {
            return nil
        }
        report.accepted = kept.count
        return report
    }

    private func commitBatch(expected: Data?, checksExpected: Bool, newState: Data) throws -> IndexReport {
        if newState.count > options.limits.maxClientStateBytes {
            throw SpotlightIndexError(.invalidClientState, "client state is \(newState.count) bytes; the limit is \(options.limits.maxClientStateBytes)")
        }
        // The batch is taken only once its writes can be read back: if its
        // last ones cannot reach the file, it stays open.
        let reader = try batch.withLock { open -> BatchSpill.Reader in
            guard let spill = open else {
                throw SpotlightIndexError(.batchState, "no batch is open on this store; call beginBatch() first")
            }
            let reader = try spill.reader()
            open = nil
            return reader
        }
        return try WriteProfile.measure("index call") { try write { db in
            if checksExpected {
                let stored = try db.meta("client_state", as: Data.self)
                if stored != expected {
                    throw SpotlightIndexError(.mismatchedClientState, "the stored client state is not the expected one; another writer committed first. Fetch lastClientState() and start again")
                }
            }
            var report = IndexReport()
            // Runs of items as a call's (prepared while the run before is
            // written), deletes in their turn.
            let steps = BatchSteps(reader, store: self)
            while let step = try steps.next() {
                switch step {
                case .index(let prepared): report.add(try write(chunks: prepared.chunks(for: self).next, db))
                case .other(let pending): report.add(try applyChunk(pending, db))
                }
            }
            try db.setMeta("client_state", newState)
            return report
        } }
    }
}
