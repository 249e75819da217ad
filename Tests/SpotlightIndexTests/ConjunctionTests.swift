import Foundation
import Testing
@testable import SpotlightIndex

/// A conjunction of a text condition and a typed one is the intersection
/// of their rowid lists (``QueryPlanner``): results exact at both ends of
/// the ranges, no item twice, and no candidate read that fails the typed side.
@Suite struct ConjunctionTests {
    static let count = 2_648
    static let middle = 2_048

    static let store: SpotlightStore = {
        let store = try! memoryStore()
        var items: [SearchableItem] = []
        for index in 0..<count {
            items.append(item("i\(index)", title: index % 2 == 0 ? "common even" : "common odd", ["n": .number(.int(Int64(index)))]))
        }
        // Several writes, so that the values are spread over segments.
        for start in stride(from: 0, to: items.count, by: 700) { try! store.index(Array(items[start..<min(start + 700, items.count)])) }
        return store
    }()

    static let cases: [(String, [Int])] = [
        (#"title == "common*" && n > \#(count - 100)"#, Array(count - 99..<count)),
        (#"title == "common*" && n < 10"#, Array(0..<10)),
        (#"title == "common*" && n >= \#(middle - 20) && n < \#(middle + 20)"#, Array(middle - 20..<middle + 20)),
        (#"n >= \#(middle - 5) && title == "common even" && n < \#(middle + 7)"#, Array(middle - 5..<middle + 7).filter { $0 % 2 == 0 }),
        (#"title == "common*" && n > 1000000"#, []),
        (#"InRange(n, 10, 12) || n == 700"#, [10, 11, 12, 700]),
        (#"n <= 2 || title == "common odd" && n < 8"#, [0, 1, 2, 3, 5, 7]),
    ]

    @Test(arguments: cases)
    func exactAtBothEnds(query: String, expected: [Int]) throws {
        var found: [String] = []
        let outcome = try Self.store.query(query, batchSize: 7) { found += $0.map(\.uniqueIdentifier) }
        #expect(found == expected.map { "i\($0)" })
        #expect(outcome.matchCount == expected.count)
    }

    @Test func candidatesFailingATypedConditionAreNotRead() throws {
        let outcome = try Self.store.query(#"title == "common*" && n > \#(Self.count - 100)"#, batchSize: 20) { _ in }
        #expect(outcome.matchCount == 99)
        #expect(outcome.candidatesChecked == 99, "the text side's other candidates fail n > … in the index, unread")
    }

    @Test func everyCandidateIsCheckedOnce() throws {
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
