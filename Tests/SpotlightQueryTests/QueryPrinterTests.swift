import Foundation
import SpotlightQuery
import Testing

struct PrintCase: Sendable, CustomTestStringConvertible {
    let input: String
    let canonical: String
    var testDescription: String { input }
}

@Suite struct QueryPrinterTests {
    static let canonicalForms: [PrintCase] = [
        PrintCase(input: "title = 'Paris'", canonical: #"title == "Paris""#),
        PrintCase(input: #"title ==[wc] "Paris"dt"#, canonical: #"title == "Paris"cdwt"#),
        PrintCase(input: "title == search* cdw", canonical: #"title == "search*"cdw"#),
        PrintCase(input: #"title == "Q\*A\? notes""#, canonical: #"title == "Q\*A\? notes""#),
        PrintCase(input: #"title == 'He said "hi" \\o/'"#, canonical: #"title == "He said \"hi\" \\o/""#),
        PrintCase(input: "title == \\*x", canonical: #"title == "\*x""#),
        PrintCase(input: "title == 'a**?'", canonical: #"title == "a*?""#),
        PrintCase(input: "kMDItemAuthors == *", canonical: #"kMDItemAuthors == "*""#),
        PrintCase(input: "x != null", canonical: "x != null"),
        PrintCase(input: "x ==[c] null", canonical: "x ==[c] null"),
        PrintCase(input: "rating>3.0", canonical: "rating > 3"),
        PrintCase(input: "x == +.50", canonical: "x == 0.5"),
        PrintCase(input: "x == -0", canonical: "x == -0"),
        PrintCase(input: "x == 10000000000000000", canonical: "x == 1e+16"),
        PrintCase(input: "x == 0.00001", canonical: "x == 1e-05"),
        PrintCase(input: "rating == 4 c", canonical: "rating ==[c] 4"),
        PrintCase(input: "d > $time.today()", canonical: "d > $time.today"),
        PrintCase(input: "d > $time.today(+0)", canonical: "d > $time.today"),
        PrintCase(input: "d > $time.today(-1)", canonical: "d > $time.today(-1)"),
        PrintCase(input: "d > $time.today(+1)", canonical: "d > $time.today(1)"),
        PrintCase(input: "d > $time.now(-86400)", canonical: "d > $time.now(-86400)"),
        PrintCase(input: "d == $time.yesterday", canonical: "d == $time.yesterday"),
        PrintCase(input: "d == $time.last_week", canonical: "d == $time.last_week"),
        PrintCase(input: "d == $time.this_week(-1)", canonical: "d == $time.this_week(-1)"),
        PrintCase(input: "d == $time.this_month", canonical: "d == $time.this_month"),
        PrintCase(input: "d == $time.this_year(2)", canonical: "d == $time.this_year(2)"),
        PrintCase(input: #"d > $time.iso("2008-08-03 12:22:00 +0800")"#, canonical: "d > $time.iso(2008-08-03T04:22:00Z)"),
        PrintCase(input: "d > $time.iso(2025-06-18T15:00:00.250Z)", canonical: "d > $time.iso(2025-06-18T15:00:00.25Z)"),
        PrintCase(input: "d > $time.iso(2025-06-18)", canonical: "d > $time.iso(2025-06-18T00:00:00Z)"),
        PrintCase(input: "d > $time.iso(0001-01-01T00:00:00.001Z)", canonical: "d > $time.iso(0001-01-01T00:00:00.001Z)"),
        PrintCase(input: "d > $time.iso(+123456-01-01T00:00:00Z)", canonical: "d > $time.iso(+123456-01-01T00:00:00Z)"),
        PrintCase(input: "d > $time.iso(-0044-03-15T12:00:00Z)", canonical: "d > $time.iso(-0044-03-15T12:00:00Z)"),
        PrintCase(input: "inrange(rating,2,4)", canonical: "InRange(rating, 2, 4)"),
        PrintCase(input: #"InRange(d, "2025-06-01", '\2025')"#, canonical: #"InRange(d, $time.iso(2025-06-01T00:00:00Z), "2025")"#),
        PrintCase(input: #"InRange(d, "\2025-06-01", "x")"#, canonical: #"InRange(d, "\2025-06-01", "x")"#),
        PrintCase(input: "InRange(**, $time.today(-10), $time.today)", canonical: "InRange(**, $time.today(-10), $time.today)"),
        PrintCase(input: "*=x", canonical: #"* == "x""#),
        // Parentheses: only where the tree needs them.
        PrintCase(input: "a=1&&b=2&&c=3", canonical: "a == 1 && b == 2 && c == 3"),
        PrintCase(input: "a=1||b=2||c=3", canonical: "a == 1 || b == 2 || c == 3"),
        PrintCase(input: "((a=1||b=2))&&c=3", canonical: "(a == 1 || b == 2) && c == 3"),
        PrintCase(input: "a=1||(b=2&&c=3)", canonical: "a == 1 || b == 2 && c == 3"),
        PrintCase(input: "(a=1&&b=2)||c=3", canonical: "a == 1 && b == 2 || c == 3"),
        PrintCase(input: "a=1&&(b=2&&c=3)", canonical: "a == 1 && (b == 2 && c == 3)"),
        PrintCase(input: "a=1||(b=2||c=3)", canonical: "a == 1 || (b == 2 || c == 3)"),
        PrintCase(input: "a=1&&(b=2||c=3)&&d=4", canonical: "a == 1 && (b == 2 || c == 3) && d == 4"),
        PrintCase(input: "!a=1", canonical: "!(a == 1)"),
        PrintCase(input: "!!a=1", canonical: "!(!(a == 1))"),
        PrintCase(input: "!(a=1||b=2)&&c=3", canonical: "!(a == 1 || b == 2) && c == 3"),
    ]

    @Test(arguments: canonicalForms)
    func canonicalForm(_ testCase: PrintCase) throws {
        let expression = try QueryParser.parse(testCase.input)
        let printed = QueryPrinter.print(expression)
        #expect(printed == testCase.canonical)
        #expect(try QueryParser.parse(printed) == expression)
    }

    @Test func nonStringModifiersUseBrackets() {
        let expression = compare("d", .less, .time(.today(offsetDays: -1)), [.w, .c])
        #expect(QueryPrinter.print(expression) == "d <[cw] $time.today(-1)")
    }

    @Test func rightNestedChainsKeepTheirParentheses() throws {
        let a = compare("a", .equal, .number(1))
        let b = compare("b", .equal, .number(2))
        let c = compare("c", .equal, .number(3))
        for expression in [QueryExpression.and(a, .and(b, c)), .or(a, .or(b, c)), .and(.or(a, b), c), .or(a, .and(b, c))] {
            #expect(try QueryParser.parse(QueryPrinter.print(expression)) == expression)
        }
    }

    /// Every AST reads back from its printed form.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func randomASTsRoundTrip(seed: UInt64) {
        var generator = RandomQueryGenerator(seed: seed)
        for _ in 0..<1000 {
            let expression = generator.expression()
            let printed = QueryPrinter.print(expression)
            do {
                let reparsed = try QueryParser.parse(printed)
                #expect(reparsed == expression, "\(printed)")
                if reparsed != expression { return }
            } catch {
                Issue.record("\(printed): \(error)")
                return
            }
        }
    }

    /// Every valid query of the spec and of these tests reads back from its printed form.
    @Test func specQueriesRoundTrip() throws {
        let queries =
            SpecFile.validQueries + QueryParserTests.specAccepted
            + (QueryParserTests.comparisons + QueryParserTests.times + QueryParserTests.structure + QueryParserTests.ranges)
            .map(\.query)
        #expect(queries.count > 180)
        for query in queries {
            let expression = try QueryParser.parse(query)
            let printed = QueryPrinter.print(expression)
            #expect(try QueryParser.parse(printed) == expression, "\(query) → \(printed)")
            #expect(QueryPrinter.print(try QueryParser.parse(printed)) == printed)
        }
    }

    /// ISO dates print exactly: the printed text reads back to the identical Date.
    @Test(arguments: [UInt64(11), 12, 13])
    func isoDatesRoundTrip(seed: UInt64) {
        var generator = RandomQueryGenerator(seed: seed)
        for _ in 0..<3000 {
            let date = generator.date()
            let text = TimeExpression.iso8601Text(date)
            #expect(TimeExpression.parseISO8601(text) == date, "\(text) \(date.timeIntervalSinceReferenceDate)")
        }
    }

    @Test func isoTextExamples() {
        #expect(TimeExpression.iso8601Text(Date(timeIntervalSinceReferenceDate: 771_897_600)) == "2025-06-18T00:00:00Z")
        #expect(TimeExpression.iso8601Text(Date(timeIntervalSinceReferenceDate: 771_897_600.5)) == "2025-06-18T00:00:00.5Z")
        #expect(TimeExpression.iso8601Text(Date(timeIntervalSinceReferenceDate: 0)) == "2001-01-01T00:00:00Z")
        #expect(TimeExpression.iso8601Text(Date(timeIntervalSinceReferenceDate: -1)) == "2000-12-31T23:59:59Z")
        #expect(TimeExpression.iso8601Text(Date(timeIntervalSinceReferenceDate: -0.5)) == "2000-12-31T23:59:59.5Z")
        #expect(TimeExpression.iso8601Text(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(TimeExpression.iso8601Text(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(TimeExpression.iso8601Text(Date(timeIntervalSinceReferenceDate: 1e300)) == "+999999-12-31T23:59:59Z")
    }

    @Test func numbersRoundTrip() throws {
        var generator = RandomQueryGenerator(seed: 99)
        for _ in 0..<3000 {
            let number = generator.number()
            let expression = compare("x", .equal, .number(number))
            let printed = QueryPrinter.print(expression)
            #expect(try QueryParser.parse(printed) == expression, "\(printed)")
        }
    }
}
