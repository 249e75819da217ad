import Foundation
import GRDB
import Testing
import TestSupport
@testable import SpotlightIndex

/// A store opened with one SQLite connection (``StoreOptions/opensOneConnection``,
/// what `spotlight search` opens each store with) reads and writes as a
/// store opened with a pool does, beside another process's pool.
@Suite struct OneConnectionTests {
    static func oneConnection(_ dir: ScratchDirectory) throws -> SpotlightStore {
        try fileStore(dir) { $0.opensOneConnection = true }
    }

    @Test func anExistingStoreOpensOneConnectionAndAnswersAsThePoolDoes() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let pool = try fileStore(dir)
        try pool.index((0..<200).map { item("n\($0)", title: "note \($0) \($0.isMultiple(of: 3) ? "pear" : "plum")") })
        let one = try Self.oneConnection(dir)
        #expect(one.writer is DatabaseQueue)
        #expect(pool.writer is DatabasePool)
        for text in ["pear", "pl", "note 12", "pera"] {
            #expect(try one.search(text, limit: 300).map(\.item.uniqueIdentifier) == pool.search(text, limit: 300).map(\.item.uniqueIdentifier), "\(text)")
        }
        #expect(try one.search("pear", limit: 300).count == 67)
    }

    @Test func eachSeesTheOthersCommittedWritesAtOnce() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let pool = try fileStore(dir)
        try pool.index([item("a", title: "apple")])
        let one = try Self.oneConnection(dir)
        #expect(try one.ids("apple") == ["a"])
        try pool.index([item("b", title: "apple pie")])
        try pool.deleteItems(withIdentifiers: ["a"])
        #expect(try one.ids("apple") == ["b"], "no stale answer after the pool's writes")
        try one.index([item("c", title: "apple crumble")])
        try one.recordEngagement(.selection, itemIdentifier: "c")
        #expect(try pool.ids("apple").sorted() == ["b", "c"])
        #expect(try pool.ids("crumble") == ["c"])
    }

    @Test func aNewStoreIsMadeThroughAPoolSoItsFileIsInWALMode() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        do {
            let first = try Self.oneConnection(dir)
            #expect(first.writer is DatabasePool, "a new file is not in WAL mode yet")
            #expect(try first.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
            #expect(try first.pendingReindex == nil)
            try first.index([item("a", title: "apple")])
        }
        let again = try Self.oneConnection(dir)
        #expect(again.writer is DatabaseQueue)
        #expect(try again.ids("apple") == ["a"])
        #expect(try again.pendingReindex == nil)
    }

    @Test func aFileLeftInRollbackModeIsOpenedThroughAPoolAndPutInWALMode() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let file = try RecoveryTests.closedStore(in: dir, [item("a", title: "apple")])
        do {
            let plain = try DatabaseQueue(path: file.path)
            try plain.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
            #expect(try plain.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "delete")
        }
        let one = try Self.oneConnection(dir)
        #expect(one.writer is DatabasePool)
        #expect(try one.ids("apple") == ["a"])
        #expect(try Self.oneConnection(dir).writer is DatabaseQueue, "the pool put the file back in WAL mode")
    }
}
