import Foundation
import Testing
import TestSupport
@testable import SpotlightIndex

@Suite struct BatchTests {
    @Test func aBatchCommitsItsWritesWithTheClientState() throws {
        let store = try memoryStore()
        try store.index([item("old", title: "old")])
        try store.beginBatch()
        #expect(store.isBatchOpen)
        let report = try store.index([item("a", title: "alpha"), item("b", title: "beta")])
        #expect(report.accepted == 2)
        try store.deleteItems(withIdentifiers: ["old"])
        #expect(try store.identifiers() == ["old"], "nothing is visible before the batch ends")
        #expect(try store.lastClientState() == nil)
        let final = try store.endBatch(clientState: Data("page=1".utf8))
        #expect(final.accepted == 2)
        #expect(try store.identifiers() == ["a", "b"])
        #expect(try store.lastClientState() == Data("page=1".utf8))
        #expect(!store.isBatchOpen)
    }

    /// One transaction inserts `a` (and `b` after it), deletes `a`, inserts
    /// it again and then replaces it: the second insert is a row of its
    /// own beside the deleted one (two rows inserted under one identifier
    /// hash), and the replacement finds the live one, not the deleted one.
    @Test func anIdentifierInsertedAgainInOneBatchIsOneItem() throws {
        let store = try memoryStore()
        try store.beginBatch()
        try store.index([item("a", title: "first"), item("b", title: "beta")])
        try store.deleteItems(withIdentifiers: ["a"])
        try store.index([item("a", title: "second")])
        try store.index([item("a", title: "third")])
        try store.endBatch(clientState: Data([1]))
        #expect(try store.identifiers() == ["a", "b"])
        #expect(try store.itemCount() == 2)
        #expect(try store.item(withIdentifier: "a")?.item.displayTitle == "third")
        #expect(try store.ids("third") == ["a"])
        #expect(try store.ids("second").isEmpty)
        #expect(try store.ids("first").isEmpty)
    }

    @Test func clientStateOver250BytesIsRefusedAndTheBatchStaysOpen() throws {
        let store = try memoryStore()
        try store.beginBatch()
        try store.index([item("a", title: "alpha")])
        let error = #expect(throws: SpotlightIndexError.self) { try store.endBatch(clientState: Data(count: 251)) }
        #expect(error?.code == .invalidClientState)
        #expect(store.isBatchOpen)
        try store.endBatch(clientState: Data(count: 250))
        #expect(try store.lastClientState() == Data(count: 250))
        #expect(try store.identifiers() == ["a"])
    }

    @Test func compareAndSwapCommitsOnlyOverTheExpectedState() throws {
        let store = try memoryStore()
        try store.beginBatch()
        try store.index([item("a", title: "alpha")])
        try store.endBatch(expectedClientState: nil, newClientState: Data([1]))

        try store.beginBatch()
        try store.index([item("b", title: "beta")])
        let error = #expect(throws: SpotlightIndexError.self) {
            try store.endBatch(expectedClientState: Data([9]), newClientState: Data([2]))
        }
        #expect(error?.code == .mismatchedClientState)
        #expect(try store.identifiers() == ["a"], "a mismatch changes nothing")
        #expect(try store.lastClientState() == Data([1]))
        #expect(!store.isBatchOpen)

        try store.beginBatch()
        try store.index([item("b", title: "beta")])
        try store.endBatch(expectedClientState: Data([1]), newClientState: Data([2]))
        #expect(try store.identifiers() == ["a", "b"])
        #expect(try store.lastClientState() == Data([2]))
    }

    @Test func batchMisuseIsAClearError() throws {
        let store = try memoryStore()
        #expect(throws: SpotlightIndexError.self) { try store.endBatch(clientState: Data()) }
        try store.beginBatch()
        let error = #expect(throws: SpotlightIndexError.self) { try store.beginBatch() }
        #expect(error?.code == .batchState)
        store.discardBatch()
        #expect(!store.isBatchOpen)
    }

    @Test func deleteAllResetsTheClientState() throws {
        let store = try memoryStore()
        try store.beginBatch()
        try store.index([item("a", title: "alpha")])
        try store.endBatch(clientState: Data("s".utf8))
        try store.deleteAllItems()
        #expect(try store.lastClientState() == nil)
        #expect(try store.itemCount() == 0)
    }

    @Test func aBadItemInABatchIsRefusedAloneAtOnce() throws {
        let store = try memoryStore()
        try store.beginBatch()
        let report = try store.index([item("good", title: "fine"), item("", title: "no id"), item("bad", ["title": .number(3)])])
        #expect(report.accepted == 1)
        #expect(report.refused.map(\.itemIdentifier) == ["", "bad"])
        try store.endBatch(clientState: Data())
        #expect(try store.identifiers() == ["good"])
    }

    @Test func theClientStateSurvivesReopening() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        do {
            let store = try fileStore(dir)
            try store.beginBatch()
            try store.index([item("a", title: "alpha")])
            try store.endBatch(clientState: Data("resume-here".utf8))
        }
        let reopened = try fileStore(dir)
        #expect(try reopened.lastClientState() == Data("resume-here".utf8))
        #expect(try reopened.identifiers() == ["a"])
    }
}
