import Foundation

/// The third way to answer a query in one segment: every term's frequency
/// per document in an array, and the documents scanned in order.
///
/// When every term is common (`for to`: `for` in three items of four,
/// `to…` in most), a driver reads tens of thousands of postings a
/// segment, decoding each and bounding it against the others' block
/// maxima, and bounds cut little: each block of a common word holds a
/// short document that could still reach the top. Intersecting first
/// (``searchConjunction(_:ranges:wholeWord:postings:idf:avgLength:query:excluding:top:verify:)``)
/// scores every match. Here each term is one array of its largest
/// frequency per document (``DenseTail``, kept by the segment for the
/// keystrokes that follow, `for` as much as `to…`), read eight documents
/// at a time: which hold every term, and what they can score at most
/// without any division (the static bound × Σ IDF × (G's ceiling, plus
/// the title part where the title holds the token)). Once the page is
/// full, a document whose title holds none of the words cannot beat one
/// whose title does and goes no further; one that passes is bounded by
/// its exact G, then scored. And once the page is full, a window of
/// ``TermCursor/windowSize`` documents whose terms' window maxima
/// (``DenseTail/windowMaxGS``, their blocks' G×S) cannot reach it is passed
/// over unread: the scan reads ~1 MB of arrays and bounds per 50,000-item
/// segment and query, out of the processor's caches (`for p`, `the s`:
/// ~10% less CPU a keystroke).
///
/// Terms are scored as the conjunction plan scores them (each by its most
/// frequent token in the document, the whole word typed winning where
/// found), so the hits are the same as both other plans'; tests force
/// each plan (``Plan``).
extension RankedSearcher {
    /// A term reaching at least the documents ÷ this (in postings) is
    /// common enough to be scanned.
    static let scanShare = 4

    /// Whether a segment is scanned (``Plan/automatic``): two terms or
    /// more, each with postings in at least a ``scanShare``-th of its
    /// documents. A driver would then read and bound that many postings
    /// at ~130 instructions each, against a few per document here.
    ///
    /// ```swift
    /// RankedSearcher.prefersScan(postings: [38_000, 45_000], documentCount: 50_000)   // true: `for to`
    /// RankedSearcher.prefersScan(postings: [5_860, 14_541], documentCount: 63_666)    // false: `source` is rare enough to drive
    /// ```
    @_spi(Inspection) public static func prefersScan(postings: [Int], documentCount: Int) -> Bool {
        postings.count > 1 && postings.allSatisfy { $0 * scanShare >= documentCount }
    }

    /// Instructions, roughly, a scan spends on one document (eight at a
    /// time, in SIMD lanes), beside ``TermCursor``'s costs.
    static let scanCost = 12

    /// Whether `entry`'s segment is scanned: every term common
    /// (``prefersScan(postings:documentCount:)``), and the scan, with the
    /// arrays the segment does not keep read now, costing less than its
    /// driver would (``Resolved/drivenCost(documentCount:idf:)``). `edu co`
    /// drives through `edu` and reads `co…` only where `edu` is, rather
    /// than reading every posting of `co…` into an array for one search.
    func prefersScan(_ entry: Resolved, idf: [Double]) -> Bool {
        let segment = segments[entry.index].segment
        let postings = entry.checkedPostings
        guard Self.prefersScan(postings: postings, documentCount: segment.documentCount) else { return false }
        var cost = Double(segment.documentCount * Self.scanCost)
        for term in postings.indices where !segment.keepsScanArray(entry.checkedRanges(term), wholeWord: entry.wholeWord[term]) {
            cost += Double(postings[term] * TermCursor.denseCost)
        }
        return cost < entry.drivenCost(documentCount: segment.documentCount, idf: idf).cost
    }

