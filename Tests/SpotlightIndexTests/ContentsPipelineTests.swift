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
    static let writes: [[[SearchableItem]]] = [
        [items(0..<700)],
        [items(0..<300) + [replaced(5)]],
        [items(0..<100), [replaced(50)] + items(100..<400)],
        [items(0..<1)],
    ]
    /// How many of each case's transactions the pipeline builds.
    static let pipelined = [1, 0, 1, 1]

    static func replaced(_ number: Int) -> SearchableItem {
        item("p\(number)", title: "entry \(number) replaced")
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
        let expected = Set(Self.writes[index].flatMap { $0.map(\.uniqueIdentifier) })
        #expect(Set(try pipelined.search("entry", limit: 1_000).map(\.item.uniqueIdentifier)) == expected)
        let replacements = Set(Self.writes[index].flatMap { $0.filter { $0.attributes["keywords"] == nil }.map(\.uniqueIdentifier) })
        #expect(Set(try pipelined.search("replaced", limit: 1_000).map(\.item.uniqueIdentifier)) == replacements)
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
