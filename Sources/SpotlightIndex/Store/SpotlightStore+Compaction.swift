import Foundation
import GRDB
import Logging

extension SpotlightStore {
    /// A store file's pages: how many, and how many are free (left by
    /// deleted items, merged segments or an upgrade, reused by later writes
    /// but never given back to the file system by SQLite alone).
    public struct PageUsage: Sendable, Equatable, Encodable {
        /// Bytes in a page (16 KB for stores this version makes).
        public var pageSize: Int64
        /// Pages in the file, free ones included.
        public var pages: Int64
        /// Pages on SQLite's free list.
        public var freePages: Int64

        /// Bytes the free pages take.
        public var freeBytes: Int64 { freePages * pageSize }
    }

    /// The file's pages and how many are free.
    ///
    /// ```swift
    /// let usage = try store.pageUsage()
    /// print("\(usage.freeBytes) of \(usage.pages * usage.pageSize) bytes free")
    /// ```
    public func pageUsage() throws -> PageUsage {
        try read { db in
            PageUsage(pageSize: try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0,
                      pages: try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0,
                      freePages: try Int64.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0)
        }
    }

    /// Gives the file's free pages back to the file system (SQLite's
    /// `VACUUM`, then a checkpoint that truncates the write-ahead log) when
    /// they are at least `fraction` of the file and `minimumBytes`; returns
    /// the bytes the file shrinks by (0 when it was not worth it), once the
    /// log is checkpointed: at once, unless a reader is in a transaction.
    ///
    /// Rowids are kept (every table names its own), so the ranked index
    /// stays as it is. Rewriting the file takes the store's write lock for
    /// as long as copying it takes (~5 s for a 1.4 GB file here): maintenance
    /// (`spotlight maintain`, or a running service's schedule) calls it,
    /// not a front end.
    ///
    /// ```swift
    /// let saved = try store.compact()   // after deleting most items, or upgrading to schema v10
    /// ```
    /// - Throws: `.storeUnavailable` for a read-only store.
    @discardableResult
    public func compact(whenFreeAbove fraction: Double = 0.25, minimumBytes: Int64 = 4 << 20) throws -> Int64 {
        guard let fileURL else { return 0 }
        guard !isReadOnly else {
            throw SpotlightIndexError(.storeUnavailable, "\(fileURL.path) is read-only: its free pages cannot be given back")
        }
        let usage = try pageUsage()
        guard usage.freeBytes >= minimumBytes, Double(usage.freePages) >= fraction * Double(usage.pages) else { return 0 }
        do {
            try writer.vacuum()
            // The vacuum's commit may have asked the store's checkpointer for
            // a pass (its log is the whole file): a checkpoint running there
            // would make this one busy and leave the log as long as the file.
            checkpointer?.waitUntilIdle()
            // Best effort: a reader in a transaction keeps the log; a later checkpoint truncates it.
            writer.writeWithoutTransaction { db in _ = try? db.checkpoint(.truncate) }
        } catch {
            throw Self.translate(error, fileURL: fileURL)
        }
        let after = try pageUsage()
        logger.info("compacted: \(usage.pages - after.pages) of \(usage.pages) pages given back")
        return max(0, usage.pages - after.pages) * usage.pageSize
    }
}
