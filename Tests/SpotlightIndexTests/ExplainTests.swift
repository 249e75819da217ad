import Foundation
import Testing
@testable import SpotlightIndex

@Suite struct ExplainTests {
    @Test func explainsRankOrTheMissingWords() throws {
        let store = try memoryStore()
        try store.index([
            item("pear", title: "Pear", ["keywords": .strings(["fruit", "poire"]), "rankingHint": .number(60)]),
            item("pearl", title: "Pearl barley", ["contentDescription": .string("A grain, not a fruit")]),
            item("apple", title: "Apple", ["keywords": .strings(["fruit"])]),
        ])
        let table: [(String, String, Int?, Int, [[String]], String)] = [
            ("pear", "pea", 1, 2, [["title"]], "pear is result 1 of 2: "),
            ("pearl", "pea", 2, 2, [["title"]], "pearl is result 2 of 2: "),
            ("apple", "fruit", 2, 3, [["keywords"]], "apple is result 2 of 3: "),
            ("pearl", "fruit", 3, 3, [["contentDescription"]], "pearl is result 3 of 3: "),
            ("apple", "pea", nil, 2, [[]], #"apple does not match: no attribute has "pea*""#),
            ("pear", "fruit grain", nil, 1, [["keywords"], []], #"pear does not match: no attribute has "grain*""#),
            ("pearl", "fruit grain", 1, 1, [["contentDescription"], ["contentDescription"]], "pearl is result 1 of 1: "),
        ]
        for (id, text, rank, count, foundIn, summary) in table {
            let why = try store.explain(itemIdentifier: id, text: text)
            #expect(why.rank == rank, "\(id) \(text)")
            #expect(why.matchCount == count, "\(id) \(text)")
            #expect(why.matches == (rank != nil))
            #expect(why.terms.map(\.foundIn) == foundIn, "\(id) \(text)")
            #expect(why.summary.hasPrefix(summary), "\(why.summary)")
            if let rank { #expect(try store.ids(text, limit: 10)[rank - 1] == id, "the rank is the search's order") }
        }
        #expect(throws: SpotlightIndexError.self) { try store.explain(itemIdentifier: "nope", text: "x") }
    }
}
