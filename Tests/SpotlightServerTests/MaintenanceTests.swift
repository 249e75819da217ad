import Foundation
import Testing
@testable import SpotlightIndex
@testable import SpotlightSystem
@testable import SpotlightServer
@testable import SpotlightService

/// Index maintenance inside the service: stores checked, lost and damaged ones
/// handed to their app's index extension, on a schedule.
@Suite(.timeLimit(.minutes(10))) struct MaintenanceTests {
    /// Registers an app whose index extension records each request it gets.
    func extensionApp(_ fixture: ServerFixture) throws -> URL {
        let log = fixture.url.appendingPathComponent("extension.log")
        try fixture.registry.register(AppRegistration(
            bundleIdentifier: "com.example.notes", displayName: "Notes", launchCommand: ["/bin/true"],
            indexExtensionCommand: ["/bin/sh", "-c", "printf '%s\\n' \"$OPENSPOTLIGHT_INDEX_REQUEST\" >> '\(log.path)'", "sh"]))
        try fixture.store("com.example.notes").index([SearchableItem(uniqueIdentifier: "n1", attributes: ["title": .string("Note")])])
        return log
    }

    @Test func verifyingMovesADamagedStoreAsideAndAsksForAReindex() throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        _ = try extensionApp(fixture)
        let maintenance = IndexMaintenance(registry: fixture.registry)
        #expect(try maintenance.verifyStores().isEmpty, "sound stores pass")
        // Damage in place: the same file, its pages overwritten.
        let file = fixture.storesDirectory.appendingPathComponent("com.example.notes/default.sqlite")
        let handle = try FileHandle(forWritingTo: file)
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 60_000))
        try handle.close()
        let checks = try maintenance.verifyStores()
        #expect(checks.map(\.bundleIdentifier) == ["com.example.notes"] && checks.first?.movedAside?.contains(".corrupt-") == true, "\(checks)")
        #expect(try fixture.store("com.example.notes").pendingReindex == .storeCorrupt)
        #expect(try maintenance.verifyStores().isEmpty, "the new store is sound")
    }

    @Test func compactingGivesBackTheFreePagesOfMostlyEmptyStoresOnly() throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        _ = try extensionApp(fixture)
        let store = try fixture.store("com.example.notes")
        // Letters drawn at random (a fixed seed): text the attributes' compression cannot shrink much.
        var seed: UInt64 = 42
        func text() -> String {
            String((0..<4_000).map { index -> Character in
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return index % 7 == 6 ? " " : Character(UnicodeScalar(UInt8(97 + (seed >> 33) % 26)))
            })
        }
        try store.index((0..<100).map { SearchableItem(uniqueIdentifier: "big\($0)", attributes: ["textContent": .string(text())]) })
        try store.finishMerging()
        var maintenance = IndexMaintenance(registry: fixture.registry)
        maintenance.compactionMinimumBytes = 256 << 10
        _ = try maintenance.compactStores()   // what merging the segments freed
        #expect(try maintenance.compactStores().isEmpty, "no free pages left")
        try store.deleteItems(withIdentifiers: (0..<100).map { "big\($0)" })
        try store.finishMerging()
        let done = try maintenance.compactStores()
        #expect(done.map(\.bundleIdentifier) == ["com.example.notes"] && done.first.map { $0.bytesSaved >= 256 << 10 } == true, "\(done)")
        #expect(try maintenance.compactStores().isEmpty, "compacted once")
        #expect(try fixture.store("com.example.notes").allItems().map(\.item.uniqueIdentifier) == ["n1"])
    }

    @Test func mergingJoinsTheSegmentsOfStoresLeftUnwrittenOnly() throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let store = try fixture.store(ServerFixture.grocer)
        try store.index([SearchableItem(uniqueIdentifier: "p-plum", attributes: ["title": .string("Plum")])])   // a second segment
        #expect(try store.rankedIndexStatistics().segments == 2)
        let maintenance = IndexMaintenance(registry: fixture.registry)
        #expect(try maintenance.mergeStores(idleFor: 3_600).isEmpty, "written just now")

        // Last written an hour ago; a check reads the store without making it look written.
        let file = try #require(store.fileURL)
        for path in [file.path, file.path + "-wal"] where FileManager.default.fileExists(atPath: path) {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3_700)], ofItemAtPath: path)
        }
        #expect(try maintenance.verifyStores().isEmpty)
        let merged = try maintenance.mergeStores(idleFor: 3_600)
        #expect(merged.map { "\($0.bundleIdentifier)/\($0.indexName) \($0.segmentsMerged)" } == ["\(ServerFixture.grocer)/default 2"], "\(merged)")
        #expect(try store.rankedIndexStatistics().segments == 1)
        #expect(try store.search("plum").map(\.item.uniqueIdentifier) == ["p-plum"])
        #expect(try store.search("peach").map(\.item.uniqueIdentifier) == ["p-peach"])
        #expect(try maintenance.mergeStores().isEmpty, "every store is one segment now")
    }

    /// Opening a store whose log is gone writes to it (GRDB's pool): its
    /// quiet time is read before it is opened.
    @Test func aClosedStoreLeftQuietIsMergedThoughOpeningItWrites() throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        do {
            let store = try fixture.store(ServerFixture.grocer)
            try store.index([SearchableItem(uniqueIdentifier: "p-plum", attributes: ["title": .string("Plum")])])
            try store.finishMerging()
        }
        let file = fixture.storesDirectory.appendingPathComponent("\(ServerFixture.grocer)/default.sqlite")
        for path in [file.path, file.path + "-wal"] where FileManager.default.fileExists(atPath: path) {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3_700)], ofItemAtPath: path)
        }
        let merged = try IndexMaintenance(registry: fixture.registry).mergeStores(idleFor: 3_600)
        #expect(merged.map(\.bundleIdentifier) == [ServerFixture.grocer], "\(merged)")
        #expect(try fixture.store(ServerFixture.grocer).rankedIndexStatistics().segments == 1)
    }

    /// The crawler's web store is maintained as the apps' stores are:
    /// merged once quiet, checked, and moved aside when damaged (no app to ask).
    @Test func theWebStoreIsMaintainedToo() throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let location = StoreLocation.directory(fixture.storesDirectory)
        do {
            let web = try WebStore(location: location)
            for (index, name) in ["pear", "plum"].enumerated() {
                let page = WebPage(url: URL(string: "https://example.com/\(name)")!, title: name.capitalized, description: "A \(name) page",
                                   crawledAt: Date().addingTimeInterval(Double(index)))
                try web.save([page])   // one segment each
            }
            try web.store.finishMerging()
            #expect(try web.store.rankedIndexStatistics().segments == 2)
        }
        let maintenance = IndexMaintenance(registry: fixture.registry)
        let merged = try maintenance.mergeStores()
        #expect(merged.map { "\($0.bundleIdentifier)/\($0.indexName) \($0.segmentsMerged)" } == ["public.web/\(WebStore.indexName) 2"], "\(merged)")
        #expect(try WebStore(location: location).search("plum").map(\.page.title) == ["Plum"])
        #expect(try maintenance.verifyStores().isEmpty, "sound")
        let file = try #require(location.filePath(of: WebStore.bundleIdentifier, index: WebStore.indexName))
        let handle = try #require(FileHandle(forWritingAtPath: file))
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 60_000))
        try handle.close()
        let checks = try maintenance.verifyStores()
        #expect(checks.map(\.bundleIdentifier) == ["public.web"] && checks.first?.movedAside?.contains(".corrupt-") == true, "\(checks)")
        #expect(try WebStore(location: location).pageCount() == 0, "made anew, for the crawler to fill")
    }

    @Test func theServiceRunsMaintenanceOnItsSchedule() async throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let log = try extensionApp(fixture)
        try FileManager.default.removeItem(at: fixture.storesDirectory.appendingPathComponent("com.example.notes/default.sqlite"))
        let running = try await RunningServer.start(fixture, port: nil) {
            $0.maintenanceFirstDelay = .milliseconds(50)
            $0.maintenanceInterval = .milliseconds(200)
        }
        defer { Task { await running.stop() } }
        var health = try await running.request("GET", "/v1/health").decode(API.Health.self)
        for _ in 0..<600 where health.lastMaintenance == nil {
            try await Task.sleep(for: .milliseconds(50))
            health = try await running.request("GET", "/v1/health").decode(API.Health.self)
        }
        #expect(health.lastMaintenance != nil && health.lastMaintenanceDeliveries == 1, "\(health)")
        let request = try JSONDecoder().decode(IndexRequest.self, from: Data(try #require(fixture.lines(log).first).utf8))
        #expect(request.kind == .reindexAll && request.indexName == "default" && request.reason == "storeMissing")
        // Not acknowledged by the extension (it only records): delivered again on the next pass.
        #expect(try await waitFor { fixture.lines(log).count >= 2 })
        let metrics = String(decoding: try await running.request("GET", "/v1/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"openspotlight_maintenance_runs_total{outcome="ok"}"#))
    }

    func waitFor(_ condition: () throws -> Bool) async throws -> Bool {
        for _ in 0..<600 {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try condition()
    }
}
