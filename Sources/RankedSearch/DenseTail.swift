import Synchronization

/// What a ``TermCursor`` reads densely from a term of many tokens (a short
/// prefix's long tail): the most frequent of the tokens in each document,
/// and the largest block G×S in each window of ``TermCursor/windowSize``
/// documents (its block maxima in doc-id space). Filled once, then only
/// read, so copies of a cursor and other searches can share it
/// (``PrefixMemo``).
///
/// ```swift
/// let tail = DenseTail(documentCount: segment.documentCount)
/// try tail.add(ids, of: segment, wholeWord: -1, candidates: nil)
/// tail.frequencies[doc]   // 0: none of the tokens
/// ```
final class DenseTail: @unchecked Sendable {
    // Unchecked: the buffers are written by `add` before the tail is
    // shared (a cursor's init, or a memo's walk), and only read after; a
    // tail read as reached (`addAsReached`) is a scratch tail, never
    // shared: its one cursor, on one search's thread, fills it.

    /// Per document, the largest weighted frequency (0: none of the tokens).
    let frequencies: UnsafeMutableBufferPointer<UInt32>
    /// Per window, the largest block G×S (0: no posting there).
    let windowMaxGS: UnsafeMutableBufferPointer<Double>
    /// A scratch tail's pool and candidates: its buffers go back there,
    /// zeroed where it wrote, when it is done.
    private let recycle: (pool: ScratchTails, candidates: [UInt64]?)?
    /// A scratch tail's lines (``lineShift``: 16 documents, 64 bytes of
    /// ``frequencies``) that ``add(_:of:wholeWord:candidates:)`` wrote in,
    /// a bit each (nil for a tail that is kept): what it zeroes when done,
    /// with the windows holding them.
    private let touched: UnsafeMutableBufferPointer<UInt64>?

    /// A line of ``frequencies`` is `1 << lineShift` documents, a cache
    /// line: what a scratch tail's writes are tracked and zeroed by. By
    /// window (128 documents, 512 bytes), a tail under 0.1% dense zeroed
    /// 512 bytes a posting: at 10M items, ~12% of `source files`' time was
    /// that `memset`.
    static let lineShift = 4
    static let linesPerWindow = 1 << (TermCursor.windowShift - lineShift)

    init(documentCount: Int) {
        frequencies = .allocate(capacity: documentCount)
        frequencies.initialize(repeating: 0)
        windowMaxGS = .allocate(capacity: Self.windows(documentCount))
        windowMaxGS.initialize(repeating: 0)
        recycle = nil
        touched = nil
    }

    /// A tail read for one search (for `candidates` only, when given, as
    /// ``add(_:of:wholeWord:candidates:)`` is then called with them), in
    /// buffers from `pool` when it has some, given back when the tail is
    /// done with what it wrote zeroed: the candidates' entries, or the
    /// windows it wrote in. In a segment of
    /// millions of documents, allocating a zeroed tail per term and search
    /// (16 MB at 4M documents) was ~40% of a multi-word search's time at
    /// 10M items, nearly all of it the kernel's page faults.
    init(scratchFor documentCount: Int, candidates: DocumentBitmap?, pool: ScratchTails) {
        if let spare = pool.take(documentCount: documentCount) {
            frequencies = spare.frequencies
            windowMaxGS = spare.windowMaxGS
        } else {
            frequencies = .allocate(capacity: documentCount)
            frequencies.initialize(repeating: 0)
            windowMaxGS = .allocate(capacity: Self.windows(documentCount))
            windowMaxGS.initialize(repeating: 0)
        }
        recycle = (pool, candidates.map(\.words))
        if candidates == nil {
            touched = .allocate(capacity: (((documentCount + (1 << Self.lineShift) - 1) >> Self.lineShift) + 63) >> 6)
            touched?.initialize(repeating: 0)
        } else {
            touched = nil
        }
    }

    /// The first set bit of `bits` at `from` or after, below `limit`.
    static func nextSet(_ bits: UnsafeMutableBufferPointer<UInt64>, from: Int, below limit: Int) -> Int? {
        var index = from >> 6
        guard index < bits.count, from < limit else { return nil }
        var word = bits[index] & (~0 << UInt64(from & 63))
        while word == 0 {
            index += 1
            guard index < bits.count else { return nil }
            word = bits[index]
        }
        let found = index << 6 | word.trailingZeroBitCount
        return found < limit ? found : nil
    }

