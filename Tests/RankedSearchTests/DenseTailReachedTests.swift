@_spi(Inspection) @testable import RankedSearch
import TestSupport
import Testing

/// A tail read as a search reaches it (``DenseTail/addAsReached(_:of:wholeWord:candidates:sparseSpan:probedPostings:)``)
/// answers every window it was asked about as the same tail read whole
/// does, whatever order the ranges come in (a search walks several lists,
/// each in doc order), and reads its dense blocks only when asked; its
/// probed tokens answer a document alone (``DenseTail/probe(_:)``), and
/// their tables bound the windows they span.
@Suite struct DenseTailReachedTests {
    /// `ston…`'s 41 tokens in 3,000 documents (``DenseTailTests/segment()``):
    /// blocks from a few windows wide (`stone`) to the whole segment (a
    /// token of a few dozen postings), so the spans below leave none, some
    /// or all of them pending.
    ///
    /// Probed: no token (`Int.max`), `stone` and the other large ones
    /// (100 postings or more), every token (0).
    @Test(arguments: [0, 4, 12, 1_000], [Int.max, 100, 0])
    func aTailReadAsReachedAnswersAsOneReadWhole(sparseSpan: Int, probedPostings: Int) throws {
        let segment = try DenseTailTests.segment()
        let count = segment.documentCount
        let range = try segment.terms(matching: Array("ston".utf8), prefix: true)
        let whole = try #require(segment.terms(matching: Array("stone".utf8), prefix: false).first)
        var candidates = DocumentBitmap(documentCount: count)
        for doc in stride(from: 1, to: count, by: 3) { candidates.insert(doc) }
        for bits in [nil, candidates] {
            for wholeWord in [-1, whole] {
                let label = "span \(sparseSpan), probed from \(probedPostings), candidates \(bits != nil), whole word \(wholeWord)"
                let eager = DenseTail(documentCount: count)
                try eager.add(range, of: segment, wholeWord: wholeWord, candidates: bits)
                let reached = DenseTail(documentCount: count)
                try reached.addAsReached(range, of: segment, wholeWord: wholeWord, candidates: bits, sparseSpan: sparseSpan,
                                         probedPostings: probedPostings)
                // A window's maximum bounds the tail's there, the probed
                // tokens' by their tables: as read whole, or above it.
                func expectBounds(_ windows: some Sequence<Int>, _ comment: Comment) {
                    for window in windows {
                        if probedPostings == .max {
                            #expect(reached.windowMaxGS[window] == eager.windowMaxGS[window], comment)
                        } else {
                            #expect(reached.windowMaxGS[window] >= eager.windowMaxGS[window], comment)
                        }
                    }
                }
                if sparseSpan == 1_000 { #expect(reached.readsAsReached, "\(label): every block pending") }
                var random = SplitMix(seed: UInt64(sparseSpan) &+ UInt64(wholeWord + 1))
                for step in 0..<60 {
                    let first = Int(random.next() % UInt64(count))
                    let last = min(count - 1, first + Int(random.next() % 600))
                    try reached.fill(from: first, through: last)
                    // Whole windows: a window is read entire, or not at all.
                    let windows = (first >> TermCursor.windowShift)...(last >> TermCursor.windowShift)
                    let docs = (windows.lowerBound << TermCursor.windowShift)..<min(count, (windows.upperBound + 1) << TermCursor.windowShift)
                    #expect(Array(reached.frequencies[docs]) == Array(eager.frequencies[docs]), "\(label), step \(step): \(first)...\(last)")
                    expectBounds(windows, "\(label), step \(step)")
                    // Documents alone, ascending: each as read whole.
                    for doc in stride(from: first, through: last, by: 7) {
                        #expect(try reached.probe(doc) == eager.frequencies[doc], "\(label), step \(step): document \(doc)")
                    }
                }
                try reached.fill(from: 0, through: count - 1)
                #expect(Array(reached.frequencies) == Array(eager.frequencies), "\(label): filled everywhere")
                expectBounds(0..<reached.windowMaxGS.count, "\(label): filled everywhere")
            }
        }
    }

    /// `ston…` read whole, and read as reached with every block pending
    /// and tokens of `probedPostings` or more probed.
    static func stonTails(probedPostings: Int) throws -> (eager: DenseTail, reached: DenseTail) {
        let segment = try DenseTailTests.segment()
        let range = try segment.terms(matching: Array("ston".utf8), prefix: true)
        let eager = DenseTail(documentCount: segment.documentCount)
        try eager.add(range, of: segment, wholeWord: -1, candidates: nil)
        let reached = DenseTail(documentCount: segment.documentCount)
        try reached.addAsReached(range, of: segment, wholeWord: -1, candidates: nil, sparseSpan: 1_000, probedPostings: probedPostings)
        return (eager, reached)
    }

    /// Nothing dense is read before it is asked about, and asking about the
    /// first window reads the blocks spanning it, not the whole tail.
    @Test func aTailReadAsReachedReadsOnlyWhatItIsAskedAbout() throws {
        let (eager, reached) = try Self.stonTails(probedPostings: .max)
        #expect(reached.frequencies.allSatisfy { $0 == 0 })
        #expect(reached.windowMaxGS.allSatisfy { $0 == 0 })
        try reached.fill(from: 5, through: 5)
        let window = 0..<TermCursor.windowSize
        #expect(Array(reached.frequencies[window]) == Array(eager.frequencies[window]))
        // (Most tokens here are one block over the whole segment: read whole with the first window.)
        #expect(reached.frequencies.count(where: { $0 > 0 }) < eager.frequencies.count(where: { $0 > 0 }))
    }

    /// Documents asked about alone, in windows not read, are looked up in
    /// the probed tokens (every token here) without reading their blocks:
    /// only those documents' entries are written, each as read whole, in
    /// ascending order and after going back (a new list's walk).
    @Test func aProbedTailAnswersADocumentWithoutReadingItsWindow() throws {
        let (eager, reached) = try Self.stonTails(probedPostings: 0)
        #expect(reached.frequencies.allSatisfy { $0 == 0 })
        let asked = [5, 130, 131, 900, 2_999, 40, 41, 2_000]
        var found = 0
        for doc in asked {
            let frequency = try reached.probe(doc)
            #expect(frequency == eager.frequencies[doc], "document \(doc)")
            #expect(reached.frequencies[doc] == eager.frequencies[doc], "document \(doc)")
            if frequency > 0 { found += 1 }
        }
        #expect(found > 0)
        // Nothing else: no block was read whole.
        #expect(reached.frequencies.count(where: { $0 > 0 }) == found)
        // The windows' maxima are there before anything is read.
        for window in 0..<reached.windowMaxGS.count {
            #expect(reached.windowMaxGS[window] >= eager.windowMaxGS[window], "window \(window)")
        }
    }

    /// Searches whose cursors read their tails as reached find what
    /// searches reading them whole find, hit for hit and score for score,
    /// driven or intersected, one page size after another.
    @Test(arguments: ["blue ston", "item ston", "blue stone", "blue sto", "item st", "grey stonea", "blue s", "stone blue item"])
    func searchesReadingTailsAsReachedFindTheSameHits(_ text: String) throws {
        var whole = try DenseTailTests.segment()
        whole.keepsDenseTails = false
        whole.readsTailsAsReached = false
        var reached = try DenseTailTests.segment()
        reached.keepsDenseTails = false
        reached.readsTailsAsReached = true
        let query = RankedQuery(TextTokenizer.queryTerms(text))
        func search(_ segment: Segment, _ plan: RankedSearcher.Plan, limit: Int) throws -> [RankedHit] {
            try DenseTailTests.search(segment, query, plan, limit: limit)
        }
        for plan in [RankedSearcher.Plan.drivers, .automatic] {
            for limit in [1, 4, 20, 5_000] {
                let expected = try search(whole, plan, limit: limit)
                #expect(!expected.isEmpty, "\(text): the fixture matches")
                let found = try search(reached, plan, limit: limit)
                #expect(found.map(\.rowid) == expected.map(\.rowid), "\(text), \(plan), limit \(limit)")
                #expect(found.map(\.score.total) == expected.map(\.score.total), "\(text), \(plan), limit \(limit)")
            }
        }
        #expect(reached.spareScratchTails.zero, "\(text): spare buffers are zero")
    }

    /// The runs of windows a scratch tail zeroes when done
    /// (``DenseTail/nextSet(_:from:below:)``, ``DenseTail/nextClear(_:from:below:)``)
    /// are those a bit-by-bit walk finds, across words and up to a limit
    /// inside the last word.
    @Test(arguments: [0, 1, 63, 64, 65, 130, 191])
    func runsOfWindowsAreTheSetBits(limit: Int) {
        var random = SplitMix(seed: UInt64(limit) &+ 7)
        for pattern in 0..<40 {
            let bits = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: 3)
            defer { bits.deallocate() }
            for index in 0..<3 {
                // Sparse, dense, all set or all clear words.
                let word = random.next()
                bits[index] = [word & random.next() & random.next(), word | random.next(), ~0, 0][(pattern + index) % 4]
            }
            func isSet(_ bit: Int) -> Bool { bits[bit >> 6] & (1 << UInt64(bit & 63)) != 0 }
            var expected: [Range<Int>] = [], start: Int?
            for bit in 0...limit {
                if bit < limit, isSet(bit) {
                    start = start ?? bit
                } else if let first = start {
                    expected.append(first..<bit)
                    start = nil
                }
            }
            var found: [Range<Int>] = [], at = 0
            while let first = DenseTail.nextSet(bits, from: at, below: limit) {
                let end = DenseTail.nextClear(bits, from: first, below: limit)
                found.append(first..<end)
                at = end
            }
            #expect(found == expected, "limit \(limit), pattern \(pattern)")
        }
    }
}
