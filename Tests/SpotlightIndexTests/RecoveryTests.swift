import Foundation
import GRDB
import Testing
import TestSupport
@testable import SpotlightIndex

@Suite struct RecoveryTests {
    /// Creates the test store with these items, closes it, and gives its file.
    static func closedStore(in dir: ScratchDirectory, _ items: [SearchableItem]) throws -> URL {
        let store = try fileStore(dir)
        try store.index(items)
        return try #require(store.fileURL)
    }

    @Test func aNewStoreNeedsNoReindex() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        #expect(try fileStore(dir).pendingReindex == nil)
        #expect(try fileStore(dir).pendingReindex == nil)
    }

    /// Recovery is the same whether the store opens a pool or one connection
    /// (``StoreOptions/opensOneConnection``, as `spotlight search` does).
    @Test(arguments: [false, true]) func aLostStoreIsRecreatedAndAsksForAReindexUntilAcknowledged(oneConnection: Bool) throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let file = try Self.closedStore(in: dir, [item("a", title: "apple")])
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        do {
            let store = try fileStore(dir) { $0.opensOneConnection = oneConnection }
            #expect(try store.pendingReindex == .storeMissing)
            #expect(try store.itemCount() == 0)
            try store.index([item("a", title: "apple")])
        }
        let reopened = try fileStore(dir) { $0.opensOneConnection = oneConnection }
        #expect(try reopened.pendingReindex == .storeMissing, "the request survives a restart")
        try reopened.acknowledgeReindex()
        #expect(try reopened.pendingReindex == nil)
        #expect(try fileStore(dir).pendingReindex == nil)
        #expect(try fileStore(dir).ids("apple") == ["a"])
    }

    @Test(arguments: [false, true]) func aStoreOverwrittenWithGarbageIsMovedAsideAndRecreated(oneConnection: Bool) throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let file = try Self.closedStore(in: dir, [item("a", title: "apple")])
        let garbage = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        try garbage.write(to: file)
        let store = try fileStore(dir) { $0.opensOneConnection = oneConnection }
        #expect(try store.pendingReindex == .storeCorrupt)
        let aside = try #require(store.movedAsideFile)
        #expect(aside.lastPathComponent.hasPrefix("shared.sqlite.corrupt-"))
        #expect(try Data(contentsOf: aside) == garbage, "the damaged file is kept, byte for byte")
        #expect(try store.itemCount() == 0)
        try store.index([item("b", title: "banana")])
        #expect(try store.ids("banana") == ["b"])
    }

    @Test func aStoreDamagedInTheMiddleFailsTheIntegrityCheck() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let file = try Self.closedStore(in: dir, (0..<3000).map {
            item("i\($0)", title: "item number \($0) with some words", ["textContent": .string(String(repeating: "text \($0) ", count: 30))])
        })
        let size = try #require((try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue)
        #expect(size > 100_000)
        let handle = try FileHandle(forWritingTo: file)
        try handle.seek(toOffset: UInt64(size / 2))
        handle.write(Data(repeating: 0xAB, count: 16_384))
        try handle.close()
        let store = try fileStore(dir)
        #expect(try store.pendingReindex == .storeCorrupt)
        #expect(store.movedAsideFile != nil)
        #expect(try store.itemCount() == 0)
    }

    @Test func aNewStoreHasSixteenKilobytePages() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir)
        try store.index([item("a", title: "apple")])
        #expect(try store.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == StoreOpener.pageSize)
        #expect(try fileStore(dir).search("apple").map(\.item.uniqueIdentifier) == ["a"])
    }

    @Test func readersMapTheFileAndTheWriterReadsThroughPread() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir)
        try store.index([item("a", title: "apple")])
        let mapped = try #require(try store.read { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") })
        #expect(mapped > 0 && mapped <= StoreOpener.readerMapSize, "a reader maps the file (SQLite may clamp the size)")
        #expect(try store.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") } == 0)
        #expect(try store.search("apple").map(\.item.uniqueIdentifier) == ["a"])
    }

    @Test(arguments: [false, true]) func aStoreFromANewerVersionIsRefusedUntouched(oneConnection: Bool) throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let file: URL
        do {
            let store = try fileStore(dir)
            try store.index([item("a", title: "apple")])
            file = try #require(store.fileURL)
            try store.writer.write { db in try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES ('v99')") }
        }
        let error = #expect(throws: SpotlightIndexError.self) { try fileStore(dir) { $0.opensOneConnection = oneConnection } }
        #expect(error?.message.contains("newer OpenSpotlight") == true)
        #expect(FileManager.default.fileExists(atPath: file.path))
    }

    @Test(arguments: [false, true]) func aStoreWithTheOldFullTextTableLosesItOnOpen(oneConnection: Bool) throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        do {
            let store = try fileStore(dir)
            try store.index([item("a", title: "apple")])
            try store.writer.write { db in
                try FullTextIndex.buildReference(db)
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v7-no-fts'")
            }
        }
        let reopened = try fileStore(dir) { $0.opensOneConnection = oneConnection }
        #expect(try reopened.read { db in try db.tableExists("fts") } == false)
        #expect(try reopened.search("apple").map(\.item.uniqueIdentifier) == ["a"])
        #expect(try reopened.items(matching: #"title == "app*""#).map(\.uniqueIdentifier) == ["a"])
    }
}