    /// The first clear bit of `bits` at `from` or after, or `limit`.
    static func nextClear(_ bits: UnsafeMutableBufferPointer<UInt64>, from: Int, below limit: Int) -> Int {
        var index = from >> 6
        guard index < bits.count, from < limit else { return limit }
        var word = ~bits[index] & (~0 << UInt64(from & 63))
        while word == 0 {
            index += 1
            guard index < bits.count else { return limit }
            word = ~bits[index]
        }
        return min(index << 6 | word.trailingZeroBitCount, limit)
    }

    static func windows(_ documentCount: Int) -> Int { (documentCount + TermCursor.windowSize - 1) >> TermCursor.windowShift }

    /// Zeroes the lines of `frequencies` whose bits `lines` has set (runs
    /// of set bits at once) and the entries of `windows` holding any.
    static func zero(lines: UnsafeMutableBufferPointer<UInt64>, frequencies: UnsafeMutableBufferPointer<UInt32>,
                     windows: UnsafeMutableBufferPointer<Double>) {
        let perWord = 64 / linesPerWindow, windowMask = UInt64(1) << UInt64(linesPerWindow) - 1
        for index in lines.indices where lines[index] != 0 {
            var word = lines[index]
            for slot in 0..<perWord where word >> UInt64(slot * linesPerWindow) & windowMask != 0 {
                let window = index * perWord + slot
                if window < windows.count { windows[window] = 0 }
            }
            while word != 0 {
                let first = word.trailingZeroBitCount
                let run = (~(word >> UInt64(first))).trailingZeroBitCount
                let line = index << 6 + first
                let start = min(line << lineShift, frequencies.count), stop = min((line + run) << lineShift, frequencies.count)
                UnsafeMutableBufferPointer(rebasing: frequencies[start..<stop]).update(repeating: 0)
                word = run + first >= 64 ? 0 : word & ~((UInt64(1) << UInt64(run + first)) - 1)
            }
        }
    }

    deinit {
        defer {
            touched?.deallocate()
            filled?.deallocate()
            filledSparse?.deallocate()
        }
        if let (pool, candidates) = recycle {
            if let candidates, !candidates.isEmpty {
                // `add` wrote only the candidates' entries and their windows.
                for (index, word) in candidates.enumerated() where word != 0 {
                    var word = word
                    while word != 0 {
                        let doc = index << 6 | word.trailingZeroBitCount
                        if doc < frequencies.count { frequencies[doc] = 0 }
                        if doc >> TermCursor.windowShift < windowMaxGS.count { windowMaxGS[doc >> TermCursor.windowShift] = 0 }
                        word &= word - 1
                    }
                }
            } else if let touched {
                // The lines written in, in runs (a dense tail's are long
                // runs: one large fill costs less than a call a line), and
                // the windows holding them.
                Self.zero(lines: touched, frequencies: frequencies, windows: windowMaxGS)
            }
            if let boundedWindows { UnsafeMutableBufferPointer(rebasing: windowMaxGS[boundedWindows]).update(repeating: 0) }
            if pool.give(ScratchTails.Buffers(frequencies: frequencies, windowMaxGS: windowMaxGS)) { return }
        }
        frequencies.deallocate()
        windowMaxGS.deallocate()
    }

    /// Reads the postings of `ids` in: with `candidates`, only the blocks
    /// that may hold one of them, and only their postings (the cursor is
    /// asked about no other document).
    func add(_ ids: some Sequence<Int>, of segment: Segment, wholeWord: Int, candidates: DocumentBitmap?) throws(SegmentError) {
        // Unpacked into fixed buffers: a tail is mostly tokens of a few
        // postings, for which sizing arrays per block cost more than unpacking.
        let buffers = BlockBuffers()
        let asked = candidates?.words ?? []
        try asked.withUnsafeBufferPointer { asked throws(SegmentError) in
            for id in ids {
                let blocks = try segment.blocks(of: id)
                let flag = RankedScoring.flag(id, wholeWord: wholeWord)
                for block in blocks where segment.block(block, of: blocks, mayHoldAnyOf: candidates) {
                    try read(block, flag: flag, of: segment, buffers: buffers, asked: asked)
                }
            }
        }
    }

