import Foundation
@_spi(Inspection) import RankedSearch
import TestSupport
import Testing

/// A word in over half the documents has BM25's floor IDF and adds nothing
/// to any bound (``RankedSearcher/negligibleIDFShare``): the other term
/// drives, its lists read best first, and the search stops once no list
/// can beat the k-th, with the same hits as scoring every match.
@Suite struct NegligibleTermTests {
    /// `the` in 80% of the documents (a third of the postings of `s…`,
    /// so by postings alone it would drive), words starting with `s` in
    /// 80%, none of them in more than a fifth.
    static func snapshots() throws -> [SegmentSnapshot] {
        let words = ["sand", "salt", "stone", "silk", "sun", "sea", "sky", "soap", "sage", "seed"]
        let documents = (1...4_000).map { rowid in
            let word = rowid % 5 == 4 ? "tree" : words[(rowid / 5) % words.count]
            // Two more words starting with `s` in most descriptions: the prefix's postings outnumber `the`'s fourfold.
            let more = rowid % 5 == 4 ? "" : words[(rowid / 3) % words.count] + " " + words[(rowid / 7) % words.count] + " "
            return RankedSegmentTests.document(Int64(rowid), title: (rowid % 5 != 3 ? "the " : "a ") + word,
                                               description: more + String(repeating: "note ", count: rowid % 7), hint: Double(rowid % 3))
        }
        let segment = try RankedSegmentTests.segment(documents)
        return [SegmentSnapshot(segment: segment, deleted: DeletionSet(documentCount: segment.documentCount, deleted: []))]
    }

    @Test(arguments: ["the s", "the sa", "the st", "sea the"])
    func theOtherTermDrivesAndFindsTheSameHits(_ text: String) throws {
        let segments = try Self.snapshots()
        let query = RankedQuery(TextTokenizer.queryTerms(text))
        func search(_ plan: RankedSearcher.Plan, limit: Int) throws -> (hits: [RankedHit], scored: Int) {
            var searcher = RankedSearcher(segments: segments, scoring: RankedSegmentTests.scoring, now: 1_000)
            searcher.plan = plan
            let hits = try searcher.search(query, limit: limit, verify: { _ in true })
            return (hits, searcher.statistics.documentsScored)
        }
        let all = try search(.drivers, limit: 100_000)
        #expect(all.hits.count > 100, "\(text): the fixture matches many documents")
        for limit in [1, 4, 10] {
            let found = try search(.drivers, limit: limit)
            #expect(found.hits.map(\.rowid) == all.hits.prefix(limit).map(\.rowid), "\(text) limit \(limit)")
            #expect(found.hits.map(\.score.total) == all.hits.prefix(limit).map(\.score.total))
            #expect(found.scored * 4 < all.hits.count, "\(text) limit \(limit): \(found.scored) scored of \(all.hits.count) matches")
        }
    }
}
