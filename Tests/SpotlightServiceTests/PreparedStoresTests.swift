import Foundation
import Testing
@testable import SpotlightIndex
@testable import SpotlightSystem
@testable import SpotlightService

/// A resident front end opens every store as it starts, and an app's folder is
/// listed again whenever it changed.
@Suite struct PreparedStoresTests {
    static func item(_ id: String, _ title: String) -> SearchableItem {
        SearchableItem(uniqueIdentifier: id, attributes: ["title": .string(title)])
    }

    @Test func everyRegisteredStoreIsOpenedAndADamagedOneRecovered() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.a", "A"))
        try root.registry.register(app("com.example.b", "B"))
        try root.registry.register(app("com.example.c", "C"))
        try root.store("com.example.a").index([Self.item("1", "Kiwi")])
        try root.store("com.example.a", "notes").index([Self.item("2", "Kiwi notes")])
        try root.store("com.example.b").index([Self.item("3", "Mango")])
        _ = try UserActivityStore(bundleIdentifier: "com.example.b", location: root.location)
        #expect(SystemSearch(registry: root.registry).prepareStores() == 4)

        // A store that is not a database: moved aside as it is opened, made anew empty,
        // and the search says the app awaits its reindex.
        let folder = root.url.appendingPathComponent("com.example.c", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("not a database".utf8).write(to: folder.appendingPathComponent("default.sqlite"))
        let search = SystemSearch(registry: root.registry)
        #expect(search.prepareStores() == 5)
        let found = try search.search("kiwi")
        #expect(found.groups.map(\.app.displayName) == ["A"])
        #expect(found.unavailableApps == ["com.example.c"] && found.problems.first?.contains("reindex") == true, "\(found.problems)")
    }

    /// An app one of whose stores cannot be opened at all (its file is a
    /// folder) is reported unavailable, and neither its results nor its
    /// other stores' statistics count: the other apps score as if it were
    /// not registered.
    @Test func anAppWithAStoreThatCannotOpenAddsNothing() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.a", "A"))
        try root.store("com.example.a").index([Self.item("1", "Kiwi"), Self.item("2", "Kiwi jam"), Self.item("3", "Pear")])
        let alone = try SystemSearch(registry: root.registry).search("kiwi")
        try root.registry.register(app("com.example.b", "B"))
        // Many more documents, none of them kiwis: counted, they would change A's scores.
        try root.store("com.example.b").index((0..<40).map { Self.item("b\($0)", "Apple \($0)") })
        try FileManager.default.createDirectory(at: root.url.appendingPathComponent("com.example.b/broken.sqlite", isDirectory: true),
                                                withIntermediateDirectories: true)
        let found = try SystemSearch(registry: root.registry).search("kiwi")
        #expect(found.unavailableApps == ["com.example.b"], "\(found.problems)")
        #expect(found.groups.map(\.app.displayName) == ["A"])
        #expect(found.groups.flatMap(\.results).map(\.score) == alone.groups.flatMap(\.results).map(\.score))
        // Once it opens, its documents count.
        try FileManager.default.removeItem(at: root.url.appendingPathComponent("com.example.b/broken.sqlite"))
        let whole = try SystemSearch(registry: root.registry).search("kiwi")
        #expect(whole.unavailableApps.isEmpty)
        #expect(whole.groups.flatMap(\.results).map(\.score) != alone.groups.flatMap(\.results).map(\.score))
    }

    @Test func anIndexAddedOrRemovedIsSeenByTheNextSearch() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.a", "A"))
        try root.store("com.example.a").index([Self.item("1", "Kiwi")])
        let search = SystemSearch(registry: root.registry, keepsAnswers: true)
        #expect(try search.search("kiwi").groups.first?.results.count == 1)
        // Made at once (the folder changed within the clock's tick), then after the listing settled.
        try root.store("com.example.a", "second").index([Self.item("2", "Kiwi jam")])
        #expect(try search.search("kiwi").groups.first?.results.count == 2)
        Thread.sleep(forTimeInterval: AppLayouts.settled + 1.1)
        #expect(try search.search("kiwi").groups.first?.results.count == 2)
        try root.store("com.example.a", "third").index([Self.item("3", "Kiwi pie")])
        #expect(try search.search("kiwi").groups.first?.results.count == 3)
        Thread.sleep(forTimeInterval: AppLayouts.settled + 1.1)
        #expect(try search.search("kiwi").groups.first?.results.count == 3)
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(at: root.url.appendingPathComponent("com.example.a/third.sqlite\(suffix)"))
        }
        #expect(try search.search("kiwi").groups.first?.results.count == 2)
    }

    /// Opening a store as it is takes no write lock: a search started while an
    /// app holds a long write (a bulk import) opens the store and answers from
    /// what was committed, instead of waiting for the writer.
    @Test func aSearchOpensStoresWhileAnAppHoldsAWrite() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.a", "A"))
        let writer = try root.store("com.example.a")
        try writer.index([Self.item("1", "Kiwi")])
        // The app's write on a thread of its own: waiting on it must not take a thread of the concurrency pool.
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? writer.write { _ in
                holding.signal()
                release.wait()
            }
            finished.signal()
        }
        holding.wait()
        defer {
            release.signal()
            finished.wait()
        }
        var options = StoreOptions()
        options.busyTimeout = 3
        let started = ContinuousClock.now
        let found = try SystemSearch(registry: root.registry, options: options).search("kiwi")
        #expect(ContinuousClock.now - started < .seconds(2), "the search waited for the writer")
        #expect(found.groups.first?.results.map(\.title) == ["Kiwi"] && found.problems.isEmpty, "\(found.problems)")
    }
}