    /// Reads one block's postings in (of `asked` only, when not empty):
    /// each document's largest frequency, and the block's maximum in
    /// each window it has a posting in.
    @inline(__always)
    private func read(_ block: Int, flag: UInt32, of segment: Segment, buffers: BlockBuffers,
                      asked: UnsafeBufferPointer<UInt64>) throws(SegmentError) {
        let dense = frequencies, windows = windowMaxGS, touched = self.touched
        let count = try segment.unpack(block, into: buffers, columns: false)
        // The block's own maximum bounds its windows: no per-document score.
        let blockMax = segment.blockMaxGS(block, wholeWord: flag != 0)
        var window = -1
        for index in 0..<count {
            let doc = Int(buffers.docs[index])
            if !asked.isEmpty, asked[doc >> 6] & (1 << UInt64(doc & 63)) == 0 { continue }
            let frequency = buffers.frequencies[index] | flag
            if frequency > dense[doc] { dense[doc] = frequency }
            if let touched {
                let line = doc >> Self.lineShift
                touched[line >> 6] |= 1 << UInt64(line & 63)
            }
            if doc >> TermCursor.windowShift != window {
                window = doc >> TermCursor.windowShift
                if blockMax > windows[window] { windows[window] = blockMax }
            }
        }
    }

    // MARK: Read as a search reaches it

    /// Documents of a segment whose cursors read their tails as reached
    /// (``Segment/readsTailsAsReached``). Alternating builds on the same
    /// stores: in 4M-document segments (10M items) the multi-word
    /// searches' p95 9.8–10.8 → 8.9–9.2 ms and p99 11.5–12.0 → 10.8–11.6
    /// (`bindings for` 7.2–11.7 → 6.2–7.2, `for…`'s tail read for the
    /// quarter of `bindings`' blocks it reads); in segments up to 512,000 (1M items) the
    /// same as reading tails whole, and at 63,666 items 11% slower
    /// summed over the queries (up to 44% on one): a small segment's tail
    /// is cheap to read whole, and the reads as reached cost per block.
    static let reachedDocuments = 1 << 20

    /// A block spanning more windows than this is sparse: read at once
    /// by ``addAsReached(_:of:wholeWord:candidates:sparseSpan:probedPostings:)`` (a token
    /// of a few postings is one block over much of a segment).
    static let reachedSpan = 256

    /// A token's dense blocks, read as a search reaches them.
    private struct PendingList {
        let blocks: Range<Int>
        let flag: UInt32
        /// Looked up document by document where asked (``probe(_:)``), its
        /// windows bounded by its blocks' tables: read only when a range
        /// of documents is asked for (``fill(from:through:sparseOnly:)``).
        let probed: Bool
        /// The first block that may overlap the next range asked (a
        /// search walks a list in doc order), and the block read last (-1: none).
        var next: Int, last = -1
        /// The last doc of the block before `next` (-1: none), `next`'s
        /// first and last (`Int.max` past the last block): a range these
        /// show `next` does not reach costs three comparisons, not three
        /// reads of the segment's tables.
        var before = -1, start = Int.max, end = Int.max

        init(blocks: Range<Int>, flag: UInt32, probed: Bool, in segment: Segment) {
            self.blocks = blocks
            self.flag = flag
            self.probed = probed
            next = blocks.lowerBound
            move(to: blocks.lowerBound, in: segment)
        }

        mutating func move(to block: Int, in segment: Segment) {
            next = block
            before = block > blocks.lowerBound ? Int(segment.blockLastDoc(block - 1)) : -1
            (start, end) = block < blocks.upperBound ? (Int(segment.blockFirstDoc(block, of: blocks)), Int(segment.blockLastDoc(block))) : (.max, .max)
        }
    }

    /// The dense blocks of a tail read as a search reaches them
    /// (``addAsReached(_:of:wholeWord:candidates:sparseSpan:probedPostings:)``), per token with some.
    private var pending: [PendingList] = []
    /// A bit per window whose postings are all read; nil for a tail read whole.
    private var filled: UnsafeMutableBufferPointer<UInt64>?
    /// A bit per window whose postings are read but for the probed
    /// tokens' (``PendingList/probed``); nil without any.
    private var filledSparse: UnsafeMutableBufferPointer<UInt64>?
    /// What ``pending`` is read with: the segment, the candidates, the
    /// widest span of a block left pending, and where blocks unpack.
    private var reading: (segment: Segment, candidates: DocumentBitmap?, span: Int, buffers: BlockBuffers)?

