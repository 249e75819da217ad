import Foundation
import SpotlightQuery
import Testing

struct ParseCase: Sendable, CustomTestStringConvertible {
    let query: String
    let expected: QueryExpression
    init(_ query: String, _ expected: QueryExpression) {
        self.query = query
        self.expected = expected
    }
    var testDescription: String { query }
}

@Suite struct QueryParserTests {
    static let comparisons: [ParseCase] = [
        // Operators; single = is ==.
        ParseCase(#"title == "Paris""#, compare("title", .equal, text("Paris"))),
        ParseCase(#"title = "Paris""#, compare("title", .equal, text("Paris"))),
        ParseCase(#"title != "Paris""#, compare("title", .notEqual, text("Paris"))),
        ParseCase("rating < 3", compare("rating", .less, .number(3))),
        ParseCase("rating > 3", compare("rating", .greater, .number(3))),
        ParseCase("rating <= 3", compare("rating", .lessOrEqual, .number(3))),
        ParseCase("rating >= 3", compare("rating", .greaterOrEqual, .number(3))),
        ParseCase("rating>=3", compare("rating", .greaterOrEqual, .number(3))),
        ParseCase("  \n\trating\n>=\t3  \n", compare("rating", .greaterOrEqual, .number(3))),
        // Modifiers: suffix, brackets, space-separated after a bare value; merged.
        ParseCase(#"title == "Paris"wc"#, compare("title", .equal, text("Paris"), [.w, .c])),
        ParseCase(#"title == "Paris"cdwt"#, compare("title", .equal, text("Paris"), [.c, .d, .w, .t])),
        ParseCase(#"title == "Paris"cc"#, compare("title", .equal, text("Paris"), [.c])),
        ParseCase(#"title ==[cd] "x""#, compare("title", .equal, text("x"), [.c, .d])),
        ParseCase(#"title ==[c] "x"w"#, compare("title", .equal, text("x"), [.c, .w])),
        ParseCase(#"title =[d] 'x'"#, compare("title", .equal, text("x"), [.d])),
        ParseCase("title == search* cdw", compare("title", .equal, pattern(lit("search"), .anyRun), [.c, .d, .w])),
        ParseCase("title == Paris c", compare("title", .equal, text("Paris"), [.c])),
        ParseCase("rating ==[c] 3", compare("rating", .equal, .number(3), [.c])),
        ParseCase("d == $time.today(-1)c", compare("d", .equal, .time(.today(offsetDays: -1)), [.c])),
        ParseCase("d == $time.today c", compare("d", .equal, .time(.today(offsetDays: 0)), [.c])),
        // Quotes and escapes.
        ParseCase("title == 'Paris'", compare("title", .equal, text("Paris"))),
        ParseCase(#"title == "He said \"hi\"""#, compare("title", .equal, text(#"He said "hi""#))),
        ParseCase(#"title == 'it\'s'"#, compare("title", .equal, text("it's"))),
        ParseCase(#"title == "a\\b""#, compare("title", .equal, text(#"a\b"#))),
        ParseCase(#"title == "Q\*A\? notes""#, compare("title", .equal, text("Q*A? notes"))),
        ParseCase(#"title == "\n""#, compare("title", .equal, text("n"))),
        ParseCase(#"title == '"'"#, compare("title", .equal, text("\""))),
        ParseCase(#"title == """#, compare("title", .equal, text(""))),
        ParseCase("title == \"two\nlines\"", compare("title", .equal, text("two\nlines"))),
        // Wildcards.
        ParseCase(#"title == "*paris*""#, compare("title", .equal, pattern(.anyRun, lit("paris"), .anyRun))),
        ParseCase(#"title == "Q?A*""#, compare("title", .equal, pattern(lit("Q"), .anyOne, lit("A"), .anyRun))),
        ParseCase(#"title == "a**b""#, compare("title", .equal, pattern(lit("a"), .anyRun, lit("b")))),
        ParseCase(#"title == "a\**""#, compare("title", .equal, pattern(lit("a*"), .anyRun))),
        ParseCase(#"title == "*""#, compare("title", .equal, pattern(.anyRun))),
        ParseCase(#"title == "**""#, compare("title", .equal, pattern(.anyRun))),
        // Bare values.
        ParseCase("kMDItemContentTypeTree=public.archive", compare("kMDItemContentTypeTree", .equal, text("public.archive"))),
        ParseCase("kMDItemDisplayName = *TCC.db", compare("kMDItemDisplayName", .equal, pattern(.anyRun, lit("TCC.db")))),
        ParseCase("kMDItemFSName == *.ts", compare("kMDItemFSName", .equal, pattern(.anyRun, lit(".ts")))),
        ParseCase("kMDItemAuthors == *", compare("kMDItemAuthors", .equal, pattern(.anyRun))),
        ParseCase("title == a\\ b", compare("title", .equal, text("a b"))),
        ParseCase("title == \\*x", compare("title", .equal, text("*x"))),
        ParseCase("title == \\4", compare("title", .equal, text("4"))),
        ParseCase("title == [c]", compare("title", .equal, text("[c]"))),
        ParseCase("title == nullable", compare("title", .equal, text("nullable"))),
        ParseCase("title == NULL", compare("title", .equal, text("NULL"))),
        ParseCase("title == 5.", compare("title", .equal, text("5."))),
        ParseCase("title == 1.2.3", compare("title", .equal, text("1.2.3"))),
        // null.
        ParseCase("kMDItemCopyright != null", compare("kMDItemCopyright", .notEqual, .null)),
        ParseCase(#"title == "null""#, compare("title", .equal, text("null"))),
        // Numbers.
        ParseCase("latitude == 48.8566", compare("latitude", .equal, .number(48.8566))),
        ParseCase("x == -2", compare("x", .equal, .number(-2))),
        ParseCase("x == +2", compare("x", .equal, .number(2))),
        ParseCase("x == .5", compare("x", .equal, .number(0.5))),
        ParseCase("x == -.5", compare("x", .equal, .number(-0.5))),
        ParseCase("x == 0.005", compare("x", .equal, .number(0.005))),
        ParseCase("x == 1e+16", compare("x", .equal, .number(1e16))),
        ParseCase("x == 2.5E-3", compare("x", .equal, .number(0.0025))),
        ParseCase("x == 1e-400", compare("x", .equal, .number(0))),
        ParseCase(#"rating == "4""#, compare("rating", .equal, text("4"))),
        // Attributes.
        ParseCase(#"* == "Window"c"#, compare("*", .equal, text("Window"), [.c])),
        ParseCase(#"**=="x""#, compare("**", .equal, text("x"))),
        ParseCase(#"_kMDItemX1 == "x""#, compare("_kMDItemX1", .equal, text("x"))),
        ParseCase("InRange == 3", compare("InRange", .equal, .number(3))),
        ParseCase("null == 3", compare("null", .equal, .number(3))),
        // Quoted ISO dates stay patterns in comparisons.
        ParseCase(
            #"kMDItemContentCreationDate > "2025-01-01T00:00:00.000Z""#,
            compare("kMDItemContentCreationDate", .greater, text("2025-01-01T00:00:00.000Z"))),
    ]

    static let times: [ParseCase] = [
        ParseCase("d > $time.now", compare("d", .greater, .time(.now(offsetSeconds: 0)))),
        ParseCase("d > $time.now(-3600)", compare("d", .greater, .time(.now(offsetSeconds: -3600)))),
        ParseCase("d > $time.now()", compare("d", .greater, .time(.now(offsetSeconds: 0)))),
        ParseCase("d > $time.now( +5 )", compare("d", .greater, .time(.now(offsetSeconds: 5)))),
        ParseCase("d > $time.today", compare("d", .greater, .time(.today(offsetDays: 0)))),
        ParseCase("d > $time.today(-7)", compare("d", .greater, .time(.today(offsetDays: -7)))),
        ParseCase("d > $time.today(+1)", compare("d", .greater, .time(.today(offsetDays: 1)))),
        ParseCase("d > $time.yesterday", compare("d", .greater, .time(.yesterday))),
        ParseCase("d > $time.yesterday()", compare("d", .greater, .time(.yesterday))),
        ParseCase("d > $time.this_week", compare("d", .greater, .time(.thisWeek(offsetWeeks: 0)))),
        ParseCase("d > $time.this_week(-2)", compare("d", .greater, .time(.thisWeek(offsetWeeks: -2)))),
        ParseCase("d > $time.last_week", compare("d", .greater, .time(.lastWeek))),
        ParseCase("d > $time.this_month(-1)", compare("d", .greater, .time(.thisMonth(offsetMonths: -1)))),
        ParseCase("d > $time.this_year(3)", compare("d", .greater, .time(.thisYear(offsetYears: 3)))),
        ParseCase(
            "d > $time.now(-9223372036854775808)",
            compare("d", .greater, .time(.now(offsetSeconds: Int.min)))),
        ParseCase("d > $time.iso(2025-06-18T15:00:00Z)", compare("d", .greater, iso("2025-06-18T15:00:00Z"))),
        ParseCase(#"d > $time.iso("2025-06-18T15:00:00Z")"#, compare("d", .greater, iso("2025-06-18T15:00:00Z"))),
        ParseCase("d > $time.iso( 2025-06-18T15:00:00Z )", compare("d", .greater, iso("2025-06-18T15:00:00Z"))),
        ParseCase("d > $time.iso(2025-06-18 15:00:00 +0800)", compare("d", .greater, iso("2025-06-18T07:00:00Z"))),
        ParseCase(#"d > $time.iso("2008-08-03 12:22:00 +0800")"#, compare("d", .greater, iso("2008-08-03T04:22:00Z"))),
        ParseCase("d > $time.iso(2025-06-18T15:00:00+02:00)", compare("d", .greater, iso("2025-06-18T13:00:00Z"))),
        ParseCase("d > $time.iso(2025-06-18T15:00:00-0130)", compare("d", .greater, iso("2025-06-18T16:30:00Z"))),
        ParseCase("d > $time.iso(2025-06-18T15:00Z)", compare("d", .greater, iso("2025-06-18T15:00:00Z"))),
        ParseCase("d > $time.iso(2025-06-18)", compare("d", .greater, iso("2025-06-18T00:00:00Z"))),
        ParseCase("d > $time.iso(2025-06-18T15:00:00)", compare("d", .greater, iso("2025-06-18T15:00:00Z"))),
        ParseCase(
            "d > $time.iso(2025-06-18T15:00:00.25Z)",
            compare("d", .greater, .time(.iso(Date(timeIntervalSinceReferenceDate: 771_951_600.25))))),
    ]

    static let structure: [ParseCase] = {
        let a = compare("a", .equal, .number(1))
        let b = compare("b", .equal, .number(2))
        let c = compare("c", .equal, .number(3))
        let d = compare("d", .equal, .number(4))
        return [
            ParseCase("a == 1 && b == 2", .and(a, b)),
            ParseCase("a == 1 || b == 2", .or(a, b)),
            ParseCase("a == 1 && b == 2 && c == 3", .and(.and(a, b), c)),
            ParseCase("a == 1 || b == 2 || c == 3", .or(.or(a, b), c)),
            ParseCase("a == 1 || b == 2 && c == 3", .or(a, .and(b, c))),
            ParseCase("a == 1 && b == 2 || c == 3", .or(.and(a, b), c)),
            ParseCase("(a == 1 || b == 2) && c == 3", .and(.or(a, b), c)),
            ParseCase("a == 1 && (b == 2 && c == 3)", .and(a, .and(b, c))),
            ParseCase("a == 1 || b == 2 && c == 3 || d == 4", .or(.or(a, .and(b, c)), d)),
            ParseCase("!(a == 1)", .not(a)),
            ParseCase("!a == 1", .not(a)),
            ParseCase("!!(a == 1)", .not(.not(a))),
            ParseCase("! (a == 1) && b == 2", .and(.not(a), b)),
            ParseCase("!(a == 1 && b == 2)", .not(.and(a, b))),
            ParseCase("((a == 1))", a),
            ParseCase("(a==1)&&(b==2)||!(c==3)", .or(.and(a, b), .not(c))),
            ParseCase("a == 1&&b == 2", .and(a, b)),
            ParseCase(
                "(* = search* cdw || kMDItemTextContent = search* cdw)",
                .or(
                    compare("*", .equal, pattern(lit("search"), .anyRun), [.c, .d, .w]),
                    compare("kMDItemTextContent", .equal, pattern(lit("search"), .anyRun), [.c, .d, .w]))),
        ]
    }()

    static let ranges: [ParseCase] = [
        ParseCase("InRange(rating, 2, 4)", inRange("rating", .number(2), .number(4))),
        ParseCase("inRange(rating,2,4)", inRange("rating", .number(2), .number(4))),
        ParseCase("INRANGE ( rating , -2.5 , 4 )", inRange("rating", .number(-2.5), .number(4))),
        ParseCase(
            "InRange(completionDate,$time.today(-10),$time.today)",
            inRange("completionDate", .time(.today(offsetDays: -10)), .time(.today(offsetDays: 0)))),
        ParseCase(
            #"InRange(d, "2025-06-01T00:00:00Z", '2025-06-30')"#,
            inRange("d", iso("2025-06-01T00:00:00Z"), iso("2025-06-30T00:00:00Z"))),
        ParseCase(#"InRange(d, "2", "abc")"#, inRange("d", text("2"), text("abc"))),
        ParseCase(#"InRange(d, "\2025-06-01", "x*")"#, inRange("d", text("2025-06-01"), pattern(lit("x"), .anyRun))),
        ParseCase("InRange(*, 1, 2)", inRange("*", .number(1), .number(2))),
        ParseCase("InRange(**, null, 2)", inRange("**", .null, .number(2))),
        ParseCase(
            "InRange(d, $time.iso(2025-06-01T00:00:00Z), $time.iso(2025-06-16T23:59:59Z))",
            inRange("d", iso("2025-06-01T00:00:00Z"), iso("2025-06-16T23:59:59Z"))),
        ParseCase("InRange(a,1,2) && b == 2", .and(inRange("a", .number(1), .number(2)), compare("b", .equal, .number(2)))),
    ]

    @Test(arguments: comparisons + times + structure + ranges)
    func parses(_ testCase: ParseCase) throws {
        #expect(try QueryParser.parse(testCase.query) == testCase.expected)
    }

    /// Spec §9.5: these parse.
    static let specAccepted = [
        #"kMDItemFSName == "*Blank*"cd"#,
        "kMDItemFSSize > 1048576",
        "kMDItemContentTypeTree=public.archive",
        "kMDItemDisplayName = *TCC.db",
        #"kMDItemFSName ==[c] "*.md""#,
        "(* = search* cdw || kMDItemTextContent = search* cdw)",
        "kMDItemFSCreationDate >= $time.this_week(-2)",
        "kMDItemFSContentChangeDate > $time.now(-3600)",
        #"kMDItemFSCreationDate >= $time.iso("2008-08-03 12:22:00 +0800")"#,
        "!(kMDItemContentTypeTree == public.folder)",
        #"contentType == "public.email-message" && subject != "Re:*""#,
    ]

    /// Spec §9.5: these are rejected.
    static let specRejected = [
        "kMDItemTextContent == AKIA || kMDItemDisplayName = *AKIA* -onlyin  ~",
        #"kMDItemPath == "/tmp"* || kMDItemPath == "/tmp""#,
        "title == ",
        #"title == "a" "b""#,
    ]

    @Test(arguments: specAccepted)
    func specParseCaseIsAccepted(_ query: String) {
        #expect(throws: Never.self) { try QueryParser.parse(query) }
    }

    @Test(arguments: specRejected)
    func specParseCaseIsRejected(_ query: String) {
        #expect(throws: QuerySyntaxError.self) { try QueryParser.parse(query) }
    }

    /// Other forms of §7/§8 and the brief that must be rejected.
    static let rejected = [
        "", "   ", "\n\t",
        "title", "title ==", "title == ", "title \"Paris\"", "== \"x\"", "\"x\" == title", "3 == rating",
        "title == \"Paris", "title == 'Paris", "title == \"Paris\\", "title == \"Paris\\\"",
        "(title == \"Paris\"", "title == \"Paris\")", "((a == 1)", "()", "(a == 1))",
        "title == \"Paris\" &&", "&& title == 1", "title == 1 ||", "a == 1 && && b == 2", "a == 1 || || b == 2",
        "!", "!!", "a == 1 !", "a == 1 & b == 2", "a == 1 | b == 2", "a == 1 AND b == 2",
        "InRange(rating, 1)", "InRange(rating)", "InRange()", "InRange(rating, 1, 2, 3)", "InRange(rating, 1, 2",
        "InRange(rating, abc, 2)", "InRange(\"rating\", 1, 2)", "InRange(rating, 1, 2)c", "InRange(rating 1, 2)",
        "title == \"Paris\"x", "title == \"Paris\"cx", "title ==[x] \"Paris\"", "title ==[] \"Paris\"",
        "title ==[c \"Paris\"", "title == \"Paris\"C", "title == \"Paris\"1",
        "title == \"x\"*", "title == \"x\"?", "title == \"a\" \"b\"", "title == a b", "title == Paris London",
        "title == x -onlyin ~", "title === x", "title =! x", "title <> x", "title => x",
        "d > $time.computer_uptime", "d > $time.tomorrow", "d > $time.Today", "d > $time.", "d > $time",
        "d > $foo", "d > $time.today(-7d)", "d > $time.today(1.5)", "d > $time.today(- 7)", "d > $time.today(",
        "d > $time.today(-1", "d > $time.today(1)(2)", "d > $time.yesterday(1)", "d > $time.last_week(-1)",
        "d > $time.today(99999999999999999999)", "d > $time.iso", "d > $time.iso()", "d > $time.iso(yesterday)",
        "d > $time.iso(2025-13-01)", "d > $time.iso(2025-02-30)", "d > $time.iso(2025-06-18T25:00:00Z)",
        "d > $time.iso(2025-06-18T15:00:00Q)", "d > $time.iso(2025-06-18", "d > $time.iso(\"2025-06-18\"",
        "x == 1e999", "x == -1e999", "title == abc\\",
    ]

    @Test(arguments: rejected)
    func rejects(_ query: String) {
        #expect(throws: QuerySyntaxError.self) { try QueryParser.parse(query) }
    }

    @Test func typedThrowsCarryTheError() {
        do {
            _ = try QueryParser.parse("title ==")
            Issue.record("expected an error")
        } catch {
            // `error` is statically a QuerySyntaxError (typed throws).
            #expect(error.column == 9)
        }
    }

    @Test func limits() {
        #expect(QueryParser.maximumLength == 65_536)
        #expect(QueryParser.maximumNesting == 256)
        let nested = String(repeating: "(", count: 256) + "a == 1" + String(repeating: ")", count: 256)
        #expect(throws: Never.self) { try QueryParser.parse(nested) }
        let tooDeep = String(repeating: "(", count: 257) + "a == 1" + String(repeating: ")", count: 257)
        #expect(throws: QuerySyntaxError.self) { try QueryParser.parse(tooDeep) }
        let bangs = String(repeating: "!", count: 300) + "a == 1"
        #expect(throws: QuerySyntaxError.self) { try QueryParser.parse(bangs) }
        let longest = "a == \"" + String(repeating: "x", count: QueryParser.maximumLength - 7) + "\""
        #expect(longest.utf8.count == QueryParser.maximumLength)
        #expect(throws: Never.self) { try QueryParser.parse(longest) }
        #expect(throws: QuerySyntaxError.self) { try QueryParser.parse(longest + " ") }
    }

    @Test func unicodeOffsetsAreCharacters() throws {
        // "é" written as e + U+0301 is one Character; the error column counts Characters.
        do {
            _ = try QueryParser.parse("title == \"Cafe\u{301}\" x")
            Issue.record("expected an error")
        } catch {
            #expect(error.column == 17)
        }
        // A combining mark right after a quote or a `*` does not hide them.
        #expect(
            try QueryParser.parse("t == \"\u{301}x*\u{301}\"")
                == compare("t", .equal, pattern(lit("\u{301}x"), .anyRun, lit("\u{301}"))))
    }
}

/// `QueryExpression.attributeNames`: what a store decodes to evaluate a query.
@Suite struct QueryAttributeNamesTests {
    static let cases: [(String, Set<String>?)] = [
        (#"title == "a""#, ["title"]),
        (#"section == "libs" && installedSize > 10"#, ["section", "installedSize"]),
        (#"!(a == 1) || (b == 2 && InRange(c, 1, 2))"#, ["a", "b", "c"]),
        (#"title == "a" || * == "b""#, nil),
        (#"** == "x" && title == "a""#, nil),
        (#"kMDItemTitle == "Paris" && kMDItemTitle != "Lyon""#, ["kMDItemTitle"]),
    ]

    @Test(arguments: cases)
    func namesTheAttributesRead(query: String, names: Set<String>?) throws {
        #expect(try QueryParser.parse(query).attributeNames == names)
    }

    @Test func aLongChainIsWalkedWithoutRecursion() throws {
        let text = (0..<4_000).map { "a\($0 % 7) == \($0)" }.joined(separator: " && ")
        #expect(try QueryParser.parse(text).attributeNames == Set((0..<7).map { "a\($0)" }))
    }
}
