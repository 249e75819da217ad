import Foundation
import SpotlightIndex
import SpotlightSystem
import SpotlightService
import Testing
import TestSupport
@testable import OpenCoreSpotlight

/// Every committed write is seen by every query started after it: each
/// write × where it came from × every reader, with the readers kept open
/// (and used) from before the write, as an app's and the system's are.
extension OpenCoreSpotlightTests {
    @Suite struct FreshnessTests {
        /// What is written, after the seed: items `a1` ("alpha one", domain
        /// `d.x`), `a2` ("alpha two", `d.y`), `b1` ("alpha three", `e`).
        enum Write: String, CaseIterable, CustomTestStringConvertible, Sendable {
            case index, update, deleteIdentifier, deleteDomain, deleteAll, batch, donateActivity, deleteActivity
            /// The store's files are lost (removed, as a damaged store is
            /// moved aside), then an item is indexed: a new file.
            case replaceStore
            var testDescription: String { rawValue }

            var isActivityWrite: Bool { self == .donateActivity || self == .deleteActivity }

            /// The titles the item readers find for "alpha" afterwards.
            var itemsAfter: Set<String> {
                switch self {
                case .index: ["alpha one", "alpha two", "alpha three", "alpha new"]
                case .update: ["alpha renamed", "alpha two", "alpha three"]
                case .deleteIdentifier: ["alpha two", "alpha three"]
                case .deleteDomain: ["alpha three"]
                case .deleteAll: []
                case .batch: ["alpha one", "alpha three", "alpha new"]
                case .replaceStore: ["alpha new"]
                case .donateActivity, .deleteActivity: FreshnessTests.seededItems
                }
            }

            /// The activities (system search only) before and after.
            var activitiesBefore: Set<String> { self == .deleteActivity ? ["alpha viewed"] : [] }
            var activitiesAfter: Set<String> { self == .donateActivity ? ["alpha viewed"] : [] }

            /// The helper's arguments for this write from another process.
            var helperArguments: [String] {
                switch self {
                case .index: ["default", "index", "n1", "alpha new"]
                case .update: ["default", "update", "a1", "alpha renamed"]
                case .deleteIdentifier: ["default", "delete", "a1"]
                case .deleteDomain: ["default", "delete-domain", "d"]
                case .deleteAll: ["default", "delete-all"]
                case .batch: ["default", "batch", "s1", "n1", "alpha new", "a2"]
                case .replaceStore: ["default", "index", "n1", "alpha new"]
                case .donateActivity: ["-", "donate", "alpha viewed", "p1"]
                case .deleteActivity: ["-", "delete-activity", "p1"]
                }
            }
        }

        /// Where the write comes from. Activity writes come from the app
        /// (`NSUserActivity`), in this process or another.
        enum Source: String, CaseIterable, CustomTestStringConvertible, Sendable {
            /// The `CSSearchableIndex` object that seeded the store.
            case sameInstance
            /// A new `CSSearchableIndex(name: "default")`.
            case anotherInstance
            /// `CSSearchableIndex.default()`.
            case defaultIndex
            /// `CSSearchableIndex()`.
            case unnamedInstance
            /// The app helper, a process of its own.
            case anotherProcess
            var testDescription: String { rawValue }
        }

        static let seededItems: Set<String> = ["alpha one", "alpha two", "alpha three"]

        static let cases: [(Write, Source)] = Write.allCases.flatMap { write in
            (write.isActivityWrite ? [Source.sameInstance, .anotherProcess] : Source.allCases).map { (write, $0) }
        }

        @Test(arguments: cases)
        func everyReaderSeesEveryCommittedWrite(write: Write, source: Source) async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let seeding = CSSearchableIndex(name: "default")
            try await seeding.indexSearchableItems([
                makeItem("a1", title: "alpha one", domain: "d.x"),
                makeItem("a2", title: "alpha two", domain: "d.y"),
                makeItem("b1", title: "alpha three", domain: "e"),
            ])
            if write == .deleteActivity { donate("alpha viewed", persistentIdentifier: "p1") }
            let readers = try Readers(app)
            try await readers.expect(items: Self.seededItems, activities: write.activitiesBefore, "before \(write) from \(source)")

