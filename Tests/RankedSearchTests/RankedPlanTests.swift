import Foundation
@_spi(Inspection) import RankedSearch
import TestSupport
import Testing

/// The three ways a segment answers a query, a driving term with
/// cursors, intersecting first and scanning every term's array
/// (``RankedSearcher/Plan``), return the same hits with the same scores, and so does a one-letter
/// prefix read through its initial or through its tokens: over two
/// segments, with deleted and expired documents, excluded rowids,
/// prefixes, typos and pages from one hit to all of them.
@Suite struct RankedPlanTests {
    static let words = ["alpha", "alpine", "alpaca", "beta", "betray", "gamma", "gambit", "delta", "deltoid", "epsilon", "zeta", "omega"]

    /// Documents of 2–9 words drawn with skew (earlier words more often), so
    /// that pairs share from a few documents to hundreds.
    static func documents(_ rowids: ClosedRange<Int64>, seed: UInt64) -> [RankedDocument] {
        var random = SplitMix(seed: seed)
        return rowids.map { rowid in
            let count = 2 + Int(random.next() % 8)
            let picked = (0..<count).map { _ in words[Int(random.next() % UInt64(words.count)) * Int(random.next() % 3 + 1) / 3] }
            var document = RankedSegmentTests.document(rowid, title: picked.prefix(2).joined(separator: " "),
                                                       description: picked.dropFirst(2).joined(separator: " "),
                                                       hint: Double(random.next() % 100))
            // Some expired before the searches' `now`.
            if rowid % 17 == 0 { document.expires = 500 }
            return document
        }
    }

    static func snapshots() throws -> [SegmentSnapshot] {
        let first = try RankedSegmentTests.segment(documents(1...3_000, seed: 11))
        let second = try RankedSegmentTests.segment(documents(3_001...4_200, seed: 12))
        // Every 5th document of the first segment and every 9th of the second replaced or deleted.
        return [
            SegmentSnapshot(segment: first, deleted: DeletionSet(documentCount: first.documentCount,
                                                                 deleted: stride(from: 0, to: first.documentCount, by: 5).map(UInt32.init))),
            SegmentSnapshot(segment: second, deleted: DeletionSet(documentCount: second.documentCount,
                                                                  deleted: stride(from: 4, to: second.documentCount, by: 9).map(UInt32.init))),
        ]
    }

    static let queries = ["alpha beta", "alpha gamma delta", "alpha bet", "beta alpha zeta omeg", "epsilon zeta", "gamma gam",
                          "alpga betta", "deltoid gammma alpin", "omega omega", "alpha b", "zeta a", "gamma delta e", "betta g"]

    /// The query as typed, and with typos when it allows them.
    static func tiers(_ text: String) -> [RankedQuery] {
        let exact = RankedQuery(TextTokenizer.queryTerms(text))
        return [exact] + (exact.allowingTypos().map { [$0] } ?? [])
    }

    @Test(arguments: queries)
    func bothPlansFindTheSameHits(_ text: String) throws {
        let segments = try Self.snapshots()
        var compared = 0
        for query in Self.tiers(text) {
            for limit in [1, 5, 20, 10_000] {
                func hits(_ plan: RankedSearcher.Plan, initials: Bool = true, excluding: Set<Int64> = []) throws -> [RankedHit] {
                    var searcher = RankedSearcher(segments: segments, scoring: RankedSegmentTests.scoring, now: 1_000)
                    searcher.plan = plan
                    searcher.readsInitials = initials
                    return try searcher.search(query, limit: limit, excluding: excluding, verify: { _ in true })
                }
                let drivers = try hits(.drivers)
                let excluded = Set(drivers.prefix(2).map(\.rowid))
                for excluding in [[], excluded] as [Set<Int64>] {
                    // Reference: a driver, and a one-letter prefix checked through its tokens.
                    let expected = try hits(.drivers, initials: false, excluding: excluding)
                    for (plan, initials) in [(RankedSearcher.Plan.drivers, true), (.conjunctions, false), (.conjunctions, true), (.scans, false),
                                             (.scans, true), (.automatic, true)] {
                        let found = try hits(plan, initials: initials, excluding: excluding)
                        #expect(found.map(\.rowid) == expected.map(\.rowid), "\(text) limit \(limit) \(plan) initials \(initials)")
                        #expect(found.map(\.score.total) == expected.map(\.score.total), "\(text) limit \(limit) \(plan) initials \(initials)")
                    }
                    #expect(expected.allSatisfy { !excluding.contains($0.rowid) && $0.rowid % 17 != 0 })
                    compared += expected.count
                }
            }
        }
        #expect(compared > 0, "\(text) matches nothing: the comparison would be empty")
    }