    /// A cursor over each probed token of ``pending`` (``PendingList/probed``).
    private var probes: [PostingCursor] = []

    /// A token of at least a ``probedShare``th of the segment's documents
    /// is probed where one document is asked about (``probe(_:)``): its
    /// block holds a document or two of those a search asks about after
    /// bounding its driver's, and a block read whole for one (128
    /// postings) cost more than looking the one up. `source files` at 10M
    /// items read ~780,000 postings of `files` a 4M-document segment for
    /// ~10,000 documents asked about. A smaller token's block spans many
    /// asked documents and is read whole once, as the search reaches it.
    static let probedShare = 32

    /// Whether some of the tail is read only as a search reaches it (``fill(from:through:)``).
    var readsAsReached: Bool { filled != nil }

    /// Like ``add(_:of:wholeWord:candidates:)``, but a token's dense blocks
    /// (spanning `sparseSpan` windows or fewer) are read only when
    /// ``fill(from:through:)`` asks for documents they span. A search
    /// driven by another term passes over many of its list's blocks on
    /// their own bound, before asking the others about them, and reads
    /// the tail only where the driver reads (``reachedDocuments``).
    ///
    /// A token of `probedPostings` or more (by default a ``probedShare``th
    /// of the segment's documents) is probed (``probe(_:)``).
    ///
    /// Called once, on a tail nothing was added to.
    func addAsReached(_ ids: some Sequence<Int>, of segment: Segment, wholeWord: Int, candidates: DocumentBitmap?,
                      sparseSpan: Int = reachedSpan, probedPostings: Int? = nil) throws(SegmentError) {
        let probedPostings = probedPostings ?? (segment.documentCount + Self.probedShare - 1) / Self.probedShare
        precondition(filled == nil && pending.isEmpty, "a tail is read as reached from the start")
        let buffers = BlockBuffers()
        let asked = candidates?.words ?? []
        try asked.withUnsafeBufferPointer { asked throws(SegmentError) in
            for id in ids {
                let blocks = try segment.blocks(of: id)
                let flag = RankedScoring.flag(id, wholeWord: wholeWord)
                let probed = segment.termDocumentCount(id) >= probedPostings
                var dense = false
                for block in blocks where segment.block(block, of: blocks, mayHoldAnyOf: candidates) {
                    if Self.span(of: block, in: blocks, of: segment) > sparseSpan {
                        try read(block, flag: flag, of: segment, buffers: buffers, asked: asked)
                    } else {
                        dense = true
                        if probed { bound(block, of: blocks, flag: flag, in: segment) }
                    }
                }
                if dense {
                    pending.append(PendingList(blocks: blocks, flag: flag, probed: probed, in: segment))
                    if probed { probes.append(PostingCursor(segment: segment, blocks: blocks, flag: flag)) }
                }
            }
        }
        guard !pending.isEmpty else { return }
        let filled = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: (windowMaxGS.count + 63) >> 6)
        filled.initialize(repeating: 0)
        self.filled = filled
        if !probes.isEmpty {
            let sparse = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: filled.count)
            sparse.initialize(repeating: 0)
            filledSparse = sparse
        }
        reading = (segment, candidates, sparseSpan, buffers)
    }

    /// Bounds every window that block `block` of a probed token's `blocks`
    /// spans by the block's maximum, from the tables alone, before the
    /// block is read: a window's maximum (``TermCursor/maxGS(from:through:)``)
    /// then holds without reading it. Looser than reading it (a window
    /// without any of its postings is bounded too), little for a token in
    /// a ``probedShare``th of the documents or more, whose block spans a
    /// few windows.
    @inline(__always)
    private func bound(_ block: Int, of blocks: Range<Int>, flag: UInt32, in segment: Segment) {
        let blockMax = segment.blockMaxGS(block, wholeWord: flag != 0)
        let first = Int(segment.blockFirstDoc(block, of: blocks)) >> TermCursor.windowShift
        let last = min(Int(segment.blockLastDoc(block)) >> TermCursor.windowShift, windowMaxGS.count - 1)
        guard first <= last else { return }
        for window in first...last where blockMax > windowMaxGS[window] { windowMaxGS[window] = blockMax }
        if let bounded = boundedWindows {
            boundedWindows = min(bounded.lowerBound, first)..<max(bounded.upperBound, last + 1)
        } else {
            boundedWindows = first..<(last + 1)
        }
    }
    /// The windows ``bound(_:of:flag:in:)`` wrote in, from the first to the
    /// last: zeroed when the tail is done, with the windows read.
    private var boundedWindows: Range<Int>?

    /// The windows block `block` of a term's `blocks` may span, less one,
    /// by the tables alone: a token's first block from doc 0 (its header,
    /// in the postings, would be a cache miss per token), so it is sparse
    /// unless it ends early.
    @inline(__always)
    private static func span(of block: Int, in blocks: Range<Int>, of segment: Segment) -> Int {
        (Int(segment.blockLastDoc(block)) - Int(segment.blockFirstDoc(block, of: blocks))) >> TermCursor.windowShift
    }

    /// Reads the pending blocks spanning `first...last` (whole windows)
    /// that are not read yet; nothing for a tail read whole, or windows read.
    /// `sparseOnly`: not the probed tokens' (``PendingList/probed``), whose
    /// windows their tables bound: enough for the windows' maxima, not
    /// for the documents' frequencies.
    @inline(__always)
    func fill(from first: Int, through last: Int, sparseOnly: Bool = false) throws(SegmentError) {
        guard let filled, first <= last else { return }
        let firstWindow = first >> TermCursor.windowShift, lastWindow = min(last >> TermCursor.windowShift, windowMaxGS.count - 1)
        var window = firstWindow
        if sparseOnly, let filledSparse {
            while window <= lastWindow, (filled[window >> 6] | filledSparse[window >> 6]) & (1 << UInt64(window & 63)) != 0 { window += 1 }
        } else {
            while window <= lastWindow, filled[window >> 6] & (1 << UInt64(window & 63)) != 0 { window += 1 }
        }
        guard window <= lastWindow else { return }
        try fillPending(windows: firstWindow...lastWindow, sparseOnly: sparseOnly && filledSparse != nil)
    }

    /// The tail's frequency in `doc` (0: none of its tokens), and
    /// ``frequencies``' entry for it from then on. In a window not read,
    /// the window's blocks of the tokens not probed are read, and each
    /// probed token is looked up at `doc` alone through its cursor (only
    /// as far as the block holding `doc`, and only that posting). Asked in
    /// ascending order between rewinds, as a cursor is.
    func probe(_ doc: Int) throws -> UInt32 {
        guard let filled else { return frequencies[doc] }
        let window = doc >> TermCursor.windowShift
        let bit = UInt64(1) << UInt64(window & 63)
        if filled[window >> 6] & bit != 0 { return frequencies[doc] }
        try fill(from: doc, through: doc, sparseOnly: true)
        guard !probes.isEmpty else { return frequencies[doc] }
        var found = frequencies[doc]
        for index in probes.indices {
            if let frequency = try probes[index].frequency(at: UInt32(doc)), frequency > found { found = frequency }
        }
        if found != frequencies[doc] {
            frequencies[doc] = found
            // Zeroed when the tail is done, as the windows read are.
            if let touched {
                let line = doc >> Self.lineShift
                touched[line >> 6] |= 1 << UInt64(line & 63)
            }
        }
        return found
    }

    private func fillPending(windows: ClosedRange<Int>, sparseOnly: Bool) throws(SegmentError) {
        guard let filled, let (segment, candidates, sparseSpan, buffers) = reading else { return }
        let low = windows.lowerBound << TermCursor.windowShift, high = (windows.upperBound + 1) << TermCursor.windowShift - 1
        let asked = candidates?.words ?? []
        // Taken out while read: a class's array, indexed in place, is an
        // exclusivity check per access (most of a fill of many tokens).
        var lists = pending
        pending = []
        defer { pending = lists }
        try asked.withUnsafeBufferPointer { asked throws(SegmentError) in
            for index in lists.indices {
                let list = lists[index]
                if sparseOnly, list.probed { continue }
                if list.before < low, list.end >= low, list.start > high { continue }
                let blocks = list.blocks
                var block = list.next
                if list.before >= low {
                    // Behind the last range asked: the first block ending at `low` or later.
                    var (lower, upper) = (blocks.lowerBound, block)
                    while lower < upper {
                        let middle = (lower + upper) >> 1
                        if segment.blockLastDoc(middle) < low { lower = middle + 1 } else { upper = middle }
                    }
                    block = lower
                }
                while block < blocks.upperBound, segment.blockLastDoc(block) < low { block += 1 }
                lists[index].move(to: block, in: segment)
                while block < blocks.upperBound, Int(segment.blockFirstDoc(block, of: blocks)) <= high {
                    if block != lists[index].last, Self.span(of: block, in: blocks, of: segment) <= sparseSpan,
                       segment.block(block, of: blocks, mayHoldAnyOf: candidates) {
                        try read(block, flag: list.flag, of: segment, buffers: buffers, asked: asked)
                        lists[index].last = block
                    }
                    block += 1
                }
            }
        }
        let marked = sparseOnly ? filledSparse ?? filled : filled
        for window in windows { marked[window >> 6] |= 1 << UInt64(window & 63) }
    }
}

