import Foundation
import GRDB
import Testing
import TestSupport
@testable import SpotlightIndex

/// Rebuilding the ranked index from the items tokenizes them a chunk at a
/// time (``RebuildChunks``): each chunk is encoded at once (to a file of
/// its own in a store with a folder) and the chunks are merged into one
/// segment, so a rebuild never holds the store's tokens. The result must
/// answer as the index it replaces did, and leave no chunk behind.
@Suite struct RankedRebuildTests {
    static let queries = ["entry", "entry 4", "shared", "odd", "zz", "entri", "tag7"]

    static func fill(_ store: SpotlightStore) throws {
        for batch in 0..<5 {
            try store.index((0..<90).map { index in
                let number = batch * 90 + index
                return item("r\(number)", title: "entry \(number) \(number % 2 == 0 ? "even" : "odd")",
                            ["keywords": .strings(["tag\(number % 9)", "shared"]), "contentDescription": .string("row \(number) of the rebuild")])
            })
        }
        try store.deleteItems(withIdentifiers: (0..<30).map { "r\($0 * 7)" })
        try store.finishMerging()
    }

    static func answers(_ store: SpotlightStore) throws -> [[String]] {
        try queries.map { try store.search($0, limit: 500).map(\.item.uniqueIdentifier).sorted() }
    }

    static func segments(_ store: SpotlightStore) throws -> [Row] {
        try store.read { try Row.fetchAll($0, sql: "SELECT file, documents FROM ranked_segments") }
    }

    @Test(arguments: [1, 100, 1_000])
    func aRebuildInChunksAnswersAsBefore(chunk: Int) throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir) { $0.rankedInlineLimit = 4 << 10; $0.rankedRebuildChunk = chunk }
        try Self.fill(store)
        let before = try Self.answers(store)
        #expect(before[0].count == 420 && before[2].count == 420)
        try store.write { db in try store.ranked.rebuild(db) }
        #expect(try Self.answers(store) == before)
        let rows = try Self.segments(store)
        #expect(rows.count == 1 && (rows[0]["documents"] as Int) == 420)
        let folder = dir.url.appendingPathComponent("org.openspotlight.tests/shared.ranked")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == rows.compactMap { $0["file"] as String? }.flatMap { [$0, $0 + ".ok"] }.sorted(), "no chunk left behind")
        // And it is what a new process reads.
        let reopened = try fileStore(dir) { $0.rankedInlineLimit = 4 << 10 }
        #expect(try Self.answers(reopened) == before)
    }

    @Test func aRebuildInChunksOfAStoreInMemory() throws {
        let store = try memoryStore { $0.rankedRebuildChunk = 64 }
        try Self.fill(store)
        let before = try Self.answers(store)
        try store.write { db in try store.ranked.rebuild(db) }
        #expect(try Self.answers(store) == before)
        #expect(try Self.segments(store).map { $0["documents"] as Int } == [420])
    }
}