            var batchError: (any Error)?
            if write == .replaceStore { try removeStoreFiles(app) }
            if source == .anotherProcess {
                try runHelper(app, write.helperArguments)
            } else if write.isActivityWrite {
                if write == .donateActivity {
                    donate("alpha viewed", persistentIdentifier: "p1")
                } else {
                    await NSUserActivity.deleteSavedUserActivities(withPersistentIdentifiers: ["p1"])
                }
            } else {
                let index = switch source {
                case .sameInstance: seeding
                case .anotherInstance: CSSearchableIndex(name: "default")
                case .defaultIndex: CSSearchableIndex.default()
                case .unnamedInstance: CSSearchableIndex()
                case .anotherProcess: seeding
                }
                batchError = try await perform(write, on: index)
            }

            try await readers.expect(items: write.itemsAfter, activities: write.activitiesAfter, "after \(write) from \(source)")
            if write == .batch {
                // The default() object refuses batches (its requests apply one by one); any other keeps the state.
                let state = try await CSSearchableIndex(name: "default").fetchLastClientState()
                if source == .defaultIndex {
                    #expect((batchError as? CSIndexError)?.code == .invalidClientStateError)
                    #expect(state == nil)
                } else {
                    #expect(batchError == nil)
                    #expect(state == Data("s1".utf8))
                }
            }
        }

        @Test func aBatchWhoseStoreIsLostFailsAndAppliesNothing() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let index = CSSearchableIndex(name: "default")
            try await index.indexSearchableItems([makeItem("a1", title: "alpha one")])
            index.beginBatch()
            index.indexSearchableItems([makeItem("n1", title: "alpha new")], completionHandler: nil)
            #expect(try await index.fetchLastClientState() == nil)
            try removeStoreFiles(app)
            index.indexSearchableItems([makeItem("n2", title: "alpha newer")], completionHandler: nil)
            await #expect(throws: CSIndexError.self) { try await index.endBatch(withClientState: Data("s1".utf8)) }
            let found = await run(CSSearchQuery(queryString: #"title == "*alpha*"cd"#, queryContext: nil))
            #expect(found.ids.isEmpty, "nothing of a batch begun on the lost store is applied")
            #expect(try await index.fetchLastClientState() == nil)
            // The index works again from the next request on.
            try await index.indexSearchableItems([makeItem("n3", title: "alpha again")])
            #expect(await run(CSSearchQuery(queryString: #"title == "*alpha*"cd"#, queryContext: nil)).ids == ["n3"])
        }

        /// Writes through an index object; returns the batch's error, if any.
        func perform(_ write: Write, on index: CSSearchableIndex) async throws -> (any Error)? {
            switch write {
            case .index, .replaceStore: try await index.indexSearchableItems([makeItem("n1", title: "alpha new")])
            case .update:
                let update = makeItem("a1", title: "alpha renamed")
                update.isUpdate = true
                try await index.indexSearchableItems([update])
            case .deleteIdentifier: try await index.deleteSearchableItems(withIdentifiers: ["a1"])
            case .deleteDomain: try await index.deleteSearchableItems(withDomainIdentifiers: ["d"])
            case .deleteAll: try await index.deleteAllSearchableItems()
            case .batch:
                index.beginBatch()
                index.indexSearchableItems([makeItem("n1", title: "alpha new")], completionHandler: nil)
                index.deleteSearchableItems(withIdentifiers: ["a2"], completionHandler: nil)
                do { try await index.endBatch(withClientState: Data("s1".utf8)) } catch { return error }
            case .donateActivity, .deleteActivity: Issue.record("activities are not written through an index")
            }
            return nil
        }

        /// Removes the default index's files, as losing the store does.
        func removeStoreFiles(_ app: TestApp) throws {
            let folder = app.directory.appendingPathComponent(app.bundleIdentifier)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasPrefix("default.") {
                try FileManager.default.removeItem(at: folder.appendingPathComponent(file))
            }
        }

        func donate(_ title: String, persistentIdentifier: String) {
            let activity = NSUserActivity(activityType: "org.openspotlight.test.view")
            activity.title = title
            activity.persistentIdentifier = persistentIdentifier
            activity.isEligibleForSearch = true
            activity.becomeCurrent()
        }

        func runHelper(_ app: TestApp, _ arguments: [String]) throws {
            let process = Process()
            process.executableURL = BuiltExecutable.url(named: "openspotlight-app-helper")
            process.arguments = [app.bundleIdentifier] + arguments
            process.environment = ["OPENSPOTLIGHT_HOME": app.directory.path, "HOME": app.directory.path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "the helper failed: \(printed)")
        }
    }
}

