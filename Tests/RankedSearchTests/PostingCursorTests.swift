import Testing
import TestSupport

@_spi(Inspection) @testable import RankedSearch

/// A cursor's largest G×S over a span of documents is the largest of the
/// blocks the span touches, whether it reads them one by one or, for a
/// whole run of blocks inside the span, the run's maximum.
@Suite struct PostingCursorTests {
    @Test(arguments: [UInt32(0), RankedScoring.wholeWordBit])
    func aSpansMaximumIsTheLargestOfItsBlocks(_ flag: UInt32) throws {
        var random = SplitMix(seed: 11)
        // `common` in every document, once or twice, and more often in two
        // (one in the title): ~70 blocks, two whole runs and a tail, each
        // run's maximum set by one document late in it.
        let documents = (1...9_000).map { index in
            let times = index == 3_500 ? 6 : index == 7_000 ? 4 : Int(random.next() % 2) + 1
            return RankedSegmentTests.document(Int64(index), title: index == 3_500 ? "common title" : "other title",
                                               description: Array(repeating: "common", count: times).joined(separator: " ") + " filler")
        }
        let segment = try RankedSegmentTests.segment(documents)
        let term = try #require(try segment.terms(matching: Array("common".utf8), prefix: false).first)
        let blocks = try segment.blocks(of: term)
        #expect(blocks.count > 2 * PostingCursor.maximumRun)
        let whole = flag != 0
        func expected(_ first: UInt32, _ last: UInt32) -> Double? {
            blocks.filter { segment.blockLastDoc($0) >= first && segment.blockFirstDoc($0, of: blocks) <= last }
                .map { segment.blockMaxGS($0, wholeWord: whole) }.max()
        }
        let end = UInt32(segment.documentCount - 1)
        let runs = PostingCursor.runMaxima(of: blocks, in: segment, wholeWord: whole)
        #expect(runs.count == blocks.count / PostingCursor.maximumRun)
        #expect(runs.count == 2 && runs[0] > runs[1])
        var cursor = PostingCursor(segment: segment, blocks: blocks, flag: flag)
        // The whole segment, spans from each block's first document, then
        // spans at random (a span starting lower rewinds the cursor).
        var spans: [(UInt32, UInt32)] = [(0, end), (end, end), (0, 0)]
        for block in blocks { spans.append((segment.blockFirstDoc(block, of: blocks), end)) }
        for _ in 0..<400 {
            let first = UInt32(random.next() % UInt64(end + 1))
            spans.append((first, min(end, first + UInt32(random.next() % UInt64(6_000)))))
        }
        for (first, last) in spans {
            #expect(cursor.maxGS(from: first, through: last) == expected(first, last), "\(first)...\(last)")
        }
    }
}
