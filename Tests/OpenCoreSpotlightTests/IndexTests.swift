import Foundation
import Testing
import UniformTypeIdentifiers
@testable import OpenCoreSpotlight
@testable import SpotlightIndex

extension OpenCoreSpotlightTests {
    @Suite struct IndexTests {
        @Test func indexQueryDeleteRoundTrip() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let index = CSSearchableIndex(name: "notes")
            try await index.indexSearchableItems([
                makeItem("a", title: "Paris trip", domain: "trips.europe"),
                makeItem("b", title: "Paris notes", domain: "trips.europe.france"),
                makeItem("c", title: "Tokyo", domain: "trips.asia"),
                makeItem("d", title: "Parisian cafés", domain: "tripsx"),
            ])
            #expect(await run(CSSearchQuery(queryString: #"title == "paris*"cd"#, queryContext: nil)).ids == ["a", "b", "d"])
            try await index.deleteSearchableItems(withDomainIdentifiers: ["trips.europe"])
            #expect(await run(CSSearchQuery(queryString: #"title == "*""#, queryContext: nil)).ids == ["c", "d"])
            try await index.deleteSearchableItems(withIdentifiers: ["c"])
            #expect(await run(CSSearchQuery(queryString: #"title == "*""#, queryContext: nil)).ids == ["d"])
            try await index.deleteAllSearchableItems()
            #expect(await run(CSSearchQuery(queryString: #"title == "*""#, queryContext: nil)).count == 0)
        }