/// Spare zeroed buffers of one segment's scratch tails
/// (``DenseTail/init(scratchFor:candidates:pool:)``), at most ``capacity``
/// (searches running at once): 4 bytes a document and 8 a window each,
/// 200 KB in a 50,000-item segment, 16 MB in one of 4M.
final class ScratchTails: Sendable {
    static let capacity = 2

    /// A tail's two buffers, all zero while spare.
    struct Buffers: @unchecked Sendable {
        // Unchecked: a spare's buffers belong to the pool alone; taken, to one tail.
        var frequencies: UnsafeMutableBufferPointer<UInt32>
        var windowMaxGS: UnsafeMutableBufferPointer<Double>
    }

    private let spare = Mutex<[Buffers]>([])

    /// A spare pair for `documentCount` documents, if any.
    func take(documentCount: Int) -> Buffers? {
        spare.withLock { spare in
            guard let index = spare.lastIndex(where: { $0.frequencies.count == documentCount }) else { return nil }
            return spare.remove(at: index)
        }
    }

    /// Keeps a zeroed pair; false when ``capacity`` are kept already (the caller frees it).
    func give(_ buffers: Buffers) -> Bool {
        spare.withLock { spare in
            guard spare.count < Self.capacity else { return false }
            spare.append(buffers)
            return true
        }
    }

