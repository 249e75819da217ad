import Foundation
import SpotlightQuery
import Testing
@testable import SpotlightIndex

/// Random items and random well-formed queries: the engine (index
/// candidates, then the evaluator) must return exactly what the reference
/// evaluator returns over every item. A miss means the planner's candidate
/// set was not a superset.
@Suite struct QueryDifferentialTests {
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
        mutating func bool() -> Bool { next() % 2 == 0 }
        mutating func pick<T>(_ values: [T]) -> T { values[int(0...(values.count - 1))] }
    }

    static let words = ["Paris", "paris", "Comparison", "MyWindowClass", "NSWindow", "Broken Window", "Café Résumé", "cafe resume",
                        "Zoë", "東京タワー", "학교에서 공부", "Q*A? notes", "mp3 player", "Straße", "naïve", "ＡＢＣ", "hello-world.txt",
                        "travel France", "Window", "windows", "I love Paris", "Win32API", "x", "",
                        "xWinDow", "WindowClass", "Base64Window", "report2025", "HTTPServer", "getURLForKey",
                        "हिन्दी पुस्तकालय", "Shared libraries", "libfoo-dev", "ÉCOLE élève", "Ωμέγα", "\u{212A}elvin", "Kelvin"]
    static let textNames = ["title", "keywords", "contentDescription", "textContent", "authorNames", "customKey", "path"]
    static let numberNames = ["rating", "pixelWidth", "allDay"]
    static let dateNames = ["contentCreationDate", "completionDate"]

    static func item(_ index: Int, _ random: inout Random) -> SearchableItem {
        var attributes: [String: AttributeValue] = [:]
        for name in textNames where random.int(0...3) > 0 {
            attributes[name] = ["keywords", "authorNames"].contains(name)
                ? .strings((0..<random.int(0...3)).map { _ in random.pick(words) })
                : .string(random.pick(words) + (random.bool() ? "" : " " + random.pick(words)))
        }
        if random.bool() { attributes["rating"] = random.bool() ? .number(.int(Int64(random.int(0...5)))) : .number(.double(Double(random.int(0...50)) / 10)) }
        if random.bool() { attributes["pixelWidth"] = .numbers([.int(Int64(random.int(0...5000))), .int(Int64(random.int(0...5000)))]) }
        if random.bool() { attributes["allDay"] = .bool(random.bool()) }
        for name in dateNames where random.bool() {
            attributes[name] = .date(QueryEngineTests.now.addingTimeInterval(Double(random.int(-40 * 86_400...2 * 86_400))))
        }
        if random.int(0...4) == 0 { attributes["url"] = .url(URL(string: "https://example.com/\(random.pick(["paris", "Window", "a-b"]))")!) }
        return SearchableItem(uniqueIdentifier: "item\(index)", domainIdentifier: random.bool() ? "d\(random.int(0...2))" : nil,
                              contentType: random.bool() ? random.pick(["public.jpeg", "public.text"]) : nil, attributes: attributes)
    }

    static func pattern(_ random: inout Random) -> QueryPattern {
        let word = random.pick(words)
        let characters = Array(word)
        var text = word
        if characters.count > 2, random.bool() {
            let start = random.int(0...(characters.count - 2))
            let end = random.int((start + 1)...characters.count)
            text = String(characters[start..<end])
        }
        var elements: [PatternElement] = text.isEmpty ? [] : [.literal(text)]
        switch random.int(0...5) {
        case 0: elements.insert(.anyRun, at: 0)
        case 1: elements.append(.anyRun)
        case 2: elements = [.anyRun] + elements + [.anyRun]
        case 3: elements.append(.anyOne)
        default: break
        }
        return QueryPattern(elements.isEmpty ? [.anyRun] : elements)
    }

    static func comparison(_ random: inout Random) -> QueryExpression {
        let kind = random.int(0...9)
        if kind <= 4 {
            let attribute: QueryAttribute = switch random.int(0...9) {
            case 0: .anyAttribute
            case 1: .anyAttributeOrContent
            case 2: .named(random.pick(["domainIdentifier", "contentType", "url", "noSuch"]))
            default: .named(random.pick(textNames))
            }
            var modifiers: QueryModifiers = []
            if random.bool() { modifiers.insert(.caseInsensitive) }
            if random.bool() { modifiers.insert(.diacriticInsensitive) }
            if random.int(0...2) == 0 { modifiers.insert(.wordBased) }
            if random.int(0...4) == 0 { modifiers.insert(.tokenized) }
            return .comparison(Comparison(attribute: attribute, op: random.int(0...3) == 0 ? .notEqual : .equal,
                                          value: random.int(0...15) == 0 ? .null : .pattern(pattern(&random)), modifiers: modifiers))
        }
        if kind <= 6 {
            let name = random.pick(numberNames + ["title"])
            let value: QueryValue = random.int(0...5) == 0 ? .pattern(QueryPattern([.literal(String(random.int(0...5)))])) : .number(Double(random.int(0...50)) / 10 * Double(random.pick([1, 1000])))
            return .comparison(Comparison(attribute: .named(name), op: random.pick(ComparisonOperator.allCases), value: value))
        }
        let name = random.pick(dateNames)
        let time: TimeExpression = random.pick([.today(offsetDays: -random.int(0...3)), .yesterday, .thisWeek(offsetWeeks: -random.int(0...2)),
                                                .lastWeek, .thisMonth(offsetMonths: -random.int(0...1)), .thisYear(offsetYears: 0),
                                                .now(offsetSeconds: -random.int(0...900_000))])
        if kind == 9 {
            return .inRange(InRange(attribute: .named(name), lower: .time(.today(offsetDays: -random.int(5...40))), upper: .time(time)))
        }
        return .comparison(Comparison(attribute: .named(name), op: random.pick(ComparisonOperator.allCases), value: .time(time)))
    }

    static func expression(_ random: inout Random, depth: Int = 0) -> QueryExpression {
        guard depth < 3 else { return comparison(&random) }
        switch random.int(0...6) {
        case 0: return .and(expression(&random, depth: depth + 1), expression(&random, depth: depth + 1))
        case 1: return .or(expression(&random, depth: depth + 1), expression(&random, depth: depth + 1))
        case 2: return .not(expression(&random, depth: depth + 1))
        default: return comparison(&random)
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func theEngineAgreesWithTheEvaluator(seed: UInt64) throws {
        var random = Random(state: seed)
        let items = (0..<60).map { Self.item($0, &random) }
        let store = try QueryEngineTests.store(items)
        let evaluator = QueryEvaluator(now: QueryEngineTests.now, timeZone: TimeZone(identifier: "UTC")!, firstWeekday: 1)
        let stored = try store.allItems().map(\.item)
        var narrowed = 0, fromIndex = 0
        for _ in 0..<250 {
            let expression = Self.expression(&random)
            let expected = stored.filter { evaluator.matches(expression, QueryItem(item: $0)) }.map(\.uniqueIdentifier)
            var found: [String] = []
            let outcome = try store.query(expression, batchSize: 7) { found += $0.map(\.uniqueIdentifier) }
            #expect(found == expected, "\(QueryPrinter.print(expression))")
            #expect(outcome.matchCount == expected.count)
            if outcome.candidatesChecked < stored.count { narrowed += 1 }
            // Identifiers alone, from the index where its candidates are exact: the same ones.
            let identified = try store.queryIdentifiers(expression, limit: stored.count + 1, firstWindow: SpotlightStore.firstQueryWindow)
            #expect(identified.identifiers == expected, "identifiers: \(QueryPrinter.print(expression))")
            if identified.outcome.candidatesChecked == 0 && !expected.isEmpty { fromIndex += 1 }
        }
        #expect(narrowed > 75, "the indexes narrowed only \(narrowed) of 250 queries")
        #expect(fromIndex >= 3, "only \(fromIndex) of 250 queries were answered from the index alone")
    }

    /// Candidates read a doc window at a time (three documents first, then
    /// four times more each window) over several segments: the same items,
    /// in the same order, as the evaluator over every item; with replaced
    /// and deleted items too, where segments may interleave and the whole
    /// candidate list is found first instead.
    @Test(arguments: [7, 8, 9])
    func windowsOfCandidatesAgreeWithTheEvaluator(seed: UInt64) throws {
        var random = Random(state: seed)
        let store = try QueryEngineTests.store([])
        for batch in 0..<5 {
            try store.index((0..<40).map { Self.item(batch * 40 + $0, &random) }.map { var item = $0; item.expirationDate = .distantFuture; return item })
        }
        let evaluator = QueryEvaluator(now: QueryEngineTests.now, timeZone: TimeZone(identifier: "UTC")!, firstWeekday: 1)
        func agree(_ phase: String) throws {
            let stored = try store.allItems().map(\.item)
            for _ in 0..<120 {
                let expression = Self.expression(&random)
                let expected = stored.filter { evaluator.matches(expression, QueryItem(item: $0)) }.map(\.uniqueIdentifier)
                var found: [String] = []
                let outcome = try store.query(expression, batchSize: 5, cancellation: nil, fetching: nil, firstWindow: 3) {
                    found += $0.map(\.uniqueIdentifier)
                }
                #expect(found == expected, "\(phase): \(QueryPrinter.print(expression))")
                #expect(outcome.matchCount == expected.count)
                // Cancelled after its first batch, a query gave the first matches in order.
                let cancellation = QueryCancellation()
                var first: [String] = []
                _ = try store.query(expression, batchSize: 2, cancellation: cancellation, fetching: nil, firstWindow: 3) { batch in
                    first += batch.map(\.uniqueIdentifier)
                    cancellation.cancel()
                }
                #expect(first == Array(expected.prefix(2)), "\(phase), cancelled: \(QueryPrinter.print(expression))")
                let identified = try store.queryIdentifiers(expression, limit: 2, firstWindow: 3).identifiers
                #expect(identified == Array(expected.prefix(2)), "\(phase), identifiers: \(QueryPrinter.print(expression))")
            }
        }
        let segments = try store.read { try store.ranked.snapshot($0) }
        #expect(SpotlightStore.windowedSegments(segments) != nil, "segments written in order are read in windows")
        try agree("in order")
        // Items indexed again and deleted: their new documents come after others' in rowid order.
        try store.index((0..<30).map { _ in Self.item(random.int(0...199), &random) }.map { var item = $0; item.expirationDate = .distantFuture; return item })
        try store.deleteItems(withIdentifiers: (0..<20).map { _ in "item\(random.int(0...199))" })
        try agree("replaced and deleted")
    }
}

