import Foundation

/// The other way to answer a query of several terms in one segment:
/// intersect first, then score every match.
///
/// The driver plan reads the driving term's postings and asks the other
/// terms about each, which pays off when the top can be found early and
/// the rest skipped by its bounds. When the terms share few documents,
/// nothing is skipped (fewer matches than the page leave no score to
/// beat) and each driver document costs its decoding, its bound and its
/// questions. Then it is cheaper to build a bitmap per term, rarest first,
/// decoding only the blocks that can still hold a document of the
/// conjunction, and score what is left: in the typo tier of
/// `library feature serde` (7,205, 7,785 and 29,036 postings; 232
/// documents hold all three), the driver plan decoded and checked all
/// 7,205 of `feature~`'s documents.
///
/// Both plans score a document alike (each term by its most frequent
/// token there), so their hits are the same; tests force each through
/// ``RankedSearcher/Plan``.
extension RankedSearcher {
    /// How a segment's matches are found.
    @_spi(Inspection) public enum Plan: Sendable {
        /// Scanning where ``prefersScan(postings:documentCount:)``, intersecting
        /// first where ``prefersConjunction(postings:documentCount:)``.
        case automatic
        /// Always a driving term and cursors.
        case drivers
        /// Always intersect first (for queries of two terms or more).
        case conjunctions
        /// Always scan every term's array (``RankedSearcher/searchScan``).
        case scans
    }

    /// Whether a segment's terms are intersected first: when no term is
    /// rare (the driver plan would pay for each of at least
    /// ``conjunctionRarest`` driver documents), the next rarest has at most
    /// ``conjunctionSpread`` times as many postings (the bitmaps read little
    /// more than the driver would), and the terms taken as independent
    /// leave at most ``conjunctionMatches`` documents to score, or a
    /// ``conjunctionShare``-th of the segment's documents in a larger one.
    ///
    /// In a segment of millions of documents, a driver holding a few
    /// percent of them reads nearly every block whatever the page's k-th
    /// score (`language implementation development` in a 4M-document
    /// segment: 8,283 blocks read, none passed over), and pays per
    /// document for bounds and dense arrays the conjunction does without.
    /// With the limit at ~8,000 matches there (a 512th; 10M items, the 60
    /// multi-word queries, four alternating runs of the query child): p95
    /// 7.3–8.4 → 5.2–5.5 ms, p99 8.8–13.0 → 8.0–8.3, mean 2.0–2.4 → 1.9–2.0,
    /// peak RSS 700 → 667 MB. At ~32,000 (a 128th), `performance http`
    /// (~13,400 expected; as a driver, ~70,000 postings of `performance` a
    /// segment bounded one by one) intersects too: each query's fastest of
    /// five rounds, p95 4.4–4.9 → 4.0–4.2 ms, p50 1.20–1.36 → 1.09–1.17;
    /// 1M the same (a 200th measured alike). `source files` (~86,000)
    /// was slower intersected, at a 32nd.
    ///
    /// Measured on the benchmark's 100 multi-word tiers at 63,666 items
    /// (the hits the same under both plans in every one): the typo tier of
    /// `library feature serde` (7,205 and 7,785 postings, 402 expected,
    /// 232 found) went from 262 to 203 µs, `language implementation
    /// development` from 96 to 87; `source files` (1,338 expected) and
    /// queries with a term under ~2,000 postings were as fast or faster
    /// through a driver (up to 3× when a term is rare), so they keep it.
    @_spi(Inspection) public static func prefersConjunction(postings: [Int], documentCount: Int) -> Bool {
        guard postings.count > 1 else { return false }
        let sorted = postings.sorted()
        let n = Double(max(documentCount, 1))
        let expected = postings.reduce(n) { $0 * min(1, Double($1) / n) }
        return sorted[0] >= conjunctionRarest && Double(sorted[1]) <= conjunctionSpread * Double(sorted[0])
            && expected <= Double(max(conjunctionMatches, documentCount / conjunctionShare))
    }

    static let conjunctionRarest = 2_048
    static let conjunctionSpread = 4.5
    static let conjunctionMatches = 512
    static let conjunctionShare = 128

