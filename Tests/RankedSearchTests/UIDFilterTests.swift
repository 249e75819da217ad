@_spi(Inspection) import RankedSearch
import Testing

/// A segment's Bloom filter of identifier hashes never says "not here" for
/// an identifier the segment holds (a writer would then store a second
/// item of one identifier), and says it for nearly every other.
@Suite struct UIDFilterTests {
    @Test(arguments: [1, 7, 1_000, 20_000])
    func everyHeldIdentifierMayBeThereAndFewOthersAre(documents: Int) throws {
        let segment = try RankedSegmentTests.segment((1...Int64(documents)).map { RankedSegmentTests.document($0, title: "item \($0)") })
        let filter = segment.uidFilter
        for rowid in 1...documents {
            #expect(filter.mayContain(RankedDocument.uidHash("item-\(rowid)")), "item-\(rowid) is in the segment")
        }
        let others = 20_000
        let falsePositives = (1...others).filter { filter.mayContain(RankedDocument.uidHash("other-\($0)")) }.count
        // Ten bits an identifier and three probes: ~1.7% (never above 3% here).
        #expect(falsePositives * 100 <= 3 * others, "\(falsePositives) of \(others) absent identifiers pass")
        // Built once: the segment's copies share it.
        #expect(segment.uidFilter === filter)
    }
}
