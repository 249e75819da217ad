import Foundation
import Testing
@testable import SpotlightIndex

/// Items prepared ahead (``SpotlightStore/prepare(_:)``) are written as
/// ``SpotlightStore/index(_:)`` writes them: the same segment, the same
/// report, whichever store and however often they are written.
@Suite struct PreparedItemsTests {
    static func page(_ range: Range<Int>, word: String = "alpha") -> [SearchableItem] {
        range.map { item("n\($0)", title: "\(word) note \($0)", ["keywords": .strings(["k\($0 % 4)"])]) }
    }

    @Test func preparedAheadIsStoredAsIndexedAtOnce() throws {
        let clock = TestClock()
        let direct = try memoryStore(clock: clock)
        let ahead = try memoryStore(clock: clock)
        let pages = [Self.page(0..<300), Self.page(300..<310), Self.page(100..<200, word: "beta")]
        var next = ahead.prepare(pages[0])
        for index in pages.indices {
            let current = next
            if index + 1 < pages.count { next = ahead.prepare(pages[index + 1]) }
            let report = try ahead.index(prepared: current)
            #expect(report == (try direct.index(pages[index])))
        }
        #expect(try ahead.itemCount() == 310)
        #expect(try ahead.identifiers() == direct.identifiers())
        #expect(try ahead.ids("beta", limit: 500) == direct.ids("beta", limit: 500))
        #expect(try ahead.ids("alpha", limit: 500) == direct.ids("alpha", limit: 500))
        #expect(try ContentsPipelineTests.segmentBytes(ahead) == ContentsPipelineTests.segmentBytes(direct))
    }

    /// A refusal is reported by the write, with the other items stored.
    @Test func aRefusedItemIsReportedByTheWrite() throws {
        let store = try memoryStore()
        let prepared = store.prepare([item("ok", title: "fine"), item("", title: "no identifier"), item("ok2", title: "fine too")])
        #expect(prepared.count == 3)
        let report = try store.index(prepared: prepared)
        #expect(report.accepted == 2)
        #expect(report.refused.map(\.itemIdentifier) == [""])
        #expect(report.refused.first?.error.code == .invalidItem)
        #expect(try store.identifiers() == ["ok", "ok2"])
    }

    /// Written to another store, items are checked against that store's
    /// limits, not those of the store that prepared them.
    @Test func anotherStoreChecksThemAgainstItsOwnLimits() throws {
        let roomy = try memoryStore()
        let strict = try memoryStore { $0.limits.maxAttributesPerItem = 1 }
        let items = [item("a", title: "one attribute"), item("b", title: "two", ["keywords": .strings(["x"])])]
        let prepared = roomy.prepare(items)
        let report = try strict.index(prepared: prepared)
        #expect(report.accepted == 1)
        #expect(report.refused.map(\.itemIdentifier) == ["b"])
        #expect(report.refused.first?.error.code == .limitExceeded)
        #expect(try strict.identifiers() == ["a"])
        #expect(try roomy.itemCount() == 0)
        // The preparation started for `roomy` is still there for it.
        #expect(try roomy.index(prepared: prepared).accepted == 2)
        #expect(try roomy.identifiers() == ["a", "b"])
    }

    /// Written twice, the items are stored twice: the second write
    /// replaces the first (one item each), as indexing them again does.
    @Test func writtenTwiceTheyReplaceThemselves() throws {
        let store = try memoryStore()
        let prepared = store.prepare(Self.page(0..<50))
        #expect(try store.index(prepared: prepared).accepted == 50)
        #expect(try store.index(prepared: prepared).accepted == 50)
        #expect(try store.itemCount() == 50)
        #expect(try store.ids("alpha", limit: 100).count == 50)
    }

    @Test func nothingPreparedWritesNothing() throws {
        let store = try memoryStore()
        let report = try store.index(prepared: store.prepare([]))
        #expect(report == IndexReport())
        #expect(try store.itemCount() == 0)
    }

    /// Inside a batch, prepared items wait for the batch's end like others,
    /// and are discarded with it.
    @Test func inABatchTheyWaitForItsEnd() throws {
        let store = try memoryStore()
        try store.beginBatch()
        let report = try store.index(prepared: store.prepare(Self.page(0..<20)))
        #expect(report.accepted == 20)
        #expect(try store.itemCount() == 0)
        try store.endBatch(clientState: Data("p1".utf8))
        #expect(try store.itemCount() == 20)
        try store.beginBatch()
        _ = try store.index(prepared: store.prepare(Self.page(20..<30)))
        store.discardBatch()
        #expect(try store.itemCount() == 20)
        #expect(try store.lastClientState() == Data("p1".utf8))
    }

    /// A call of many items is prepared a few chunks ahead of its writer,
    /// not all at once, and its chunks come in order.
    @Test func preparationStaysItsLookaheadAheadOfTheWriter() throws {
        let store = try memoryStore()
        let items = ContentsPipelineTests.items(0..<(ItemPreparation.firstChunkSize + ItemPreparation.chunkSize * 19))
        let pipeline = ItemPreparation.Pipeline(items, validator: store.validator)
        // Its workers start on their own: waited for up to 5 s (a loaded
        // machine's test run started them later than a fixed 0.3 s once).
        let deadline = Date().addingTimeInterval(5)
        while pipeline.takenAhead == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(pipeline.takenAhead > 0)
        #expect(pipeline.takenAhead <= ItemPreparation.Pipeline.lookahead)
        var identifiers: [String] = []
        while let (chunk, refused) = pipeline.next() {
            #expect(refused.isEmpty)
            identifiers += chunk.map(\.uid)
            #expect(pipeline.takenAhead <= ItemPreparation.Pipeline.lookahead)
        }
        #expect(identifiers == items.map(\.uniqueIdentifier))
    }
}