    /// Scores into `top` every live document of segment `segmentIndex` (of ``segments``) holding all the
    /// terms (`ranges`: each term's token ranges; `postings`: their sizes).
    mutating func searchConjunction(_ segmentIndex: Int, ranges: [[Range<Int>]], wholeWord: [Int], postings: [Int], idf: [Double],
                                    avgLength: Double, query: RankedQuery, excluding: Set<Int64>, top: inout TopHits,
                                    verify: (Int64) throws -> Bool) throws {
        let snapshot = segments[segmentIndex]
        let segment = snapshot.segment
        let termCount = ranges.count
        // Blocks are unpacked into fixed buffers: most of a typo's tokens
        // hold a few postings, and sizing arrays per block cost more than
        // unpacking them.
        let buffers = BlockBuffers()
        let order = ranges.indices.sorted { postings[$0] < postings[$1] }
        // A term of many tokens whose tail the segment keeps (``PrefixMemo``)
        // is read from it, not from its postings. Only the rarest, read
        // whole in any case, is kept here: the others read only the blocks
        // that can hold its documents.
        var tails: [DenseTail?] = []
        for term in 0..<termCount {
            var tail = segment.keptTail(ranges[term], wholeWord: wholeWord[term])
            if tail == nil, term == order[0] { tail = try segment.keepTail(ranges[term], wholeWord: wholeWord[term], postings: postings[term]) }
            tails.append(tail)
        }

        // The conjunction, rarest term first: a later term reads only the
        // blocks that can hold a document still in it. The last, the most
        // common, is read once: its postings in the conjunction so far are
        // the matches, kept with their frequencies for scoring (`file
        // access d` read `d…`'s blocks twice, for the bits and the frequencies).
        var conjunction: DocumentBitmap?
        var termBits = DocumentBitmap(documentCount: segment.documentCount)
        let readOnce = tails[order[order.count - 1]] == nil ? order[order.count - 1] : -1
        var readOnceHits: [(doc: Int32, frequency: UInt32)] = []
        for term in order {
            if conjunction != nil {
                termBits.words.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            }
            if let tail = tails[term] {
                termBits.words.withUnsafeMutableBufferPointer { words in
                    for (doc, frequency) in tail.frequencies.enumerated() where frequency != 0 { words[doc >> 6] |= 1 << UInt64(doc & 63) }
                }
            }
            for range in ranges[term] where tails[term] == nil {
                for id in range {
                    let blocks = try segment.blocks(of: id)
                    let flag = RankedScoring.flag(id, wholeWord: wholeWord[term])
                    for block in blocks where segment.block(block, of: blocks, mayHoldAnyOf: conjunction) {
                        statistics.blocksRead += 1
                        if term == readOnce, let conjunction {
                            let count = try segment.unpack(block, into: buffers, columns: false)
                            for index in 0..<count where conjunction.contains(Int(buffers.docs[index])) {
                                termBits.insert(Int(buffers.docs[index]))
                                readOnceHits.append((Int32(bitPattern: buffers.docs[index]), buffers.frequencies[index] | flag))
                            }
                            continue
                        }
                        let count = try segment.unpackDocs(block, into: buffers)
                        termBits.words.withUnsafeMutableBufferPointer { words in
                            for index in 0..<count {
                                let doc = Int(buffers.docs[index])
                                words[doc >> 6] |= 1 << UInt64(doc & 63)
                            }
                        }
                    }
                }
            }
            guard var current = conjunction else {
                conjunction = termBits
                continue
            }
            var any: UInt64 = 0
            current.words.withUnsafeMutableBufferPointer { words in
                termBits.words.withUnsafeBufferPointer { bits in
                    for index in words.indices {
                        words[index] &= bits[index]
                        any |= words[index]
                    }
                }
            }
            conjunction = current
            if any == 0 { return }
        }
        guard var matches = conjunction else { return }

        // Less the deleted; each match's rank among them, by the popcounts
        // of the words before its own.
        var ranks = [Int32](repeating: 0, count: matches.words.count)
        var matchCount = 0
        for index in matches.words.indices {
            matches.words[index] &= ~snapshot.deleted.words[index]
            ranks[index] = Int32(matchCount)
            matchCount += matches.words[index].nonzeroBitCount
        }
        guard matchCount > 0 else { return }
        @inline(__always) func rank(_ doc: Int) -> Int {
            Int(ranks[doc >> 6]) + (matches.words[doc >> 6] & ((1 << UInt64(doc & 63)) - 1)).nonzeroBitCount
        }

        // Each term's largest frequency in each match, over its tokens.
        var best = [UInt32](repeating: 0, count: matchCount * termCount)
        for term in 0..<termCount {
            if let tail = tails[term] {
                var slot = term
                for (index, word) in matches.words.enumerated() where word != 0 {
                    var word = word
                    while word != 0 {
                        best[slot] = tail.frequencies[index << 6 | word.trailingZeroBitCount]
                        word &= word - 1
                        slot += termCount
                    }
                }
            }
            if term == readOnce {
                for hit in readOnceHits where matches.contains(Int(hit.doc)) {
                    let slot = rank(Int(hit.doc)) * termCount + term
                    if hit.frequency > best[slot] { best[slot] = hit.frequency }
                }
                continue
            }
            // Through a tail, only the whole word typed, flagged: the tail holds it unflagged.
            let whole = wholeWord[term]
            for range in ranges[term] {
                for id in range where tails[term] == nil || id == whole {
                    let blocks = try segment.blocks(of: id)
                    let flag = RankedScoring.flag(id, wholeWord: wholeWord[term])
                    for block in blocks where segment.block(block, of: blocks, mayHoldAnyOf: matches) {
                        let count = try segment.unpack(block, into: buffers, columns: false)
                        for index in 0..<count where matches.contains(Int(buffers.docs[index])) {
                            let slot = rank(Int(buffers.docs[index])) * termCount + term
                            if buffers.frequencies[index] | flag > best[slot] { best[slot] = buffers.frequencies[index] | flag }
                        }
                    }
                }
            }
        }

        // Each match's static bound and length, read for every match at
        // once before any is scored: independent reads, whose cache misses
        // overlap (in the scoring loop each stalled it: ~16% of `language
        // implementation development`'s conjunction in a 4M-document segment).
        var docs: [UInt32] = []
        docs.reserveCapacity(matchCount)
        for (index, word) in matches.words.enumerated() where word != 0 {
            var word = word
            while word != 0 {
                docs.append(UInt32(index << 6 | word.trailingZeroBitCount))
                word &= word - 1
            }
        }
        var pairs = [UInt64](repeating: 0, count: docs.count)
        docs.withUnsafeBufferPointer { segment.gatherDocumentBounds($0, into: &pairs) }
        for (position, doc) in docs.enumerated() {
            let slot = position * termCount
            try score(Int(doc), of: segment, at: segmentIndex, frequencies: best[slot..<(slot + termCount)], idf: idf, avgLength: avgLength, query: query,
                      excluding: excluding, top: &top, verify: verify, bounds: pairs[position])
        }
    }

