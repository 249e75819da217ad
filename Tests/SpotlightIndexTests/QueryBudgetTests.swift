import Foundation
import Testing
@testable import SpotlightIndex
import SpotlightQuery

/// No query string can hold a reader past its time budget, and no pattern
/// costs memory in proportion to pattern × text.
@Suite struct QueryBudgetTests {
    @Test func aQueryPastItsBudgetStopsWithAClearError() throws {
        let store = try memoryStore { $0.queryTimeBudget = 0 }
        try store.index((0..<50).map { item("i\($0)", title: "item \($0) about cats") })
        #expect { try store.items(matching: #"title == "*at*"c"#) } throws: { error in
            guard let error = error as? SpotlightIndexError, error.code == .queryTooExpensive else { return false }
            return error.message.contains("time budget of 0 s") && error.message.contains("make it more specific")
        }
        // With time to run, the same query answers.
        let roomy = try memoryStore()
        try roomy.index((0..<50).map { item("i\($0)", title: "item \($0) about cats") })
        #expect(try roomy.items(matching: #"title == "*at*"c"#).count == 50)
    }

    @Test func aHugeConjunctionOfWildcardsIsStopped() throws {
        let store = try memoryStore { $0.queryTimeBudget = 0.5 }
        try store.index((0..<2_000).map { item("i\($0)", title: "item \($0) about cats and dogs", ["contentDescription": .string("a lazy description \($0)")]) })
        let query = Array(repeating: #"**="*a*"c"#, count: 5_000).joined(separator: "&&")
        #expect { try store.items(matching: query) } throws: { ($0 as? SpotlightIndexError)?.code == .queryTooExpensive }
    }

    /// `a*a*…a*b` over a value of a million `a`: decided exactly, each
    /// repeated fragment looked up once.
    @Test(arguments: [("b", 0), ("a", 1)])
    func manyWildcardsOverALongValue(last: String, expected: Int) throws {
        let store = try memoryStore()
        try store.index([item("big", title: "big", ["contentDescription": .string(String(repeating: "a", count: 1_000_000))]),
                         item("small", title: "small", ["contentDescription": .string("aab")])])
        let query = "contentDescription == \"" + String(repeating: "a*", count: 2_000) + last + "\""
        let found = try store.items(matching: query).map(\.uniqueIdentifier)
        #expect(found == (expected == 1 ? ["big"] : []), "2,000 a's then \(last): only the long value has them")
    }

    @Test func repeatedFragmentsAreLookedUpOnce() throws {
        var asked: [String] = []
        let pattern = QueryPattern([.literal("x")] + Array(repeating: [PatternElement.anyRun, .literal("ab")], count: 50).flatMap { $0 } + [.anyRun])
        let match = QueryPlanner.textMatch(pattern) { fragment in
            asked.append(fragment)
            return ["ab", "abc"]
        }
        #expect(asked == ["ab"], "one dictionary walk for fifty copies of a fragment")
        #expect(match == .match([.prefix("x"), .anyOf(["ab", "abc"])]))
    }
}