    /// How many spare pairs are kept (tests).
    var count: Int { spare.withLock { $0.count } }

    /// Whether every spare pair is all zero, as a tail taking it needs (tests).
    var spareAreZero: Bool {
        spare.withLock { spare in
            spare.allSatisfy { $0.frequencies.allSatisfy { $0 == 0 } && $0.windowMaxGS.allSatisfy { $0 == 0 } }
        }
    }

    deinit {
        for buffers in spare.withLock({ $0 }) {
            buffers.frequencies.deallocate()
            buffers.windowMaxGS.deallocate()
        }
    }
}

/// The dense tails one segment has read whole, kept for the keystrokes
/// that follow: a word typed beside a short prefix (`gnu de`, `edu co`)
/// reads the prefix's tail of hundreds of tokens on every keystroke and
/// in every store, tens of thousands of postings in a 50,000-item
/// segment, about half of such a keystroke's work or more.
///
/// A segment never changes, so a tail stays right for as long as the
/// segment lives. Only a tail of at least a ``minimumShare``-th of the
/// segment's documents in postings is kept, read whole (every token, and
/// every document, though the search that reads it may want only a rare
/// word's), and only the ``capacity`` used last: each holds 4 bytes per
/// document, 200 KB in a 50,000-item segment, so a service over 1M items
/// holds at most 128 MB of them. Scans keep their arrays here too
/// (``Segment/scanArray(_:wholeWord:postings:)``: a common word of one
/// token, a prefix with its whole word flagged): with 16 kept, the
/// service benchmark's keystrokes in typing order evicted the tails the
/// next keystrokes wanted (`edu co` 1.9 → 7.5 ms of CPU over 20 stores,
/// `minimal dumb pr` 5.5 → 10.8); with 32, every keystroke of its slowest
/// dozen got faster (`for to` 11.9 → 4.9 ms) and none rose past 8 ms.
///
/// ```swift
/// var cursor = try TermCursor(segment: segment, ranges: [de], asked: 50_000)   // reads `de…` whole, keeps it
/// cursor = try TermCursor(segment: segment, ranges: [de], asked: 50_000)       // reads nothing
/// segment.rememberedDenseTails   // 1
/// ```
final class PrefixMemo: Sendable {
    /// Tails kept per segment.
    static let capacity = 32
    /// A tail is kept when its postings are at least the segment's documents ÷ this.
    static let minimumShare = 3

