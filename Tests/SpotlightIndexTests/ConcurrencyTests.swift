import Foundation
import GRDB
import Testing
import TestSupport
@testable import SpotlightIndex

@Suite(.serialized) struct ConcurrencyTests {
    @Test func threadsWriteAndReadAtOnce() async throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for chunk in 0..<10 {
                        try store.index((0..<20).map { item("w\(writer)-\(chunk)-\($0)", title: "shared words \(writer)") })
                    }
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<50 { _ = try store.search("shared w") }
                }
            }
            try await group.waitForAll()
        }
        #expect(try store.itemCount() == 800)
        #expect(try store.search("shared", limit: 1000).count == 800)
    }

    /// A read whose body throws ends its transaction: every reader
    /// connection, used again, sees the writes made since (one left inside
    /// its transaction would fail to begin the next, or see the old state).
    @Test func aReadThatThrowsEndsItsTransaction() async throws {
        struct Stop: Error {}
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        for store in [try fileStore(dir), try memoryStore()] {
            try store.index([item("a", title: "first")])
            // Several at once, so that every reader of the pool is used.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        for _ in 0..<10 {
                            #expect(throws: Stop.self) { try store.read { db -> Int in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM items"); throw Stop() } }
                        }
                    }
                }
                try await group.waitForAll()
            }
            try store.index([item("b", title: "second")])
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { try store.search("second").count } }
                for try await found in group { #expect(found == 1) }
            }
            #expect(try store.read { db in db.isInsideTransaction } == true)
        }
    }

    @Test func writesFromOneCallerApplyInOrder() throws {
        let store = try memoryStore()
        var expected: [String: String] = [:]
        for step in 0..<200 {
            let id = "i\(step % 7)"
            if step % 5 == 4 {
                try store.deleteItems(withIdentifiers: [id])
                expected[id] = nil
            } else {
                try store.index([item(id, title: "version \(step)")])
                expected[id] = "version \(step)"
            }
        }
        let stored = Dictionary(uniqueKeysWithValues: try store.allItems().map { ($0.item.uniqueIdentifier, $0.item.displayTitle!) })
        #expect(stored == expected)
    }

    @Test(.timeLimit(.minutes(10)))
    func twoProcessesWritingTheSameStoreAreSerialised() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        _ = try fileStore(dir) // create it first
        let first = try HelperProcess(["writer", dir.url.path, "alpha", "400"])
        let second = try HelperProcess(["writer", dir.url.path, "beta", "400"])
        let local = try fileStore(dir) { $0.busyTimeout = 30 }
        for start in stride(from: 0, to: 200, by: 10) {
            try local.index((start..<(start + 10)).map { item("local-\($0)", title: "from the test process") })
        }
        first.process.waitUntilExit()
        second.process.waitUntilExit()
        #expect(first.process.terminationStatus == 0, "\(first.errorOutput)")
        #expect(second.process.terminationStatus == 0, "\(second.errorOutput)")
        let store = try fileStore(dir)
        let ids = Set(try store.identifiers())
        #expect(ids.count == 1000)
        #expect(ids.isSuperset(of: (0..<400).map { "alpha-\($0)" }))
        #expect(ids.isSuperset(of: (0..<400).map { "beta-\($0)" }))
        #expect(try store.search("alpha", limit: 1000).count == 400)
        let check = try store.writer.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
        #expect(check == ["ok"])
    }

    @Test(.timeLimit(.minutes(10)))
    func aWriterBlockedPastTheTimeoutGetsAClearErrorWhileReadersGoOn() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir) { $0.busyTimeout = 0.3 }
        try store.index([item("a", title: "apple")])
        let holder = try HelperProcess(["hold-lock", dir.url.path, "4"])
        #expect(holder.waitForLine { $0 == "locked" })
        #expect(try store.ids("apple") == ["a"], "readers do not wait for the writer")
        #expect(holder.process.isRunning)
        let error = #expect(throws: SpotlightIndexError.self) { try store.index([item("b", title: "banana")]) }
        #expect(error?.code == .storeBusy)
        #expect(error?.message.contains("busy timeout") == true)
        holder.process.waitUntilExit()
        try store.index([item("b", title: "banana")])
        #expect(try store.identifiers() == ["a", "b"])
    }
}

/// Two handles opening a store that does not exist yet, at the same moment,
/// both get it: neither takes the other's fresh file for a damaged one.
@Suite struct ConcurrentCreationTests {
    @Test func aNewStoreOpenedTwiceAtOnceIsOneStore() async throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        for round in 0..<25 {
            let index = "fresh\(round)"
            async let first = Task.detached { try fileStore(dir, index: index) }.value
            async let second = Task.detached { try fileStore(dir, index: index) }.value
            let (a, b) = try await (first, second)
            #expect(a.movedAsideFile == nil && b.movedAsideFile == nil, "round \(round)")
            #expect(try a.pendingReindex == nil && b.pendingReindex == nil, "round \(round)")
            try a.index([item("x", title: "written by one handle")])
            #expect(try b.ids("written") == ["x"], "round \(round): both handles are the same store")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent("org.openspotlight.tests").path)
        #expect(!files.contains { $0.contains(".corrupt-") }, "\(files)")
    }
}
