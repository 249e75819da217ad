import SpotlightQuery
import Testing

struct ErrorCase: Sendable, CustomTestStringConvertible {
    let query: String
    let column: Int
    let fragments: [String]
    init(_ query: String, column: Int, _ fragments: String...) {
        self.query = query
        self.column = column
        self.fragments = fragments
    }
    var testDescription: String { query.isEmpty ? "(empty)" : query }
}

@Suite struct QuerySyntaxErrorTests {
    static let cases: [ErrorCase] = [
        ErrorCase(#"title == "apple"#, column: 10, "unterminated string at column 10"),
        ErrorCase(#"title == 'apple"#, column: 10, "unterminated string at column 10", "no closing '"),
        ErrorCase(#"title == "a\"#, column: 10, "unterminated string"),
        ErrorCase("title ==", column: 9, "expected a value at column 9, found end of query"),
        ErrorCase("title == ", column: 10, "expected a value at column 10, found end of query"),
        ErrorCase("", column: 1, "empty query at column 1"),
        ErrorCase("   ", column: 4, "empty query"),
        ErrorCase(#"title "Paris""#, column: 7, "expected a comparison operator", #"found "Paris""#),
        ErrorCase(#""x" == title"#, column: 1, "expected a comparison at column 1", "starts with the attribute name"),
        ErrorCase("3 == rating", column: 1, "expected a comparison", "found '3'"),
        ErrorCase(#"(title == "Paris""#, column: 1, "unclosed parenthesis at column 1"),
        ErrorCase(#"title == "Paris")"#, column: 17, "unmatched ')' at column 17"),
        ErrorCase("()", column: 2, "expected a comparison at column 2, found ')'"),
        ErrorCase(#"title == "Paris" &&"#, column: 20, "expected a comparison at column 20, found end of query"),
        ErrorCase("|| a == 1", column: 1, "expected a comparison", "found '||"),
        ErrorCase("InRange(rating, 1)", column: 18, "InRange needs 3 arguments", "found 2"),
        ErrorCase("InRange(rating, 1, 2, 3)", column: 21, "InRange needs 3 arguments"),
        ErrorCase("InRange(rating, 1, 2", column: 1, "unclosed InRange"),
        ErrorCase("InRange(rating, abc, 2)", column: 17, "expected a number, a $time value or a quoted string", "found 'abc'"),
        ErrorCase(#"title == "Paris"x"#, column: 17, "unknown modifier 'x' at column 17", "c, d, w and t"),
        ErrorCase(#"title == "Paris"cwz"#, column: 19, "unknown modifier 'z'"),
        ErrorCase(#"title ==[cx] "a""#, column: 11, "unknown modifier 'x'"),
        ErrorCase(#"title ==[] "a""#, column: 10, "expected a modifier"),
        ErrorCase(#"title ==[c "x""#, column: 11, "expected ']'", "found a space"),
        ErrorCase(#"title == "x"*"#, column: 13, "wildcard '*' after a quoted string", "inside the quotes"),
        ErrorCase(#"title == "a" "b""#, column: 14, "expected '&&', '||' or end of query at column 14", #"found "b""#),
        ErrorCase("a == 1 AND b == 2", column: 8, "found 'AND'"),
        ErrorCase("a == 1 & b == 2", column: 8, "found '&'"),
        ErrorCase("(a == 1 b == 2)", column: 9, "expected '&&', '||' or ')'"),
        ErrorCase("kMDItemTextContent == AKIA || kMDItemDisplayName = *AKIA* -onlyin  ~", column: 59, "found '-onlyin'"),
        ErrorCase("d > $time.computer_uptime", column: 11, "unknown $time variable 'computer_uptime'"),
        ErrorCase("d > $time.", column: 11, "expected a $time name"),
        ErrorCase("d > $foo", column: 5, "unknown variable '$foo'"),
        ErrorCase("d > $time.today(-7d)", column: 17, "invalid $time offset at column 17", "whole number of days"),
        ErrorCase("d > $time.now(1.5)", column: 15, "invalid $time offset", "whole number of seconds"),
        ErrorCase("d > $time.today(99999999999999999999)", column: 17, "$time offset out of range"),
        ErrorCase("d > $time.today(-1", column: 16, "unclosed parenthesis"),
        ErrorCase("d > $time.yesterday(-1)", column: 21, "$time.yesterday takes no offset", "$time.today(-N)"),
        ErrorCase("d > $time.iso(2025-13-01)", column: 15, "invalid ISO-8601 date at column 15"),
        ErrorCase("d > $time.iso 2025", column: 14, "expected '(' after $time.iso"),
        ErrorCase("x == 1e999", column: 6, "number out of range"),
        ErrorCase(#"title == abc\"#, column: 13, "dangling backslash"),
        ErrorCase("title == \"Cafe\u{301}\" x", column: 17, "found 'x'"),
        ErrorCase(String(repeating: "(", count: 300) + "a == 1", column: 257, "nesting too deep at column 257"),
        ErrorCase(String(repeating: "x", count: 70_000), column: 1, "query too long", "70000 bytes"),
    ]

    @Test(arguments: cases)
    func message(_ testCase: ErrorCase) {
        do {
            let expression = try QueryParser.parse(testCase.query)
            Issue.record("parsed as \(QueryPrinter.print(expression))")
        } catch {
            #expect(error.column == testCase.column, "\(error)")
            #expect(error.offset == testCase.column - 1)
            for fragment in testCase.fragments {
                #expect(error.description.contains(fragment), "\(error.description)")
            }
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func fields() {
        do {
            _ = try QueryParser.parse("title ==")
        } catch {
            #expect(error.expected == "a value")
            #expect(error.found == "end of query")
            #expect(error.reason == nil)
        }
        do {
            _ = try QueryParser.parse(#"title == "apple"#)
        } catch {
            #expect(error.reason == "unterminated string")
            #expect(error.expected == #"closing ""#)
            #expect(error.found == "end of query")
        }
    }

    @Test func descriptionFormats() {
        let plain = QuerySyntaxError(offset: 8, expected: "a value", found: "end of query")
        #expect(plain.description == "expected a value at column 9, found end of query")
        let specific = QuerySyntaxError(offset: 9, expected: "x", found: "y", reason: "unterminated string", hint: "h")
        #expect(specific.description == "unterminated string at column 10; h")
        #expect(String(describing: specific) == specific.description)
    }
}
