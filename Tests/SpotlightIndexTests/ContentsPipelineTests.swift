import Foundation
import GRDB
import Synchronization
import Testing
import TestSupport
@testable import SpotlightIndex

/// A transaction that only inserts builds its segment chunk by chunk as
/// it writes (``ContentsPipeline``); every other transaction leaves it to
/// the flush. Either way the segment must be the one the flush builds.
@Suite struct ContentsPipelineTests {
    /// Each segment's bytes, in the order they were listed.
    static func segmentBytes(_ store: SpotlightStore) throws -> [Data] {
        try store.read { try Data.fetchAll($0, sql: "SELECT data FROM ranked_segments ORDER BY id") }
    }

    static func items(_ range: Range<Int>, prefix: String = "p") -> [SearchableItem] {
        range.map { number in
            item("\(prefix)\(number)", title: "entry \(number) \(number % 3 == 0 ? "fizz" : "plain")",
                 ["keywords": .strings(["tag\(number % 7)"]), "contentDescription": .string("row \(number) crème brûlée"),
                  "rating": .number(.int(Int64(number % 5)))])
        }
    }

    /// The writes of one case, each a transaction: inserts alone (handed to
    /// the pipeline chunk by chunk), inserts with a replacement of an item
    /// of the same call, and a replacement of an item already stored.
    /// Each chunk (64 items first, then 256) is handed to the pipeline
    /// before its rows are inserted; an update in a chunk keeps it from
    /// being handed ahead.
    static let writes: [[[SearchableItem]]] = [
        [items(0..<700)],
        [items(0..<300) + [replaced(5)]],
        [items(0..<100), [replaced(50)] + items(100..<400)],
        [items(0..<1)],
        [items(0..<100), items(100..<500) + [updated(20)]],
        [items(0..<100), [updated(20)] + items(100..<200)],
        [items(0..<100), items(100..<200) + [updated(999)]],
    ]
    /// How many of each case's transactions the pipeline builds.
    static let pipelined = [1, 0, 1, 1, 1, 1, 2]

    static func replaced(_ number: Int) -> SearchableItem {
        item("p\(number)", title: "entry \(number) replaced")
    }

    /// An update of item `number`'s keywords (dropped if it is not stored).
    static func updated(_ number: Int) -> SearchableItem {
        SearchableItem(uniqueIdentifier: "p\(number)", attributes: ["keywords": .strings(["updated"])], isUpdate: true)
    }

    @Test(arguments: writes.indices)
    func aTransactionsSegmentIsTheOneItsFlushBuilds(_ index: Int) throws {
        let clock = TestClock()
        // Inline segments (no files), merges left for later: one segment per transaction.
        let pipelined = try memoryStore(clock: clock)
        let flushed = try memoryStore(clock: clock) { $0.rankedPipelinesContents = false }
        for write in Self.writes[index] {
            try pipelined.index(write)
            try flushed.index(write)
        }
        #expect(pipelined.ranked.pipelinedFlushes.load(ordering: .relaxed) == Self.pipelined[index])
        #expect(flushed.ranked.pipelinedFlushes.load(ordering: .relaxed) == 0)
        let bytes = try Self.segmentBytes(pipelined)
        #expect(!bytes.isEmpty)
        #expect(bytes == (try Self.segmentBytes(flushed)))
        let expected = Set(Self.writes[index].flatMap { $0.filter { !$0.isUpdate }.map(\.uniqueIdentifier) })
        #expect(Set(try pipelined.search("entry", limit: 1_000).map(\.item.uniqueIdentifier)) == expected)
        let replacements = Set(Self.writes[index].flatMap { $0.filter { $0.attributes["keywords"] == nil }.map(\.uniqueIdentifier) })
        #expect(Set(try pipelined.search("replaced", limit: 1_000).map(\.item.uniqueIdentifier)) == replacements)
    }

    /// Items refused as their rows would be inserted (the store full)
    /// leave documents handed ahead that no row matched: the flush builds
    /// that transaction's segment, the same one, of the items stored.
    @Test(arguments: [(150, 0), (64 + 256, 0), (1_000, 1)])
    func itemsRefusedAtTheirInsertLeaveTheSegmentToTheFlush(_ limit: Int, _ expectedPipelined: Int) throws {
        let clock = TestClock()
        let pipelined = try memoryStore(clock: clock) { $0.limits.maxItemsPerStore = limit }
        let flushed = try memoryStore(clock: clock) {
            $0.limits.maxItemsPerStore = limit
            $0.rankedPipelinesContents = false
        }
        let items = Self.items(0..<400)
        let report = try pipelined.index(items)
        #expect(report.refused.count == max(0, 400 - limit))
        #expect(try flushed.index(items) == report)
        #expect(pipelined.ranked.pipelinedFlushes.load(ordering: .relaxed) == expectedPipelined)
        #expect(try Self.segmentBytes(pipelined) == (try Self.segmentBytes(flushed)))
        #expect(try pipelined.search("entry", limit: 1_000).count == min(400, limit))
    }

    /// A transaction rolled back leaves nothing of its pipeline to the next.
    @Test func aFailedTransactionLeavesNothingToTheNext() throws {
        let store = try memoryStore()
        #expect(throws: (any Error).self) {
            try store.write { db in
                _ = try store.apply(.index(Self.prepare(store, Self.items(0..<200, prefix: "gone"))), db)
                store.ranked.handOff()
                throw SpotlightIndexError(.storeUnavailable, "the disk went away")
            }
        }
        try store.index(Self.items(0..<50))
        #expect(try store.search("entry", limit: 500).count == 50)
        #expect(try store.search("gone", limit: 500).isEmpty)
    }

    static func prepare(_ store: SpotlightStore, _ items: [SearchableItem]) -> [PreparedItem] {
        ItemPreparation.prepare(items[...], validator: store.validator, tokens: DocumentTokens.Builder(weights: store.validator.columnWeights)).0
    }
}
