import Foundation
import Testing
@testable import SpotlightIndex

/// A conjunction streams its full-text side for ``QueryPlanner/probeLimit``
/// candidates, then computes the conjunction for the rest: results must be
/// exact on both sides of the switch, with no item twice.
@Suite struct ConjunctionStreamingTests {
    static let count = QueryPlanner.probeLimit + 600

    static let store: SpotlightStore = {
        let store = try! memoryStore()
        var items: [SearchableItem] = []
        for index in 0..<count {
            items.append(item("i\(index)", title: index % 2 == 0 ? "common even" : "common odd", ["n": .number(.int(Int64(index)))]))
        }
        try! store.index(items)
        return store
    }()

    @Test(arguments: [
        (#"title == "common*" && n > \#(count - 100)"#, Array(count - 99..<count)),
        (#"title == "common*" && n < 10"#, Array(0..<10)),
        (#"title == "common*" && n >= \#(QueryPlanner.probeLimit - 20) && n < \#(QueryPlanner.probeLimit + 20)"#,
         Array(QueryPlanner.probeLimit - 20..<QueryPlanner.probeLimit + 20)),
        (#"n >= \#(QueryPlanner.probeLimit - 5) && title == "common even" && n < \#(QueryPlanner.probeLimit + 7)"#,
         Array(QueryPlanner.probeLimit - 5..<QueryPlanner.probeLimit + 7).filter { $0 % 2 == 0 }),
        (#"title == "common*" && n > 1000000"#, []),
    ])
    func exactAcrossTheSwitch(query: String, expected: [Int]) throws {
        var found: [String] = []
        let outcome = try Self.store.query(query, batchSize: 7) { found += $0.map(\.uniqueIdentifier) }
        #expect(found == expected.map { "i\($0)" })
        #expect(outcome.matchCount == expected.count)
    }

    @Test func streamedCandidatesFailingATypedConditionAreNotRead() throws {
        let outcome = try Self.store.query(#"title == "common*" && n > \#(Self.count - 100)"#, batchSize: 20) { _ in }
        #expect(outcome.matchCount == 99)
        #expect(outcome.candidatesChecked == 99, "the 2,048 streamed candidates fail n > … by rowid, unread")
    }

    @Test func theFirstBatchComesFromTheStreamedSide() throws {
        // Matches are common among the full-text candidates: the first batch is found
        // among the first candidates, before the conjunction is computed.
        var checkedAtFirstBatch: Int?
        var checkedSoFar = 0
        let outcome = try Self.store.query(#"title == "common*" && n >= 0"#, batchSize: 20) { batch in
            checkedSoFar += batch.count
            if checkedAtFirstBatch == nil { checkedAtFirstBatch = checkedSoFar }
        }
        #expect(checkedAtFirstBatch == 20)
        #expect(outcome.matchCount == Self.count && outcome.candidatesChecked == Self.count, "each candidate is checked once")
    }
}
