import Foundation
import TestSupport
import Testing
@testable import SpotlightIndex
@testable import SpotlightSystem
@testable import SpotlightService

/// A resident search learns of changes to its folders through inotify
/// (``FolderWatch``) and otherwise reuses what it found: every change that
/// matters is still seen by the very next search, with no wait.
@Suite struct FolderWatchTests {
    static func item(_ id: String, _ title: String) -> SearchableItem {
        SearchableItem(uniqueIdentifier: id, attributes: ["title": .string(title)])
    }

    /// Which names count in a folder of stores, and in any other folder.
    @Test(arguments: [
        (name: "default.sqlite", storesOnly: true, counts: true),
        (name: "default.sqlite-wal", storesOnly: true, counts: false),
        (name: "default.sqlite-shm", storesOnly: true, counts: false),
        (name: "default.ranked", storesOnly: true, counts: false),
        (name: "com.example.a.json", storesOnly: false, counts: true),
        (name: "anything", storesOnly: false, counts: true),
    ])
    func aNameMadeInAWatchedFolderCountsAsAChange(name: String, storesOnly: Bool, counts: Bool) throws {
        let scratch = try ScratchDirectory("watch")
        defer { scratch.cleanUp() }
        let watch = try #require(FolderWatch())
        watch.watch(scratch.url.path, storesOnly: storesOnly)
        let before = watch.generation()
        #expect(watch.generation() == before, "nothing happened")
        try Data("x".utf8).write(to: scratch.url.appendingPathComponent(name))
        #expect((watch.generation() != before) == counts, "\(name)")
        // Removing it counts the same way.
        let made = watch.generation()
        try FileManager.default.removeItem(at: scratch.url.appendingPathComponent(name))
        #expect((watch.generation() != made) == counts, "\(name) removed")
    }

    /// A watched folder removed counts, and is watched again when asked.
    @Test func aWatchedFolderRemovedCountsAndIsWatchedAgain() throws {
        let scratch = try ScratchDirectory("watch")
        defer { scratch.cleanUp() }
        let folder = scratch.url.appendingPathComponent("app", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let watch = try #require(FolderWatch())
        watch.watch(folder.path)
        let before = watch.generation()
        try FileManager.default.removeItem(at: folder)
        #expect(watch.generation() != before)
        #expect(!watch.isWatching(folder.path))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        watch.watch(folder.path)
        #expect(watch.isWatching(folder.path))
        let again = watch.generation()
        try Data("x".utf8).write(to: folder.appendingPathComponent("x"))
        #expect(watch.generation() != again)
    }

    /// A watching search sees, on the very next search: an app registered,
    /// an index made, a store replaced on disk by another process's store
    /// object, an index removed, an app unregistered.
    @Test func aWatchingSearchSeesEveryChangeAtOnce() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.a", "A"))
        try root.store("com.example.a").index([Self.item("1", "Kiwi")])
        let search = SystemSearch(registry: root.registry, watchesFolders: true)
        func titles() throws -> [String] { try search.search("kiwi").groups.flatMap { $0.results.map(\.title) }.sorted() }
        #expect(try titles() == ["Kiwi"])
        #expect(try titles() == ["Kiwi"], "reused while nothing changed")

        try root.registry.register(app("com.example.b", "B"))
        try root.store("com.example.b").index([Self.item("2", "Kiwi jam")])
        #expect(try titles() == ["Kiwi", "Kiwi jam"], "an app registered")

        try root.store("com.example.a", "second").index([Self.item("3", "Kiwi pie")])
        #expect(try titles() == ["Kiwi", "Kiwi jam", "Kiwi pie"], "an index made")

        // Replaced: removed with its journal, and made anew by another store object.
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(at: root.url.appendingPathComponent("com.example.a/second.sqlite\(suffix)"))
        }
        try root.store("com.example.a", "second").index([Self.item("4", "Kiwi tart")])
        #expect(try titles() == ["Kiwi", "Kiwi jam", "Kiwi tart"], "a store replaced")

        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(at: root.url.appendingPathComponent("com.example.a/second.sqlite\(suffix)"))
        }
        #expect(try titles() == ["Kiwi", "Kiwi jam"], "an index removed")

        try root.registry.unregister("com.example.b")
        #expect(try titles() == ["Kiwi"], "an app unregistered")
    }
}
