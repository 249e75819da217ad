import Foundation
import SpotlightQuery
import TestSupport

/// Seeded random ASTs, query strings and mutations for property tests.
///
/// ASTs are always in the parser's normal form (literals non-empty and
/// merged, no `*` directly after `*`), with identifier attribute names,
/// finite numbers and ISO dates within years ±999,999 whose fraction can be
/// written exactly (no sub-second instants in the last second of 2000).
struct RandomQueryGenerator {
    var rng: SeededGenerator

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
    mutating func pick<T>(_ options: [T]) -> T { options[int(0...(options.count - 1))] }

    // MARK: ASTs

    mutating func expression(depth: Int = 4) -> QueryExpression {
        if depth == 0 || chance(35) {
            return chance(85) ? .comparison(comparison()) : .inRange(range())
        }
        switch int(0...2) {
        case 0: return .not(expression(depth: depth - 1))
        case 1: return .and(expression(depth: depth - 1), expression(depth: depth - 1))
        default: return .or(expression(depth: depth - 1), expression(depth: depth - 1))
        }
    }

    mutating func attribute() -> QueryAttribute {
        switch int(0...9) {
        case 0: return .anyAttribute
        case 1: return .anyAttributeOrContent
        case 2:
            let first = pick(Array("abcxyzABCXYZ_"))
            let rest = (0..<int(0...8)).map { _ in pick(Array("abcdwtxyzABC_0123456789")) }
            return .named(String([first] + rest))
        default:
            return .named(pick(["title", "rating", "keywords", "c", "t", "null", "InRange", "inrange", "kMDItemFSName", "_x1"]))
        }
    }

    mutating func comparison() -> Comparison {
        Comparison(
            attribute: attribute(), op: pick(ComparisonOperator.allCases), value: value(),
            modifiers: chance(50) ? [] : QueryModifiers(rawValue: UInt8(int(0...15))))
    }

    mutating func range() -> InRange {
        InRange(attribute: attribute(), lower: rangeValue(), upper: rangeValue())
    }

    mutating func value() -> QueryValue {
        switch int(0...9) {
        case 0...4: return .pattern(pattern())
        case 5, 6: return .number(number())
        case 7, 8: return .time(time())
        default: return .null
        }
    }

    mutating func rangeValue() -> QueryValue {
        switch int(0...9) {
        case 0...2: return .number(number())
        case 3...5: return .time(time())
        case 6: return .null
        case 7: return .pattern(QueryPattern(literal: pick(["2025-01-01", "2025-06-18T15:00:00Z", "2025-06-18 15:00 +0800"])))
        default: return .pattern(pattern())
        }
    }

    static let alphabet: [Character] = Array(
        "abcXYZ019 _-.:/\"'\\*?()[]&|!=<>$,#\t\n\r\né\u{301}ßΣ🇫🇷😀中") + ["\r\n", "e\u{301}"]

    mutating func literal() -> String {
        String((0..<int(1...6)).map { _ in pick(Self.alphabet) })
    }

    mutating func pattern() -> QueryPattern {
        var elements: [PatternElement] = []
        for _ in 0..<int(0...5) {
            let element: PatternElement
            switch int(0...5) {
            case 0: element = .anyRun
            case 1: element = .anyOne
            default: element = .literal(literal())
            }
            switch (elements.last, element) {
            case (.anyRun?, .anyRun): continue
            case (.literal(let previous)?, .literal(let next)):
                elements[elements.count - 1] = .literal(previous + next)
            default:
                elements.append(element)
            }
        }
        return QueryPattern(elements)
    }

    mutating func number() -> Double {
        switch int(0...7) {
        case 0: return Double(int(-1000...1000))
        case 1: return Double(int(-1_000_000...1_000_000)) / 1000
        case 2: return pick([0, -0.0, 1e16, 1e-5, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 48.8566, 0.1])
        case 3: return Double(int(Int.min...Int.max))
        default:
            while true {
                let value = Double(bitPattern: rng.next())
                if value.isFinite { return value }
            }
        }
    }

    mutating func offset() -> Int {
        switch int(0...4) {
        case 0: return 0
        case 1: return int(-10...10)
        case 2: return pick([Int.min, Int.max, Int.min + 1, -86400])
        default: return int(Int.min...Int.max)
        }
    }

    mutating func time() -> TimeExpression {
        switch int(0...7) {
        case 0: return .now(offsetSeconds: offset())
        case 1: return .today(offsetDays: offset())
        case 2: return .yesterday
        case 3: return .thisWeek(offsetWeeks: offset())
        case 4: return .lastWeek
        case 5: return .thisMonth(offsetMonths: offset())
        case 6: return .thisYear(offsetYears: offset())
        default: return .iso(date())
        }
    }

    mutating func date() -> Date {
        let whole: Int = chance(90) ? int(-300_000_000_000...300_000_000_000) : int(-31_000_000_000_000...31_000_000_000_000)
        var interval = Double(whole)
        switch int(0...3) {
        case 0: break
        case 1: interval += Double(int(0...999)) / 1000
        case 2: interval += Double.random(in: 0..<1, using: &rng)
        default: interval = Double(whole / 1000) + Double.random(in: 0..<1, using: &rng) * pick([1, 1e-3, 1e-9])
        }
        if interval > -1 && interval < 0 { interval = -1 }
        return Date(timeIntervalSinceReferenceDate: interval)
    }

    // MARK: Strings

    /// Characters the query language gives meaning to, plus some others.
    static let queryAlphabet: [Character] = Array(
        "titleratingInRange$time.today(-7)now_iso2025-06-18T15:00:00Z \"'\\*?=!<>&|(),[]cdwt0123456789.+-é\u{301}\n🇫🇷")

    mutating func queryText(length: Int) -> String {
        String((0..<length).map { _ in pick(Self.queryAlphabet) })
    }

    /// Inserts, deletes or replaces a few characters.
    mutating func mutate(_ query: String) -> String {
        var characters = Array(query)
        for _ in 0..<int(1...4) {
            switch int(0...2) {
            case 0:
                characters.insert(pick(Self.queryAlphabet), at: int(0...characters.count))
            case 1 where !characters.isEmpty:
                characters.remove(at: int(0...(characters.count - 1)))
            default:
                if characters.isEmpty {
                    characters.append(pick(Self.queryAlphabet))
                } else {
                    characters[int(0...(characters.count - 1))] = pick(Self.queryAlphabet)
                }
            }
        }
        return String(characters)
    }
}
