import Foundation
import GRDB
import Testing
import TestSupport
@testable import SpotlightIndex

/// ``SpotlightStore/mergeSegments()``: every segment merged into one, with
/// the same answers before and after, deleted documents dropped, the old
/// segments' files removed, and nothing done twice.
@Suite struct MergeSegmentsTests {
    static func segments(_ store: SpotlightStore) throws -> [Row] {
        try store.read { try Row.fetchAll($0, sql: "SELECT id, file, documents, deleted_count FROM ranked_segments ORDER BY id") }
    }

    static func segmentFiles(_ dir: ScratchDirectory) -> [String] {
        let files = FileManager.default.enumerator(atPath: dir.url.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".seg") }.sorted()
    }

    /// Each query's results, in rank order. (Scores move a little: deleted
    /// documents leave the corpus statistics once merged away, as in Lucene.)
    static func answers(_ store: SpotlightStore, _ queries: [String]) throws -> [[String]] {
        try queries.map { query in try store.search(query, limit: 1_000).map(\.item.uniqueIdentifier) }
    }

    static let queries = ["apple", "pear 1", "apple pear", "banana", "appl", "kiwi", "nothing"]

    @Test(arguments: [8 << 10, 64 << 20])   // segments in files of their own; all inline
    func mergesEverySegmentIntoOneWithTheSameAnswers(inlineLimit: Int) throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir) { $0.rankedInlineLimit = inlineLimit }
        let fruit = ["apple", "pear", "banana", "kiwi"]
        for batch in 0..<5 {
            try store.index((0..<60).map { item("b\(batch)-\($0)", title: "\(fruit[(batch + $0) % 4]) \(fruit[$0 % 3]) \($0)") })
        }
        try store.deleteItems(withIdentifiers: (0..<20).map { "b1-\($0)" })
        try store.index((0..<10).map { item("b2-\($0)", title: "kiwi replaced \($0)") })
        try store.finishMerging()
        let before = try Self.segments(store)
        #expect(before.count == 6, "\(before)")   // five batches and the replacements
        let answers = try Self.answers(store, Self.queries)

        #expect(try store.mergeSegments() == 6)
        let after = try Self.segments(store)
        #expect(after.count == 1 && (after.first?["documents"] as Int?) == 280 && (after.first?["deleted_count"] as Int?) == 0, "\(after)")
        #expect(try Self.answers(store, Self.queries) == answers)
        #expect(try store.rankedIndexStatistics().deletedDocuments == 0)
        #expect(Self.segmentFiles(dir).count == (after.first?["file"] as String? == nil ? 0 : 1), "the inputs' files are removed")
        #expect(try store.mergeSegments() == 0, "one segment: nothing to do")

        // Another store object (a service's) sees the merged index, and a write after it lands beside it.
        let other = try fileStore(dir)
        #expect(try Self.answers(other, Self.queries) == answers)
        try store.index([item("late", title: "apple late")])
        #expect(try other.ids("late") == ["late"])
    }

    /// A deleted item's words leave the store's file once its segment is
    /// merged away: that segment's pages are overwritten as its row goes,
    /// while an input with nothing deleted is dropped without (its words
    /// are all in the merged segment). Also on an SQLite built without
    /// secure delete: the writer asks for it.
    @Test func aDeletedItemsWordsLeaveTheFileOnceItsSegmentIsMergedAway() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir) { $0.rankedInlineLimit = 64 << 20 }   // segments inside the SQLite file
        // The deleted item's own words: enough of them (~150 KB of its
        // segment's dictionary) that the merged segment, written in the same
        // transaction, cannot reuse every page its segment leaves free.
        let secret = "qzxv"
        let words = (0..<2_000).map { "\(secret)\($0)" }.joined(separator: " ")
        try store.index([item("gone", title: "letter", ["textContent": .string(words)])] + (0..<50).map { item("kept-a\($0)", title: "apple \($0)") })
        try store.index((0..<50).map { item("kept-b\($0)", title: "pear \($0)") })
        try store.index((0..<50).map { item("kept-c\($0)", title: "kiwi \($0)") })
        try store.deleteItems(withIdentifiers: ["gone"])
        try store.finishMerging()
        #expect(try store.mergeSegments() == 3)
        #expect(try store.ids("apple").count == 50 && store.ids("pear").count == 50 && store.ids("\(secret)7").isEmpty)
        try store.writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        let file = try #require(store.fileURL)
        for path in [file.path, file.path + "-wal"] {
            let bytes = FileManager.default.contents(atPath: path) ?? Data()
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(path) still holds the deleted item's word")
        }
    }

    @Test func aLoneSegmentIsMergedOnlyWhenATenthIsDeleted() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir)
        try store.index((0..<100).map { item("i\($0)", title: "plum \($0)") })
        try store.deleteItems(withIdentifiers: (0..<9).map { "i\($0)" })
        #expect(try store.mergeSegments() == 0, "9 of 100 deleted")
        try store.deleteItems(withIdentifiers: ["i9"])
        #expect(try store.mergeSegments() == 1, "10 of 100 deleted")
        let rows = try Self.segments(store)
        #expect(rows.count == 1 && (rows.first?["documents"] as Int?) == 90 && (rows.first?["deleted_count"] as Int?) == 0, "\(rows)")
        #expect(try store.search("plum", limit: 1_000).count == 90)

        try store.deleteItems(withIdentifiers: (10..<100).map { "i\($0)" })
        #expect(try Self.segments(store).isEmpty, "a segment with nothing live is dropped at once")
        #expect(try store.mergeSegments() == 0)
        #expect(try store.search("plum").isEmpty)
    }

    @Test func anEmptyOrInMemoryStoreMergesToo() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        #expect(try fileStore(dir).mergeSegments() == 0, "no segment")
        let memory = try memoryStore()
        try memory.index([item("a", title: "fig")])
        try memory.index([item("b", title: "fig tree")])
        #expect(try memory.mergeSegments() == 2)
        #expect(try memory.ids("fig") == ["a", "b"])
    }

    @Test func searchesDuringTheMergeStayRight() async throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir) { $0.rankedInlineLimit = 8 << 10 }
        for batch in 0..<4 { try store.index((0..<200).map { item("c\(batch)-\($0)", title: "cherry \(batch) \($0)") }) }
        let reader = try fileStore(dir)
        let done = Task.detached { try store.mergeSegments() }
        for _ in 0..<50 { #expect(try reader.search("cherry", limit: 1_000).count == 800) }
        #expect(try await done.value == 4)
        #expect(try reader.search("cherry", limit: 1_000).count == 800)
    }

    /// Maintenance merges through a store object of its own while the app
    /// writes through another: every write survives, deletions made while
    /// the merge ran are kept, and nothing is found twice.
    @Test func writesThroughAnotherStoreObjectSurviveTheMerge() async throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let app = try fileStore(dir) { $0.rankedInlineLimit = 8 << 10 }
        for batch in 0..<6 { try app.index((0..<300).map { item("d\(batch)-\($0)", title: "damson \(batch) \($0)") }) }
        let maintenance = try fileStore(dir)
        let merging = Task.detached { try maintenance.mergeSegments() }
        for batch in 6..<10 { try app.index((0..<300).map { item("d\(batch)-\($0)", title: "damson \(batch) \($0)") }) }
        try app.deleteItems(withIdentifiers: (0..<100).map { "d0-\($0)" })
        try app.index((0..<50).map { item("d1-\($0)", title: "greengage \($0)") })
        #expect(try await merging.value >= 2)
        try app.finishMerging()
        #expect(try maintenance.mergeSegments() >= 0)
        for store in [app, maintenance] {
            let found = try store.search("damson", limit: 10_000).map(\.item.uniqueIdentifier)
            #expect(found.count == 3_000 - 100 - 50 && Set(found).count == found.count, "\(found.count)")
            #expect(try store.search("greengage", limit: 1_000).count == 50)
            #expect(try store.item(withIdentifier: "d0-5") == nil)
        }
        let stats = try maintenance.rankedIndexStatistics()
        #expect(stats.documents - stats.deletedDocuments == 3_000 - 100, "\(stats)")
    }
}