    /// Scores into `top` the live documents of segment `segmentIndex` (of ``segments``) holding every
    /// term that can beat its page: each term's frequencies from an array
    /// (``Segment/scanArray(_:wholeWord:postings:)``), the documents in order.
    mutating func searchScan(_ segmentIndex: Int, ranges: [[Range<Int>]], wholeWord: [Int], postings: [Int], idf: [Double],
                             avgLength: Double, query: RankedQuery, excluding: Set<Int64>, top: inout TopHits,
                             verify: (Int64) throws -> Bool) throws {
        let snapshot = segments[segmentIndex]
        let segment = snapshot.segment
        let termCount = ranges.count
        let n = segment.documentCount
        guard termCount > 0, n > 0 else { return }
        let arrays = try (0..<termCount).map { term throws(SegmentError) in
            try segment.scanArray(ranges[term], wholeWord: wholeWord[term], postings: postings[term])
        }
        let trustsBounds = now >= segment.buildTime
        let normParts = RankedScoring.normParts(avgLength: avgLength)
        // Σ IDF × G's ceiling, the same for every document; what a title part adds.
        let ceilingSum = idf.reduce(0) { $0 + $1 * (RankedScoring.k1 + 1) }
        let titleMatch = max(0, scoring.weights.titleMatch), wholeTitle = scoring.titlePart(titleLength: 1)
        let documentBounds = segment.documentBounds
        let deleted = snapshot.deleted
        var threshold = trustsBounds ? top.threshold : nil
        // Everything the loop reads per document is behind pointers of its
        // own: no array's bounds, uniqueness or reference count.
        let columns = UnsafeMutablePointer<UnsafePointer<UInt32>>.allocate(capacity: termCount)
        let weights = UnsafeMutablePointer<Double>.allocate(capacity: termCount)
        let best = UnsafeMutablePointer<UInt32>.allocate(capacity: termCount)
        defer {
            columns.deallocate()
            weights.deallocate()
            best.deallocate()
        }
        for term in 0..<termCount {
            columns[term] = UnsafePointer(arrays[term].frequencies.baseAddress!)
            weights[term] = idf[term]
        }
        let frequencies = UnsafeBufferPointer(start: best, count: termCount)
        // Each term's largest G×S per window of documents, scaled as the
        // driver loop scales the other terms' block maxima: a window whose
        // sum cannot reach the page is passed over unread.
        let windowGS = UnsafeMutablePointer<UnsafePointer<Double>>.allocate(capacity: termCount)
        defer { windowGS.deallocate() }
        for term in 0..<termCount { windowGS[term] = UnsafePointer(arrays[term].windowMaxGS.baseAddress!) }
        let scale = max(1, avgLength / segment.avgLength)
        let windowWeights = idf.map { $0 * scale * (1 + 1e-6) }

        /// One document holding every term: bounded, then scored into `top`.
        func consider(_ doc: Int) throws {
            if trustsBounds, top.refreshes {
                top.refresh()
                threshold = top.threshold
            }
            var inTitle = 0.0
            for term in 0..<termCount {
                let frequency = columns[term][doc]
                best[term] = frequency
                if frequency & RankedScoring.titleBit != 0 {
                    inTitle += weights[term] * (frequency & RankedScoring.wholeWordBit != 0 ? wholeTitle : titleMatch)
                }
            }
            if deleted.contains(doc) { return }
            if let threshold {
                let bound = Double(Float(bitPattern: UInt32(littleEndian: documentBounds.loadUnaligned(fromByteOffset: 8 * doc, as: UInt32.self))))
                if bound * (ceilingSum + inTitle) < threshold { return }
                // Each term's exact G, the title parts at their most.
                let length = Double(UInt32(littleEndian: documentBounds.loadUnaligned(fromByteOffset: 8 * doc + 4, as: UInt32.self)))
                let norm = normParts.base + normParts.perLength * length
                var text = inTitle
                for term in 0..<termCount { text += weights[term] * RankedScoring.g(frequency: best[term], norm: norm) }
                if bound * text * (1 + 1e-9) < threshold { return }
            }
            try score(doc, of: segment, at: segmentIndex, frequencies: frequencies, idf: idf, avgLength: avgLength, query: query, excluding: excluding,
                      top: &top, verify: verify)
            if trustsBounds { threshold = top.threshold }
        }

        // Eight documents at a time: which hold every term, and (the page
        // full) which can reach it by G's ceiling and their title parts.
        // Float32, as the static bounds are stored, with a margin far
        // above its rounding: a document passed over here is surely below.
        let ceilingLanes = SIMD8<Float>(repeating: Float(ceilingSum))
        let baseLanes = SIMD8<Float>(repeating: Float(normParts.base)), perLengthLanes = SIMD8<Float>(repeating: Float(normParts.perLength))
        let tfLanes = SIMD8<Float>(repeating: Float(1 / SegmentFormat.tfScale)), k1Lanes = SIMD8<Float>(repeating: Float(RankedScoring.k1 + 1))
        var doc = 0
        var windowEnd = 0
        while doc + 8 <= n {
            if doc >= windowEnd, let threshold {
                // A new window (one of the segment's: `doc` < n): its
                // bound from the terms' window maxima.
                let window = doc >> TermCursor.windowShift
                windowEnd = (window + 1) << TermCursor.windowShift
                var bound = 0.0
                for term in 0..<termCount { bound += windowWeights[term] * windowGS[term][window] }
                if bound < threshold {
                    statistics.windowsSkipped += 1
                    doc = windowEnd
                    continue
                }
            }
            var present = SIMDMask<SIMD8<Int32>>(repeating: true)
            var inTitle = SIMD8<Float>.zero
            for term in 0..<termCount {
                let lanes = UnsafeRawPointer(columns[term] + doc).loadUnaligned(as: SIMD8<UInt32>.self)
                present .&= lanes .!= .zero
                let part = SIMD8<Float>(repeating: Float(weights[term] * titleMatch))
                    .replacing(with: Float(weights[term] * wholeTitle), where: lanes & RankedScoring.wholeWordBit .!= .zero)
                inTitle = inTitle.replacing(with: inTitle + part, where: lanes & RankedScoring.titleBit .!= .zero)
            }
            if let threshold {
                // Eight (bound, length) pairs: the bounds the even lanes, the lengths the odd.
                let pairs = documentBounds.loadUnaligned(fromByteOffset: 8 * doc, as: SIMD16<UInt32>.self)
                let bounds = unsafeBitCast(pairs.evenHalf, to: SIMD8<Float>.self)
                let limit = SIMD8<Float>(repeating: Float(threshold))
                present .&= bounds * (ceilingLanes + inTitle) * 1.0001 .>= limit
                if any(present) {
                    // Each term's exact G, eight at a time: the lengths were
                    // read with the bounds, not one document at a time (a
                    // cache miss each), and most documents stop here.
                    let length = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: pairs.oddHalf))
                    let norm = baseLanes + perLengthLanes * length
                    var text = inTitle
                    for term in 0..<termCount {
                        let lanes = UnsafeRawPointer(columns[term] + doc).loadUnaligned(as: SIMD8<UInt32>.self)
                        let tf = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: (lanes & ~RankedScoring.wholeWordBit) &>> 1)) * tfLanes
                        text += SIMD8<Float>(repeating: Float(weights[term])) * (tf * k1Lanes / (tf + norm))
                    }
                    present .&= bounds * text * 1.0001 .>= limit
                }
            }
            if any(present) {
                for lane in 0..<8 where present[lane] { try consider(doc + lane) }
            }
            doc += 8
        }
        documents: while doc < n {
            defer { doc += 1 }
            for term in 0..<termCount where columns[term][doc] == 0 { continue documents }
            try consider(doc)
        }
        withExtendedLifetime(arrays) {}
    }
}

