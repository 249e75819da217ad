import Foundation
import Synchronization

/// One segment as a query sees it: the segment and its deleted documents.
package struct SegmentSnapshot: @unchecked Sendable {
    package var segment: Segment
    package var deleted: DeletionSet

    package init(segment: Segment, deleted: DeletionSet) {
        self.segment = segment
        self.deleted = deleted
    }
}

/// A document the ranked index found, with its exact score.
package struct RankedHit: Sendable {
    package var rowid: Int64
    package var score: ScoreBreakdown
    /// Where the search found it: the position of its segment among the
    /// searcher's segments, and its doc there (-1: not known). What its
    /// identifier is read from (`RankedLookups.identifier(of:in:)`)
    /// without finding the rowid again (a binary search through the
    /// rowid order of each segment whose range holds it: ~13% of a word
    /// search's time at 1M items, and the pages of two per-document
    /// sections resident).
    package var segment: Int
    package var doc: Int

    package init(rowid: Int64, score: ScoreBreakdown, segment: Int = -1, doc: Int = -1) {
        self.rowid = rowid
        self.score = score
        self.segment = segment
        self.doc = doc
    }
}

/// Top-k retrieval over the segments of a store.
///
/// Every term must match (the prefix term by any token starting with it).
/// In each segment one term drives, chosen by an estimate of the work
/// (mostly the one with the fewest postings): its tokens' posting lists
/// are read in decreasing order of their upper bound (the most a
/// document in the list can score, static factor included),
/// block by block, skipping blocks whose own bound cannot reach the k-th
/// best score so far, and stopping once no list can. Every other term is
/// checked, and its frequency found, by a ``TermCursor`` over its tokens'
/// postings, whose blocks also tighten each driver block's bound
/// (block-max WAND); a document reached again through another of the
/// driver's tokens keeps its best score.
///
/// A segment whose terms are all common is answered by scanning each
/// term's array of frequencies per document
/// (``searchScan(_:ranges:wholeWord:postings:idf:avgLength:query:excluding:top:verify:)``,
/// chosen by ``prefersScan(postings:documentCount:)``); one whose terms
/// are common but share few documents, by intersecting first, then
/// scoring every match
/// (``searchConjunction(_:ranges:wholeWord:postings:idf:avgLength:query:excluding:top:verify:)``,
/// chosen by ``prefersConjunction(postings:documentCount:)``).
///
/// A search of several terms over a large store runs half its segments
/// on another thread (``parallelHalves(_:query:)``), both halves pruning
/// by the higher of their pages' k-th scores (``SharedThreshold``).
package struct RankedSearcher {
    var segments: [SegmentSnapshot]
    var scoring: RankedScoring
    var now: Double
    /// How each segment's matches are found (tests force each plan).
    package var plan = Plan.automatic
    /// Fewest live documents for a search to split its segments between
    /// two threads (``parallelHalves(_:query:)``; tests lower it).
    package var parallelMinimum = RankedSearcher.parallelDocuments
    /// Whether a one-letter prefix is checked through its initial
    /// (``SegmentInitials``) rather than its tokens (tests compare both).
    @_spi(Inspection) public var readsInitials = true

    /// Work done by the last search, for tests and the benchmark.
    package struct Statistics: Sendable {
        var lists = 0
        /// Driving lists read (none when every segment is scanned or intersected first).
        package var listsRead = 0
        var blocksRead = 0
        var blocksSkipped = 0
        package var documentsScored = 0
        /// Windows of ``TermCursor/windowSize`` documents a scan passed over
        /// unread: its terms' window maxima could not reach the page.
        package var windowsSkipped = 0
        /// Threads the segments were searched on (``parallelHalves(_:query:)``).
        package var threads = 1

        /// Adds another part's counts (``searchHalves(_:resolved:plan:lists:scales:query:limit:excluding:)``).
        mutating func add(_ other: Statistics) {
            lists += other.lists
            listsRead += other.listsRead
            blocksRead += other.blocksRead
            blocksSkipped += other.blocksSkipped
            documentsScored += other.documentsScored
            windowsSkipped += other.windowsSkipped
        }
    }

    package internal(set) var statistics = Statistics()

    package init(segments: [SegmentSnapshot], scoring: RankedScoring, now: Double) {
        self.segments = segments
        self.scoring = scoring
        self.now = now
    }

    /// One segment's terms resolved to term-id ranges, with their counts.
    struct Resolved {
        var index: Int
        var ranges: [[Range<Int>]]
        /// Postings of each term's tokens (which term drives).
        var documents: [Int]
        /// Each term's most frequent token's documents (its IDF).
        var blended: [Int]
        var maxG: [Double]
        /// Per term, which tokens are whole words typed, which may take the
        /// exact-title share: the token of a last word typed whole (four
        /// letters or more), not its completions; -1 for none;
        /// ``RankedScoring/everyToken`` for a word that is not a prefix, or
        /// has typos (its matches are whole words a typo apart).
        var wholeWord: [Int]
        /// Per term, its initial's term id (``SegmentInitials``) when it is a
        /// one-letter prefix and nothing else, with the initial's postings:
        /// checked, it is that one list rather than its tokens' lists.
        var initials: [(id: Int, documents: Int)?]

        /// The term-id ranges a ``TermCursor`` or the conjunction reads for
        /// `term`: its initial, or its tokens.
        func checkedRanges(_ term: Int) -> [Range<Int>] {
            if let initial = initials[term] { return [initial.id..<(initial.id + 1)] }
            return ranges[term]
        }

        /// The postings of each term's ``checkedRanges(_:)``.
        var checkedPostings: [Int] { documents.indices.map { initials[$0]?.documents ?? documents[$0] } }

        /// The term whose postings are read: the one that makes the
        /// search cheapest, each driver document costing
        /// ``TermCursor/driverCost`` and each other term, checked rarest
        /// first, the cheaper of reading it densely and walking its
        /// largest token lazily (``TermCursor``). `source files` is
        /// driven by `source` (5,860 postings), not by the 14,541 of
        /// `files…`, which cost less read densely than driven through.
        /// A term of negligible IDF beside another's never drives
        /// (``RankedSearcher/negligibleIDFShare``).
        func driver(documentCount: Int, idf: [Double]) -> Int { drivenCost(documentCount: documentCount, idf: idf).driver }

        /// The driver (``driver(documentCount:idf:)``) and the work its plan is estimated at.
        func drivenCost(documentCount: Int, idf: [Double]) -> (driver: Int, cost: Double) {
            // One term: it drives, at the cost of its postings.
            if documents.count == 1 { return (0, Double(documents[0]) * Double(TermCursor.driverCost)) }
            let n = Double(max(documentCount, 1))
            // The arrays, not `self`, in the closure: capturing the whole
            // entry copied (retained) each of its arrays per comparison.
            let documents = documents
            let byPostings = documents.indices.sorted { documents[$0] < documents[$1] }
            let bounding = idf.max() ?? 0
            var best = byPostings[0], bestCost = Double.infinity
            for candidate in byPostings where idf[candidate] >= bounding * RankedSearcher.negligibleIDFShare {
                var asked = Double(documents[candidate])
                var cost = asked * Double(TermCursor.driverCost)
                for term in byPostings where term != candidate {
                    let postings = Double(documents[term])
                    // Read whole, or its largest token walked lazily and the rest read;
                    // through its initial, one list with no rest.
                    let (read, rest) = initials[term].map { (Double($0.documents), 0.0) } ?? (postings, Double(documents[term] - blended[term]))
                    let dense = read * Double(TermCursor.denseCost)
                    let lazy = asked * Double(TermCursor.cursorCost) + rest * Double(TermCursor.denseCost)
                    cost += min(dense, lazy)
                    asked *= min(1, postings / n)
                }
                if cost < bestCost { (best, bestCost) = (candidate, cost) }
            }
            return (best, bestCost)
        }
    }

    /// `query`'s terms resolved in these segments: each term's term-id
    /// ranges in each segment (segments one term misses are left out), the
    /// documents holding each term (a prefix: its most frequent token's,
    /// summed over segments), and the live documents. For
    /// ``statistics(of:)-(Resolution)`` and ``search(_:limit:excluding:collection:resolution:verify:)``.
    package func resolution(of query: RankedQuery) throws -> Resolution {
        let termCount = query.terms.count
        var resolved: [Resolved] = []
        var exactCountBudget = 256
        var liveDocuments = 0
        var matching = [Int](repeating: 0, count: termCount)
        // Last words typed whole (long enough not to be still being typed).
        let whole = query.terms.map { term in
            term.prefix.map { String(decoding: $0, as: UTF8.self).unicodeScalars.count >= RankedQuery.oneTypoLength } ?? false
        }
        for (index, snapshot) in segments.enumerated() {
            let segment = snapshot.segment
            liveDocuments += segment.documentCount - snapshot.deleted.count
            var ranges = [[Range<Int>]](repeating: [], count: termCount)
            var documents = [Int](repeating: 0, count: termCount)
            var blended = [Int](repeating: 0, count: termCount)
            var maxG = [Double](repeating: 0, count: termCount)
            // A word with typos: its matches are whole words, a typo apart.
            var wholeWord = query.terms.map { $0.prefix == nil || $0.typo != nil ? RankedScoring.everyToken : -1 }
            var initials = [(id: Int, documents: Int)?](repeating: nil, count: termCount)
            // Terms without a typo first: a segment one of them misses is
            // left before any dictionary walk.
            var missing = false
            for position in query.termsTyposLast {
                let term = query.terms[position]
                var found: [Range<Int>] = []
                for token in term.exact { found.append(try segment.terms(matching: token, prefix: false)) }
                if let prefix = term.prefix {
                    let range = try segment.terms(matching: prefix, prefix: true)
                    found.append(range)
                    // Under ``RankedQuery/oneTypoLength`` characters the word is still being typed.
                    if whole[position], term.typo == nil, !range.isEmpty, try segment.term(range.lowerBound).elementsEqual(prefix) {
                        wholeWord[position] = range.lowerBound
                    }
                }
                if let typo = term.typo { found += try segment.typoMatches(typo) }
                found = Self.union(found)
                if readsInitials, let prefix = term.prefix, term.exact.isEmpty, term.typo == nil, found.reduce(0, { $0 + $1.count }) > 1,
                   let id = try segment.initial(of: prefix) {
                    initials[position] = (id, segment.termDocumentCount(id))
                }
                let whole = wholeWord[position]
                var count = 0, most = 0, best = 0.0
                for range in found {
                    // Whole groups of 64 terms are summed from the group's
                    // entry; with deletions, only in a range too long for
                    // exact live counts to matter.
                    let grouping = snapshot.deleted.count == 0 || range.count > 256
                    var id = range.lowerBound
                    while id < range.upperBound {
                        if grouping, let group = Self.wholeGroup(at: id, in: range) {
                            let entry = segment.termGroup(group)
                            count += entry.documents
                            most = max(most, entry.mostDocuments)
                            best = max(best, entry.maxG(wholeWord: whole == RankedScoring.everyToken
                                                         || (id..<(id + SegmentFormat.termGroupSize)).contains(whole)))
                            id += SegmentFormat.termGroupSize
                            continue
                        }
                        defer { id += 1 }
                        var documents = segment.termDocumentCount(id)
                        // Replaced and deleted documents stay in postings until a
                        // merge: left out of short lists' counts, where they would
                        // skew the IDF of a small store.
                        if snapshot.deleted.count > 0, documents <= 4 * SegmentFormat.blockSize, exactCountBudget > 0 {
                            documents = try Self.liveDocuments(segment, term: id, deleted: snapshot.deleted)
                            exactCountBudget -= 1
                        }
                        count += documents
                        most = max(most, documents)
                        best = max(best, segment.termMaxG(id, wholeWord: RankedScoring.isWholeWord(id, wholeWord: whole)))
                    }
                }
                ranges[position] = found
                documents[position] = count
                blended[position] = most
                maxG[position] = best
                if count == 0 { missing = true; break }
            }
            if missing { continue }
            for term in 0..<termCount { matching[term] += blended[term] }
            resolved.append(Resolved(index: index, ranges: ranges, documents: documents, blended: blended, maxG: maxG,
                                     wholeWord: wholeWord, initials: initials))
        }
        return Resolution(resolved: resolved, matching: matching, liveDocuments: liveDocuments)
    }

    /// ``resolution(of:)``'s answer, kept to be used again: a system search
    /// resolves a keystroke's terms in every store twice, for the statistics
    /// over all stores and then for the matches, mostly in the same
    /// segments (the adapter keeps it per snapshot stamp, `ResolutionMemo`).
    package struct Resolution: @unchecked Sendable {
        let resolved: [Resolved]
        let matching: [Int]
        let liveDocuments: Int
    }

    /// The statistics of ``resolution(of:)`` for IDF and BM25's average length,
    /// to be summed with other stores' (``SearchStatistics``).
    package func statistics(of query: RankedQuery) throws -> SearchStatistics {
        statistics(of: try resolution(of: query))
    }

    /// The statistics of a resolution made in these segments.
    package func statistics(of resolution: Resolution) -> SearchStatistics {
        let (matching, liveDocuments) = (resolution.matching, resolution.liveDocuments)
        var totalLength = 0.0
        for snapshot in segments {
            totalLength += snapshot.segment.avgLength * Double(snapshot.segment.documentCount - snapshot.deleted.count)
        }
        return SearchStatistics(documents: Double(liveDocuments), totalLength: totalLength, matching: matching.map(Double.init))
    }

    /// The `limit` best documents, best first (ties by rowid), in four
    /// steps: the collection's numbers (``scales(matching:liveDocuments:collection:)``),
    /// how each segment is read (``readPlan(_:termCount:idf:)``), the driving
    /// terms' lists and the other terms' cursors (``driverLists(_:plan:scales:)``,
    /// ``cursors(_:plan:)``), then the lists read best bound first
    /// (``read(_:lists:cursors:plan:scales:query:excluding:top:verify:)``).
    /// Segments intersected first are answered in between (``searchConjunction``).
    /// - Parameter verify: checks a candidate against ``RankedQuery/phrases``; called only when there are phrases.
    /// - Parameter excluding: rowids never returned (the exact tier, when this is the typo tier).
    /// - Parameter collection: statistics over every store searched with
    ///   this one (system search), for IDF and the average length; nil:
    ///   this store's own.
    /// - Parameter resolution: `query` resolved in these same segments
    ///   before (``resolution(of:)``); nil: resolved now.
    package mutating func search(_ query: RankedQuery, limit: Int, excluding: Set<Int64> = [], collection: SearchStatistics? = nil,
                                 resolution: Resolution? = nil, verify: (Int64) throws -> Bool) throws -> [RankedHit] {
        statistics = Statistics()
        guard limit > 0, !query.terms.isEmpty else { return [] }
        let termCount = query.terms.count
        let resolution = try resolution ?? self.resolution(of: query)
        let (resolved, localMatching, liveDocuments) = (resolution.resolved, resolution.matching, resolution.liveDocuments)
        let scales = scales(matching: localMatching, liveDocuments: liveDocuments, collection: collection)
        let plan = readPlan(resolved, termCount: termCount, idf: scales.idf)
        let lists = driverLists(resolved, plan: plan, scales: scales)
        statistics.lists = lists.count
        if let halves = parallelHalves(resolved, query: query) {
            return try searchHalves(halves, resolved: resolved, plan: plan, lists: lists, scales: scales, query: query,
                                    limit: limit, excluding: excluding)
        }
        var top = TopHits(limit: limit)
        try search(resolved, only: nil, plan: plan, lists: lists, scales: scales, query: query, excluding: excluding, top: &top,
                   verify: verify)
        return top.sorted
    }

    /// Searches the resolved segments at `positions` (nil: all of them)
    /// into `top`: their cursors, the segments scanned, those intersected
    /// first, then their driving lists, best bound first.
    mutating func search(_ resolved: [Resolved], only positions: Set<Int>?, plan: ReadPlan, lists: [DriverList], scales: Scales,
                         query: RankedQuery, excluding: Set<Int64>, top: inout TopHits, verify: (Int64) throws -> Bool) throws {
        let termCount = query.terms.count
        var cursors = try cursors(resolved, plan: plan, only: positions)
        for (position, entry) in resolved.enumerated() where plan.scanned[position] && positions?.contains(position) ?? true {
            try searchScan(entry.index, ranges: (0..<termCount).map(entry.checkedRanges), wholeWord: entry.wholeWord,
                           postings: entry.checkedPostings, idf: scales.idf, avgLength: scales.avgLength, query: query,
                           excluding: excluding, top: &top, verify: verify)
        }
        for (position, entry) in resolved.enumerated() where plan.intersected[position] && positions?.contains(position) ?? true {
            try searchConjunction(entry.index, ranges: (0..<termCount).map(entry.checkedRanges), wholeWord: entry.wholeWord,
                                  postings: entry.documents, idf: scales.idf,
                                  avgLength: scales.avgLength, query: query, excluding: excluding, top: &top, verify: verify)
        }
        var lists = positions.map { positions in lists.filter { positions.contains($0.resolved) } } ?? lists
        try read(resolved, lists: &lists, cursors: &cursors, plan: plan, scales: scales, query: query,
                 excluding: excluding, top: &top, verify: verify)
    }

    /// What scores are computed with: each term's IDF and BM25's average
    /// length, over this store or the whole collection searched.
    struct Scales {
        var idf: [Double]
        var avgLength: Double
        /// How much a score can grow in each segment at that average (``RankedScoring/growth(ratio:)``).
        var growths: [Double]
    }

    /// BM25's average length over every segment, as FTS5's over its table.
    /// A segment's stored maxima used its own average: when that is
    /// shorter, G grows, by at most avgLength / (the segment's) (the
    /// cursors' scale) and by much less near G's ceiling, which is where
    /// the top is (``RankedScoring/rescaled(maxGS:maxS:ratio:growth:)``).
    func scales(matching localMatching: [Int], liveDocuments: Int, collection: SearchStatistics?) -> Scales {
        var totalLength = 0.0
        for snapshot in segments {
            totalLength += snapshot.segment.avgLength * Double(snapshot.segment.documentCount - snapshot.deleted.count)
        }
        var n = Double(liveDocuments)
        var matching = localMatching.map(Double.init)
        if let collection, collection.matching.count == localMatching.count, collection.documents >= 1 {
            n = collection.documents
            matching = collection.matching
            totalLength = collection.totalLength
        }
        let avgLength = n > 0 ? max(totalLength / n, 1e-9) : 1
        return Scales(idf: matching.map { scoring.idf(documents: n, matching: min($0, n)) }, avgLength: avgLength,
                      growths: segments.map { RankedScoring.growth(ratio: $0.segment.avgLength / avgLength) })
    }

    /// How each resolved segment is read.
    struct ReadPlan {
        /// Per resolved segment, the term whose postings drive (``Resolved/driver(documentCount:idf:)``).
        var drivers: [Int]
        /// Per resolved segment, whether its terms are intersected first (``searchConjunction``).
        var intersected: [Bool]
        /// Per resolved segment, whether its documents are scanned (``searchScan``).
        var scanned: [Bool]
        /// Per resolved segment, the other terms by postings, fewest first.
        var checkOrder: [[Int]]

        /// Whether a driving term's lists answer this resolved segment (it is neither scanned nor intersected first).
        func isDriven(_ position: Int) -> Bool { !intersected[position] && !scanned[position] }
    }

    /// A term whose IDF is under this share of another's never drives (a
    /// word in over half the items sits at BM25's floor, 1e-6): it adds
    /// nothing to a bound, so every document it holds that holds the
    /// other terms can still reach the top, and is scored. Driven by
    /// `the`, `the s` scored ~9,600 documents a store for its top 4; driven
    /// by `s`, whose completions' lists are read best first, it stops
    /// once no list can beat the 4th.
    static let negligibleIDFShare = 0.01

    func readPlan(_ resolved: [Resolved], termCount: Int, idf: [Double]) -> ReadPlan {
        let drivers = resolved.map { $0.driver(documentCount: segments[$0.index].segment.documentCount, idf: idf) }
        let scanned = resolved.indices.map { position -> Bool in
            switch plan {
            case .drivers, .conjunctions: return false
            case .scans: return true
            case .automatic: return prefersScan(resolved[position], idf: idf)
            }
        }
        let intersected = resolved.indices.map { position -> Bool in
            guard termCount > 1, !scanned[position] else { return false }
            switch plan {
            case .drivers, .scans: return false
            case .conjunctions: return true
            case .automatic:
                return Self.prefersConjunction(postings: resolved[position].documents,
                                               documentCount: segments[resolved[position].index].segment.documentCount)
            }
        }
        let checkOrder = resolved.indices.map { position in
            let documents = resolved[position].documents
            return (0..<termCount).filter { $0 != drivers[position] }.sorted { documents[$0] < documents[$1] }
        }
        return ReadPlan(drivers: drivers, intersected: intersected, scanned: scanned, checkOrder: checkOrder)
    }

    /// A posting list of a driving term, with its bound. A list of `span`
    /// 64 stands for a whole term group, bounded by its maxima: a short
    /// prefix's thousands of tokens cost a heap entry per group, and only a
    /// group that can reach the top is opened into its terms.
    struct DriverList {
        var bound: Double
        /// Into the resolved segments.
        var resolved: Int
        var term: Int
        var span: Int
        /// The other terms' most, G×S at S = 1, scaled by the document's S.
        var others: Double
    }

    /// The most a document of `maxGS` and `maxS` (a term's, or a group's) can score.
    /// A token's own maxima are with the exact-title share for a whole word
    /// typed, without it otherwise (``Segment/termMaxGS(_:wholeWord:)``).
    func listBound(_ entry: Resolved, driver: Int, maxGS: Double, maxS: Double, others: Double, scales: Scales) -> Double {
        let segment = segments[entry.index].segment
        guard now >= segment.buildTime else { return .infinity }
        return scales.idf[driver] * RankedScoring.rescaled(maxGS: maxGS, maxS: maxS, ratio: segment.avgLength / scales.avgLength,
                                                           growth: scales.growths[entry.index])
            + maxS * others
    }

    /// The driving terms' lists of every segment neither scanned nor intersected first.
    func driverLists(_ resolved: [Resolved], plan: ReadPlan, scales: Scales) -> [DriverList] {
        var lists: [DriverList] = []
        for (position, entry) in resolved.enumerated() where plan.isDriven(position) {
            let termCount = entry.documents.count
            let segment = segments[entry.index].segment
            let driver = plan.drivers[position]
            let ratio = segment.avgLength / scales.avgLength
            var others = 0.0
            for term in 0..<termCount where term != driver {
                others += scales.idf[term] * RankedScoring.rescaled(maxGS: entry.maxG[term], maxS: 1, ratio: ratio, growth: scales.growths[entry.index])
            }
            lists.reserveCapacity(lists.count + entry.ranges[driver].reduce(0) { $0 + min($1.count, 2 * SegmentFormat.termGroupSize) })
            var maxima = TermMaxima(segment)
            for range in entry.ranges[driver] {
                var id = range.lowerBound
                while id < range.upperBound {
                    if let group = Self.wholeGroup(at: id, in: range) {
                        let groupEntry = segment.termGroup(group)
                        let whole = groupEntry.wholeWord(for: entry.wholeWord[driver], in: id..<(id + SegmentFormat.termGroupSize))
                        let bound = listBound(entry, driver: driver, maxGS: groupEntry.maxGS(wholeWord: whole), maxS: groupEntry.maxS,
                                              others: others, scales: scales)
                        lists.append(DriverList(bound: bound, resolved: position, term: id, span: SegmentFormat.termGroupSize, others: others))
                        id += SegmentFormat.termGroupSize
                    } else {
                        let (maxGS, maxS) = maxima.bounds(id, wholeWord: RankedScoring.isWholeWord(id, wholeWord: entry.wholeWord[driver]))
                        let bound = listBound(entry, driver: driver, maxGS: maxGS, maxS: maxS, others: others, scales: scales)
                        lists.append(DriverList(bound: bound, resolved: position, term: id, span: 1, others: others))
                        id += 1
                    }
                }
            }
        }
        return lists
    }

    /// A term of many tokens with this many times the driver's postings or
    /// more is read for the driver's documents only (``cursors(_:plan:only:)``).
    static let candidatesRatio = 4

    /// Per segment neither scanned nor intersected first: every other term is checked, and
    /// its frequency found, by a cursor over its tokens' postings
    /// (``TermCursor``). The driver's place holds an empty cursor:
    /// optionals would be copied out to be mutated, and their arrays with them.
    func cursors(_ resolved: [Resolved], plan: ReadPlan, only positions: Set<Int>? = nil) throws -> [[TermCursor]] {
        var cursors: [[TermCursor]] = []
        for (position, entry) in resolved.enumerated() {
            guard plan.isDriven(position), positions?.contains(position) ?? true else {
                cursors.append([])
                continue
            }
            let segment = segments[entry.index].segment
            let driver = plan.drivers[position]
            let termCount = entry.documents.count
            // A term of many tokens is read whole, but only in the blocks
            // that can hold one of the driver's documents, and only their
            // entries written (and zeroed after): when these are few enough
            // to leave blocks out, or the term's postings outnumber the
            // driver's four times over (`bindings for` at 10M: `for…`'s
            // tail read whole and zeroed in each 4M-document segment was
            // half the search).
            var candidates: DocumentBitmap?
            let dense = (0..<termCount).filter { $0 != driver && TermCursor.isDense(entry.checkedRanges($0)) }
            let driverPostings = entry.documents[driver], postings = entry.checkedPostings
            if !dense.isEmpty, driverPostings <= segment.documentCount / 32
                || dense.contains(where: { postings[$0] >= Self.candidatesRatio * driverPostings }) {
                var bits = DocumentBitmap(documentCount: segment.documentCount)
                let buffers = BlockBuffers()
                for range in entry.ranges[driver] {
                    for id in range {
                        for block in try segment.blocks(of: id) {
                            let count = try segment.unpackDocs(block, into: buffers)
                            for index in 0..<count { bits.insert(Int(buffers.docs[index])) }
                        }
                    }
                }
                candidates = bits
            }
            // A term is asked about the driver's documents that the terms
            // checked before it kept (as if terms were independent).
            var asked = [Int](repeating: 0, count: termCount)
            var share = Double(entry.documents[driver])
            for term in plan.checkOrder[position] {
                asked[term] = Int(share.rounded(.up))
                share *= min(1, Double(entry.documents[term]) / Double(max(segment.documentCount, 1)))
            }
            var row: [TermCursor] = []
            for term in 0..<termCount {
                row.append(term == driver ? TermCursor() : try TermCursor(segment: segment, ranges: entry.checkedRanges(term),
                                                                          wholeWord: entry.wholeWord[term],
                                                                          asked: asked[term], candidates: candidates))
            }
            cursors.append(row)
        }
        return cursors
    }

    /// Reads the driving lists in decreasing order of their bound until no
    /// list can reach the k-th best score: a group's list is opened into
    /// its terms' lists; a term's list is read block by block
    /// (``readBlocks(of:entry:driver:cursors:order:scales:query:excluding:scratch:top:verify:)``).
    mutating func read(_ resolved: [Resolved], lists: inout [DriverList], cursors: inout [[TermCursor]],
                       plan: ReadPlan, scales: Scales, query: RankedQuery, excluding: Set<Int64>, top: inout TopHits,
                       verify: (Int64) throws -> Bool) throws {
        var heap = BoundHeap(lists.map(\.bound))
        var scratch = Scratch(termCount: query.terms.count)
        while let next = heap.pop() {
            let list = lists[next]
            top.refresh()
            if let threshold = top.threshold, list.bound < threshold { break }
            let entry = resolved[list.resolved]
            let driver = plan.drivers[list.resolved]
            if list.span > 1 {
                var maxima = TermMaxima(segments[entry.index].segment)
                for id in list.term..<(list.term + list.span) {
                    let (maxGS, maxS) = maxima.bounds(id, wholeWord: RankedScoring.isWholeWord(id, wholeWord: entry.wholeWord[driver]))
                    let bound = listBound(entry, driver: driver, maxGS: maxGS, maxS: maxS, others: list.others, scales: scales)
                    heap.push(bound, index: lists.count)
                    lists.append(DriverList(bound: bound, resolved: list.resolved, term: id, span: 1, others: list.others))
                }
                statistics.lists += list.span - 1
                continue
            }
            statistics.listsRead += 1
            for index in cursors[list.resolved].indices { cursors[list.resolved][index].rewind() }
            // Taken out while this list is read, and walked through a buffer:
            // each document asks its cursors in place (no uniqueness checks).
            var taken: [TermCursor] = []
            swap(&taken, &cursors[list.resolved])
            defer { swap(&taken, &cursors[list.resolved]) }
            try taken.withUnsafeMutableBufferPointer { row in
                try readBlocks(of: list, entry: entry, driver: driver, cursors: row, order: plan.checkOrder[list.resolved], scales: scales,
                               query: query, excluding: excluding, scratch: &scratch, top: &top, verify: verify)
            }
        }
    }

    /// What reading lists reuses: a block's documents and frequencies, the
    /// best frequency of each term in the document being scored, and each
    /// document's best total so far (a document reached through several of
    /// the driver's tokens scores by the best).
    struct Scratch {
        var docs: [UInt32] = []
        var frequencies: [UInt32] = []
        var best: [UInt32]
        /// Each other term's block maximum, IDF and scale applied.
        var blockGS: [Double]
        var accumulated: [Int: Double] = [:]
        /// Per posting of the block read, its document's static bound and
        /// length as stored (``Segment/gatherDocumentBounds(_:into:holding:)``).
        var bounds: [UInt64]
        /// Per posting of the block read, the first array term's frequency there.
        var firstArray: [UInt32]
        /// Per posting of the block read, when the block has a cut
        /// (``RankedScoring/outsideTitleCut(factor:need:)``): 1 where its
        /// document is bounded, 0 where the cut passes over it.
        var kept: [UInt32]

        init(termCount: Int) {
            best = [UInt32](repeating: 0, count: termCount)
            blockGS = [Double](repeating: 0, count: termCount)
            docs.reserveCapacity(SegmentFormat.blockSize)
            frequencies.reserveCapacity(SegmentFormat.blockSize)
            bounds = [UInt64](repeating: 0, count: SegmentFormat.blockSize)
            firstArray = [UInt32](repeating: 0, count: SegmentFormat.blockSize)
            kept = [UInt32](repeating: 0, count: SegmentFormat.blockSize)
        }
    }

    /// One term's list, block by block: a block whose bound (the driver's
    /// block maxima plus the other terms' over the same documents,
    /// block-max WAND) cannot reach the k-th best is skipped; in a block
    /// read, each live document is bounded, checked by the cursors rarest
    /// term first, scored, and offered to the top.
    mutating func readBlocks(of list: DriverList, entry: Resolved, driver: Int, cursors row: UnsafeMutableBufferPointer<TermCursor>,
                             order: [Int], scales: Scales, query: RankedQuery, excluding: Set<Int64>, scratch: inout Scratch,
                             top: inout TopHits, verify: (Int64) throws -> Bool) throws {
        let termCount = query.terms.count
        let idf = scales.idf, avgLength = scales.avgLength
        let snapshot = segments[entry.index]
        let segment = snapshot.segment
        let trustsBounds = now >= segment.buildTime
        let scale = max(1, avgLength / segment.avgLength)
        let ratio = segment.avgLength / avgLength
        let termBlocks = try segment.blocks(of: list.term)
        let flag = RankedScoring.flag(list.term, wholeWord: entry.wholeWord[driver])
        let whole = flag != 0
        let normParts = RankedScoring.normParts(avgLength: avgLength)
        // Other terms read into arrays (``TermCursor/isArrayOnly``) are asked
        // first, at one read each: a document without one is passed over
        // before any bound, and where the title lacks its token the term is
        // bounded by G's ceiling (k1 + 1) × the document's static bound,
        // not by the block's maximum, which a title elsewhere in the block
        // sets. (`for to`: ~13,000 of a 50,000-item store's postings of
        // `for` went on to the cursors and scoring, with only `to…`'s
        // title matches able to reach the top.)
        let singleToken = entry.ranges[driver].reduce(0) { $0 + $1.count } == 1
        let arrayTerms = order.filter { row[$0].isArrayOnly }
        let cursorTerms = arrayTerms.isEmpty ? order : order.filter { !row[$0].isArrayOnly }
        let ceiling = RankedScoring.k1 + 1
        // Array terms read as the search reaches them are read only where a
        // document passes its bound without them (`boundFirst`, below):
        // 10M items, the 60 multi-word queries, four alternating runs of the
        // query child: p50 1.38–1.59 → 1.32–1.39 ms, mean 1.86–2.16 → 1.84–1.87.
        let arraysAsReached = !arrayTerms.isEmpty && arrayTerms.allSatisfy { row[$0].fillsAsReached }
        // Whether a posting of the driver (`frequency` flagged) cannot reach
        // `threshold` with `others` added for the other terms: its exact
        // share, checked without dividing where the title lacks its token.
        @inline(__always)
        func driverBelow(_ frequency: UInt32, staticBound: Double, length: Double, doc: Int, others: Double, threshold: Double) -> Bool {
            let factor = idf[driver] * staticBound
            if frequency & RankedScoring.titleBit == 0 {
                return RankedScoring.surelyBelow(frequency: frequency, length: length, normBase: normParts.base,
                                                 normPerLength: normParts.perLength, factor: factor, need: threshold - others)
            }
            let norm = RankedScoring.norm(length: length, avgLength: avgLength)
            return factor * scoring.termBound(frequency: frequency, norm: norm, titleLength: segment.titleLength(doc)) + others < threshold
        }
        blocks: for block in termBlocks {
            // The other terms' most in this block, G×S (∞: unknown), and of
            // those asked through cursors only.
            var othersGS = Double.infinity, cursorsGS = 0.0
            top.refresh()
            if trustsBounds, let threshold = top.threshold {
                let driverGS = idf[driver] * RankedScoring.rescaled(maxGS: segment.blockMaxGS(block, wholeWord: whole),
                                                                    maxS: segment.blockMaxS(block), ratio: ratio, growth: scales.growths[entry.index])
                var bound = driverGS + segment.blockMaxS(block) * list.others
                // Passed over on its own bound first, before the other
                // terms' arrays are read there (``DenseTail/fill(from:through:)``):
                // most of the blocks a search passes over go here.
                if bound < threshold {
                    statistics.blocksSkipped += 1
                    continue
                }
                if termCount > 1 {
                    // Block-max WAND: the other terms' blocks over the same documents.
                    let first = segment.blockFirstDoc(block, of: termBlocks)
                    var others = 0.0
                    for term in 0..<termCount where term != driver {
                        guard let gs = try row[term].maxGS(from: first, through: segment.blockLastDoc(block)) else {
                            statistics.blocksSkipped += 1
                            continue blocks
                        }
                        others += idf[term] * gs
                        scratch.blockGS[term] = scale * idf[term] * gs
                    }
                    othersGS = scale * others
                    for term in cursorTerms { cursorsGS += scratch.blockGS[term] }
                    bound = min(bound, driverGS + othersGS)
                } else {
                    // One term: nothing else to add, and each posting is
                    // bounded by its own score before it is scored.
                    othersGS = 0
                }
                if bound < threshold {
                    statistics.blocksSkipped += 1
                    continue
                }
            }
            statistics.blocksRead += 1
            let threshold = top.threshold
            let boundFirst = arraysAsReached && othersGS.isFinite && threshold != nil
            if !boundFirst {
                for term in arrayTerms {
                    try row[term].prepare(from: segment.blockFirstDoc(block, of: termBlocks), through: segment.blockLastDoc(block))
                }
            }
            try segment.decodeBlock(block, docs: &scratch.docs, frequencies: &scratch.frequencies)
            // Postings outside the title whose frequency cannot reach the
            // page at any document of the block (its largest static bound,
            // G at length 0) are passed over before their document's bound
            // is read: most of a common word's, whose block maxima a title
            // sets (`source files`, `for tools` at 10M items).
            var cut: UInt32 = 0
            if othersGS.isFinite, let threshold {
                cut = RankedScoring.outsideTitleCut(factor: idf[driver] * segment.blockMaxS(block), need: threshold - othersGS)
            }
            let cuts = cut != 0
            if cuts {
                let count = scratch.docs.count
                scratch.kept.withUnsafeMutableBufferPointer { kept in
                    scratch.frequencies.withUnsafeBufferPointer { frequencies in
                        for position in 0..<count {
                            let frequency = frequencies[position]
                            kept[position] = frequency & RankedScoring.titleBit != 0 || frequency >= cut ? 1 : 0
                        }
                    }
                }
            }
            if boundFirst, let threshold {
                // Every document's bound first, with the other terms' block
                // maxima, and the arrays read only for those it passes (a
                // few percent of `source`'s in `source files` at 10M items):
                // `firstArray` 0 then passes over the others below.
                try scratch.docs.withUnsafeBufferPointer { docs in
                    segment.gatherDocumentBounds(docs, into: &scratch.bounds, holding: cuts ? scratch.kept : nil)
                    for position in docs.indices {
                        // (A cut posting's pair was not read: it stops before its bound is used.)
                        let (staticBound, length) = Segment.unpackBound(scratch.bounds[position])
                        if cuts && scratch.kept[position] == 0
                            || driverBelow(scratch.frequencies[position] | flag, staticBound: staticBound, length: length,
                                           doc: Int(docs[position]), others: othersGS, threshold: threshold) {
                            scratch.firstArray[position] = 0
                            continue
                        }
                        for term in arrayTerms { try row[term].prepare(docs[position]) }
                        scratch.firstArray[position] = row[arrayTerms[0]].arrayFrequency(at: docs[position])
                    }
                }
            } else {
                // What the loop reads at each posting's document, read first for
                // every posting at once: each read is then independent of the
                // others, so the processor has many cache misses in flight, where
                // in the loop each stalled it (the static bound's load was ~40%
                // of this function's samples).
                // (With an array term, only the bounds of the documents holding
                // it: the others stop before their bound is used.)
                scratch.docs.withUnsafeBufferPointer { docs in
                    if let first = arrayTerms.first {
                        row[first].gatherArrayFrequencies(docs, into: &scratch.firstArray)
                        if cuts {
                            for position in docs.indices where scratch.kept[position] == 0 { scratch.firstArray[position] = 0 }
                        }
                    }
                    segment.gatherDocumentBounds(docs, into: &scratch.bounds,
                                                 holding: !arrayTerms.isEmpty ? scratch.firstArray : cuts ? scratch.kept : nil)
                }
            }
            documents: for (position, doc32) in scratch.docs.enumerated() {
                if cuts, scratch.kept[position] == 0 { continue }
                let doc = Int(doc32)
                if snapshot.deleted.contains(doc) { continue }
                for (index, term) in arrayTerms.enumerated() {
                    let frequency = index == 0 ? scratch.firstArray[position] : row[term].arrayFrequency(at: doc32)
                    if frequency == 0 { continue documents }
                    scratch.best[term] = frequency
                }
                let (staticBound, length) = Segment.unpackBound(scratch.bounds[position])
                // What this document can score at most, before the
                // cursors are asked: the driver's exact share, the
                // others' block maxima (or array terms' ceiling). Most
                // postings of a long list stop here: checked first
                // without dividing.
                if othersGS.isFinite, let threshold = top.threshold {
                    var othersHere = othersGS
                    if !arrayTerms.isEmpty {
                        var tighter = cursorsGS
                        for term in arrayTerms {
                            tighter += scratch.best[term] & RankedScoring.titleBit == 0 ? idf[term] * ceiling * staticBound : scratch.blockGS[term]
                        }
                        othersHere = min(othersGS, tighter)
                    }
                    if driverBelow(scratch.frequencies[position] | flag, staticBound: staticBound, length: length, doc: doc,
                                   others: othersHere, threshold: threshold) {
                        continue
                    }
                }
                let norm = RankedScoring.norm(length: length, avgLength: avgLength)
                // The driver's frequency here (this token's), then the
                // cursors', rarest term first: most documents fail there.
                scratch.best[driver] = scratch.frequencies[position] | flag
                for term in cursorTerms {
                    guard let frequency = try row[term].frequency(at: doc32) else { continue documents }
                    scratch.best[term] = frequency
                }
                statistics.documentsScored += 1
                let (text, title) = scoring.text(scratch.best, idf: idf, norm: norm, titleLength: segment.titleLength(doc))
                if trustsBounds, let threshold = top.threshold, text * staticBound < threshold { continue }
                // Expired documents are never returned; the expiry and the
                // rowid are read only for a document that can make the page
                // (each a section of its own: a cache miss each, for
                // every document bounded, when they were read first), the
                // rowid only once its exact score reaches the page (it
                // breaks ties): most documents bounded above it are below.
                if segment.expires(doc) <= now { continue }
                let breakdown = scoring.breakdown(text: text, matchQuality: title, segment, doc, now: now)
                if let threshold = top.threshold, breakdown.total < threshold { continue }
                let rowid = segment.rowid(doc)
                // A document may hold several of the driver's tokens: it
                // scores by the best, so keep the highest seen. One token
                // reaches each document once.
                if !singleToken {
                    let key = entry.index << 32 | doc
                    let previous = scratch.accumulated[key]
                    if let previous, previous >= breakdown.total { continue }
                    scratch.accumulated[key] = breakdown.total
                    if previous != nil { top.remove(rowid: rowid) }
                }
                guard top.admits(breakdown.total, rowid), !excluding.contains(rowid) else { continue }
                if !query.phrases.isEmpty, try !verify(rowid) { continue }
                top.insert(RankedHit(rowid: rowid, score: breakdown, segment: entry.index, doc: doc))
            }
        }
    }

    /// The term group starting at `id`, when all of it lies in `range`.
    @inline(__always)
    static func wholeGroup(at id: Int, in range: Range<Int>) -> Int? {
        id % SegmentFormat.termGroupSize == 0 && range.upperBound - id >= SegmentFormat.termGroupSize ? id / SegmentFormat.termGroupSize : nil
    }

    /// The documents of a term's postings that are not deleted.
    static func liveDocuments(_ segment: Segment, term: Int, deleted: DeletionSet) throws -> Int {
        let buffers = BlockBuffers()
        var live = 0
        for block in try segment.blocks(of: term) {
            let count = try segment.unpackDocs(block, into: buffers)
            for index in 0..<count where !deleted.contains(Int(buffers.docs[index])) { live += 1 }
        }
        return live
    }

    /// Sorted, merged ranges without empty ones.
    static func union(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for range in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, range.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                out.append(range)
            }
        }
        return out
    }
}

