public import Foundation
import GRDB
import Synchronization

extension SpotlightStore {
    /// Starts a batch: the index and delete calls that follow on this store
    /// wait, and ``endBatch(clientState:)`` commits them all with the
    /// client state in one transaction.
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
        try batch.withLock { pending in
            guard pending == nil else {
                throw SpotlightIndexError(.batchState, "a batch is already open on this store; end it before beginning another")
            }
            pending = []
        }
    }

    /// True while a batch is open.
    public var isBatchOpen: Bool { batch.withLock { $0 != nil } }

    /// Commits the open batch and stores `clientState` with it, atomically.
    /// - Throws: `.invalidClientState` over 250 bytes (the batch stays
    ///   open), `.batchState` without an open batch.
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

    /// Queues a write in the open batch; false when no batch is open.
    func enqueueInBatch(_ write: PendingWrite) -> Bool {
        batch.withLock { pending in
            guard pending != nil else { return false }
            pending!.append(write)
            return true
        }
    }

    private func commitBatch(expected: Data?, checksExpected: Bool, newState: Data) throws -> IndexReport {
        if newState.count > options.limits.maxClientStateBytes {
            throw SpotlightIndexError(.invalidClientState, "client state is \(newState.count) bytes; the limit is \(options.limits.maxClientStateBytes)")
        }
        guard var writes = batch.withLock({ pending -> [PendingWrite]? in
            defer { pending = nil }
            return pending
        }) else {
            throw SpotlightIndexError(.batchState, "no batch is open on this store; call beginBatch() first")
        }
        return try write { db in
            if checksExpected {
                let stored = try db.meta("client_state", as: Data.self)
                if stored != expected {
                    throw SpotlightIndexError(.mismatchedClientState, "the stored client state is not the expected one; another writer committed first. Fetch lastClientState() and start again")
                }
            }
            var report = IndexReport()
            // Each write as a call's chunk (``applyChunk(_:_:)``), taken out
            // of the list so that it is freed once written.
            for index in writes.indices {
                let pending = writes[index]
                writes[index] = .index([])
                report.add(try applyChunk(pending, db))
            }
            try db.setMeta("client_state", newState)
            return report
        }
    }
}
