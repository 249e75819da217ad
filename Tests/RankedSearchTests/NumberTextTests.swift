import Foundation
@_spi(Inspection) import RankedSearch
import TestSupport
import Testing

/// Explanations' numbers: the same text as Foundation's `String(format:)`,
/// whether made by the integer fast paths or through printf.
@Suite struct NumberTextTests {
    @Test(arguments: [0, -0.0, 1, -1, 0.5, 0.123456, 1.23456e-5, 9.99951, 99_999, 123_456.7, 1e-300, 2.5e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                      .infinity, -.infinity, .nan, 0.00012345, 1_234.5, 0.1 + 0.2, 86_400 * 3.25,
                      // Ties in binary (half to even) and near-ties in decimal.
                      1_000.5, 1_001.5, 9_999.5, 0.25, 0.35, 2.25, 2.35, 1.00005, 0.000099995, 99_995, 1e-5, 9.9999e-6, 1e15, 999_999_999_999_999,
                      1e4, 9_999.4999, 0.0001, 0.00009999, 1e-4 * 0.99995])
    func matchesFoundationsFormat(value: Double) {
        #expect(NumberText.short(value) == String(format: "%.4g", value))
        #expect(NumberText.oneDecimal(value) == String(format: "%.1f", value))
        #expect(NumberText.format("%.1f", value) == String(format: "%.1f", value))
    }

    @Test func exactTexts() {
        #expect(NumberText.short(0.123456) == "0.1235")
        #expect(NumberText.short(123_456) == "1.235e+05")
        #expect(NumberText.short(9_999.5) == "1e+04")
        #expect(NumberText.short(1_000.5) == "1000")
        #expect(NumberText.short(-0.000012345) == "-1.234e-05")
        #expect(NumberText.oneDecimal(2.25) == "2.2")
        #expect(NumberText.oneDecimal(-0.01) == "-0.0")
    }

    @Test func fastPathsCoverTheirRangeAndLeaveTheRest() {
        #expect(NumberText.fourSignificant(1e-5) != nil && NumberText.fourSignificant(9.9e14) != nil)
        #expect(NumberText.fourSignificant(9.9e-6) == nil && NumberText.fourSignificant(1e15) == nil && NumberText.fourSignificant(.nan) == nil)
        #expect(NumberText.fixedOneDecimal(1e-300) == "0.0" && NumberText.fixedOneDecimal(1e15) == nil)
    }

    /// Random values of every magnitude the fast paths take, from a fixed seed:
    /// each digit string printf makes, the integer arithmetic makes too.
    @Test func randomValuesMatchPrintf() {
        var generator = SplitMix(seed: 0x5EED)
        var compared = 0
        for _ in 0..<100_000 {
            let exponent = Double(generator.next() % 2_000) / 100 - 5.5   // 10^-5.5 ... 10^14.5
            let mantissa = 1 + Double(generator.next() % 1_000_000) / 1_000_000
            var value = pow(10, exponent) * mantissa
            // Some values cut to few digits, where ties are common.
            if generator.next() % 4 == 0 { value = (value * 1_000).rounded() / 1_000 + 0.0005 }
            if generator.next() % 2 == 0 { value = -value }
            let printf4 = String(format: "%.4g", value), printf1 = String(format: "%.1f", value)
            if let fast = NumberText.fourSignificant(value) {
                #expect(fast == printf4, "\(value)")
                compared += 1
            }
            if let fast = NumberText.fixedOneDecimal(value) { #expect(fast == printf1, "\(value)") }
        }
        #expect(compared > 90_000)
    }
}

/// A score's explanation, written into one buffer, reads as the line of
/// `printf`-formatted numbers it always was.
@Suite struct ScoreExplanationTests {
    static let breakdowns: [ScoreBreakdown] = [
        ScoreBreakdown(text: 2.14159, matchQuality: 0.9, rankingHint: 80, hintFactor: 1.4, engagement: 2.5, engagementFactor: 1.38,
                       age: 3 * 86_400, recencyFactor: 1.2345678, total: 3.2101),
        ScoreBreakdown(text: 0.000123, rankingHint: 0, hintFactor: 1, engagement: 0, engagementFactor: 1, age: nil, recencyFactor: 1,
                       metadataFactor: 0.5, impressions: 12_345.6, passedOverFactor: 0.25, total: 1.5e-5, typos: true),
        ScoreBreakdown(text: 123_456.7, rankingHint: 100, hintFactor: 2, engagement: 1e-7, engagementFactor: 1, age: 6_638.95 * 86_400,
                       recencyFactor: 1, total: 2.5e20),
        ScoreBreakdown(text: 0, rankingHint: -0.0, hintFactor: .infinity, engagement: .nan, engagementFactor: 1, age: -86_400,
                       recencyFactor: 1, total: 0),
    ]

    @Test(arguments: breakdowns)
    func readsAsPrintfWouldWriteIt(score: ScoreBreakdown) {
        func f(_ value: Double) -> String { String(format: "%.4g", value) }
        let age = score.age.map { String(format: "%.1f", $0 / 86_400) + " days" } ?? "none"
        let expected = "\(f(score.total)) = \(score.typos ? "text (typos)" : "text") \(f(score.text)) (match \(f(score.matchQuality)))"
            + " × hint(\(f(score.rankingHint))) \(f(score.hintFactor)) × engagement(\(f(score.engagement))) \(f(score.engagementFactor))"
            + " × recency(\(age)) \(f(score.recencyFactor)) × metadata \(f(score.metadataFactor)) × shown(\(f(score.impressions))) \(f(score.passedOverFactor))"
        #expect(score.explanation == expected)
    }

    @Test func aTypicalLine() {
        #expect(Self.breakdowns[0].explanation
            == "3.21 = text 2.142 (match 0.9) × hint(80) 1.4 × engagement(2.5) 1.38 × recency(3.0 days) 1.235 × metadata 1 × shown(0) 1")
    }
}
