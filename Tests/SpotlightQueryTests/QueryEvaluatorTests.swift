import Foundation
import SpotlightQuery
import Testing

struct EvaluationCase: Sendable, CustomTestStringConvertible {
    let query: String
    let value: [QueryItemValue]?
    let expected: Bool
    /// `query` is evaluated against an item whose attribute `x` holds `value` (nil: absent).
    init(_ query: String, _ value: [QueryItemValue]?, _ expected: Bool) {
        self.query = query
        self.value = value
        self.expected = expected
    }
    var testDescription: String { "\(query) on \(value.map { "\($0)" } ?? "missing") → \(expected)" }
}

private func s(_ text: String) -> [QueryItemValue] { [.string(text)] }
private func n(_ number: Double) -> [QueryItemValue] { [.number(number)] }
private func d(_ text: String) -> [QueryItemValue] { [.date(isoDate(text))] }

@Suite struct QueryEvaluatorTests {
    static func run(_ testCase: EvaluationCase) throws {
        var attributes: [String: [QueryItemValue]] = ["other": s("unrelated")]
        if let value = testCase.value { attributes["x"] = value }
        let item = SpecItem(id: "X", attributes: attributes)
        let expression = try QueryParser.parse(testCase.query)
        #expect(specEvaluator.matches(expression, item) == testCase.expected)
    }

