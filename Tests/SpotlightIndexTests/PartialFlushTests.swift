import Foundation
import GRDB
import Synchronization
import Testing
import TestSupport
@testable import SpotlightIndex

/// A call of many items writes the segment of those it inserted so far
/// whenever they reach ``RankedIndex/partialFlushDocuments`` (here 100),
/// inside its transaction: the index answers as if one segment held them
/// all, an identifier given again later in the call still replaces the
/// first, and a transaction that fails leaves none of its segments.
@Suite struct PartialFlushTests {
    static func items(_ range: Range<Int>) -> [SearchableItem] { ContentsPipelineTests.items(range) }

    static func segments(_ store: SpotlightStore) throws -> [(documents: Int, deleted: Int)] {
        try store.read { db in
            try Row.fetchAll(db, sql: "SELECT documents, deleted_count FROM ranked_segments ORDER BY id").map { ($0[0], $0[1]) }
        }
    }

    static func ranked(_ store: SpotlightStore, _ query: String) throws -> [String] {
        try store.search(query, limit: 1_000).map { "\($0.item.uniqueIdentifier) \($0.score.total)" }
    }

    @Test func aLargeCallWritesASegmentEachTimeItsDocumentsReachTheThreshold() throws {
        let clock = TestClock()
        let partial = try memoryStore(clock: clock) { $0.rankedPartialFlushDocuments = 100 }
        let whole = try memoryStore(clock: clock)
        let items = Self.items(0..<700)
        try partial.index(items)
        try whole.index(items)

        // Chunks of 64, then 256 (``ItemPreparation``): a segment once 100
        // or more are handed over, at the end of a chunk; the rest at the end.
        #expect(try Self.segments(partial).map(\.documents) == [320, 256, 124])
        #expect(try Self.segments(whole).map(\.documents) == [700])
        #expect(partial.ranked.pipelinedFlushes.load(ordering: .relaxed) == 3)
        // The same hits, score for score: the collection's statistics are
        // over every segment. (A prefix's count of matching documents is
        // estimated per segment, so its scores move with the segments, as
        // they do after a merge; its order does not here.)
        for query in ["entry", "fizz", "tag3", "crème"] {
            #expect(try Self.ranked(partial, query) == (try Self.ranked(whole, query)), "\(query)")
        }
        #expect(try partial.search("row 12", limit: 100).map(\.item.uniqueIdentifier)
            == (try whole.search("row 12", limit: 100).map(\.item.uniqueIdentifier)))
        #expect(try partial.search("entry", limit: 1_000).count == 700)
    }

    @Test func anIdentifierGivenAgainAfterASegmentWasWrittenReplacesTheFirst() throws {
        let store = try memoryStore { $0.rankedPartialFlushDocuments = 100 }
        // p5 is in the first segment (320 documents) when it comes again.
        let items = Self.items(0..<400) + [ContentsPipelineTests.replaced(5)] + Self.items(400..<500)
        let report = try store.index(items)
        #expect(report.accepted == 501)

        let segments = try Self.segments(store)
        #expect(segments.first?.documents == 320)
        #expect(segments.first?.deleted == 1)
        let live = segments.reduce(0) { $0 + $1.documents - $1.deleted }
        #expect(live == 500)
        #expect(try store.search("replaced", limit: 10).map(\.item.uniqueIdentifier) == ["p5"])
        #expect(try store.search("entry", limit: 1_000).count == 500)
        #expect(try store.itemCount() == 500)
    }

    /// A transaction writing segments as it goes merges them as it goes
    /// (each merge run off the writer and installed at the next segment):
    /// a large batch does not end with a pile of segments. Replacing items
    /// already merged leaves the hits of one call of the final items.
    @Test(.timeLimit(.minutes(2))) func aLongTransactionMergesItsSegmentsAsItGoes() throws {
        let clock = TestClock()
        let store = try memoryStore(clock: clock) { $0.rankedPartialFlushDocuments = 100 }
        let whole = try memoryStore(clock: clock)
        try whole.index(Self.items(0..<2_000))
        try whole.index([ContentsPipelineTests.replaced(5), ContentsPipelineTests.replaced(1_500)])

        var flushes = 0
        try store.write { db in
            for start in stride(from: 0, to: 2_000, by: 100) {
                _ = try store.apply(.index(ContentsPipelineTests.prepare(store, Self.items(start..<(start + 100)))), db)
                store.ranked.handOff()
                try store.ranked.flushIfLarge(db)
                flushes += 1
                // The merges planned so far complete; the next segment installs them.
                store.ranked.merges.group.wait()
            }
            _ = try store.apply(.index(ContentsPipelineTests.prepare(store, [ContentsPipelineTests.replaced(5), ContentsPipelineTests.replaced(1_500)])), db)
            let segments = try Int.fetchOne(db, sql: "SELECT count(*) FROM ranked_segments") ?? 0
            #expect(segments < flushes / 2, "\(segments) segments for \(flushes) written")
        }
        try store.finishMerging()
        #expect(try Self.segments(store).reduce(0) { $0 + $1.documents - $1.deleted } == 2_000)
        // Consolidated, both hold the same documents and statistics (a
        // merge drops deleted documents from a word's count).
        _ = try store.mergeSegments()
        _ = try whole.mergeSegments()
        for query in ["entry", "fizz", "tag3", "crème", "replaced"] {
            #expect(try Self.ranked(store, query) == (try Self.ranked(whole, query)), "\(query)")
        }
        #expect(try store.search("replaced", limit: 10).map(\.item.uniqueIdentifier).sorted() == ["p1500", "p5"])
        #expect(try store.itemCount() == 2_000)
    }

    /// A call that replaces items writes the segment of its changes each
    /// time they reach the threshold, as one that only inserts does: a
    /// batch indexing every item again holds a segment's worth at a time.
    @Test func aLargeCallOfReplacementsWritesItsChangesAsItGoes() throws {
        let clock = TestClock()
        let store = try memoryStore(clock: clock) { $0.rankedPartialFlushDocuments = 100 }
        let whole = try memoryStore(clock: clock)
        let again = (0..<450).map { item("p\($0)", title: "again \($0) \($0 % 2 == 0 ? "even" : "odd")") }
        for target in [store, whole] { try target.index(Self.items(0..<450)) }
        try whole.index(again)
        try store.write { db in
            for start in stride(from: 0, to: 450, by: 50) {
                _ = try store.apply(.index(ContentsPipelineTests.prepare(store, Array(again[start..<min(start + 50, 450)]))), db)
                store.ranked.handOff()
                try store.ranked.flushIfLarge(db)
                #expect(store.ranked.writeState.withLock { $0.changed.count } < 100, "after \(start + 50)")
            }
        }
        #expect(try store.itemCount() == 450)
        #expect(try Self.segments(store).reduce(0) { $0 + $1.documents - $1.deleted } == 450)
        _ = try store.mergeSegments()
        _ = try whole.mergeSegments()
        for query in ["again", "even", "odd", "entry", "fizz", "again 7"] {
            #expect(try Self.ranked(store, query) == (try Self.ranked(whole, query)), "\(query)")
        }
        #expect(try store.search("entry", limit: 10).isEmpty)
    }

    @Test func aFailedTransactionLeavesNoneOfItsSegments() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        // Every segment a file of its own, so that a leftover would show.
        let store = try fileStore(dir) {
            $0.rankedPartialFlushDocuments = 100
            $0.rankedInlineLimit = 1_024
        }
        try store.index(Self.items(0..<150))
        let folder = RankedIndex.directory(forStore: try #require(store.fileURL)).path
        let segmentFiles = { try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".seg") } }
        let before = try segmentFiles()
        #expect(before.count == 1)

        #expect(throws: (any Error).self) {
            try store.write { db in
                for chunk in [0..<200, 200..<400] {
                    _ = try store.apply(.index(ContentsPipelineTests.prepare(store, ContentsPipelineTests.items(chunk, prefix: "gone"))), db)
                    store.ranked.handOff()
                    try store.ranked.flushIfLarge(db)
                }
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM ranked_segments") == 3)
                throw SpotlightIndexError(.storeUnavailable, "the disk went away")
            }
        }
        #expect(try Self.segments(store).map(\.documents) == [150])
        #expect(try segmentFiles() == before)
        #expect(try store.search("gone", limit: 10).isEmpty)
        try store.index(Self.items(150..<300))
        #expect(try store.search("entry", limit: 1_000).count == 300)
    }

    /// A batch's calls are written at its end as one call of all their
    /// items (``BatchSteps``), so a large batch writes a segment each time
    /// its documents reach the threshold, as that call does.
    @Test func aLargeBatchWritesASegmentEachTimeItsDocumentsReachTheThreshold() throws {
        let store = try memoryStore { $0.rankedPartialFlushDocuments = 100 }
        try store.beginBatch()
        for start in stride(from: 0, to: 350, by: 50) { try store.index(Self.items(start..<(start + 50))) }
        try store.endBatch(clientState: Data("350".utf8))
        let call = try memoryStore { $0.rankedPartialFlushDocuments = 100 }
        try call.index(Self.items(0..<350))
        #expect(try Self.segments(store).map(\.documents) == Self.segments(call).map(\.documents))
        #expect(try Self.segments(store).count > 1)
        #expect(try store.search("entry", limit: 1_000).count == 350)
        #expect(try store.lastClientState() == Data("350".utf8))
    }
}
