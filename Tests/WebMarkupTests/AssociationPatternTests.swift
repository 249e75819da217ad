import Foundation
import Testing
@testable import WebMarkup

@Suite struct AssociationPatternTests {
    static func pathMatches(_ pattern: String, _ path: String, caseSensitive: Bool = true, variables: [String: [String]]? = [:]) -> Bool {
        let compiled = AssociationPattern(pattern, caseSensitive: caseSensitive, variables: variables.map(AssociationVariables.init(custom:)), isPath: true)
        return compiled.matches(AssociationPattern.normalizedPath(path), caseSensitive: caseSensitive)
    }

    static func matches(_ pattern: String, _ text: String, caseSensitive: Bool = true, variables: [String: [String]] = [:]) -> Bool {
        AssociationPattern(pattern, caseSensitive: caseSensitive, variables: AssociationVariables(custom: variables))
            .matches(text, caseSensitive: caseSensitive)
    }

    @Test(arguments: [
        // `/x/*` also matches the bare parent, never by appending a slash to the URL.
        ("/buy/*", "/buy", true),
        ("/buy/*", "/buy/", true),
        ("/buy/*", "/buy/42", true),
        ("/buy/*", "/buy/42/x", true),
        ("/buy/*", "/buyer", false),
        ("/buy/*", "/bu", false),
        ("/a/b/*", "/a/b", true),
        ("/buy*", "/buy", true),
        ("/a/*/c", "/a/c", false),
        ("/id/????", "/id/481", false),
        ("/id/????", "/id/4812", true),
        ("/id/???", "/id/481", true),
        ("/x/?*", "/x/", false),
        ("/x/?*", "/x/a", true),
        // Trailing slashes are insignificant on both sides.
        ("/buy", "/buy/", true),
        ("/buy/", "/buy", true),
        ("/buy/", "/buy//", true),
        ("/buy/*", "/buy//", true),
        ("/", "/", true),
        ("/", "", true),
        ("/", "/a", false),
        // The leading slash of a pattern is optional and a leading run collapses.
        ("abc", "/abc", true),
        ("abc", "/abcd", false),
        ("abc", "/xabc", false),
        ("abc/*", "/abc", true),
        ("buy/*", "/buy/42", true),
        ("*abc", "/xabc", true),
        ("//abc", "/abc", true),
        ("a/b", "/a/b", true),
        // `*` crosses `/`, `?` is one character, the whole path must match.
        ("*", "/anything/at/all", true),
        ("/a*b", "/a/x/y/b", true),
        ("/a*b", "/a/x/y/bc", false),
        ("/videos/wwdc/201?/*", "/videos/wwdc/2015/x", true),
        ("/videos/wwdc/201?/*", "/videos/wwdc/20155/x", false),
        ("/wwdc/news/", "/wwdc/news", true),
        ("/a**b", "/ab", true),
    ])
    func pathPatterns(pattern: String, path: String, expected: Bool) {
        #expect(Self.pathMatches(pattern, path) == expected)
    }

    @Test(arguments: [
        ("*", "", true),
        ("?*", "", false),
        ("?*", "x", true),
        ("", "", true),
        ("", "x", false),
        ("a=1", "a=1", true),
        ("a=1", "a=1&b=2", false),
        ("a=*", "a=1&b=2", true),
        ("?", "é", true),
        ("??", "é", false),
        ("$(nope)", "$(nope)", false),
        ("$(abc", "$(abc", true),
        ("a$()b", "ab", false),
    ])
    func componentPatterns(pattern: String, text: String, expected: Bool) {
        #expect(Self.matches(pattern, text) == expected)
    }

