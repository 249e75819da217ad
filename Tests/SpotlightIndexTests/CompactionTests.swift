import Foundation
import Testing
import TestSupport
@testable import SpotlightIndex

/// Free pages given back to the file system (``SpotlightStore/compact(whenFreeAbove:minimumBytes:)``).
@Suite struct CompactionTests {
    /// Items of a few KB of text each, so that deleting most of them frees pages.
    static func items(_ count: Int) -> [SearchableItem] {
        (0..<count).map { index in
            item("i\(index)", title: "note \(index) \(index % 7 == 0 ? "pear" : "plum")",
                 ["textContent": .string((0..<400).map { "w\(($0 * 31 + index) % 997)" }.joined(separator: " "))])
        }
    }

    /// With the WAL checkpointer's default limit, and with one the vacuum's
    /// log passes (its pass must not leave the truncating checkpoint busy).
    @Test(arguments: [Int32(4_096), 8])
    func aMostlyEmptyStoreGivesItsFreePagesBackAndKeepsEveryItem(checkpointPages: Int32) throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir) { $0.walCheckpointPages = checkpointPages }
        try store.index(Self.items(600))
        try store.deleteItems(withIdentifiers: (0..<600).filter { $0 % 10 != 0 }.map { "i\($0)" })
        try store.finishMerging()
        let before = (usage: try store.pageUsage(), pears: try store.ids("pear"), all: try store.identifiers())
        #expect(before.usage.freePages * 4 > before.usage.pages, "\(before.usage)")
        #expect(try store.compact(minimumBytes: 1 << 30) == 0, "fewer free bytes than asked: left as it is")
        let saved = try store.compact(minimumBytes: 0)
        let after = try store.pageUsage()
        let fileSize = try FileManager.default.attributesOfItem(atPath: try #require(store.fileURL).path)[.size] as? Int
        #expect(fileSize.map(Int64.init) == after.pages * after.pageSize, "the log checkpointed into a file that shrank")
        #expect(saved > 0 && saved == (before.usage.pages - after.pages) * after.pageSize, "\(saved) \(after)")
        #expect(after.freePages == 0)
        #expect(try store.identifiers() == before.all && before.all.count == 60)
        #expect(try store.ids("pear") == before.pears)
        #expect(try store.compact(minimumBytes: 0) == 0, "nothing free any more")
        // Written and reopened as before.
        try store.index([item("fresh", title: "pear tart")])
        let reopened = try fileStore(dir)
        #expect(try reopened.ids("tart") == ["fresh"] && reopened.identifiers().count == 61)
    }

    /// Under either threshold, or in memory, nothing is rewritten.
    @Test func aStoreUnderEitherThresholdOrInMemoryIsLeftAsItIs() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir)
        try store.index(Self.items(300))
        try store.deleteItems(withIdentifiers: (0..<100).map { "i\($0)" })
        try store.finishMerging()
        let usage = try store.pageUsage()
        #expect(usage.freePages > 0, "\(usage)")
        let fraction = Double(usage.freePages) / Double(usage.pages)
        #expect(try store.compact(whenFreeAbove: fraction + 0.01, minimumBytes: 0) == 0, "under the fraction")
        #expect(try store.compact(whenFreeAbove: 0, minimumBytes: usage.freeBytes + 1) == 0, "under the bytes")
        #expect(try store.pageUsage() == usage)
        #expect(try store.compact(whenFreeAbove: fraction, minimumBytes: usage.freeBytes) >= usage.freeBytes, "at both: the free pages, and what repacking the rest saves")
        let memory = try memoryStore()
        try memory.index(Self.items(10))
        #expect(try memory.compact(whenFreeAbove: 0, minimumBytes: 0) == 0)
    }
}
