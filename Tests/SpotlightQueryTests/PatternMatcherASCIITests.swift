import Foundation
import Testing
@testable import SpotlightQuery

/// The byte path for ASCII values must decide exactly as the `Character`
/// automaton does, for every modifier set and pattern shape.
@Suite struct PatternMatcherASCIITests {
    static let alphabet: [Character] = ["a", "b", "A", "B", "-", " ", "\n", "\r", "é", "Z"]

    static let cases: [(String, String, QueryModifiers, Bool)] = [
        ("*brar*", "Library", [.caseInsensitive], true),
        ("*BRAR*", "Library", [], false),
        ("*BRAR*", "LIBRARY", [], true),
        ("lib*", "libfoo-dev", [], true),
        ("lib?", "libs", [], true),
        ("lib?", "lib", [], false),
        ("*", "", [], true),
        ("a*b*c", "aXbYc", [], true),
        ("a*b*c", "aXbYcd", [], false),
        ("*e*", "caf\u{E9}", [.diacriticInsensitive], true),
        ("a?b", "a\r\nb", [], true),
        // Literals: compared byte by byte, without the wildcard search.
        ("libs", "libs", [], true),
        ("libs", "libsx", [], false),
        ("libs", "lib", [], false),
        ("libs", "LIBS", [], false),
        ("LIBS", "libs", [.caseInsensitive], true),
        ("libs", "LiBs", [.caseInsensitive, .diacriticInsensitive], true),
        ("", "", [], true),
        ("", "a", [], false),
        ("ab", "a\r\n", [], false),
    ]

    @Test(arguments: cases)
    func knownCases(pattern: String, text: String, modifiers: QueryModifiers, expected: Bool) {
        let matcher = PatternMatcher(Self.pattern(pattern), modifiers: modifiers)
        #expect(matcher.matches(text) == expected)
    }

    @Test func bytesAgreeWithCharacters() {
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var checked = 0, literals = 0
        for _ in 0..<20_000 {
            let text = String((0..<next(9)).map { _ in Self.alphabet[next(Self.alphabet.count)] })
            let pattern = String((0..<next(6)).map { _ in (Self.alphabet.prefix(6) + ["*", "?"])[next(8)] })
            let modifiers = QueryModifiers(rawValue: UInt8(next(4)))
            let matcher = PatternMatcher(Self.pattern(pattern), modifiers: modifiers)
            let slow = matcher.matches(FoldedText(text, caseInsensitive: matcher.caseInsensitive,
                                                  diacriticInsensitive: matcher.diacriticInsensitive, findBoundaries: false))
            #expect(matcher.matches(text) == slow, "\(pattern.debugDescription) vs \(text.debugDescription) \(modifiers)")
            if matcher.asciiTokens != nil { checked += 1 }
            if matcher.isASCIILiteral { literals += 1 }
        }
        #expect(checked > 10_000)
        #expect(literals > 2_000)
    }

    static func pattern(_ text: String) -> QueryPattern {
        var elements: [PatternElement] = []
        var literal = ""
        for character in text {
            if character == "*" || character == "?" {
                if !literal.isEmpty { elements.append(.literal(literal)); literal = "" }
                elements.append(character == "*" ? .anyRun : .anyOne)
            } else {
                literal.append(character)
            }
        }
        if !literal.isEmpty { elements.append(.literal(literal)) }
        return QueryPattern(elements)
    }
}