    @Test(arguments: [
        ("$(alpha)", "a", true), ("$(alpha)", "Z", true), ("$(alpha)", "ab", false), ("$(alpha)", "1", false),
        ("$(upper)", "Q", true), ("$(upper)", "q", false),
        ("$(lower)", "q", true), ("$(lower)", "Q", false),
        ("$(alnum)", "7", true), ("$(alnum)", "-", false),
        ("$(digit)$(digit)", "42", true), ("$(digit)", "x", false), ("$(digit)", "", false),
        ("$(xdigit)", "f", true), ("$(xdigit)", "F", true), ("$(xdigit)", "g", false),
        ("$(region)", "GB", true), ("$(region)", "US", true), ("$(region)", "UK", false), ("$(region)", "gb", false),
        ("$(region)", "001", true),
        ("$(lang)", "en", true), ("$(lang)", "zh", true), ("$(lang)", "ace", true), ("$(lang)", "EN", false),
        ("$(lang)_$(region)", "en_US", true), ("$(lang)_$(region)", "en_UK", false), ("$(lang)_$(region)", "english_US", false),
        ("$(Alpha)", "a", false),
    ])
    func predefinedVariables(pattern: String, text: String, expected: Bool) {
        #expect(Self.matches(pattern, text) == expected)
    }

    @Test(arguments: [
        ("$(upper)", "a", true),
        ("$(lower)", "A", true),
        ("$(region)", "gb", true),
        ("$(region)", "uk", false),
        ("$(lang)", "EN", true),
        ("/Foo/$(food)", "/fOO/PIZZA", true),
        ("$(food)", "BURRITO", true),
        ("$(food)", "sushi", false),
    ])
    func caseInsensitiveFoldsValuesToo(pattern: String, text: String, expected: Bool) {
        #expect(Self.matches(pattern, text, caseSensitive: false, variables: ["food": ["Pizza", "burrito"]]) == expected)
    }

    @Test(arguments: [
        ("/$(food)/", "/pizza", true),
        ("/$(food)/", "/burrito/", true),
        ("/$(food)/", "/sushi", false),
        ("/$(food)", "/Pizza", false),
        ("/$(wild)", "/pizzeria", true),
        ("/$(wild)", "/burxito", true),
        ("/$(wild)", "/burrrito", false),
        ("/$(Canadian food)/*", "/poutine/1", true),
        ("/$(alpha)", "/xyz", false),
        ("/$(alpha)", "/x", true),
        ("/$(nested)", "/$(food)", true),
        ("/$(nested)", "/pizza", false),
        ("/$(empty)", "/", false),
        ("/$(undefined)/*", "/x", false),
    ])
    func customVariables(pattern: String, path: String, expected: Bool) {
        let variables = [
            "food": ["burrito", "pizza"], "wild": ["piz*", "bur?ito"], "Canadian food": ["poutine"],
            "alpha": ["xyz"], "nested": ["$(food)"], "empty": [],
        ]
        #expect(Self.pathMatches(pattern, path, variables: variables) == expected)
    }

    @Test func manyDistinctNonASCIICharactersStayCheap() {
        let scalars = (0..<60_000).compactMap { Unicode.Scalar(0x4E00 + $0) }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        let input = String(text)
        #expect(Self.matches("*\u{4E01}*\u{4E02}?*", input))
        #expect(!Self.matches("*\u{4E02}\u{4E01}*", input))
        #expect(Self.matches("*\u{4E01}\u{4E02}*", input))
        #expect(Self.matches("\u{4E00}*", input, caseSensitive: false))
    }

    @Test func legacyPatternsHaveNoVariables() {
        #expect(Self.pathMatches("/$(alpha)", "/$(alpha)", variables: nil))
        #expect(!Self.pathMatches("/$(alpha)", "/a", variables: nil))
    }

    @Test func hostilePatternsStayLinear() {
        let input = String(repeating: "a", count: 200_000)
        let start = ContinuousClock.now
        #expect(!Self.matches("*a*a*a*a*a*a*a*a*b", input))
        #expect(Self.matches("*a*a*a*a*a*a*a*a*", input))
        #expect(!Self.matches(String(repeating: "*a", count: 2_000) + "b", String(input.prefix(20_000))))
        #expect(!Self.matches(String(repeating: "?*", count: 300) + "$(lang)*$(region)b", String(input.prefix(20_000))))
        #expect(!Self.pathMatches("/*a*a*a*a*a*a*a*a*b/*", "/" + input))
        #expect(ContinuousClock.now - start < .seconds(10))
    }
}
