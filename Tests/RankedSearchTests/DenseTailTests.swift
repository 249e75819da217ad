import Foundation
@_spi(Inspection) import RankedSearch
import TestSupport
import Testing

/// A prefix's long tail, read whole once and kept by its segment
/// (``PrefixMemo``), answers the searches that follow exactly as reading
/// it each time does: the same hits and scores, cold and warm, with the
/// whole word typed still taking its exact-title share.
@Suite struct DenseTailTests {
    /// `blue` in a third of the documents, `item` in all; `stone…` names
    /// 41 tokens (`stone` itself, `stonea`…`stonez` and
    /// `stoneax`…`stonenx`, each in a few percent) with ~1,900 postings:
    /// more than a third of the documents (its tail is kept), fewer than
    /// `item`'s (it is the rarer term when intersecting).
    static func segment() throws -> Segment {
        var random = SplitMix(seed: 11)
        let letters = "abcdefghijklmnopqrstuvwxyz".map(String.init)
        let suffixes: [String] = [""] + letters + letters.prefix(14).map { $0 + "x" }
        let documents = (1...3_000).map { rowid in
            var words: [String] = rowid % 3 == 0 ? ["blue"] : ["grey"]
            if rowid % 2 == 0 {
                for _ in 0..<Int(random.next() % 3) { words.append("stone" + suffixes[Int(random.next() % UInt64(suffixes.count))]) }
            }
            if rowid % 7 == 0 { words.append("stone") }
            return RankedSegmentTests.document(Int64(rowid), title: words.prefix(2).joined(separator: " "),
                                               description: words.joined(separator: " ") + " item" + String(repeating: " note", count: rowid % 5),
                                               hint: Double(rowid % 4))
        }
        return try RankedSegmentTests.segment(documents)
    }

    /// `query`'s hits in `segment` alone, read by `plan`.
    static func search(_ segment: Segment, _ query: RankedQuery, _ plan: RankedSearcher.Plan, limit: Int) throws -> [RankedHit] {
        let snapshot = SegmentSnapshot(segment: segment, deleted: DeletionSet(documentCount: segment.documentCount, deleted: []))
        var searcher = RankedSearcher(segments: [snapshot], scoring: RankedSegmentTests.scoring, now: 1_000)
        searcher.plan = plan
        return try searcher.search(query, limit: limit, verify: { _ in true })
    }

    /// Per query and plan, how many tails are kept: a cursor keeps one
    /// (`blue` drives, rarer than `stone…`); intersecting keeps only the
    /// rarest term's (`stone…` beside `item`); `item`, in every document,
    /// has BM25's floor IDF and never drives, so `stone…` drives and no
    /// cursor reads it; `stone blue` has no term of many tokens. A scan
    /// keeps the array of every term in a third of the documents or more,
    /// a word of one token too: both of `blue ston` (scanned when the plan
    /// is automatic, each term in over a quarter of the documents), `blue`
    /// alone of `stone blue` (`stone`, ~650 postings, is read and dropped).
    @Test(arguments: [("blue ston", RankedSearcher.Plan.automatic, 2), ("blue stone", .drivers, 1), ("blue sto", .drivers, 1),
                      ("blue stone", .conjunctions, 0), ("item ston", .conjunctions, 1), ("item stone", .conjunctions, 1),
                      ("item ston", .drivers, 0), ("stone blue", .automatic, 0), ("stone blue", .conjunctions, 0),
                      ("blue ston", .scans, 2), ("item ston", .scans, 2), ("stone blue", .scans, 1)])
    func keptTailsGiveTheSameHits(_ text: String, plan: RankedSearcher.Plan, kept: Int) throws {
        let fresh = try Self.segment()
        var plain = try Self.segment()
        plain.keepsDenseTails = false
        let query = RankedQuery(TextTokenizer.queryTerms(text))
        func search(_ segment: Segment, _ plan: RankedSearcher.Plan, limit: Int) throws -> [RankedHit] {
            try Self.search(segment, query, plan, limit: limit)
        }
        for limit in [1, 4, 20, 5_000] {
            let expected = try search(plain, plan, limit: limit)
            #expect(!expected.isEmpty, "\(text): the fixture matches")
            for pass in ["cold", "warm"] {
                let found = try search(fresh, plan, limit: limit)
                #expect(found.map(\.rowid) == expected.map(\.rowid), "\(text) limit \(limit) \(pass)")
                #expect(found.map(\.score.total) == expected.map(\.score.total), "\(text) limit \(limit) \(pass)")
            }
        }
        #expect(plain.rememberedDenseTails == 0)
        #expect(fresh.rememberedDenseTails == kept, "\(text)")
        // A tail a cursor kept answers the other plan too.
        let other: RankedSearcher.Plan = plan == .conjunctions ? .drivers : .conjunctions
        let warm = try Self.segment()
        _ = try search(warm, .drivers, limit: 4)
        _ = try search(warm, .conjunctions, limit: 4)
        for limit in [1, 20] {
            #expect(try search(warm, other, limit: limit).map(\.score.total) == search(plain, other, limit: limit).map(\.score.total), "\(text)")
            #expect(try search(warm, plan, limit: limit).map(\.rowid) == search(plain, plan, limit: limit).map(\.rowid), "\(text)")
        }
    }

