import GRDB
import RankedSearch
import Synchronization

extension RankedIndex {
    /// Documents past which a transaction that only inserts writes the
    /// segment of those it inserted so far before it goes on
    /// (``flushIfLarge(_:)``): one call of a hundred thousand items holds
    /// a few chunks of them prepared and one segment's contents at a time,
    /// not all of their tokens and their segment's contents at once.
    ///
    /// Large enough that bulk indexing makes few segments to merge. The
    /// benchmark's index child at 63,666 items (`--batch-size`), calls of
    /// 16,000 items: 66,000–76,000 items/s and 22.5–25 µs of CPU an item,
    /// against 52,000–60,000 and 27.5–32 µs for calls of 1,000 (each its
    /// own segment, merged eight by eight, twice). One call of all 63,666:
    /// peak RSS 508 → 235 MB (about half of it the benchmark's own items),
    /// where its one segment's contents were built in memory whole.
    static let partialFlushDocuments = 16_384

    /// Writes the segment of the documents handed over so far, inside the
    /// transaction, once they are ``partialFlushThreshold`` or more and
    /// the transaction only inserted (``PipelineState/usable``): committed
    /// with the rest of the transaction, or rolled back with it (its file,
    /// if any, removed). The transaction's identifiers stay noted
    /// (``insertedRowids(uidHash:)``), so a later item with the same
    /// identifier still finds its row. Called after ``handOff()``.
    ///
    /// Encoded on the writer: finishing and encoding it on a thread of its
    /// own while the writer went on was slower (one call of 63,666 items
    /// in the benchmark's index child: 67,000–69,000 items/s against
    /// 72,000, 25–26 µs of CPU an item against 22.5, and 30 MB more at
    /// its peak).
    func flushIfLarge(_ db: Database) throws {
        let pipeline = writeState.withLock { state -> ContentsPipeline? in
            guard state.pipelining.usable, state.pipelining.pending.isEmpty, !state.removedAll, state.contents.isEmpty,
                  let pipeline = state.pipelining.pipeline, pipeline.handed >= partialFlushThreshold,
                  pipeline.handed == state.changed.count else { return nil }
            state.changed = []
            state.documents = [:]
            // A new pipeline for the documents that follow, whose rowids
            // must still ascend past the last one handed.
            state.pipelining.pipeline = nil
            state.partialFlushes += 1
            return pipeline
        }
        guard let pipeline else { return try flushChangesIfLarge(db) }
        let contents = WriteProfile.measure("flush.pipelined") { pipeline.finish() }
        pipelinedFlushes.add(1, ordering: .relaxed)
        try WriteProfile.measure("flush.add") { try add(contents, db) }
        // Merged as the transaction goes, as between calls: a batch of a
        // million items otherwise ended with 61 segments, each probed for
        // every identifier it inserted, and held in memory until its end.
        try WriteProfile.measure("flush.merge") { try maintainSegments(db) }
    }

    /// Writes the segment of the changes so far, as the transaction's end
    /// does, once they are ``partialFlushThreshold`` or more and the
    /// transaction did more than insert (an app indexing every item again
    /// in one batch replaces each): their old documents marked deleted,
    /// the new ones in a segment, so that a batch replacing a million items
    /// holds a segment's worth of them at a time, not a million. Nothing
    /// after a delete of everything in the transaction (its end drops
    /// every segment before it writes its own).
    func flushChangesIfLarge(_ db: Database) throws {
        let taken = writeState.withLock { state -> WriteState? in
            guard !state.pipelining.usable, !state.removedAll, state.changed.count >= partialFlushThreshold else { return nil }
            let taken = state
            state.changed = []
            state.documents = [:]
            state.contents = [:]
            // Read again for the lookups that follow: deletions marked, a segment added.
            state.segments = nil
            state.partialFlushes += 1
            return taken
        }
        guard let taken else { return }
        defer { Parallelism.release(taken) }
        try writeSegment(changed: taken.changed, provided: taken.documents, contents: taken.contents, pipelining: taken.pipelining, db)
        try WriteProfile.measure("flush.merge") { try maintainSegments(db) }
    }
}