        @Test func completionHandlersRunInSubmissionOrder() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let index = CSSearchableIndex(name: "ordered")
            let log = StepLog<String>()
            index.indexSearchableItems([makeItem("x", title: "first")]) { _ in log.steps.append("index") }
            index.deleteSearchableItems(withIdentifiers: ["x"]) { _ in log.steps.append("delete") }
            await withCheckedContinuation { continuation in
                index.indexSearchableItems([makeItem("y", title: "second")]) { _ in
                    log.steps.append("index2")
                    continuation.resume()
                }
            }
            #expect(log.steps == ["index", "delete", "index2"])
            #expect(await run(CSSearchQuery(queryString: #"title == "*""#, queryContext: nil)).ids == ["y"])
        }

        /// Batches given without waiting (each prepared while the one
        /// before is written) are stored in the order given: a later batch's
        /// item replaces an earlier one's, an update merges into what the
        /// batches before it stored, and a deletion between them applies
        /// where it was asked for.
        @Test func batchesGivenWithoutWaitingApplyInOrder() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let index = CSSearchableIndex(name: "flood")
            let log = StepLog<Int>()
            for batch in 0..<12 {
                let items = (0..<40).map { makeItem("i\($0)", title: "batch\(batch) item \($0)") }
                index.indexSearchableItems(items) { error in
                    #expect(error == nil)
                    log.steps.append(batch)
                }
                if batch == 5 { index.deleteSearchableItems(withIdentifiers: ["i0"], completionHandler: nil) }   // batch 6 adds it again
            }
            let update = CSSearchableItem(uniqueIdentifier: "i1", domainIdentifier: nil, attributeSet: {
                let set = CSSearchableItemAttributeSet(contentType: .text)
                set.keywords = ["merged"]
                return set
            }())
            update.isUpdate = true
            index.indexSearchableItems([update], completionHandler: nil)
            await withCheckedContinuation { done in index.deleteSearchableItems(withIdentifiers: ["none"]) { _ in done.resume() } }
            #expect(log.steps == Array(0..<12))
            #expect(await run(CSSearchQuery(queryString: #"title == "*""#, queryContext: nil)).count == 40)
            #expect(await run(CSSearchQuery(queryString: #"title == "batch11*""#, queryContext: nil)).count == 40)
            // The update merged into what the last batch stored.
            #expect(await run(CSSearchQuery(queryString: #"keywords == "merged" && title == "batch11 item 1""#, queryContext: nil)).ids == ["i1"])
        }

        @Test func batchesStoreClientStateAndCompareAndSwap() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let index = CSSearchableIndex(name: "batched")
            index.beginBatch()
            try await index.indexSearchableItems([makeItem("a", title: "one")])
            try await index.endBatch(withClientState: Data("v1".utf8))
            #expect(try await index.fetchLastClientState() == Data("v1".utf8))
            index.beginBatch()
            try await index.indexSearchableItems([makeItem("b", title: "two")])
            do {
                try await index.endIndexBatch(expectedClientState: Data("v0".utf8), newClientState: Data("v2".utf8))
                Issue.record("a mismatched client state must fail")
            } catch let error as CSIndexError {
                #expect(error.code == .mismatchedClientState)
                #expect(error.errorCode == -1006)
            }
            #expect(await run(CSSearchQuery(queryString: #"title == "*""#, queryContext: nil)).ids == ["a"])
            #expect(try await index.fetchLastClientState() == Data("v1".utf8))
            index.beginBatch()
            try await index.indexSearchableItems([makeItem("b", title: "two")])
            try await index.endIndexBatch(expectedClientState: Data("v1".utf8), newClientState: Data("v2".utf8))
            #expect(await run(CSSearchQuery(queryString: #"title == "*""#, queryContext: nil)).ids == ["a", "b"])
            try await index.deleteAllSearchableItems()
            #expect(try await index.fetchLastClientState() == nil)
        }

        @Test func batchingOnTheDefaultIndexFailsAsApplesDoes() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let index = CSSearchableIndex.default()
            #expect(CSSearchableIndex.default() === index)
            index.beginBatch()
            try await index.indexSearchableItems([makeItem("a", title: "kept")])
            await #expect(throws: CSIndexError(.invalidClientStateError, "batching is not supported on the default index; use CSSearchableIndex(name:)")) {
                try await index.endBatch(withClientState: Data())
            }
            #expect(await run(CSSearchQuery(queryString: #"title == "*""#, queryContext: nil)).ids == ["a"])
        }

        /// The iOS 9 sample's code, in Swift 2's spellings, on `CSSearchableIndex()`:
        /// it batches, keeps the client state, and writes the store `default()` writes.
        @available(*, deprecated, message: "uses the Swift 2 spellings on purpose")
        @Test func swift2SpellingsBehaveAsTodaysOnAnUnnamedIndex() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            #expect(CSSearchableIndex.defaultSearchableIndex() === CSSearchableIndex.default())
            let index = CSSearchableIndex()
            #expect(index !== CSSearchableIndex.default() && index.name == "default")
            index.beginIndexBatch()
            index.indexSearchableItems([makeItem("a", title: "one", domain: "d"), makeItem("b", title: "two")], completionHandler: nil)
            #expect(await run(CSSearchQuery(queryString: #"title == "*""#, queryContext: nil)).ids.isEmpty, "nothing applied before the batch ends")
            let error: (any Error)? = await withCheckedContinuation { done in
                index.endIndexBatchWithClientState(Data("v1".utf8)) { done.resume(returning: $0) }
            }
            #expect(error == nil)
            let state: Data? = await withCheckedContinuation { done in
                CSSearchableIndex().fetchLastClientStateWithCompletionHandler { state, _ in done.resume(returning: state) }
            }
            #expect(state == Data("v1".utf8))
            await withCheckedContinuation { done in
                CSSearchableIndex.defaultSearchableIndex().deleteSearchableItemsWithDomainIdentifiers(["d"]) { _ in done.resume() }
            }
            #expect(await run(CSSearchQuery(queryString: #"title == "*""#, queryContext: nil)).ids == ["b"])
            await withCheckedContinuation { done in index.deleteAllSearchableItemsWithCompletionHandler { _ in done.resume() } }
            #expect(await run(CSSearchQuery(queryString: #"title == "*""#, queryContext: nil)).ids.isEmpty)
        }

        /// Refusals and their codes: one bad item is refused, the others are indexed.
        @Test(arguments: [
            ("big", CSIndexError.Code.invalidItemError),
            ("badKey", CSIndexError.Code.invalidItemError),
        ])
        func badItemsAreRefusedWithAppleCodes(kind: String, code: CSIndexError.Code) async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let index = CSSearchableIndex(name: "limits")
            let bad = makeItem("bad", title: "bad") { set in
                if kind == "big" { set.textContent = String(repeating: "x", count: 5_000_000) }
                else { set.setValue("v" as NSString, forCustomKey: CSCustomAttributeKey(keyName: "ok")!) ; set.storage.set("bad key", .string("v")) }
            }
            do {
                try await index.indexSearchableItems([makeItem("good", title: "good"), bad])
                Issue.record("expected a refusal")
            } catch let error as CSIndexError {
                #expect(error.code == code)
                #expect(error.message.contains("bad"))
            }
            #expect(await run(CSSearchQuery(queryString: #"title == "*""#, queryContext: nil)).ids == ["good"])
        }

        @Test func updatesMergeAndRemoveClearedAttributes() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let index = CSSearchableIndex(name: "updates")
            try await index.indexSearchableItems([makeItem("a", title: "Old") { $0.keywords = ["k"]; $0.contentDescription = "desc" }])
            let update = CSSearchableItem(uniqueIdentifier: "a", domainIdentifier: nil, attributeSet: CSSearchableItemAttributeSet())
            update.attributeSet.title = "New"
            update.attributeSet.keywords = nil
            update.isUpdate = true
            let missing = CSSearchableItem(uniqueIdentifier: "zz", domainIdentifier: nil, attributeSet: CSSearchableItemAttributeSet())
            missing.isUpdate = true
            try await index.indexSearchableItems([update, missing])
            let context = CSSearchQueryContext()
            context.fetchAttributes = ["title", "keywords", "contentDescription"]
            final class Box: @unchecked Sendable { var items: [CSSearchableItem] = [] }
            let box = Box()
            let query = CSSearchQuery(queryString: #"title == "*""#, queryContext: context)
            query.foundItemsHandler = { box.items += $0 }
            _ = await run(query)
            #expect(box.items.map(\.uniqueIdentifier) == ["a"])
            #expect(box.items.first?.attributeSet.title == "New")
            #expect(box.items.first?.attributeSet.keywords == nil)
            #expect(box.items.first?.attributeSet.contentDescription == "desc")
        }

        @Test func anIndexCanBeOpenedForAnotherBundleIdentifier() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let other = CSSearchableIndex(name: "shared", protectionClass: nil, bundleIdentifier: "com.example.other", options: 0)
            try await other.indexSearchableItems([makeItem("o1", title: "Other app's note")])
            let store = try SpotlightStore(bundleIdentifier: "com.example.other", indexName: "shared", location: .directory(app.directory))
            #expect(try store.allItems().map(\.item.uniqueIdentifier) == ["o1"])
            #expect(await run(CSSearchQuery(queryString: #"title == "*""#, queryContext: nil)).ids.isEmpty,
                    "the app's own queries read only its own indexes")
            let evil = CSSearchableIndex(name: "x", protectionClass: nil, bundleIdentifier: "../../etc", options: 0)
            do {
                try await evil.indexSearchableItems([makeItem("e", title: "escape")])
                Issue.record("a bundle identifier that is not reverse DNS must be refused")
            } catch let error as CSIndexError {
                #expect(error.code == .indexUnavailableError)
                #expect("\(error)".contains("bundle identifier"), "\(error)")
            }
        }
}
}

/// What completion handlers saw, in the order they ran (they run one at a
/// time, on the index's queue).
final class StepLog<Step>: @unchecked Sendable {
    var steps: [Step] = []
}
