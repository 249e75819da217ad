import Foundation
import Testing
@testable import OpenCoreSpotlight
@testable import SpotlightIndex
@testable import SpotlightSystem

extension OpenCoreSpotlightTests {
    @Suite struct IndexExtensionTests {
        final class Indexer: CSIndexExtensionRequestHandler, @unchecked Sendable {
            var acknowledges = true
            var reindexedAll = 0
            var identifiers: [String] = []
            override func searchableIndex(_ searchableIndex: CSSearchableIndex,
                                          reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping () -> Void) {
                reindexedAll += 1
                searchableIndex.indexSearchableItems([makeItem("n1", title: "Restored note")]) { _ in
                    if self.acknowledges { acknowledgementHandler() }
                }
            }
            override func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String],
                                          acknowledgementHandler: @escaping () -> Void) {
                self.identifiers += identifiers
                let items = identifiers.map { id -> CSSearchableItem in
                    let item = makeItem(id, title: "Refreshed \(id)")
                    item.expirationDate = Date().addingTimeInterval(90 * 86_400)
                    return item
                }
                searchableIndex.indexSearchableItems(items) { _ in acknowledgementHandler() }
            }
        }

        func pending(_ app: TestApp) throws -> [IndexRequest] {
            try IndexRequest.pending(bundleIdentifier: app.bundleIdentifier, location: .directory(app.directory))
        }

        func environment(_ request: IndexRequest) throws -> [String: String] {
            [IndexRequest.environmentKey: String(decoding: try request.jsonData(), as: UTF8.self)]
        }

        @Test func aLostStoreIsRebuiltByTheExtensionAndStaysAskedUntilAcknowledged() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try await CSSearchableIndex(name: "notes").indexSearchableItems([makeItem("n1", title: "Note")])
            let file = app.directory.appendingPathComponent(app.bundleIdentifier).appendingPathComponent("notes.sqlite")
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
            let requests = try pending(app)
            #expect(requests == [IndexRequest(kind: .reindexAll, indexName: "notes", reason: "storeMissing")],
                    "a store whose file is gone is still known, and asks for a reindex")

            let forgetful = Indexer()
            forgetful.acknowledges = false
            #expect(try !CSIndexExtensionRequestHandler.handleLaunchRequest(with: forgetful, environment: environment(requests[0]), timeout: 0.5))
            #expect(try pending(app).map(\.kind) == [.reindexAll], "not acknowledged: asked again")

            let indexer = Indexer()
            #expect(try CSIndexExtensionRequestHandler.handleLaunchRequest(with: indexer, environment: environment(requests[0])))
            #expect(indexer.reindexedAll == 1)
            #expect(try pending(app).isEmpty)
            #expect(await run(CSSearchQuery(queryString: #"title == "Restored*""#, queryContext: nil)).ids == ["n1"])
        }

        @Test func itemsAboutToExpireAreOfferedForReindexing() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let soon = makeItem("soon", title: "Soon")
            soon.expirationDate = Date().addingTimeInterval(3_600)
            let later = makeItem("later", title: "Later")
            try await CSSearchableIndex.default().indexSearchableItems([soon, later])
            let requests = try pending(app)
            #expect(requests == [IndexRequest(kind: .reindexItems, indexName: "default", identifiers: ["soon"])])
            let indexer = Indexer()
            #expect(try CSIndexExtensionRequestHandler.handleLaunchRequest(with: indexer, environment: environment(requests[0])))
            #expect(indexer.identifiers == ["soon"])
            #expect(try pending(app).isEmpty)
        }

        @Test func noRequestMeansNothingToDo() throws {
            #expect(try !CSIndexExtensionRequestHandler.handleLaunchRequest(with: Indexer(), environment: [:]))
            #expect(throws: DecodingError.self) {
                try CSIndexExtensionRequestHandler.handleLaunchRequest(with: Indexer(), environment: [IndexRequest.environmentKey: "{"])
            }
        }
    }
}