extension Segment {
    /// The array of `ranges`' tokens that a scan reads: each document's
    /// largest frequency among them, flagged when every token is a whole
    /// word typed, and where the whole word typed is among them (`wholeWord`
    /// ≥ 0), that token's frequency flagged wherever it is found (it wins
    /// there, as in a cursor). The one this segment keeps (``PrefixMemo``,
    /// shared with the cursors' long tails), else read now and kept when
    /// `postings` is at least a ``PrefixMemo/minimumShare``-th of the
    /// documents, whatever the number of tokens: a common word is scanned
    /// as often as a short prefix.
    func scanArray(_ ranges: [Range<Int>], wholeWord: Int, postings: Int) throws(SegmentError) -> DenseTail {
        let (plain, key) = Self.scanKeys(ranges, wholeWord: wholeWord)
        let flagging = key != plain, everyToken = plain.everyToken
        if keepsDenseTails, let kept = prefixMemo.tail(key) { return kept }
        let keeps = keepsDenseTails && postings * PrefixMemo.minimumShare >= documentCount
        let array = DenseTail(documentCount: documentCount)
        if flagging, keepsDenseTails, let unflagged = prefixMemo.tail(plain) {
            _ = array.frequencies.update(fromContentsOf: unflagged.frequencies)
            _ = array.windowMaxGS.update(fromContentsOf: unflagged.windowMaxGS)
        } else {
            try array.add(ranges.joined(), of: self, wholeWord: everyToken ? wholeWord : -1, candidates: nil)
        }
        if flagging { try array.flag(wholeWord, of: self) }
        if keeps { prefixMemo.keep(array, for: key) }
        return array
    }

    /// Whether the array a scan of `ranges` would read is kept, or its
    /// unflagged form (``scanArray(_:wholeWord:postings:)``): reading it
    /// costs no posting.
    func keepsScanArray(_ ranges: [Range<Int>], wholeWord: Int) -> Bool {
        guard keepsDenseTails else { return false }
        let (plain, key) = Self.scanKeys(ranges, wholeWord: wholeWord)
        return prefixMemo.contains(key) || prefixMemo.contains(plain)
    }

    /// The keys of a scan's array: of the tokens as the cursors' tails
    /// hold them, and with the whole word typed flagged when it is among them.
    private static func scanKeys(_ ranges: [Range<Int>], wholeWord: Int) -> (plain: PrefixMemo.Key, flagged: PrefixMemo.Key) {
        let plain = PrefixMemo.Key(ranges: ranges, everyToken: wholeWord == RankedScoring.everyToken)
        guard wholeWord >= 0, ranges.contains(where: { $0.contains(wholeWord) }) else { return (plain, plain) }
        return (plain, PrefixMemo.Key(ranges: ranges, everyToken: false, flagged: wholeWord))
    }
}

extension DenseTail {
    /// Puts token `id`'s frequencies in, flagged as the whole word typed,
    /// over whatever the array held for those documents, and raises the
    /// windows it is in to its blocks' maxima with the exact-title share.
    func flag(_ id: Int, of segment: Segment) throws(SegmentError) {
        let buffers = BlockBuffers()
        for block in try segment.blocks(of: id) {
            let count = try segment.unpack(block, into: buffers, columns: false)
            let blockMax = segment.blockMaxGS(block)
            for index in 0..<count {
                let doc = Int(buffers.docs[index])
                frequencies[doc] = buffers.frequencies[index] | RankedScoring.wholeWordBit
                let window = doc >> TermCursor.windowShift
                if window < windowMaxGS.count, blockMax > windowMaxGS[window] { windowMaxGS[window] = blockMax }
            }
        }
    }
}