/// The five readers, opened once and kept, as an app and the system keep
/// theirs. The engine's own reader keeps its store in a ``StoreCache``, the
/// engine's way of keeping a store that follows its file.
private struct Readers {
    let stores = StoreCache()
    let app: TestApp
    let system: SystemSearch

    var store: SpotlightStore {
        get throws {
            try stores.store(bundleIdentifier: app.bundleIdentifier, indexName: "default", location: .directory(app.directory)) {
                try SpotlightStore(bundleIdentifier: app.bundleIdentifier, indexName: "default", location: .directory(app.directory))
            }
        }
    }

    init(_ app: TestApp) throws {
        self.app = app
        let registry = AppRegistry(location: .directory(app.directory))
        try registry.register(AppRegistration(bundleIdentifier: app.bundleIdentifier, displayName: "Freshness", launchCommand: ["/bin/true"]))
        system = SystemSearch(registry: registry)
    }

    /// Every reader finds exactly these titles for "alpha" (system search: the items and the activities).
    func expect(items: Set<String>, activities: Set<String>, _ moment: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let context = CSSearchQueryContext()
        context.fetchAttributes = ["title"]
        let found = await titles(CSSearchQuery(queryString: #"title == "*alpha*"cd"#, queryContext: context))
        #expect(found == items, "CSSearchQuery \(moment)", sourceLocation: sourceLocation)

        let userContext = CSUserQueryContext()
        userContext.fetchAttributes = ["title"]
        let user = await titles(CSUserQuery(userQueryString: "alpha", userQueryContext: userContext))
        #expect(user == items, "CSUserQuery \(moment)", sourceLocation: sourceLocation)

        let searched = Set(try store.search("alpha", limit: 100).compactMap { $0.item.attributes["title"]?.texts?.first })
        #expect(searched == items, "the store's search \(moment)", sourceLocation: sourceLocation)

        var queried = Set<String>()
        try store.query(#"title == "*alpha*"cd"#) { batch in
            queried.formUnion(batch.compactMap { $0.attributes["title"]?.texts?.first })
        }
        #expect(queried == items, "the store's query \(moment)", sourceLocation: sourceLocation)

        let system = try system.search("alpha", resultsPerApp: 100, webResults: 0)
        #expect(system.problems.isEmpty, "system search problems \(moment): \(system.problems)", sourceLocation: sourceLocation)
        let shown = Set(system.groups.flatMap(\.results).map(\.title))
        #expect(shown == items.union(activities), "system search \(moment)", sourceLocation: sourceLocation)
    }

    func titles(_ query: CSSearchQuery) async -> Set<String> {
        let outcome = await collect(query)
        #expect(outcome.error == nil)
        return outcome.titles
    }
}

/// Runs a query to the end: the titles of what it found, and its completion error.
private func collect(_ query: CSSearchQuery) async -> (titles: Set<String>, error: (any Error)?) {
    final class Box: @unchecked Sendable { var titles = Set<String>() }
    let box = Box()
    query.foundItemsHandler = { items in box.titles.formUnion(items.compactMap(\.attributeSet.title)) }
    let error: (any Error)? = await withCheckedContinuation { continuation in
        query.completionHandler = { continuation.resume(returning: $0) }
        query.start()
    }
    return (box.titles, error)
}