    /// A search split over two threads, half the segments each
    /// (``RankedSearcher/parallelMinimum`` lowered to split these two),
    /// finds what one thread finds, score for score, in every plan: each
    /// half prunes by the higher of the two pages' k-th scores.
    @Test(arguments: queries)
    func twoThreadsFindWhatOneFinds(_ text: String) throws {
        let segments = try Self.snapshots()
        var compared = 0, split = 0
        for query in Self.tiers(text) {
            for limit in [1, 5, 20, 10_000] {
                for plan in [RankedSearcher.Plan.drivers, .conjunctions, .scans, .automatic] {
                    func hits(threads: Int, excluding: Set<Int64> = []) throws -> [RankedHit] {
                        var searcher = RankedSearcher(segments: segments, scoring: RankedSegmentTests.scoring, now: 1_000)
                        searcher.plan = plan
                        searcher.parallelMinimum = threads > 1 ? 0 : .max
                        let found = try searcher.search(query, limit: limit, excluding: excluding, verify: { _ in true })
                        // Split when both segments hold every term (a typo's tier may match in none).
                        if threads > 1, searcher.statistics.threads == 2 { split += 1 }
                        return found
                    }
                    for excluding in [[], [5, 3_010]] as [Set<Int64>] {
                        let expected = try hits(threads: 1, excluding: excluding)
                        let found = try hits(threads: 2, excluding: excluding)
                        #expect(found.map(\.rowid) == expected.map(\.rowid), "\(text) limit \(limit) \(plan)")
                        #expect(found.map(\.score.total) == expected.map(\.score.total), "\(text) limit \(limit) \(plan)")
                        compared += expected.count
                    }
                }
            }
        }
        #expect(compared > 0, "\(text) matches nothing: the comparison would be empty")
        #expect(split > 0, "\(text) never split: the comparison would be of one thread with itself")
    }

    /// One term's search, a phrase, or halves of unequal size stay on one thread.
    @Test func shortOrUnevenSearchesStayOnOneThread() throws {
        let segments = try Self.snapshots()
        func threads(_ text: String, segments: [SegmentSnapshot], phrase: Bool = false) throws -> Int {
            var searcher = RankedSearcher(segments: segments, scoring: RankedSegmentTests.scoring, now: 1_000)
            searcher.parallelMinimum = 0
            var query = RankedQuery(TextTokenizer.queryTerms(text))
            if phrase { query.phrases = ["alpha beta"] }
            _ = try searcher.search(query, limit: 5, verify: { _ in true })
            return searcher.statistics.threads
        }
        #expect(try threads("alpha beta", segments: segments) == 2)
        #expect(try threads("alpha", segments: segments) == 1)
        #expect(try threads("alpha beta", segments: segments, phrase: true) == 1)
        #expect(try threads("alpha beta", segments: [segments[0]]) == 1)
        // 3,000 and 400 documents: the smaller half under a quarter.
        let small = try RankedSegmentTests.segment(Self.documents(5_001...5_400, seed: 13))
        #expect(try threads("alpha beta", segments: [segments[0], SegmentSnapshot(segment: small, deleted: DeletionSet(documentCount: small.documentCount, deleted: []))]) == 1)
    }

