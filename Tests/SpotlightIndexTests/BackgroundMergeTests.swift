import Foundation
import GRDB
import Synchronization
import Testing
import TestSupport
@testable import SpotlightIndex

/// Merges run off the write lock and are installed by a transaction of
/// their own (``MergeScheduler``): writes made while a merge runs must
/// survive its installation, and a merge whose inputs are gone must leave
/// nothing behind. The merge queues are held (suspended) so that the
/// writes surely come between a merge's start and its installation.
@Suite(.serialized) struct BackgroundMergeTests {
    static func segments(_ store: SpotlightStore) throws -> [Row] {
        try store.read { try Row.fetchAll($0, sql: "SELECT id, file, documents, deleted_count FROM ranked_segments ORDER BY id") }
    }

    /// Runs `during` while the merges the eighth write schedules are held.
    static func withHeldMerges(_ store: SpotlightStore, _ during: () throws -> Void) throws {
        let scheduler = store.ranked.merges
        scheduler.small.suspend()
        scheduler.large.suspend()
        do {
            try during()
        } catch {
            scheduler.small.resume()
            scheduler.large.resume()
            throw error
        }
        scheduler.small.resume()
        scheduler.large.resume()
        try store.finishMerging()
    }

    @Test func writesMadeWhileAMergeRunsSurviveItsInstallation() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir) { $0.rankedInlineLimit = 8 << 10 }
        let names = ["zero", "one", "two", "three", "four", "five", "six", "seven"]
        for batch in 0..<7 {
            try store.index((0..<100).map { item("m\(batch)-\($0)", title: "merged \(names[batch]) entry \($0)") })
        }
        try Self.withHeldMerges(store) {
            try store.index((0..<100).map { item("m7-\($0)", title: "merged seven entry \($0)") })   // eight of a size: a merge starts
            #expect(store.ranked.merges.state.withLock { !$0.inFlight.isEmpty })
            try store.deleteItems(withIdentifiers: (0..<50).map { "m3-\($0)" })                   // deleted from an input
            try store.index((0..<50).map { item("m5-\($0)", title: "replaced five \($0)") })      // replaced in an input
            try store.recordEngagement(.selection, itemIdentifier: "m6-1")                        // re-ranked in an input
            #expect(try store.search("merged three", limit: 1_000).count == 50)                  // right before the merge too
        }
        let rows = try Self.segments(store)
        // The eight merged into one, with the 101 documents deleted, replaced or re-ranked meanwhile deleted in it.
        #expect(rows.contains { ($0["documents"] as Int) == 800 && ($0["deleted_count"] as Int) == 101 }, "\(rows)")
        #expect(try store.search("merged", limit: 10_000).count == 800 - 50 - 50)
        #expect(try store.search("merged three", limit: 1_000).count == 50)
        #expect(try store.item(withIdentifier: "m3-10") == nil)
        #expect(try store.search("replaced five", limit: 1_000).count == 50)
        #expect(try store.ids("merged five entry 60").first == "m5-60")
        #expect(try store.ids("merged six entry 1").first == "m6-1")
        #expect(try store.item(withIdentifier: "m5-7")?.item.displayTitle == "replaced five 7")
        #expect(try store.item(withIdentifier: "m3-70")?.item.displayTitle == "merged three entry 70")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent("org.openspotlight.tests/shared.ranked").path)
        #expect(files.sorted() == rows.compactMap { $0["file"] as String? }.flatMap { [$0, $0 + ".ok"] }.sorted(),
                "no file left behind; each segment file with its verification record")
    }

    @Test func aMergeWhoseInputsAreGoneLeavesNothingBehind() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir) { $0.rankedInlineLimit = 8 << 10 }
        for batch in 0..<7 {
            try store.index((0..<100).map { item("g\(batch)-\($0)", title: "gone \(batch)") })
        }
        try Self.withHeldMerges(store) {
            try store.index((0..<100).map { item("g7-\($0)", title: "gone 7") })
            try store.deleteAllItems()
            try store.index([item("after", title: "after everything")])
        }
        #expect(try store.search("gone", limit: 10_000).isEmpty)
        #expect(try store.ids("after") == ["after"])
        let rows = try Self.segments(store)
        #expect(rows.reduce(0) { $0 + ($1["documents"] as Int) } == 1)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent("org.openspotlight.tests/shared.ranked").path)) ?? []
        #expect(files.sorted() == rows.compactMap { $0["file"] as String? }.sorted(), "the discarded merge's file is gone")
    }

    @Test func anotherStoreObjectSeesMergesInstalledByThisOne() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let writer = try fileStore(dir) { $0.rankedInlineLimit = 8 << 10 }
        let reader = try fileStore(dir)
        for batch in 0..<20 {
            try writer.index((0..<100).map { item("o\(batch)-\($0)", title: "other \(batch)") })
            #expect(try reader.search("other", limit: 10_000).count == (batch + 1) * 100)
        }
        try writer.finishMerging()
        #expect(try Self.segments(writer).count < 8)
        #expect(try reader.search("other", limit: 10_000).count == 2_000)
    }

    /// A large merge writes its file as it encodes (``SegmentFile``): a
    /// failure on the way removes the file, a whole one has its header
    /// written over its start, and a file is never created over another.
    @Test func aSegmentFileBeingWrittenIsRemovedWhenWritingFails() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let folder = dir.url.appendingPathComponent("shared.ranked")
        let url = folder.appendingPathComponent("00ff.seg")
        struct Stop: Error {}
        let body = [UInt8](repeating: 7, count: 4_096)
        #expect(throws: Stop.self) {
            try RankedIndex.writingSynced(to: url, directory: folder) { file in
                try body.withUnsafeBytes { try file.append($0) }
                throw Stop()
            }
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        try RankedIndex.writingSynced(to: url, directory: folder) { file in
            try body.withUnsafeBytes { try file.append($0) }
            try [UInt8](repeating: 1, count: 8).withUnsafeBytes { try file.writeHeader($0) }
        }
        let written = try Data(contentsOf: url)
        #expect(written.count == 4_096 && written.prefix(8).allSatisfy { $0 == 1 } && written.dropFirst(8).allSatisfy { $0 == 7 })
        #expect(throws: SpotlightIndexError.self) { try RankedIndex.writingSynced(to: url, directory: folder) { _ in } }
        #expect(try Data(contentsOf: url) == written, "the file already there is left as it was")
    }
    /// A merge's inputs inside the SQLite file leave the writer's cache as
    /// they are dropped (their bytes are copied into memory), where a
    /// search's snapshot would otherwise be the first to let go of them;
    /// a search after the merge still finds everything.
    @Test func mergedInlineSegmentsLeaveTheCache() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir)   // 1 MB inline limit: every segment here is inside the SQLite file
        for batch in 0..<8 {
            try store.index((0..<20).map { item("c\(batch)-\($0)", title: "cached entry \(batch) \($0)") })
        }
        try store.finishMerging()
        let rows = try Self.segments(store)
        #expect(rows.count == 1 && rows[0]["file"] == nil && (rows[0]["documents"] as Int) == 160, "\(rows)")
        let live = Set(try store.read { try Int64.fetchAll($0, sql: "SELECT token FROM ranked_segments") })
        #expect(Set(store.ranked.cache.withLock { $0.keys }).isSubset(of: live))
        #expect(try store.search("cached", limit: 1_000).count == 160)
    }
}