/// Walks one term's postings upwards, answering "does document d have
/// the term, and how often": blocks that end before d are passed by their
/// last doc id without decoding.
struct PostingCursor {
    let segment: Segment
    let blocks: Range<Int>
    private var block: Int
    private var decoded = -1
    private var last: UInt32 = 0
    /// Block `decoded`, read as far as asked (``PostingBlock/Probe``).
    private var probe: PostingBlock.Probe?
    /// Or'ed with each frequency answered (``RankedScoring/flag(_:wholeWord:)``);
    /// set, block maxima with the exact-title share are read.
    private let flag: UInt32

    init(segment: Segment, term: Int, flag: UInt32 = 0) throws {
        try self.init(segment: segment, blocks: segment.blocks(of: term), flag: flag)
    }

    /// A cursor over a term's `blocks` (``Segment/blocks(of:)``).
    init(segment: Segment, blocks: Range<Int>, flag: UInt32) {
        self.segment = segment
        self.flag = flag
        self.blocks = blocks
        block = blocks.lowerBound
    }

    /// The first block from `start` whose last doc is at least `doc`
    /// (galloping, then binary search), or the end.
    private func firstBlock(endingAtOrAfter doc: UInt32, from start: Int) -> Int {
        var low = start, step = 1, high = start
        while high < blocks.upperBound, segment.blockLastDoc(high) < doc {
            low = high + 1
            high += step
            step *= 2
        }
        high = min(high, blocks.upperBound)
        while low < high {
            let mid = (low + high) / 2
            if segment.blockLastDoc(mid) < doc { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The largest G×S of the blocks that may hold documents in
    /// `first...last`; nil when none can (no intersection there).
    /// Moves the cursor forward to the first such block.
    ///
    /// A run of ``maximumRun`` blocks wholly inside the span is read from
    /// ``runMaxima``: a rare driver's block can span most of a segment,
    /// thousands of this list's blocks (`from media` at 10M items: ~10%
    /// of its time was this loop).
    mutating func maxGS(from first: UInt32, through last: UInt32) -> Double? {
        if first < self.last { rewind() }
        if block < blocks.upperBound, segment.blockLastDoc(block) < first {
            block = firstBlock(endingAtOrAfter: first, from: block + 1)
        }
        self.last = first
        var index = block
        var best: Double?
        let whole = flag != 0, run = Self.maximumRun
        while index < blocks.upperBound {
            if segment.blockFirstDoc(index, of: blocks) > last { break }
            let offset = index - blocks.lowerBound
            if offset % run == 0, index + run <= blocks.upperBound, segment.blockLastDoc(index + run - 1) <= last {
                if runMaxima.isEmpty { runMaxima = Self.runMaxima(of: blocks, in: segment, wholeWord: whole) }
                best = max(best ?? 0, runMaxima[offset / run])
                index += run
                continue
            }
            best = max(best ?? 0, segment.blockMaxGS(index, wholeWord: whole))
            index += 1
        }
        return best
    }

    /// Blocks a maximum of ``runMaxima`` covers.
    static let maximumRun = 32
    /// The largest G×S of each whole run of ``maximumRun`` blocks, from
    /// the list's first: read once a span covers a run.
    private var runMaxima: [Double] = []

    /// The largest G×S of each whole run of ``maximumRun`` of `blocks`.
    static func runMaxima(of blocks: Range<Int>, in segment: Segment, wholeWord: Bool) -> [Double] {
        var maxima: [Double] = []
        maxima.reserveCapacity(blocks.count / maximumRun)
        var start = blocks.lowerBound
        while start + maximumRun <= blocks.upperBound {
            var most = 0.0
            for block in start..<(start + maximumRun) { most = max(most, segment.blockMaxGS(block, wholeWord: wholeWord)) }
            maxima.append(most)
            start += maximumRun
        }
        return maxima
    }

    /// Back to the start, for a new ascending walk.
    mutating func rewind() {
        block = blocks.lowerBound
        last = 0
        decoded = -1
    }

    /// The term's weighted frequency in `doc`, nil when it lacks it; calls
    /// between rewinds must ask for ascending documents. The block holding
    /// `doc` is read only up to it, and only its frequency: asked
    /// documents are often far apart (a rare driver over a common term).
    mutating func frequency(at doc: UInt32) throws -> UInt32? {
        if doc < last { rewind() }
        last = doc
        if block < blocks.upperBound, segment.blockLastDoc(block) < doc {
            block = firstBlock(endingAtOrAfter: doc, from: block + 1)
        }
        guard block < blocks.upperBound else { return nil }
        if decoded != block {
            probe = try segment.probe(block)
            decoded = block
        }
        guard let reached = try probe?.seek(doc), reached.found else { return nil }
        return probe.map { $0.frequency(at: reached.index) | flag }
    }
}

/// A term other than the driver, in one segment: the most frequent of its
/// tokens in a document. A token is either walked as a posting cursor,
/// which decodes only the blocks a search asks about but is asked about
/// each document that reaches it, or read once into a frequency per
/// document ("dense"), which costs its postings. A token goes dense when
/// its postings cost less than the documents it will be asked about (the
/// driver's, less those the terms checked before it drop: `asked`), by
/// ``denseCost`` against ``cursorCost``, and only when the tokens going
/// dense save more than the per-document array costs; past the
/// ``unionLimit`` largest tokens it always does: a term of many tokens (a
/// short prefix) reads its long tail densely, skipping the blocks that
/// hold none of `candidates` (the driver's documents), and in the others
/// the postings of other documents: with candidates, the cursor answers for
/// them only. For `email for`,
/// `for` and `format` stay lazy cursors while the hundreds of rarer `for…`
/// tokens are read densely; in the typo tier of `library feature serde`,
/// driven by `feature~` (7,205 postings), `serde~` is read densely (its
/// `server` alone would be asked 7,205 times) while `library` stays a
/// cursor, asked only about the ~900 documents `serde~` keeps. In a
/// segment of millions, a tail's dense blocks are read only as the search
/// reaches their documents (``Segment/readsTailsAsReached``):
/// ``prepare(from:through:)`` before the arrays are read. A long
/// tail is read whole instead, every token and document, and kept by the
/// segment for the keystrokes that follow (``PrefixMemo``).
@_spi(Inspection) public struct TermCursor {
    static let unionLimit = 8
    /// Instructions, roughly, for one posting read densely (decoded and
    /// stored)…
    static let denseCost = 30
    /// …for one ``PostingCursor/frequency(at:)`` call…
    static let cursorCost = 80
    /// …and for one of the driver's documents (decoded, bounded, checked).
    static let driverCost = 130
    private var members: [PostingCursor] = []
    /// The tokens read densely: read for this cursor, or kept by the
    /// segment (``PrefixMemo``); `dense` and `windowMaxGS` are its buffers.
    private var tail: DenseTail?
    /// Whether ``tail`` reads its dense blocks only as documents are
    /// asked about (``DenseTail/fill(from:through:)``).
    private var readsAsReached = false
    /// The tail's largest frequency per document (0: none of its tokens).
    private var dense = UnsafeBufferPointer<UInt32>(start: nil, count: 0)
    /// The tail's largest G×S in each window of ``windowSize`` documents
    /// (0: none there), its block maxima in doc-id space.
    private var windowMaxGS = UnsafeBufferPointer<Double>(start: nil, count: 0)
    static let windowShift = 7
    static var windowSize: Int { 1 << windowShift }

    static func isDense(_ ranges: [Range<Int>]) -> Bool { ranges.reduce(0) { $0 + $1.count } > unionLimit }

    /// A cursor of no tokens (the driver's place in a row of cursors).
    init() {}

    /// - Parameter asked: about how many documents the search will ask.
    /// - Parameter wholeWord: which tokens are whole words typed
    ///   (``RankedScoring/flag(_:wholeWord:)``): flagged, and bounded with
    ///   the exact-title share; the others without it.
    package init(segment: Segment, ranges: [Range<Int>], wholeWord: Int = -1, asked: Int, candidates: DocumentBitmap? = nil) throws {
        if let kept = segment.keptTail(ranges, wholeWord: wholeWord) {
            try use(kept, of: segment, ranges: ranges, wholeWord: wholeWord)
            return
        }
        // The largest tokens first, by document count (then id, for a stable
        // split): only the first `unionLimit` can be cursors, so only they are
        // ordered (one pass); the rest go to the tail, whose order does not matter
        // (it keeps each document's and window's maximum). A one-letter prefix
        // names thousands of tokens, and sorting them all cost more than the rest.
        var top: [(documents: Int, id: Int)] = []
        top.reserveCapacity(Self.unionLimit + 1)
        var rest: [Int] = []
        var total = 0, postings = 0
        func precedes(_ a: (documents: Int, id: Int), _ b: (documents: Int, id: Int)) -> Bool {
            a.documents != b.documents ? a.documents > b.documents : a.id < b.id
        }
        for range in ranges {
            for id in range {
                total += 1
                let size = (documents: segment.termDocumentCount(id), id: id)
                postings += size.documents
                if top.count == Self.unionLimit {
                    guard precedes(size, top[top.count - 1]) else {
                        rest.append(id)
                        continue
                    }
                    rest.append(top.removeLast().id)
                }
                let place = top.firstIndex { precedes(size, $0) } ?? top.count
                top.insert(size, at: place)
            }
        }
        let askedCost = asked * Self.cursorCost
        var lazy = top.prefix { $0.documents * Self.denseCost > askedCost }.count
        let saved = top[lazy...].reduce(0) { $0 + askedCost - $1.documents * Self.denseCost }
        // Without a forced tail, a few small tokens do not pay for the array.
        if total <= Self.unionLimit, saved < segment.documentCount / 2 { lazy = total }
        let tailPostings = postings - top.prefix(lazy).reduce(0) { $0 + $1.documents }
        // A long tail is kept for the searches that follow, read whole: every
        // token (the whole word's unflagged) and document, candidates or not.
        if let whole = try segment.keepTail(ranges, wholeWord: wholeWord, postings: tailPostings) {
            try use(whole, of: segment, ranges: ranges, wholeWord: wholeWord)
            return
        }
        for size in top.prefix(lazy) {
            members.append(try PostingCursor(segment: segment, term: size.id, flag: RankedScoring.flag(size.id, wholeWord: wholeWord)))
        }
        let ids = top.dropFirst(lazy).map(\.id) + rest
        guard !ids.isEmpty else { return }
        // With candidates, the cursor is asked about them only (the driver's
        // documents): a block's other postings, nearly all of a common
        // token's, are passed over with a bit test instead of being stored,
        // and the tail's buffers are the segment's spares, given back.
        let tail = DenseTail(scratchFor: segment.documentCount, candidates: candidates, pool: segment.scratchTails)
        if segment.readsTailsAsReached {
            try tail.addAsReached(ids, of: segment, wholeWord: wholeWord, candidates: candidates)
        } else {
            try tail.add(ids, of: segment, wholeWord: wholeWord, candidates: candidates)
        }
        adopt(tail)
    }

    /// Reads through `tail`, every token of `ranges` unflagged or all
    /// flagged (by its key); the whole word typed, if among them, is also
    /// a flagged cursor, which wins where it is found.
    private mutating func use(_ tail: DenseTail, of segment: Segment, ranges: [Range<Int>], wholeWord: Int) throws {
        adopt(tail)
        if wholeWord >= 0, ranges.contains(where: { $0.contains(wholeWord) }) {
            members.append(try PostingCursor(segment: segment, term: wholeWord, flag: RankedScoring.wholeWordBit))
        }
    }

    private mutating func adopt(_ tail: DenseTail) {
        self.tail = tail
        readsAsReached = tail.readsAsReached
        dense = UnsafeBufferPointer(tail.frequencies)
        windowMaxGS = UnsafeBufferPointer(tail.windowMaxGS)
    }

    package mutating func rewind() {
        for index in members.indices { members[index].rewind() }
    }

    /// Whether the dense array is read only as documents are asked about
    /// (``DenseTail/fill(from:through:)``).
    var fillsAsReached: Bool { readsAsReached }

    /// Whether every token is read into the dense array: ``frequency(at:)``
    /// is then one array read, cheap enough to ask before any bound.
    var isArrayOnly: Bool { members.isEmpty && !dense.isEmpty }

    /// Reads in what the dense array lacks for `first...last`: before
    /// ``arrayFrequency(at:)`` or ``gatherArrayFrequencies(_:into:)`` of
    /// documents there (``frequency(at:)`` and ``maxGS(from:through:)``
    /// read theirs themselves).
    @inline(__always)
    func prepare(from first: UInt32, through last: UInt32) throws(SegmentError) {
        if readsAsReached { try tail?.fill(from: Int(first), through: Int(last)) }
    }

    /// ``prepare(from:through:)`` for one document: looked up alone
    /// (``DenseTail/probe(_:)``) where its window is not read. Ascending
    /// documents between rewinds.
    @inline(__always)
    func prepare(_ doc: UInt32) throws {
        if readsAsReached { _ = try tail?.probe(Int(doc)) }
    }

    /// ``frequency(at:)`` of an array-only cursor (``isArrayOnly``): 0 when `doc` lacks the term.
    @inline(__always)
    func arrayFrequency(at doc: UInt32) -> UInt32 { dense[Int(doc)] }

    /// ``arrayFrequency(at:)`` of each of `docs` (in the segment), into
    /// `frequencies` (at least as long), in one loop of independent reads.
    func gatherArrayFrequencies(_ docs: UnsafeBufferPointer<UInt32>, into frequencies: inout [UInt32]) {
        let dense = dense
        frequencies.withUnsafeMutableBufferPointer { frequencies in
            for index in docs.indices { frequencies[index] = dense[Int(docs[index])] }
        }
    }

    /// The term's largest weighted frequency in `doc` among its tokens; nil without any.
    package mutating func frequency(at doc: UInt32) throws -> UInt32? {
        if readsAsReached { _ = try tail?.probe(Int(doc)) }
        var found: UInt32?
        if !dense.isEmpty, dense[Int(doc)] > 0 { found = dense[Int(doc)] }
        // (An empty array is a shared one: taking its buffer mutably would allocate.)
        guard !members.isEmpty else { return found }
        try members.withUnsafeMutableBufferPointer { members in
            for index in members.indices {
                if let frequency = try members[index].frequency(at: doc) { found = max(found ?? 0, frequency) }
            }
        }
        return found
    }

    /// The largest block G×S over `first...last` among the tokens; nil when
    /// none can hold a document there.
    package mutating func maxGS(from first: UInt32, through last: UInt32) throws -> Double? {
        var best: Double?
        // The probed tokens' windows are bounded by their tables (``DenseTail/probe(_:)``).
        if readsAsReached { try tail?.fill(from: Int(first), through: Int(last), sparseOnly: true) }
        if !windowMaxGS.isEmpty, first <= last {
            var most = 0.0
            for window in Int(first) >> Self.windowShift...Int(last) >> Self.windowShift where window < windowMaxGS.count {
                most = max(most, windowMaxGS[window])
            }
            if most > 0 { best = most }
        }
        for index in members.indices {
            if let value = members[index].maxGS(from: first, through: last) { best = max(best ?? 0, value) }
        }
        return best
    }
}

/// A max-heap of list indices by bound, built in linear time. Entries
/// hold their bound, so sifting compares without an indirection: a short
/// prefix of a 1M-item store drives ~100,000 lists.
struct BoundHeap {
    private struct Entry {
        var bound: Double
        var index: Int
    }
    private var entries: [Entry]

    init(_ bounds: [Double]) {
        entries = bounds.enumerated().map { Entry(bound: $1, index: $0) }
        if entries.count > 1 {
            entries.withUnsafeMutableBufferPointer { buffer in
                for index in stride(from: buffer.count / 2 - 1, through: 0, by: -1) { Self.siftDown(buffer, index) }
            }
        }
    }

    mutating func push(_ bound: Double, index: Int) {
        entries.append(Entry(bound: bound, index: index))
        entries.withUnsafeMutableBufferPointer { entries in
            let moving = entries[entries.count - 1]
            var position = entries.count - 1
            while position > 0 {
                let parent = (position - 1) / 2
                if entries[parent].bound >= moving.bound { break }
                entries[position] = entries[parent]
                position = parent
            }
            entries[position] = moving
        }
    }

    mutating func pop() -> Int? {
        guard let first = entries.first else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            entries.withUnsafeMutableBufferPointer { Self.siftDown($0, 0) }
        }
        return first.index
    }

    private static func siftDown(_ entries: UnsafeMutableBufferPointer<Entry>, _ start: Int) {
        let count = entries.count
        let moving = entries[start]
        var index = start
        while true {
            let left = 2 * index + 1
            if left >= count { break }
            var child = left
            if left + 1 < count, entries[left + 1].bound > entries[left].bound { child = left + 1 }
            if entries[child].bound <= moving.bound { break }
            entries[index] = entries[child]
            index = child
        }
        entries[index] = moving
    }
}

/// The best hits so far, kept sorted (score descending, then rowid); past
/// ``sortedLimit`` they are gathered and sorted once at the end.
struct TopHits {
    static let sortedLimit = 4_096
    let limit: Int
    private var hits: [RankedHit] = []
    /// The k-th best score of another part of the same search (the other
    /// half of a store's segments, ``RankedSearcher/searchHalves(_:resolved:plan:lists:scales:query:limit:excluding:)``):
    /// a document below it cannot make the whole search's page either.
    private let shared: SharedThreshold?

    init(limit: Int, shared: SharedThreshold? = nil) {
        self.limit = limit
        self.shared = shared
    }

    private var keepsSorted: Bool { limit <= Self.sortedLimit }

    /// The score to beat once full: kept as hits come and go, as the
    /// searches ask for it at every posting.
    private(set) var threshold: Double?

    private mutating func noteThreshold() {
        threshold = keepsSorted && hits.count >= limit ? hits.last?.score.total : nil
        guard let shared else { return }
        if let threshold { shared.raise(to: threshold) }
        refresh()
    }

    /// Whether another part of the search shares its k-th score with this one.
    var refreshes: Bool { shared != nil }

    /// Takes the other part's k-th score when it is higher than this part's.
    @inline(__always)
    mutating func refresh() {
        guard let shared, keepsSorted, let other = shared.value, other > (threshold ?? -.infinity) else { return }
        threshold = other
    }

    @inline(__always)
    static func precedes(_ score: Double, _ rowid: Int64, _ other: RankedHit) -> Bool {
        score > other.score.total || (score == other.score.total && rowid < other.rowid)
    }

    func admits(_ score: Double, _ rowid: Int64) -> Bool {
        guard keepsSorted, hits.count >= limit, let last = hits.last else { return true }
        return Self.precedes(score, rowid, last)
    }

    mutating func insert(_ hit: RankedHit) {
        guard keepsSorted else {
            hits.append(hit)
            return
        }
        var low = 0, high = hits.count
        while low < high {
            let mid = (low + high) / 2
            if Self.precedes(hit.score.total, hit.rowid, hits[mid]) { high = mid } else { low = mid + 1 }
        }
        hits.insert(hit, at: low)
        if hits.count > limit { hits.removeLast() }
        noteThreshold()
    }

    /// Takes out the hit of `rowid`, if held.
    mutating func remove(rowid: Int64) {
        if let index = hits.firstIndex(where: { $0.rowid == rowid }) {
            hits.remove(at: index)
            noteThreshold()
        }
    }

    /// The hits, best first, at most `limit`.
    var sorted: [RankedHit] {
        if keepsSorted { return hits }
        return Array(hits.sorted { Self.precedes($0.score.total, $0.rowid, $1) }.prefix(limit))
    }
}

/// The highest k-th best score the parts of one search have reached
/// (``TopHits``): each part holds `limit` documents at or above its own,
/// so the whole search's k-th is at least the highest of them.
final class SharedThreshold: Sendable {
    private let bits = Atomic<UInt64>(Double.nan.bitPattern)

    /// The highest score raised to so far; nil before any.
    var value: Double? {
        let value = Double(bitPattern: bits.load(ordering: .relaxed))
        return value.isNaN ? nil : value
    }

    /// Raises the shared score to `score` when higher.
    func raise(to score: Double) {
        var current = bits.load(ordering: .relaxed)
        while true {
            let value = Double(bitPattern: current)
            guard value.isNaN || score > value else { return }
            let (exchanged, original) = bits.compareExchange(expected: current, desired: score.bitPattern, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
}