    /// A term's tokens, and whether every one is a whole word typed
    /// (``RankedScoring/everyToken``; otherwise none is, in the tail).
    struct Key: Hashable {
        var ranges: [Range<Int>]
        var everyToken: Bool
        /// A scan's array that holds this token flagged as the whole word
        /// typed (``Segment/scanArray(_:wholeWord:postings:)``); -1: none.
        var flagged = -1
    }

    private struct Kept {
        var tails: [Key: (tail: DenseTail, used: Int)] = [:]
        /// Counts uses, for the least recently used.
        var clock = 0
    }

    private let kept = Mutex(Kept())

    /// How many tails are kept.
    var count: Int { kept.withLock { $0.tails.count } }

    /// The kept tail of `key`, if any.
    func tail(_ key: Key) -> DenseTail? {
        kept.withLock { kept in
            guard let found = kept.tails[key] else { return nil }
            kept.clock += 1
            kept.tails[key] = (found.tail, kept.clock)
            return found.tail
        }
    }

    /// Whether `key`'s tail is kept (its use not counted).
    func contains(_ key: Key) -> Bool { kept.withLock { $0.tails[key] != nil } }

    /// Keeps `tail` for `key`, the least recently used out past ``capacity``.
    func keep(_ tail: DenseTail, for key: Key) {
        kept.withLock { kept in
            guard kept.tails[key] == nil else { return }
            if kept.tails.count >= Self.capacity, let oldest = kept.tails.min(by: { $0.value.used < $1.value.used })?.key {
                kept.tails[oldest] = nil
            }
            kept.clock += 1
            kept.tails[key] = (tail, kept.clock)
        }
    }
}

extension Segment {
    /// The tail of all `ranges`' tokens that this segment keeps; nil for a
    /// term of few tokens or one not kept. The whole word typed
    /// (`wholeWord` ≥ 0) is in it unflagged: a caller reads that token's
    /// postings flagged beside it.
    func keptTail(_ ranges: [Range<Int>], wholeWord: Int) -> DenseTail? {
        guard keepsDenseTails, TermCursor.isDense(ranges) else { return nil }
        return prefixMemo.tail(PrefixMemo.Key(ranges: ranges, everyToken: wholeWord == RankedScoring.everyToken))
    }

    /// Reads the tail of all `ranges`' tokens whole and keeps it, when
    /// `postings` (what the caller would otherwise read) is at least a
    /// ``PrefixMemo/minimumShare``-th of the documents; nil otherwise (as
    /// ``keptTail(_:wholeWord:)``, which a caller asks first).
    func keepTail(_ ranges: [Range<Int>], wholeWord: Int, postings: Int) throws(SegmentError) -> DenseTail? {
        guard keepsDenseTails, TermCursor.isDense(ranges), postings * PrefixMemo.minimumShare >= documentCount else { return nil }
        let key = PrefixMemo.Key(ranges: ranges, everyToken: wholeWord == RankedScoring.everyToken)
        let whole = DenseTail(documentCount: documentCount)
        try whole.add(ranges.joined(), of: self, wholeWord: key.everyToken ? wholeWord : -1, candidates: nil)
        prefixMemo.keep(whole, for: key)
        return whole
    }

    /// How many dense tails this segment remembers (at most ``PrefixMemo/capacity``).
    @_spi(Inspection) public var rememberedDenseTails: Int { prefixMemo.count }

    /// The spare buffers of scratch tails this segment holds, and whether they are all zero.
    @_spi(Inspection) public var spareScratchTails: (count: Int, zero: Bool) { (scratchTails.count, scratchTails.spareAreZero) }
}