    /// Common terms that share few documents are intersected first; a rare
    /// term, or many expected matches, keep a driver.
    @Test(arguments: [
        (postings: [7_205, 7_785, 29_036], documents: 63_666, intersects: true),   // typo tier of `library feature serde`
        (postings: [4_280, 7_251, 7_772], documents: 63_666, intersects: true),
        (postings: [5_860, 14_541], documents: 63_666, intersects: false),          // ~1,300 expected to score
        (postings: [455, 63_392], documents: 63_666, intersects: false),            // a rare driver
        (postings: [2_186, 63_392], documents: 63_666, intersects: false),           // the next term far larger
        (postings: [9_000], documents: 63_666, intersects: false),                  // one term
        // 4M documents (10M items): up to 32,000 expected matches intersect.
        (postings: [275_251, 465_611, 500_062], documents: 4_096_000, intersects: true),   // `language implementation development`
        (postings: [208_378, 415_422, 500_062], documents: 4_096_000, intersects: true),   // `file access development`
        (postings: [376_677, 935_993], documents: 4_096_000, intersects: false),           // `source files`: ~86,000 expected
        (postings: [114_439, 479_589], documents: 4_096_000, intersects: true),            // `performance http`: the next term 4.2×, ~13,400 expected
        (postings: [114_439, 600_000], documents: 4_096_000, intersects: false),           // the next term over 4.5×
        (postings: [350_000, 350_000], documents: 4_096_000, intersects: true),            // ~29,900 expected
        (postings: [400_000, 400_000], documents: 4_096_000, intersects: false),           // ~39,100 expected
    ])
    func conjunctionsAreChosenWhenNoTermIsRare(postings: [Int], documents: Int, intersects: Bool) {
        #expect(RankedSearcher.prefersConjunction(postings: postings, documentCount: documents) == intersects)
    }

    /// A segment is scanned when every term is in at least a quarter of its documents, and there are two terms or more.
    @Test(arguments: [
        (postings: [38_000, 45_000], documents: 50_000, scans: true),     // `for to`
        (postings: [12_500, 12_500, 30_000], documents: 50_000, scans: true),
        (postings: [12_499, 45_000], documents: 50_000, scans: false),    // one term under a quarter drives
        (postings: [5_860, 14_541], documents: 63_666, scans: false),     // `source files`
        (postings: [50_000], documents: 50_000, scans: false),            // one term: its lists, best first
        (postings: [3, 3], documents: 10, scans: true),
    ])
    func scansAreChosenWhenEveryTermIsCommon(postings: [Int], documents: Int, scans: Bool) {
        #expect(RankedSearcher.prefersScan(postings: postings, documentCount: documents) == scans)
    }

    /// Once its page is full, a scan passes over the windows of documents
    /// whose terms' window maxima cannot reach it, and finds what a driver
    /// finds: the whole word typed raises its windows by the exact-title
    /// share (`alpha a`, `alpha alp`), a common word's too (`alpha beta`).
    @Test(arguments: ["alpha beta", "alpha a", "alpha alp"])
    func scansPassOverWindowsThatCannotReachThePage(_ text: String) throws {
        let segments = try Self.snapshots()
        var skipped = 0
        for query in Self.tiers(text) {
            for limit in [1, 3, 20] {
                var scanning = RankedSearcher(segments: segments, scoring: RankedSegmentTests.scoring, now: 1_000)
                scanning.plan = .scans
                let scanned = try scanning.search(query, limit: limit, verify: { _ in true })
                skipped += scanning.statistics.windowsSkipped
                var driving = RankedSearcher(segments: segments, scoring: RankedSegmentTests.scoring, now: 1_000)
                driving.plan = .drivers
                let driven = try driving.search(query, limit: limit, verify: { _ in true })
                #expect(scanned.map(\.rowid) == driven.map(\.rowid), "\(text) limit \(limit)")
                #expect(scanned.map(\.score.total) == driven.map(\.score.total), "\(text) limit \(limit)")
            }
        }
        #expect(skipped > 0, "\(text): no window passed over, so nothing here tests the windows' bound")
    }

    /// A scanned segment keeps each term's array, a one-token word's too,
    /// so the next keystroke reads none of their postings again; and a
    /// query whose terms are all common is scanned, with the same hits as a driver.
    @Test func scansKeepTheirArraysAndMatchDrivers() throws {
        let segments = try Self.snapshots()
        let query = RankedQuery(TextTokenizer.queryTerms("alpha a"))
        var scanning = RankedSearcher(segments: segments, scoring: RankedSegmentTests.scoring, now: 1_000)
        let scanned = try scanning.search(query, limit: 5, verify: { _ in true })
        #expect(scanning.statistics.listsRead == 0, "every segment scanned: no driving list read")
        #expect(segments.allSatisfy { $0.segment.rememberedDenseTails >= 1 })
        var driving = RankedSearcher(segments: segments, scoring: RankedSegmentTests.scoring, now: 1_000)
        driving.plan = .drivers
        let driven = try driving.search(query, limit: 5, verify: { _ in true })
        #expect(scanned.map(\.rowid) == driven.map(\.rowid))
        #expect(scanned.map(\.score.total) == driven.map(\.score.total))
        #expect(scanned.count == 5)
    }
}