    /// Scores document `doc` of `segment` (at `segmentIndex` in ``segments``), holding every term with these
    /// frequencies (each term's most frequent token there), into `top`:
    /// unless it expired, is excluded, lacks a phrase, or cannot make the
    /// page. How the conjunction and the scan score a match. `bounds`: the
    /// document's static bound and length as stored
    /// (``Segment/gatherDocumentBounds(_:into:holding:)``), when read already.
    @inline(__always)
    mutating func score<Frequencies: RandomAccessCollection<UInt32>>(
        _ doc: Int, of segment: Segment, at segmentIndex: Int, frequencies: Frequencies, idf: [Double], avgLength: Double, query: RankedQuery,
        excluding: Set<Int64>, top: inout TopHits, verify: (Int64) throws -> Bool, bounds: UInt64? = nil
    ) throws where Frequencies.Index == Int {
        let (staticBound, length) = bounds.map(Segment.unpackBound) ?? (segment.staticBound(doc), segment.length(doc))
        let norm = RankedScoring.norm(length: length, avgLength: avgLength)
        let (text, title) = scoring.text(frequencies, idf: idf, norm: norm, titleLength: segment.titleLength(doc))
        // The most its other factors can make of the text score (its static
        // bound), as a driven document is bounded: most matches of common
        // words stop here, before their expiry, rowid and factors are read,
        // each from a section of its own. (`file access d`: ~400 matches a
        // 50,000-item store for a page of 5.)
        if now >= segment.buildTime, let threshold = top.threshold, text * staticBound < threshold { return }
        if segment.expires(doc) <= now { return }
        statistics.documentsScored += 1
        // The rowid only breaks ties: read (a cache miss) once the exact score reaches the page.
        let breakdown = scoring.breakdown(text: text, matchQuality: title, segment, doc, now: now)
        if let threshold = top.threshold, breakdown.total < threshold { return }
        let rowid = segment.rowid(doc)
        guard top.admits(breakdown.total, rowid), !excluding.contains(rowid) else { return }
        if !query.phrases.isEmpty, try !verify(rowid) { return }
        top.insert(RankedHit(rowid: rowid, score: breakdown, segment: segmentIndex, doc: doc))
    }
}