    static let wildcards: [EvaluationCase] = [
        EvaluationCase(#"x == "abc""#, s("abc"), true),
        EvaluationCase(#"x == "abc""#, s("abcd"), false),
        EvaluationCase(#"x == "abc""#, s("xabc"), false),
        EvaluationCase(#"x == "a*c""#, s("abc"), true),
        EvaluationCase(#"x == "a*c""#, s("ac"), true),
        EvaluationCase(#"x == "a*c""#, s("abbbbc"), true),
        EvaluationCase(#"x == "a*c""#, s("abd"), false),
        EvaluationCase(#"x == "a*b*c""#, s("aXbYbZc"), true),
        EvaluationCase(#"x == "*a*a*a*b""#, s("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"), false),
        EvaluationCase(#"x == "a?c""#, s("abc"), true),
        EvaluationCase(#"x == "a?c""#, s("ac"), false),
        EvaluationCase(#"x == "a?c""#, s("abbc"), false),
        EvaluationCase(#"x == "a??""#, s("a🇫🇷😀"), true),
        EvaluationCase(#"x == "?""#, s("e\u{301}"), true),
        EvaluationCase(#"x == "a\*c""#, s("a*c"), true),
        EvaluationCase(#"x == "a\*c""#, s("abc"), false),
        EvaluationCase(#"x == "a\?c""#, s("a?c"), true),
        EvaluationCase(#"x == "a\?c""#, s("abc"), false),
        EvaluationCase(#"x == "\\*""#, s(#"\anything"#), true),
        EvaluationCase(#"x == "*""#, s(""), true),
        EvaluationCase(#"x == "*""#, nil, false),
        EvaluationCase(#"x != "*""#, nil, true),
        EvaluationCase(#"x != "*""#, s(""), false),
        EvaluationCase(#"x == """#, s(""), true),
        EvaluationCase(#"x == """#, s("a"), false),
        EvaluationCase(#"x == "*""#, n(3), true),
        EvaluationCase(#"x == "*""#, d("2025-01-01"), true),
        EvaluationCase("x == *", s("a"), true),
        EvaluationCase("x == null", s("a"), true),
        EvaluationCase("x == null", n(0), true),
        EvaluationCase("x == null", nil, false),
        EvaluationCase("x != null", nil, true),
        EvaluationCase("x != null", s(""), false),
    ]

    static let folding: [EvaluationCase] = [
        EvaluationCase(#"x == "Paris""#, s("paris"), false),
        EvaluationCase(#"x == "Paris"c"#, s("pARIS"), true),
        EvaluationCase(#"x == "CAFÉ"c"#, s("café"), true),
        EvaluationCase(#"x == "CAFE"c"#, s("café"), false),
        EvaluationCase(#"x == "CAFE"cd"#, s("café"), true),
        EvaluationCase(#"x == "cafe"d"#, s("café"), true),
        EvaluationCase(#"x == "cafe"d"#, s("Café"), false),
        EvaluationCase(#"x == "Café""#, s("Cafe\u{301}"), true),
        EvaluationCase("x == \"Cafe\u{301}\"", s("Café"), true),
        EvaluationCase(#"x == "STRASSE"c"#, s("straße"), true),
        EvaluationCase(#"x == "Ångström"cd"#, s("ANGSTROM"), true),
        EvaluationCase(#"x == "σίσυφοσ"c"#, s("ΣΊΣΥΦΟΣ"), true),
        EvaluationCase(#"x == "*ü*"d"#, s("Tschüss"), true),
        EvaluationCase(#"x == "*ü*"d"#, s("Tschuss"), true),
        EvaluationCase(#"x == "ø"d"#, s("o"), false),
        EvaluationCase(#"x ==[c] "a*"d"#, s("Äpfel"), true),
    ]

    static let words: [EvaluationCase] = [
        EvaluationCase(#"x == "Window"w"#, s("MyWindowClass"), true),
        EvaluationCase(#"x == "Window"w"#, s("Broken Window"), true),
        EvaluationCase(#"x == "Window"w"#, s("Window"), true),
        EvaluationCase(#"x == "Window"w"#, s("NSWindow"), false),
        EvaluationCase(#"x == "Window"w"#, s("Windows"), false),
        EvaluationCase(#"x == "Window"w"#, s("Window2"), false),
        EvaluationCase(#"x == "Window"w"#, s("Base64Window"), true),
        EvaluationCase(#"x == "Window"w"#, s("window"), false),
        EvaluationCase(#"x == "Window"wc"#, s("window"), true),
        EvaluationCase(#"x == "Window"w"#, s("the Window-frame"), true),
        EvaluationCase(#"x == "Win*"w"#, s("Windows"), true),
        EvaluationCase(#"x == "Win*"w"#, s("NSWindows"), false),
        EvaluationCase(#"x == "*dow"w"#, s("NSWindow"), true),
        EvaluationCase(#"x == "WindowClass"w"#, s("MyWindowClass"), true),
        EvaluationCase(#"x == "Window Class"w"#, s("MyWindowClass"), false),
        EvaluationCase(#"x == "love paris"wc"#, s("I love Paris"), true),
        EvaluationCase(#"x == "paris love"wc"#, s("I love Paris"), false),
        EvaluationCase(#"x == "Paris"wc"#, s("Comparison"), false),
        EvaluationCase(#"x == "Paris"wc"#, s("paris-france.jpg"), true),
        EvaluationCase(#"x == "jpg"w"#, s("paris-france.jpg"), true),
        EvaluationCase(#"x == "france.jpg"w"#, s("paris-france.jpg"), true),
        EvaluationCase(#"x == "A"w"#, s("Q*A? notes"), true),
        EvaluationCase(#"x == "Q\*A"w"#, s("Q*A? notes"), true),
        EvaluationCase(#"x == "Résumé"w"#, s("Café Résumé"), true),
        EvaluationCase(#"x == "resume"wcd"#, s("Café Résumé"), true),
        EvaluationCase(#"x == "2025"w"#, s("report 2025 final"), true),
        EvaluationCase(#"x == "2025"w"#, s("report2025"), false),
        EvaluationCase(#"x == ""w"#, s("abc"), false),
        EvaluationCase(#"x == ""w"#, s(""), true),
        EvaluationCase(#"x == "window"w"#, s("window"), true),
    ]

    static let tokens: [EvaluationCase] = [
        EvaluationCase(#"x == "paris budget"tc"#, s("budget for Paris trip"), true),
        EvaluationCase(#"x == "budget paris"tc"#, s("budget for Paris trip"), true),
        EvaluationCase(#"x == "paris money"tc"#, s("budget for Paris trip"), false),
        EvaluationCase(#"x == "paris budget"t"#, s("budget for Paris trip"), false),
        EvaluationCase(#"x == "bud* trip"t"#, s("budget for Paris trip"), true),
        EvaluationCase(#"x == "bud trip"t"#, s("budget for Paris trip"), false),
        EvaluationCase(#"x == "class window"tc"#, s("MyWindowClass"), true),
        EvaluationCase(#"x == "for-paris"tc"#, s("budget for Paris trip"), true),
        EvaluationCase(#"x == "resume cafe"tcd"#, s("Café Résumé"), true),
        EvaluationCase(#"x == " "t"#, s(" "), true),
        EvaluationCase(#"x == " "t"#, s("x"), false),
        EvaluationCase(#"x != "paris budget"tc"#, s("budget for Paris trip"), false),
    ]

    static let arrays: [EvaluationCase] = [
        EvaluationCase(#"x == "a""#, Value.strings("a", "b"), true),
        EvaluationCase(#"x == "b""#, Value.strings("a", "b"), true),
        EvaluationCase(#"x == "c""#, Value.strings("a", "b"), false),
        EvaluationCase(#"x != "a""#, Value.strings("a", "b"), false),
        EvaluationCase(#"x != "c""#, Value.strings("a", "b"), true),
        EvaluationCase(#"x != "a""#, nil, true),
        EvaluationCase(#"x != "a""#, [], true),
        EvaluationCase(#"x == "*""#, [], false),
        EvaluationCase(#"x != "A"c"#, Value.strings("a", "b"), false),
        EvaluationCase("x > 5", [.number(1), .number(10)], true),
        EvaluationCase("x < 0", [.number(1), .number(10)], false),
        EvaluationCase("InRange(x, 5, 20)", [.number(1), .number(10)], true),
        EvaluationCase("InRange(x, 2, 9)", [.number(1), .number(10)], false),
        EvaluationCase("x != 1", [.number(1), .number(10)], false),
        EvaluationCase(#"x == "b"c"#, [.number(1), .string("B")], true),
    ]

    static let numbers: [EvaluationCase] = [
        EvaluationCase("x == 3", n(3), true),
        EvaluationCase("x == 3.0", n(3), true),
        EvaluationCase("x == 3.5", n(3), false),
        EvaluationCase("x != 3", n(3), false),
        EvaluationCase("x != 3", nil, true),
        EvaluationCase(#"x == "3""#, n(3), true),
        EvaluationCase(#"x == " 3 ""#, n(3), true),
        EvaluationCase(#"x == "3.0""#, n(3), true),
        EvaluationCase(#"x == "3*""#, n(3), false),
        EvaluationCase(#"x == "three""#, n(3), false),
        EvaluationCase(#"x > "2""#, n(3), true),
        EvaluationCase(#"x < "abc""#, n(3), false),
        EvaluationCase("x == 3 c", n(3), true),
        EvaluationCase("x ==[cdwt] 3", n(3), true),
        EvaluationCase("x > 2", n(3), true),
        EvaluationCase("x >= 3", n(3), true),
        EvaluationCase("x > 3", n(3), false),
        EvaluationCase("x <= 3", n(3), true),
        EvaluationCase("x < 3", n(3), false),
        EvaluationCase("x < 3", nil, false),
        EvaluationCase("x > -1e+300", n(-5), true),
        EvaluationCase("x == 1", n(1), true),  // booleans are 0/1 numbers
        // Strings are not ordered, and a bare number is not text.
        EvaluationCase("x > 3", s("5"), false),
        EvaluationCase(#"x > "a""#, s("b"), false),
        EvaluationCase("x == 5", s("5"), false),
        EvaluationCase(#"x == "5""#, s("5"), true),
        EvaluationCase("x == $time.today", n(771_897_600), false),
    ]

    static let dates: [EvaluationCase] = [
        EvaluationCase("x == 771930000", d("2025-06-18T09:00Z"), true),
        EvaluationCase("x > 771929999.5", d("2025-06-18T09:00Z"), true),
        EvaluationCase(#"x > "2025-01-01T00:00:00.000Z""#, d("2025-06-18T09:00Z"), true),
        EvaluationCase(#"x < "2025-01-01T00:00:00.000Z""#, d("2025-06-18T09:00Z"), false),
        EvaluationCase(#"x == "2025-06-18T09:00:00Z""#, d("2025-06-18T09:00Z"), true),
        EvaluationCase(#"x == "2025-06-18T11:00:00+02:00""#, d("2025-06-18T09:00Z"), true),
        EvaluationCase(#"x != "2025-06-18T09:00:00Z""#, d("2025-06-18T09:00Z"), false),
        EvaluationCase(#"x == "2025-06-18T09:00:00Z*""#, d("2025-06-18T09:00Z"), false),
        EvaluationCase(#"x == "771930000""#, d("2025-06-18T09:00Z"), true),
        EvaluationCase(#"x > "abc""#, d("2025-06-18T09:00Z"), false),
        EvaluationCase(#"x == "2025-06-18T09:00:00Z""#, s("2025-06-18T09:00:00Z"), true),
        EvaluationCase(#"x > "2025-01-01""#, s("2025-06-18"), false),
        EvaluationCase("x == $time.now(-21600)", d("2025-06-18T09:00Z"), true),
        EvaluationCase("x == $time.now", d("2025-06-18T09:00Z"), false),
        EvaluationCase("x == $time.today", d("2025-06-18T00:00Z"), true),
        EvaluationCase("x == $time.today", d("2025-06-18T23:59:59.999Z"), true),
        EvaluationCase("x == $time.today", d("2025-06-19T00:00Z"), false),
        EvaluationCase("x == $time.today(1)", d("2025-06-19T00:00Z"), true),
        EvaluationCase("x != $time.today", d("2025-06-18T09:00Z"), false),
        EvaluationCase("x != $time.yesterday", d("2025-06-18T09:00Z"), true),
        EvaluationCase("x != $time.yesterday", nil, true),
        EvaluationCase("x == $time.this_month(-1)", d("2025-05-31T23:59Z"), true),
        EvaluationCase("x == $time.this_year(-1)", d("2024-02-29T12:00Z"), true),
        EvaluationCase("x == $time.this_week(1)", d("2025-06-22T00:00Z"), true),
        EvaluationCase("x > $time.today", d("2025-06-18T09:00Z"), true),
        EvaluationCase("x > $time.today", d("2025-06-18T00:00Z"), false),
        EvaluationCase("x >= $time.today", d("2025-06-18T00:00Z"), true),
        EvaluationCase("x < $time.this_week", d("2025-06-14T23:59Z"), true),
        EvaluationCase("x == $time.iso(2025-06-18T09:00:00Z)", d("2025-06-18T09:00Z"), true),
        EvaluationCase("x == $time.iso(2025-06-18)", d("2025-06-18T09:00Z"), false),
        EvaluationCase("x == $time.today", s("today"), false),
        EvaluationCase("x == 3", d("2001-01-01T00:00:03Z"), true),
        EvaluationCase(#"x == "2025*""#, d("2025-06-18T09:00Z"), false),
        EvaluationCase("x ==[c] $time.today", d("2025-06-18T09:00Z"), true),
    ]

    static let ranges: [EvaluationCase] = [
        EvaluationCase("InRange(x, 3, 3)", n(3), true),
        EvaluationCase("InRange(x, 2, 4)", n(2), true),
        EvaluationCase("InRange(x, 2, 4)", n(4), true),
        EvaluationCase("InRange(x, 2, 4)", n(4.0001), false),
        EvaluationCase("InRange(x, 4, 2)", n(3), false),
        EvaluationCase(#"InRange(x, "2", "4")"#, n(3), true),
        EvaluationCase("InRange(x, 2, $time.today)", n(3), false),
        EvaluationCase("InRange(x, null, 5)", n(3), false),
        EvaluationCase("InRange(x, 1, 5)", nil, false),
        EvaluationCase("InRange(x, 1, 5)", s("3"), false),
        EvaluationCase("InRange(x, $time.today, $time.today(1))", d("2025-06-18T09:00Z"), true),
        EvaluationCase("InRange(x, $time.today(-10), $time.today)", d("2025-06-18T09:00Z"), false),
        EvaluationCase("InRange(x, $time.today(-10), $time.today)", d("2025-06-18T00:00Z"), true),
        EvaluationCase("InRange(x, $time.yesterday, $time.now)", d("2025-06-18T09:00Z"), true),
        EvaluationCase(#"InRange(x, "2025-06-18", "2025-06-19")"#, d("2025-06-18T09:00Z"), true),
        EvaluationCase(#"InRange(x, "\2025-06-18", "2025-06-19")"#, d("2025-06-18T09:00Z"), true),
        EvaluationCase("InRange(x, 771897600, 771984000)", d("2025-06-18T09:00Z"), true),
        EvaluationCase("InRange(x, $time.today(1), $time.today)", d("2025-06-18T09:00Z"), false),
    ]

    static let structure: [EvaluationCase] = [
        EvaluationCase("!(x == 1)", n(1), false),
        EvaluationCase("!!(x == 1)", n(1), true),
        EvaluationCase("x == 1 || x == 2 && x == 3", n(1), true),
        EvaluationCase("(x == 1 || x == 2) && x == 3", n(1), false),
        EvaluationCase("x == 2 || x == 1", n(1), true),
        EvaluationCase("x == 1 && other == unrelated", n(1), true),
        EvaluationCase("nosuch == x", n(1), false),
        EvaluationCase("nosuch != x", n(1), true),
        EvaluationCase("nosuch > 3", n(1), false),
        EvaluationCase("InRange(nosuch, 1, 2)", n(1), false),
        EvaluationCase("X == 1", n(1), false),  // names are case-sensitive
    ]

    @Test(arguments: wildcards) func wildcard(_ testCase: EvaluationCase) throws { try Self.run(testCase) }
    @Test(arguments: folding) func caseAndDiacritics(_ testCase: EvaluationCase) throws { try Self.run(testCase) }
    @Test(arguments: words) func wordBased(_ testCase: EvaluationCase) throws { try Self.run(testCase) }
    @Test(arguments: tokens) func tokenized(_ testCase: EvaluationCase) throws { try Self.run(testCase) }
    @Test(arguments: arrays) func multiValued(_ testCase: EvaluationCase) throws { try Self.run(testCase) }
    @Test(arguments: numbers) func numeric(_ testCase: EvaluationCase) throws { try Self.run(testCase) }
    @Test(arguments: dates) func date(_ testCase: EvaluationCase) throws { try Self.run(testCase) }
    @Test(arguments: ranges) func inRange(_ testCase: EvaluationCase) throws { try Self.run(testCase) }
    @Test(arguments: structure) func booleanStructure(_ testCase: EvaluationCase) throws { try Self.run(testCase) }

    @Test func anyAttribute() throws {
        let a = specItems[0]
        let b = specItems[1]
        let j = specItems[9]
        let notParis = try QueryParser.parse(#"* != "Paris""#)
        #expect(!specEvaluator.matches(notParis, a))
        #expect(specEvaluator.matches(notParis, specItems[2]))  // "I love Paris" is not "Paris"
        #expect(specEvaluator.matches(notParis, b))
        #expect(!specEvaluator.matches(try QueryParser.parse("* == 5"), a))  // rating is not a * attribute
        #expect(!specEvaluator.matches(try QueryParser.parse(#"* == "public.jpeg""#), specItems[3]))
        #expect(!specEvaluator.matches(try QueryParser.parse(#"* == "trips.europe""#), a))
        #expect(specEvaluator.matches(try QueryParser.parse(#"** == "*budget*""#), j))
        #expect(specEvaluator.matches(try QueryParser.parse(#"* == "*budget*""#), j) == false)
        #expect(specEvaluator.matches(try QueryParser.parse(#"* != "*budget*""#), j))
        #expect(specEvaluator.matches(try QueryParser.parse(#"** == "Chopin"w"#), a))
        #expect(specEvaluator.matches(try QueryParser.parse("InRange(*, 1, 9)"), a) == false)
    }

    @Test func filterKeepsOrder() throws {
        let query = try QueryParser.parse(#"title == "*paris*"c"#)
        #expect(specEvaluator.filter(query, specItems).map(\.id) == ["A", "B", "C", "D", "E"])
        let anyItems: [any QueryableItem] = specItems
        #expect(anyItems.filter { specEvaluator.matches(query, $0) }.count == 5)
    }

    @Test func evaluatorIsSendable() async throws {
        let query = try QueryParser.parse("rating > 3")
        let evaluator = specEvaluator
        let count = await Task.detached { specItems.filter { evaluator.matches(query, $0) }.count }.value
        #expect(count == 2)
    }

    @Test func randomASTsEvaluateWithoutTrapping() {
        var generator = RandomQueryGenerator(seed: 77)
        for _ in 0..<2000 {
            let expression = generator.expression()
            for item in specItems {
                let equal = specEvaluator.matches(expression, item)
                #expect(specEvaluator.matches(.not(expression), item) == !equal)
            }
        }
    }

    /// `!=` is exactly the negation of `==` for every value and modifier set.
    @Test func notEqualNegatesEqual() {
        var generator = RandomQueryGenerator(seed: 78)
        for _ in 0..<2000 {
            var comparison = generator.comparison()
            comparison.op = .equal
            var negated = comparison
            negated.op = .notEqual
            for item in specItems {
                #expect(
                    specEvaluator.matches(.comparison(negated), item)
                        == !specEvaluator.matches(.comparison(comparison), item))
            }
        }
    }
}
