import Foundation
import Testing
@testable import SpotlightQuery

/// The linear matcher (``WildcardSearch``) decides exactly as the automaton
/// that defined the semantics before it (kept here as the reference), for
/// whole values, words (`w`) and tokens (`t`), on random patterns and texts.
@Suite struct WildcardSearchTests {
    /// The simulated automaton the matcher replaced: O(text × pattern) at worst.
    static func automaton(_ tokens: [PatternMatcher.Token], on text: FoldedText, wordBased: Bool) -> Bool {
        let characters = text.characters
        let count = characters.count
        let m = tokens.count
        if m == 0 { return count == 0 }
        var stamp = [Int](repeating: -1, count: m + 1)
        var current: [Int] = []
        var next: [Int] = []
        current.reserveCapacity(m + 1)
        next.reserveCapacity(m + 1)

        func add(_ state: Int, generation: Int, to list: inout [Int]) {
            var state = state
            while stamp[state] != generation {
                stamp[state] = generation
                list.append(state)
                guard state < m, tokens[state] == .anyRun else { return }
                state += 1
            }
        }

        // The states active at position i carry generation i. States below
        // `floor` are subsumed by an active `*` state (see below).
        var floor = 0
        for i in 0...count {
            if floor == 0, i == 0 || (wordBased && text.boundaries[i]) {
                add(0, generation: i, to: &current)
            }
            if stamp[m] == i, i == count || (wordBased && text.boundaries[i]) {
                return true
            }
            if i == count { break }
            if current.isEmpty {
                if !wordBased { return false }
                continue
            }
            let character = characters[i]
            next.removeAll(keepingCapacity: true)
            for state in current where state < m {
                switch tokens[state] {
                case .anyRun: add(state, generation: i + 1, to: &next)
                case .anyOne: add(state + 1, generation: i + 1, to: &next)
                case .character(let expected):
                    if expected == character { add(state + 1, generation: i + 1, to: &next) }
                }
            }
            // A `*` state subsumes every earlier state: whatever an earlier
            // state can still match passes through that `*`, which can be
            // reached at the same point. Dropping them keeps the active set
            // to one `*` and the literal run after it.
            var highestStar = -1
            for state in next where state < m && tokens[state] == .anyRun && state > highestStar {
                highestStar = state
            }
            if highestStar > 0 {
                next.removeAll { $0 < highestStar }
            }
            floor = max(highestStar, 0)
            swap(&current, &next)
        }
        return false
    }


    static let alphabet: [Character] = ["a", "b", "A", "-", " ", "é", "ab".first!, "Z", "\u{1F600}"]

    @Test func theLinearMatcherAgreesWithTheAutomaton() {
        var state: UInt64 = 11
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var checked = 0, matched = 0
        for _ in 0..<30_000 {
            let text = String((0..<next(12)).map { _ in Self.alphabet[next(Self.alphabet.count)] })
            let pattern = String((0..<next(7)).map { _ in (["a", "b", "é", "-", " ", "Z", "*", "?", "*"] as [Character])[next(9)] })
            let modifiers = QueryModifiers(rawValue: UInt8(next(16)))
            let matcher = PatternMatcher(PatternMatcherASCIITests.pattern(pattern), modifiers: modifiers)
            let folded = FoldedText(text, caseInsensitive: matcher.caseInsensitive, diacriticInsensitive: matcher.diacriticInsensitive)
            let expected = matcher.parts.allSatisfy { Self.automaton($0, on: folded, wordBased: matcher.wordBased) }
            #expect(matcher.matches(text) == expected, "\(pattern.debugDescription) on \(text.debugDescription) with \(modifiers)")
            checked += 1
            if expected { matched += 1 }
        }
        #expect(checked == 30_000 && matched > 1_000, "both outcomes are exercised: \(matched) matches")
    }

    /// The shapes that made the automaton quadratic finish, and decide right.
    @Test(arguments: [(1_000, "b", false), (1_000, "a", true), (2_000, "?", true), (64, "b", false)])
    func manyStarsOverALongValue(stars: Int, last: String, expected: Bool) {
        let text = String(repeating: "a", count: 1_000_000)
        let pattern = PatternMatcherASCIITests.pattern(String(repeating: "a*", count: stars) + last)
        #expect(PatternMatcher(pattern, modifiers: []).matches(text) == expected)
        #expect(PatternMatcher(pattern, modifiers: [.wordBased]).matches(text) == expected)
        #expect(PatternMatcher(pattern, modifiers: [.caseInsensitive]).matches("é" + text) == false, "whole value: é is not a")
    }

    @Test func aLongSegmentAndAQuestionMarkRunLinearlyToo() {
        let text = String(repeating: "a", count: 200_000) + "b"
        let needle = String(repeating: "a", count: 300) + "?b"
        #expect(PatternMatcher(PatternMatcherASCIITests.pattern("*" + needle), modifiers: []).matches(text))
        #expect(!PatternMatcher(PatternMatcherASCIITests.pattern("*" + needle + "c"), modifiers: []).matches(text))
    }

    @Test func anExhaustedBudgetStopsAMatch() {
        let text = String(repeating: "a", count: 2_000_000)
        let budget = QueryBudget(seconds: 0)
        #expect(budget.isExhausted)
        #expect(!PatternMatcher(PatternMatcherASCIITests.pattern("*b"), modifiers: []).matches(text, budget: budget))
        #expect(PatternMatcher(PatternMatcherASCIITests.pattern("*a"), modifiers: []).matches(text, budget: QueryBudget(seconds: 0)),
                "an anchored end needs no scan")
    }
}