    /// Tails read for one search take their buffers from the segment's
    /// spares and give them back zeroed: searches one after another, each
    /// reading different tails into the same buffers, find what a segment
    /// reading each into new buffers finds.
    @Test func scratchTailsGiveTheSameHitsSearchAfterSearch() throws {
        var reused = try Self.segment()
        reused.keepsDenseTails = false
        let texts = ["blue ston", "item ston", "blue stone", "blue sto", "item st", "grey stonea", "blue s", "item stonex"]
        for plan in [RankedSearcher.Plan.drivers, .automatic] {
            for (round, text) in (texts + texts.reversed()).enumerated() {
                var fresh = try Self.segment()
                fresh.keepsDenseTails = false
                let query = RankedQuery(TextTokenizer.queryTerms(text))
                func search(_ segment: Segment) throws -> [RankedHit] {
                    let snapshot = SegmentSnapshot(segment: segment, deleted: DeletionSet(documentCount: segment.documentCount, deleted: []))
                    var searcher = RankedSearcher(segments: [snapshot], scoring: RankedSegmentTests.scoring, now: 1_000)
                    searcher.plan = plan
                    return try searcher.search(query, limit: 20, verify: { _ in true })
                }
                let expected = try search(fresh)
                let found = try search(reused)
                #expect(found.map(\.rowid) == expected.map(\.rowid), "\(text), search \(round)")
                #expect(found.map(\.score.total) == expected.map(\.score.total), "\(text), search \(round)")
                #expect(reused.spareScratchTails.zero, "\(text): spare buffers are zero")
            }
        }
        #expect(reused.spareScratchTails.count >= 1, "the cursors' tails gave their buffers back")
    }

    /// A cursor through a kept tail answers the frequency of every document
    /// as the tokens' postings give it, the whole word's flagged, and a
    /// bound wherever it answers: the first cursor, with candidates, reads
    /// the tail whole and keeps it; the next, without, reads nothing.
    @Test(arguments: [false, true])
    func cursorsThroughAKeptTailAnswerEveryDocument(_ wholeWord: Bool) throws {
        let segment = try Self.segment()
        let range = try segment.terms(matching: Array((wholeWord ? "stone" : "ston").utf8), prefix: true)
        let whole = wholeWord ? try #require(segment.terms(matching: Array("stone".utf8), prefix: false).first) : -1
        var expected = [UInt32](repeating: 0, count: segment.documentCount)
        var docs: [UInt32] = [], frequencies: [UInt32] = []
        for id in range {
            for block in try segment.blocks(of: id) {
                try segment.decodeBlock(block, docs: &docs, frequencies: &frequencies)
                for (doc, frequency) in zip(docs, frequencies) {
                    let flag: UInt32 = id == whole ? 1 << 31 : 0   // the whole-word bit
                    expected[Int(doc)] = max(expected[Int(doc)], frequency | flag)
                }
            }
        }
        var candidates = DocumentBitmap(documentCount: segment.documentCount)
        for doc in stride(from: 2, to: segment.documentCount, by: 5) { candidates.insert(doc) }
        for bits in [candidates, nil] {
            var cursor = try TermCursor(segment: segment, ranges: [range], wholeWord: whole, asked: segment.documentCount, candidates: bits)
            #expect(segment.rememberedDenseTails == 1)
            for doc in 0..<segment.documentCount where bits?.contains(doc) != false {
                let want: UInt32? = expected[doc] > 0 ? expected[doc] : nil
                #expect(try cursor.frequency(at: UInt32(doc)) == want, "doc \(doc)")
                if want != nil { #expect(try cursor.maxGS(from: UInt32(doc), through: UInt32(doc)) != nil, "doc \(doc)") }
            }
        }
    }
}
