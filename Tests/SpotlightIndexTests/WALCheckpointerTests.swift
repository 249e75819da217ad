import Foundation
import Synchronization
import Testing
import TestSupport
@testable import SpotlightIndex

/// A pool's writer leaves its WAL checkpoints to a thread of its own
/// (``WALCheckpointer``), and checkpoints itself only when that thread
/// falls behind; either way nothing committed is lost, and closing the
/// store checkpoints the WAL into the file and leaves it a frame or two
/// long (``KeptJournal``).
@Suite struct WALCheckpointerTests {
    /// 32 frames of 16 KB: a checkpoint every other transaction below (each writes ~17 frames).
    static let pages: Int32 = 32

    /// A transaction of `count` items with ~1 KB of text each (~6 pages of rows, and its segment).
    static func batch(_ number: Int, count: Int = 100) -> [SearchableItem] {
        (0..<count).map { index in
            let id = number * count + index
            return item("w\(id)", title: "entry \(id) batch\(number)",
                        ["textContent": .string(String(repeating: "lorem ipsum dolor \(id % 97) ", count: 40))])
        }
    }

    static func walFile(_ store: SpotlightStore) throws -> String {
        try #require(store.fileURL).path + "-wal"
    }

    @Test func theWALIsCopiedBackOffTheWriter() throws {
        let scratch = try ScratchDirectory("wal-checkpoints")
        let store = try fileStore(scratch) { $0.walCheckpointPages = Self.pages }
        let checkpointer = try #require(store.checkpointer)
        // Opening the store wrote its schema in transactions one after the other.
        checkpointer.waitUntilIdle()
        checkpointer.largestFrames.store(0, ordering: .relaxed)
        let before = (checkpointer.passes.load(ordering: .relaxed), checkpointer.writerPasses.load(ordering: .relaxed))
        for number in 0..<30 {
            try store.index(Self.batch(number))
            // The checkpointer keeps up (it is given the time it would have between an app's writes).
            checkpointer.waitUntilIdle()
        }
        #expect(checkpointer.passes.load(ordering: .relaxed) >= before.0 + 5)
        // The writer never had to checkpoint it all itself, and the WAL
        // started over after checkpoints instead of growing with every write.
        #expect(checkpointer.writerPasses.load(ordering: .relaxed) == before.1)
        #expect(checkpointer.largestFrames.load(ordering: .relaxed) < checkpointer.writerPages)
        #expect(try store.search("batch29", limit: 500).count == 100)
        #expect(try store.search("entry", limit: 5_000).count == 3_000)
    }

    @Test func aCheckpointerThatFallsBehindLeavesItToTheWriter() throws {
        let scratch = try ScratchDirectory("wal-checkpoints")
        let store = try fileStore(scratch) { $0.walCheckpointPages = Self.pages }
        let checkpointer = try #require(store.checkpointer)
        checkpointer.close()   // asks go unanswered from here on
        let before = (checkpointer.passes.load(ordering: .relaxed), checkpointer.writerPasses.load(ordering: .relaxed))
        for number in 0..<30 { try store.index(Self.batch(number)) }
        #expect(checkpointer.passes.load(ordering: .relaxed) == before.0)
        #expect(checkpointer.writerPasses.load(ordering: .relaxed) >= before.1 + 3)
        // Bounded by the writer's own checkpoints: three times the
        // background limit, and the one transaction that crossed it.
        let limit = Int(checkpointer.writerPages + 4 * Self.pages) * StoreOpener.pageSize
        #expect(try #require(try FileManager.default.attributesOfItem(atPath: Self.walFile(store))[.size] as? Int) < limit)
        #expect(try store.search("entry", limit: 5_000).count == 3_000)
    }

    @Test func closingTheStoreEmptiesTheWALAndKeepsEveryWrite() throws {
        let scratch = try ScratchDirectory("wal-checkpoints")
        var wal = ""
        do {
            let store = try fileStore(scratch) { $0.walCheckpointPages = Self.pages }
            wal = try Self.walFile(store)
            // A checkpoint asked for by the last write may still be running as the store goes.
            for number in 0..<12 { try store.index(Self.batch(number)) }
            // Not a merge, though: one in flight holds the pool (and the
            // WAL) until it ends (12 segments: eight of them merge).
            try store.finishMerging()
            #expect(FileManager.default.fileExists(atPath: wal))
        }
        // The checkpointer's connection closed first: the pool's last
        // connection checkpointed the WAL and left the close's own frames.
        #expect(try #require(try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) <= KeptJournalTests.keptLimit)
        let reopened = try fileStore(scratch)
        #expect(try reopened.search("entry", limit: 5_000).count == 1_200)
        #expect(try reopened.search("batch11", limit: 500).count == 100)
    }

    /// After each commit, by the WAL's frames: nothing below the limit; a
    /// checkpoint asked of the thread at it; the last frames copied by the
    /// writer once that thread has caught up; everything copied by the
    /// writer at three times the limit, whatever the thread does.
    @Test func whoCheckpointsAfterACommit() throws {
        let scratch = try ScratchDirectory("wal-checkpoints")
        let store = try fileStore(scratch)
        try store.index(Self.batch(0, count: 10))
        let checkpointer = WALCheckpointer(path: try #require(store.fileURL).path, backgroundPages: 8)
        let steps: [(frames: Int32, idle: Bool, step: WALCheckpointer.Step)] = [
            (3, false, .nothing),
            (7, false, .nothing),
            (9, true, .nothing),          // asks the thread, which copies the store's WAL whole
            (10, false, .checkpointHere), // it caught up: the writer copies the rest
            (12, true, .nothing),         // asks again
            (4, false, .nothing),         // the WAL started over: what the thread did is stale
            (9, true, .nothing),
            (30, false, .checkpointHere), // three times the limit: the writer copies it all
            (31, false, .checkpointHere),
        ]
        for (frames, idle, step) in steps {
            #expect(checkpointer.committed(frames: frames) == step, "after \(frames) frames")
            if idle { checkpointer.waitUntilIdle() }
        }
        #expect(checkpointer.passes.load(ordering: .relaxed) >= 3)
        #expect(checkpointer.tailPasses.load(ordering: .relaxed) == 1)
        #expect(checkpointer.writerPasses.load(ordering: .relaxed) == 2)
        #expect(checkpointer.largestFrames.load(ordering: .relaxed) == 31)
        let passes = checkpointer.passes.load(ordering: .relaxed)
        checkpointer.close()
        #expect(checkpointer.committed(frames: 10) == .nothing)   // closed: asks nothing of the thread
        checkpointer.waitUntilIdle()
        #expect(checkpointer.passes.load(ordering: .relaxed) == passes)
    }

    @Test func oneConnectionStoresKeepSQLitesOwnCheckpoints() throws {
        let scratch = try ScratchDirectory("wal-checkpoints")
        _ = try fileStore(scratch)   // made as a pool, which sets WAL mode
        let store = try fileStore(scratch) { $0.opensOneConnection = true }
        #expect(store.checkpointer == nil)
    }
}
