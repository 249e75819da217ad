import Foundation
import GRDB
import Testing
import TestSupport
@testable import SpotlightIndex

/// A store closed cleanly leaves a WAL of its close's one transaction
/// (``KeptJournal``), so that opening it again writes nothing: GRDB
/// writes on open when the WAL is missing or empty.
@Suite struct KeptJournalTests {
    static let keptLimit = KeptJournal.keptLimit

    static func size(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }

    @Test func aClosedStoreKeepsAShortWALAndReopensWithoutWriting() throws {
        let scratch = try ScratchDirectory("kept-journal")
        defer { scratch.cleanUp() }
        var file = ""
        let start = Date().timeIntervalSince1970
        do {
            let store = try fileStore(scratch)
            file = try #require(store.fileURL).path
            try store.index((0..<300).map { item("k\($0)", title: "kept \($0)") })
            try store.finishMerging()
        }
        let kept = try #require(Self.size(file + "-wal"), "the WAL is kept")
        #expect(kept > 0 && kept <= Self.keptLimit)
        #expect(FileManager.default.fileExists(atPath: file + "-shm"))
        let before = try Data(contentsOf: URL(fileURLWithPath: file + "-wal"))
        do {
            let store = try fileStore(scratch)
            #expect(try store.itemCount() == 300)
            #expect(try store.search("kept", limit: 500).count == 300)
            let closed = try #require(try store.read { db in try db.meta(KeptJournal.closedKey, as: Double.self) })
            #expect(closed >= start && closed <= Date().timeIntervalSince1970)
            // Opening and reading wrote nothing: no frame, no new salt.
            #expect(try Data(contentsOf: URL(fileURLWithPath: file + "-wal")) == before)
            try store.index([item("after", title: "written after the reopen")])
        }
        #expect(try #require(Self.size(file + "-wal")) <= Self.keptLimit)
        do {
            let reopened = try fileStore(scratch)
            #expect(try reopened.itemCount() == 301)
            #expect(try reopened.ids("written") == ["after"])
        }
        // A store that only read keeps the short WAL too, for the next open.
        let kept2 = try #require(Self.size(file + "-wal"), "kept after a store that only read")
        #expect(kept2 > 0 && kept2 <= Self.keptLimit)
        let again = try Data(contentsOf: URL(fileURLWithPath: file + "-wal"))
        let third = try fileStore(scratch)
        #expect(try third.itemCount() == 301)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file + "-wal")) == again, "opening wrote nothing")
    }

    /// Two stores on one file: the first to close is not the last
    /// connection, so SQLite leaves the WAL to the other; the last close
    /// leaves it short, and nothing either wrote is lost.
    @Test func theLastOfTwoStoresOnOneFileEmptiesTheWAL() throws {
        let scratch = try ScratchDirectory("kept-journal")
        defer { scratch.cleanUp() }
        var file = ""
        do {
            let first = try fileStore(scratch)
            file = try #require(first.fileURL).path
            do {
                let second = try fileStore(scratch)
                try second.index((0..<50).map { item("s\($0)", title: "second \($0)") })
                try second.finishMerging()
            }
            #expect(try first.search("second", limit: 100).count == 50)
            try first.index([item("f", title: "first")])
        }
        #expect(try #require(Self.size(file + "-wal")) <= Self.keptLimit)
        let reopened = try fileStore(scratch)
        #expect(try reopened.itemCount() == 51)
    }
}
