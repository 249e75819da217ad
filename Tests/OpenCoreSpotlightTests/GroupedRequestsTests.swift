import Foundation
import Synchronization
import Testing
@testable import OpenCoreSpotlight
@testable import SpotlightIndex

extension OpenCoreSpotlightTests {
    /// Index requests waiting one right after another are written in one
    /// transaction (``IndexingLookAhead``), each reported in its turn: the
    /// index object's queue is held while they are made, so that they wait.
    @Suite struct GroupedRequestsTests {
        /// Holds `index`'s queue until the returned closure is called.
        static func hold(_ index: CSSearchableIndex) -> @Sendable () -> Void {
            let held = DispatchSemaphore(value: 0)
            index.queue.async { held.wait() }
            return { held.signal() }
        }

        static func items(_ prefix: String, _ range: Range<Int>, title: String = "entry") -> [CSSearchableItem] {
            range.map { makeItem("\(prefix)\($0)", title: "\(title) \($0)") }
        }

        /// Each request's error (nil: none) once the last has answered, in the order they answered.
        final class Answers: @unchecked Sendable {
            private let lock = Mutex<[(Int, String?)]>([])
            func note(_ request: Int, _ error: (any Error)?) { note(request, error.map { "\($0)" }) }
            func note(_ request: Int, _ error: String?) { lock.withLock { $0.append((request, error)) } }
            var all: [(Int, String?)] { lock.withLock { $0 } }
        }

        /// Makes the last request, lets the held queue go (`release`) and
        /// returns that request's error (nil: none) once it has answered.
        static func indexLast(_ index: CSSearchableIndex, _ items: [CSSearchableItem], release: () -> Void) async -> String? {
            await withCheckedContinuation { done in
                index.indexSearchableItems(items) { error in done.resume(returning: error.map { "\($0)" }) }
                release()
            }
        }

        @Test func requestsMadeOneAfterAnotherAreWrittenTogether() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let index = CSSearchableIndex(name: "grouped")
            let answers = Answers()
            let release = Self.hold(index)
            for request in 0..<4 {
                index.indexSearchableItems(Self.items("r\(request)-", 0..<100)) { answers.note(request, $0) }
            }
            answers.note(4, await Self.indexLast(index, Self.items("r4-", 0..<100), release: release))
            #expect(answers.all.map(\.0) == [0, 1, 2, 3, 4])
            #expect(answers.all.allSatisfy { $0.1 == nil })
            // One transaction: one segment of all 500, not five.
            let statistics = try index.store().rankedIndexStatistics()
            #expect(statistics.segments == 1)
            #expect(statistics.documents == 500)
            #expect(try index.store().itemCount() == 500)
        }

        @Test func aRefusalIsReportedToItsOwnRequest() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let index = CSSearchableIndex(name: "refusals")
            let answers = Answers()
            let release = Self.hold(index)
            let big = makeItem("big", title: "big") { $0.textContent = String(repeating: "x", count: 5_000_000) }
            index.indexSearchableItems(Self.items("a", 0..<10)) { answers.note(0, $0) }
            index.indexSearchableItems(Self.items("b", 0..<10) + [big]) { answers.note(1, $0) }
            answers.note(2, await Self.indexLast(index, Self.items("c", 0..<10), release: release))
            #expect(answers.all.map(\.0) == [0, 1, 2])
            #expect(answers.all[0].1 == nil)
            #expect(answers.all[1].1?.contains("big") == true)
            #expect(answers.all[2].1 == nil)
            #expect(try index.store().itemCount() == 30)
            #expect(try index.store().rankedIndexStatistics().segments == 1)
        }

        /// A deletion made between two index requests keeps its place: the
        /// two are not written together past it.
        @Test func aDeletionBetweenTwoRequestsKeepsItsPlace() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let index = CSSearchableIndex(name: "between")
            let release = Self.hold(index)
            index.indexSearchableItems([makeItem("x", title: "first")]) { _ in }
            index.deleteSearchableItems(withIdentifiers: ["x"]) { _ in }
            #expect(await Self.indexLast(index, [makeItem("x", title: "second")], release: release) == nil)
            #expect(await run(CSSearchQuery(queryString: #"title == "second""#, queryContext: nil)).ids == ["x"])
            #expect(try index.store().itemCount() == 1)
        }

        /// Requests past ``IndexingLookAhead/groupItems`` items are written in more than one transaction.
        @Test func aGroupStopsAtItsItemLimit() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let index = CSSearchableIndex(name: "limit")
            let release = Self.hold(index)
            let half = IndexingLookAhead.groupItems / 2 + 1
            index.indexSearchableItems(Self.items("p", 0..<half)) { _ in }
            #expect(await Self.indexLast(index, Self.items("q", 0..<half), release: release) == nil)
            #expect(try index.store().rankedIndexStatistics().segments == 2)
            #expect(try index.store().itemCount() == 2 * half)
        }
    }
}
