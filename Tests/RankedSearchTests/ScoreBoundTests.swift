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
}
