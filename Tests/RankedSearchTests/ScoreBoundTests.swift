import Foundation
@_spi(Inspection) import RankedSearch
import TestSupport
import Testing

/// The bound a driver's posting is checked against first, without dividing
/// (``RankedScoring/surelyBelow(frequency:length:normBase:normPerLength:factor:need:)``):
/// it never drops a document the exact bound keeps, and drops every one the
/// exact bound drops but for its rounding margin and titles.
@Suite struct ScoreBoundTests {
    static let scoring = RankedScoring(weights: RankingWeights())
    static let wholeWordBit: UInt32 = 1 << 31

    @Test func theDivisionFreeBoundAgreesWithTheExactOne() {
        var random = SplitMix(seed: 0xB0B0)
        var dropped = 0, missed = 0
        for _ in 0..<200_000 {
            var frequency = UInt32.random(in: 1...4_096, using: &random) << 1
            if Bool.random(using: &random) { frequency |= 1 }   // the title holds the token
            if Bool.random(using: &random) { frequency |= Self.wholeWordBit }
            let length = Double(Int.random(in: 1...3_000, using: &random))
            let average = Double.random(in: 0.5...400, using: &random)
            let titleLength = Double(Int.random(in: 0...20, using: &random))
            let factor = Double.random(in: 0...4, using: &random) * (Bool.random(using: &random) ? 1e-6 : 1)
            let exact = factor * Self.scoring.termScore(frequency: frequency, norm: RankedScoring.norm(length: length, avgLength: average),
                                                        titleLength: titleLength, wholeWord: frequency & Self.wholeWordBit != 0)
            // Near the exact score most of the time: where rounding matters.
            let need = Bool.random(using: &random) ? exact * Double.random(in: 0.999...1.001, using: &random) : Double.random(in: -1...12, using: &random) * factor
            let parts = RankedScoring.normParts(avgLength: average)
            let below = RankedScoring.surelyBelow(frequency: frequency, length: length, normBase: parts.base, normPerLength: parts.perLength,
                                                  factor: factor, need: need)
            if below {
                dropped += 1
                #expect(exact < need, "dropped: frequency \(frequency), length \(length), average \(average), factor \(factor), need \(need)")
            } else if frequency & 1 == 0, exact < need * (1 - 1e-6) {
                missed += 1
            }
        }
        #expect(dropped > 50_000)
        #expect(missed == 0, "documents the exact bound drops, kept")
    }

    /// The cut on a posting outside the title
    /// (``RankedScoring/outsideTitleCut(factor:need:)``): a frequency below
    /// it scores below `need` at any length, a frequency at it reaches
    /// `need` at length 0 (the cut is the least such), and the ends.
    @Test(arguments: [
        // factor, need, cut (stored: sixteenths shifted left one bit)
        (2.0, 3.0, UInt32(22)),          // tf under 0.643: 11 sixteenths
        (1.0, 1.0, UInt32(8)),           // tf 0.25 (4 sixteenths) reaches it exactly: 3 and fewer below
        (1.0, 2.2, UInt32.max),          // G's ceiling × factor is need: none reaches it
        (1.0, 5.0, UInt32.max),
        (3.0, 0.0, UInt32(0)),           // nothing to reach
        (3.0, -1.0, UInt32(0)),
        (Double.nan, 1.0, UInt32(0)),    // damaged maxima cut nothing
        (1.0, Double.nan, UInt32(0)),
        (0.0, 1.0, UInt32.max),          // an IDF of 0 reaches nothing
    ])
    func theCutOutsideTheTitle(factor: Double, need: Double, cut: UInt32) {
        #expect(RankedScoring.outsideTitleCut(factor: factor, need: need) == cut)
    }

    @Test func everyFrequencyBelowTheCutIsBelowTheNeedAtAnyLength() {
        var random = SplitMix(seed: 0xC07)
        var cutSome = 0
        for _ in 0..<100_000 {
            let factor = Double.random(in: 0.01...6, using: &random)
            let need = Double.random(in: -0.5...14, using: &random)
            let cut = RankedScoring.outsideTitleCut(factor: factor, need: need)
            guard cut > 2, cut != .max else { continue }
            cutSome += 1
            let below = cut - 2, at = cut
            // Below: under the need even at length 0, where G is largest.
            let shortest = factor * Self.scoring.termScore(frequency: below, norm: RankedScoring.norm(length: 0, avgLength: 100),
                                                           titleLength: 1, wholeWord: false)
            #expect(shortest < need, "factor \(factor), need \(need), frequency \(below)")
            // At the cut: reaches it at length 0 (the least frequency that can).
            let reaching = factor * Self.scoring.termScore(frequency: at, norm: RankedScoring.norm(length: 0, avgLength: 100),
                                                           titleLength: 1, wholeWord: false)
            #expect(reaching >= need * (1 - 1e-6), "factor \(factor), need \(need), frequency \(at)")
        }
        #expect(cutSome > 30_000)
    }
}
