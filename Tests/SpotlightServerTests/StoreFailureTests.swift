import Foundation
import GRDB
import Testing
@testable import SpotlightIndex
@testable import SpotlightSystem
@testable import SpotlightServer
@testable import SpotlightService

/// A store deleted, damaged or locked while the service runs: the other apps
/// keep answering and the missing one is named.
@Suite(.timeLimit(.minutes(10))) struct StoreFailureTests {
    /// Another process's writer, allowed to hold a transaction open across calls.
    func holdingWriter(_ file: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        return try DatabaseQueue(path: file.path, configuration: configuration)
    }

    func peopleFile(_ fixture: ServerFixture) -> URL {
        fixture.storesDirectory.appendingPathComponent(ServerFixture.people).appendingPathComponent("default.sqlite")
    }

    @Test func aDeletedStoreIsNamedAndTheOthersAnswer() throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let api = fixture.api()
        #expect(try api.search("pe", via: "test").groups.map(\.app.bundleIdentifier) == [ServerFixture.grocer, ServerFixture.people])
        try FileManager.default.removeItem(at: fixture.storesDirectory.appendingPathComponent(ServerFixture.people))
        let found = try api.search("pe", via: "test")
        #expect(found.groups.map(\.app.bundleIdentifier) == [ServerFixture.grocer])
        #expect(found.unavailableApps == [ServerFixture.people])
        #expect(found.problems == ["People (com.example.people): its index default is gone (deleted?); maintenance asks the app to index it again"])
        #expect(!FileManager.default.fileExists(atPath: peopleFile(fixture).path), "searching does not make the lost store anew")
    }

    @Test func aStoreReplacedByDamageIsMovedAsideNamedAndTheOthersAnswer() throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let api = fixture.api()
        _ = try api.search("pe", via: "test")
        let file = peopleFile(fixture)
        let garbage = fixture.url.appendingPathComponent("garbage")
        try Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: garbage)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        #expect(rename(garbage.path, file.path) == 0, "a new file where the store was")
        let found = try api.search("pe", via: "test")
        #expect(found.groups.map(\.app.bundleIdentifier) == [ServerFixture.grocer])
        #expect(found.unavailableApps == [ServerFixture.people])
        #expect(found.problems.first?.contains("its index default is empty until the app indexes again (storeCorrupt") == true, "\(found.problems)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path).filter { $0.contains(".corrupt-") }
        #expect(!aside.isEmpty, "the damaged file is kept aside, never deleted")
    }

    @Test func aStoreLockedByAWriterDoesNotStopTheOthers() throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        // A store the service has not opened yet, held in an exclusive transaction by another writer.
        try fixture.registry.register(AppRegistration(bundleIdentifier: "com.example.busy", displayName: "Busy", launchCommand: ["/bin/true"]))
        try fixture.store("com.example.busy").index([SearchableItem(uniqueIdentifier: "b1", attributes: ["title": .string("Pecan")])])
        let busyFile = fixture.storesDirectory.appendingPathComponent("com.example.busy/default.sqlite")
        let writer = try holdingWriter(busyFile)
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
            try db.execute(sql: "BEGIN EXCLUSIVE")
            try db.execute(sql: "UPDATE items SET uid = uid WHERE rowid = 1")
        }
        defer { try? writer.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") } }
        let api = fixture.api()
        let clock = ContinuousClock()
        let start = clock.now
        let found = try api.search("pe", via: "test")
        #expect(clock.now - start < .seconds(3), "a locked store is given up after the read timeout, not waited for")
        #expect(found.groups.map(\.app.bundleIdentifier) == [ServerFixture.grocer, ServerFixture.people])
        #expect(found.unavailableApps == ["com.example.busy"], "\(found.problems)")
        #expect(found.problems.first?.hasPrefix("Busy (com.example.busy): ") == true)
    }

    @Test func aWriterInTheMiddleOfATransactionDoesNotHideCommittedItems() throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let api = fixture.api()
        _ = try api.search("zoe", via: "test")
        let writer = try holdingWriter(peopleFile(fixture))
        try writer.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE; UPDATE items SET uid = uid WHERE rowid = 1") }
        defer { try? writer.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") } }
        let found = try api.search("zoe", via: "test")
        #expect(found.groups.flatMap(\.results).map(\.title) == ["Zoë Pearson"] && found.unavailableApps.isEmpty)
    }
}
