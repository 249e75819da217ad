import Foundation
import SpotlightQuery
import Testing

/// Arbitrary input never crashes or hangs the parser; whatever parses also
/// prints, reads back and evaluates.
@Suite struct QueryParserRobustnessTests {
    /// Parses, and for valid queries checks print round trip and evaluation.
    static func exercise(_ query: String) -> Bool {
        do {
            let expression = try QueryParser.parse(query)
            let printed = QueryPrinter.print(expression)
            guard (try? QueryParser.parse(printed)) == expression else {
                Issue.record("round trip failed: \(query) → \(printed)")
                return false
            }
            _ = specItems.map { specEvaluator.matches(expression, $0) }
            return true
        } catch {
            #expect(error.offset >= 0 && error.offset <= query.count, "\(query): \(error)")
            return false
        }
    }

    @Test(arguments: [UInt64(21), 22, 23, 24])
    func randomStrings(seed: UInt64) {
        var generator = RandomQueryGenerator(seed: seed)
        var valid = 0
        for _ in 0..<1500 {
            if Self.exercise(generator.queryText(length: generator.int(0...40))) { valid += 1 }
        }
        #expect(valid >= 0)
    }

    @Test(arguments: [UInt64(31), 32, 33])
    func mutationsOfSpecQueries(seed: UInt64) {
        var generator = RandomQueryGenerator(seed: seed)
        let queries = SpecFile.conformanceRows.map(\.query) + QueryParserTests.specAccepted
        #expect(!queries.isEmpty)
        var valid = 0
        var total = 0
        for query in queries {
            for _ in 0..<20 {
                total += 1
                if Self.exercise(generator.mutate(query)) { valid += 1 }
            }
        }
        // Sanity: mutations keep a fair share valid and make a fair share invalid.
        #expect(valid > total / 10)
        #expect(valid < total)
    }

    @Test func deepNestingFailsFast() {
        let clock = ContinuousClock()
        let start = clock.now
        for count in [100_000, 60_000, 300] {
            #expect(throws: QuerySyntaxError.self) { try QueryParser.parse(String(repeating: "(", count: count)) }
            #expect(throws: QuerySyntaxError.self) { try QueryParser.parse(String(repeating: "!", count: count) + "a == 1") }
            #expect(throws: QuerySyntaxError.self) {
                try QueryParser.parse(String(repeating: "(", count: count) + "a == 1" + String(repeating: ")", count: count))
            }
        }
        #expect(clock.now - start < .seconds(5))
    }

    @Test func hugeInputFailsFast() {
        let clock = ContinuousClock()
        let start = clock.now
        let megabyte = "title == \"" + String(repeating: "a", count: 1 << 20) + "\""
        do {
            _ = try QueryParser.parse(megabyte)
            Issue.record("accepted a 1 MB query")
        } catch {
            #expect(error.reason == "query too long")
        }
        #expect(clock.now - start < .seconds(2))
    }

    /// The longest possible `&&` chain is a left-deep tree ~10k levels deep:
    /// parse, print, compare and evaluate it without running out of stack.
    @Test func longestChain() throws {
        let term = "a == 1 && "
        let count = (QueryParser.maximumLength - 6) / term.utf8.count
        let query = String(repeating: term, count: count) + "a == 1"
        #expect(query.utf8.count <= QueryParser.maximumLength)
        let expression = try QueryParser.parse(query)
        let printed = QueryPrinter.print(expression)
        #expect(printed == query)
        #expect(try QueryParser.parse(printed) == expression)
        #expect(!specEvaluator.matches(expression, specItems[0]))
        let orChain = try QueryParser.parse(String(repeating: "a == 1 || ", count: count - 1) + "title == Paris")
        #expect(specEvaluator.matches(orChain, specItems[0]))
    }

    @Test func pathologicalPatternsStayFast() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let pattern = "title == \"" + String(repeating: "*a", count: 2000) + "b\"wc"
        let expression = try QueryParser.parse(pattern)
        let item = SpecItem(id: "X", attributes: ["title": [.string(String(repeating: "a", count: 5000))]])
        #expect(!specEvaluator.matches(expression, item))
        #expect(clock.now - start < .seconds(20))
    }
}
