import Foundation
import Testing
@testable import OpenCoreSpotlight

extension OpenCoreSpotlightTests {
    @Suite struct DelegateTests {
        final class Recorder: NSObject, CSSearchableIndexDelegate, @unchecked Sendable {
            var reindexAll: [() -> Void] = []
            var identifiers: [[String]] = []
            let signal = DispatchSemaphore(value: 0)
            func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping () -> Void) {
                reindexAll.append(acknowledgementHandler)
                signal.signal()
            }
            func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String], acknowledgementHandler: @escaping () -> Void) {
                self.identifiers.append(identifiers)
                acknowledgementHandler()
                signal.signal()
            }
        }

        @Test func aLostStoreAsksForAFullReindexUntilAcknowledged() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try await CSSearchableIndex(name: "lost").indexSearchableItems([makeItem("a", title: "x") { _ in }])
            let file = app.directory.appendingPathComponent(app.bundleIdentifier).appendingPathComponent("lost.sqlite")
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }

            let recorder = Recorder()
            let index = CSSearchableIndex(name: "lost")
            index.indexDelegate = recorder
            #expect(recorder.signal.wait(timeout: .now() + 10) == .success)
            #expect(recorder.reindexAll.count == 1)

            let again = CSSearchableIndex(name: "lost")   // not acknowledged: asked again
            let second = Recorder()
            again.indexDelegate = second
            #expect(second.signal.wait(timeout: .now() + 10) == .success)
            second.reindexAll.first?()
            try await again.indexSearchableItems([])      // runs after the acknowledgement
            let third = Recorder()
            CSSearchableIndex(name: "lost").indexDelegate = third
            #expect(third.signal.wait(timeout: .now() + 1) == .timedOut)
            #expect(third.reindexAll.isEmpty)
        }

        @Test func itemsExpiringWithinADayAreOfferedForReindexing() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let soon = makeItem("soon", title: "soon")
            soon.expirationDate = Date().addingTimeInterval(3600)
            let later = makeItem("later", title: "later")
            try await CSSearchableIndex(name: "exp").indexSearchableItems([soon, later])
            let recorder = Recorder()
            let index = CSSearchableIndex(name: "exp")
            index.indexDelegate = recorder
            #expect(recorder.signal.wait(timeout: .now() + 10) == .success)
            #expect(recorder.identifiers == [["soon"]])
        }
    }
}
