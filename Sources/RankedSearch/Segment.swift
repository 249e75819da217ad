import Foundation

/// A segment of the ranked index, read in place from its bytes
/// (``SegmentBytes``): documents, a sorted term dictionary, and postings
/// in blocks with maximum scores.
///
/// Opening checks the header and that every section lies inside the bytes;
/// variable-length reads check their bounds as they go, so damaged bytes
/// give a ``SegmentError``, never a crash or a read outside the segment.
package struct Segment: @unchecked Sendable {
    @_spi(Inspection) public var bytes: SegmentBytes { shared.bytes }
    package let documentCount: Int
    package let termCount: Int
    /// The terms that are words: ids below this; the initials follow
    /// (``SegmentInitials``). Lookups of words never reach past it.
    @_spi(Inspection) public private(set) var wordCount: Int
    let blockCount: Int
    /// Terms of more than one block: those with maxima of their own
    /// (``SegmentFormat/multiBlockTermCountOffset``).
    let multiBlockTermCount: Int
    /// Typed attribute names, and typed values of all of them.
    @_spi(Inspection) public let numberNameCount: Int
    let numberValueCount: Int
    /// The first typed values, the exact-value index's: 0, not stored.
    let zeroValueCount: Int
    let buildTime: Double
    @_spi(Inspection) public let avgLength: Double
    package let fingerprint: UInt64
    private var offsets: [Int] { shared.offsets }
    /// Where `termBytes` starts and how long it is: read on every term a
    /// typo walk or a prefix search passes.
    private let termBytesAt: Int, termBytesSize: Int
    /// The same for the arrays a search reads per document and per block.
    private let documentBoundsAt: Int, titleLengthsAt: Int
    private let blockMaxGSAt: Int, blockMaxSAt: Int, blockMaxGSPartAt: Int
    /// The bit-packed tables (``SegmentFormat/packedSections``).
    private let rowids: PackedTable, rowidOrderTable: PackedTable, plainColumnsTable: PackedTable, termOffsets: PackedTable, termFirstBlock: PackedTable,
                termDocs: PackedTable, blockOffsets: PackedTable, blockLastDocs: PackedTable, numberDocs: PackedTable,
                uidDocs: PackedTable, uidRuns: PackedTable
    /// What every stored rowid is above (``SegmentFormat/rowidBaseOffset``).
    private let rowidBase: Int64
    /// The Float64 tables (``SegmentFormat/floatSections``).
    private let expiresValues: FloatTable, hintValues: FloatTable, recencyValues: FloatTable, engagementValues: FloatTable,
                engagedAtValues: FloatTable, qualityValues: FloatTable, impressionValues: FloatTable, typedValues: FloatTable
    /// Per section: 1, or 0 for a collapsed section (one value for every document).
    private let base: UnsafeRawBufferPointer
    /// Its bytes, section offsets, and what searches and
    /// writers keep of it, shared by its copies: one reference, so that
    /// copying a segment (a merge's inner loop copies its inputs' for each
    /// call, a search its segments') retains one object, not eight.
    private let shared: Shared
    /// Typo walks made in this segment (shared by its copies).
    var typoMemo: TypoMemo { shared.typo }
    /// Dense tails read in this segment (shared by its copies).
    var prefixMemo: PrefixMemo { shared.prefix }
    /// Spare buffers of the dense tails searches read for their candidates only.
    var scratchTails: ScratchTails { shared.scratchTails }
    /// Whether doc ids follow rowids (``isInRowidOrder``), found once.
    var rowidOrderMemo: RowidOrderMemo { shared.rowidOrder }
    /// The Bloom filter of its identifier hashes (``uidFilter``), built for a writer.
    var uidFilterMemo: UIDFilterMemo { shared.uidFilter }

    private final class Shared: Sendable {
        let bytes: SegmentBytes
        let offsets: [Int]
        let typo = TypoMemo()
        let prefix = PrefixMemo()
        let scratchTails = ScratchTails()
        let rowidOrder = RowidOrderMemo()
        let uidFilter = UIDFilterMemo()

        init(bytes: SegmentBytes, offsets: [Int]) {
            self.bytes = bytes
            self.offsets = offsets
        }
    }

    /// Whether searches keep long dense tails in ``prefixMemo`` and use
    /// those kept (off in tests that compare with reading them each time,
    /// and in a process that answers one search).
    package var keepsDenseTails = true

    /// Whether a cursor's tail reads its dense blocks only as a search
    /// reaches them (``DenseTail/addAsReached(_:of:wholeWord:candidates:sparseSpan:probedPostings:)``):
    /// in a segment of ``DenseTail/reachedDocuments`` or more (on in
    /// tests of small ones).
    package var readsTailsAsReached: Bool

    /// The segment's length in bytes.
    package var byteCount: Int { base.count }

    /// Reads the header; `verifyChecksum` also hashes every byte.
    package init(_ bytes: SegmentBytes, verifyChecksum: Bool) throws(SegmentError) {
        let base = bytes.buffer
        self.base = base
        guard base.count >= SegmentFormat.headerSize else { throw .corrupt("shorter than its header") }
        func u32(_ at: Int) -> UInt32 { UInt32(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
        func u64(_ at: Int) -> UInt64 { UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        guard u64(SegmentFormat.magicOffset) == SegmentFormat.magic else { throw .corrupt("bad magic number") }
        guard u32(SegmentFormat.versionOffset) == SegmentFormat.version else { throw .corrupt("format version \(u32(SegmentFormat.versionOffset))") }
        guard SegmentFormat.headerChecksum(base) == u64(SegmentFormat.headerChecksumOffset) else { throw .corrupt("header checksum mismatch") }
        guard u32(SegmentFormat.tokenizerOffset) == UInt32(TextTokenizer.version) else { throw .corrupt("tokenizer version \(u32(SegmentFormat.tokenizerOffset))") }
        guard u64(SegmentFormat.totalLengthOffset) == UInt64(base.count) else { throw .corrupt("truncated: \(base.count) of \(u64(SegmentFormat.totalLengthOffset)) bytes") }
        documentCount = Int(u32(SegmentFormat.docCountOffset))
        readsTailsAsReached = documentCount >= DenseTail.reachedDocuments
        termCount = Int(u32(SegmentFormat.termCountOffset))
        wordCount = termCount
        blockCount = Int(u32(SegmentFormat.blockCountOffset))
        let multiBlock = Int(u32(SegmentFormat.multiBlockTermCountOffset))
        multiBlockTermCount = multiBlock
        guard multiBlock <= termCount else { throw .corrupt("more terms of several blocks than terms") }
        numberNameCount = Int(u32(SegmentFormat.numberNameCountOffset))
        numberValueCount = Int(u32(SegmentFormat.numberValueCountOffset))
        let zeros = Int(u32(SegmentFormat.zeroValueCountOffset))
        zeroValueCount = zeros
        guard zeros <= numberValueCount else { throw .corrupt("more zero typed values than typed values") }
        rowidBase = Int64(bitPattern: u64(SegmentFormat.rowidBaseOffset))
        var widths: [Int] = [], modes: [FloatTable.Mode] = []
        for section in SegmentFormat.Section.allCases {
            let width = Int(base[SegmentFormat.packedWidthsOffset + section.rawValue])
            let code = base[SegmentFormat.floatModesOffset + section.rawValue]
            guard let mode = FloatTable.Mode(rawValue: code), mode == .raw || SegmentFormat.floatSections.contains(section) else {
                throw .corrupt("bad mode for section \(section)")
            }
            let packed = SegmentFormat.packedSections.contains(section) || mode != .raw
            guard packed ? width <= SegmentFormat.maxPackedWidth : width == 0 else { throw .corrupt("bad width for section \(section)") }
            widths.append(width)
            modes.append(mode)
        }
        fingerprint = u64(SegmentFormat.weightsHashOffset)
        buildTime = Double(bitPattern: u64(SegmentFormat.buildTimeOffset))
        avgLength = Double(bitPattern: u64(SegmentFormat.avgLengthOffset))
        guard avgLength.isFinite, avgLength > 0, buildTime.isFinite else { throw .corrupt("bad statistics in the header") }
        var offsets: [Int] = []
        for section in SegmentFormat.Section.allCases {
            offsets.append(Int(truncatingIfNeeded: u64(SegmentFormat.sectionOffsetField(section))))
        }
        offsets.append(base.count)
        let constant = u32(SegmentFormat.constantSectionsOffset)
        let collapsible = SegmentFormat.collapsibleSections.reduce(UInt32(0)) { $0 | 1 << UInt32($1.rawValue) }
        guard constant & ~collapsible == 0 else { throw .corrupt("bad collapsed-section bits") }
        let strides = SegmentFormat.Section.allCases.map { constant & (1 << UInt32($0.rawValue)) != 0 ? 0 : 1 }
        for section in SegmentFormat.floatSections where strides[section.rawValue] == 0 && modes[section.rawValue] != .raw {
            throw .corrupt("section \(section) both collapsed and encoded")
        }
        let n = documentCount, t = termCount, b = blockCount, k = numberNameCount, m = numberValueCount
        func packed(_ count: Int, _ section: SegmentFormat.Section) -> Int { SegmentFormat.packedSize(count: count, width: widths[section.rawValue]) }
        // A switch, not a dictionary: built for every segment a process
        // loads (a search over 20 stores loads ~60).
        func fixedSize(_ section: SegmentFormat.Section) -> Int? {
            switch section {
            case .expires, .hints, .recency, .engagement, .engagedAt, .quality, .impressions, .uidHashes, .documentBounds: 8 * n
            case .rowids, .rowidOrder, .uidDocs: packed(n, section)
            case .uidRuns: packed(IdentifierRuns.runCount(documents: n) + 1, section)
            case .titleLengths: n
            case .plainColumns: packed(n, section)
            case .termFirstBlock, .termDocs: packed(t, section)
            case .termMaxGPart, .termMaxG: 2 * t
            case .termMaxGSPart, .termMaxGS, .termMaxS: 2 * multiBlock
            case .termOffsets: packed(t + 1, section)
            case .termGroups: SegmentFormat.termGroupStride * Self.groupCount(terms: t)
            case .blockLastDoc: packed(b, section)
            case .blockMaxGSPart, .blockMaxGS, .blockMaxS: 2 * b
            case .blockOffsets: packed(b + 1, section)
            case .numberNameOffsets, .numberNameStarts: 8 * (k + 1)
            case .numberValues: 8 * (m - zeros)
            case .numberDocs: packed(m, section)
            case .termBytes, .postingsData, .numberNameBytes, .uidBytes: nil
            }
        }
        for section in SegmentFormat.Section.allCases {
            let start = offsets[section.rawValue], end = offsets[section.rawValue + 1]
            guard start >= SegmentFormat.headerSize, start % 8 == 0, start <= end, end <= base.count else {
                throw .corrupt("section \(section) out of place")
            }
            // An encoded Float64 table checks its own length (``FloatTable``).
            if modes[section.rawValue] == .raw, let size = fixedSize(section), end - start < (strides[section.rawValue] == 0 ? 8 : size) {
                throw .corrupt("section \(section) too short")
            }
        }
        shared = Shared(bytes: bytes, offsets: offsets)
        func floats(_ section: SegmentFormat.Section, count: Int) throws(SegmentError) -> FloatTable {
            let range = offsets[section.rawValue]..<offsets[section.rawValue + 1]
            guard modes[section.rawValue] != .raw else { return FloatTable(raw: range.lowerBound, stride: 8 * strides[section.rawValue]) }
            return try FloatTable(modes[section.rawValue], section: range, width: widths[section.rawValue], count: count, in: base)
        }
        expiresValues = try floats(.expires, count: n)
        hintValues = try floats(.hints, count: n)
        recencyValues = try floats(.recency, count: n)
        engagementValues = try floats(.engagement, count: n)
        engagedAtValues = try floats(.engagedAt, count: n)
        qualityValues = try floats(.quality, count: n)
        impressionValues = try floats(.impressions, count: n)
        typedValues = try floats(.numberValues, count: m - zeros)
        func table(_ section: SegmentFormat.Section) -> PackedTable { PackedTable(start: offsets[section.rawValue], width: widths[section.rawValue]) }
        rowids = table(.rowids)
        rowidOrderTable = table(.rowidOrder)
        plainColumnsTable = table(.plainColumns)
        termOffsets = table(.termOffsets)
        termFirstBlock = table(.termFirstBlock)
        termDocs = table(.termDocs)
        blockOffsets = table(.blockOffsets)
        blockLastDocs = table(.blockLastDoc)
        numberDocs = table(.numberDocs)
        uidDocs = table(.uidDocs)
        uidRuns = table(.uidRuns)
        termBytesAt = offsets[SegmentFormat.Section.termBytes.rawValue]
        termBytesSize = offsets[SegmentFormat.Section.termBytes.rawValue + 1] - termBytesAt
        documentBoundsAt = offsets[SegmentFormat.Section.documentBounds.rawValue]
        titleLengthsAt = offsets[SegmentFormat.Section.titleLengths.rawValue]
        blockMaxGSAt = offsets[SegmentFormat.Section.blockMaxGS.rawValue]
        blockMaxGSPartAt = offsets[SegmentFormat.Section.blockMaxGSPart.rawValue]
        blockMaxSAt = offsets[SegmentFormat.Section.blockMaxS.rawValue]
        if verifyChecksum {
            let sum = SegmentFormat.checksum(UnsafeRawBufferPointer(rebasing: base[SegmentFormat.headerSize...]))
            guard sum == u64(SegmentFormat.checksumOffset) else { throw .corrupt("checksum mismatch") }
        }
        wordCount = try lowerBound([SegmentFormat.initialMarker])
    }

    /// The checksum the header records.
    package var storedChecksum: UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: SegmentFormat.checksumOffset, as: UInt64.self))
    }

    // MARK: - Fixed-size arrays

    @inline(__always) private func at(_ section: SegmentFormat.Section) -> Int { offsets[section.rawValue] }
    @inline(__always) private func sectionEnd(_ section: SegmentFormat.Section) -> Int { offsets[section.rawValue + 1] }
    @inline(__always) private func u64(_ section: SegmentFormat.Section, _ index: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at(section) + 8 * index, as: UInt64.self))
    }
    /// A stored maximum (``SegmentFormat/Maximum``) as a Double.
    @inline(__always) private func maximum(_ section: SegmentFormat.Section, _ index: Int) -> Double {
        maximum(at: at(section), index)
    }
    @inline(__always) private func maximum(at start: Int, _ index: Int) -> Double {
        SegmentFormat.Maximum(bits: UInt16(littleEndian: base.loadUnaligned(fromByteOffset: start + 2 * index, as: UInt16.self))).value
    }
    /// Where term `term`'s bytes start in `termBytes` (`termCount`: where the last ends).
    @inline(__always) private func termOffset(_ term: Int) -> Int { Int(termOffsets.value(term, in: base)) }
    /// Where block `block` starts in `postingsData` (`blockCount`: where the last ends).
    @inline(__always) private func blockOffset(_ block: Int) -> Int { Int(blockOffsets.value(block, in: base)) }

    package func rowid(_ doc: Int) -> Int64 { rowidBase &+ Int64(bitPattern: rowids.value(doc, in: base)) }
    @_spi(Inspection) public func expires(_ doc: Int) -> Double {
        expiresValues.value(doc, in: base)
    }
    @_spi(Inspection) public func hint(_ doc: Int) -> Double { hintValues.value(doc, in: base) }
    /// The document at `index` in rowid order.
    @_spi(Inspection) public func rowidOrder(_ index: Int) -> Int { Int(rowidOrderTable.value(index, in: base)) }
    @_spi(Inspection) public func recency(_ doc: Int) -> Double? { let value = recencyValues.value(doc, in: base); return value.isNaN ? nil : value }
    @_spi(Inspection) public func engagement(_ doc: Int) -> Double { engagementValues.value(doc, in: base) }
    @_spi(Inspection) public func engagedAt(_ doc: Int) -> Double { engagedAtValues.value(doc, in: base) }
    /// Words of the document's title (at most 255).
    @_spi(Inspection) public func titleLength(_ doc: Int) -> Double { Double(base.load(fromByteOffset: titleLengthsAt + doc, as: UInt8.self)) }
    /// The columns (bits of ``TextColumns/bit(of:)``) whose text is their
    /// own attribute's and ASCII (``DocumentTokens/plainColumns``).
    @_spi(Inspection) public func plainColumns(_ doc: Int) -> UInt8 { UInt8(truncatingIfNeeded: plainColumnsTable.value(doc, in: base)) & 0x0F }
    /// The metadata factor (``DocumentTokens/ColumnWeights/quality(occurrences:hasThumbnail:)``).
    func quality(_ doc: Int) -> Double { qualityValues.value(doc, in: base) }
    /// Impressions, decayed to ``engagedAt(_:)`` as engagement is.
    func impressions(_ doc: Int) -> Double { impressionValues.value(doc, in: base) }
    @_spi(Inspection) public func length(_ doc: Int) -> Double {
        Double(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: documentBoundsAt + 8 * doc + 4, as: UInt32.self)))
    }
    /// Where the per-document static bounds (Float32) and lengths (UInt32)
    /// start, side by side (8 bytes a document), for a loop over every
    /// document (``RankedSearcher/searchScan``): ``documentCount`` pairs,
    /// checked when the segment was opened.
    var documentBounds: UnsafeRawPointer { base.baseAddress! + documentBoundsAt }
    @_spi(Inspection) public func staticBound(_ doc: Int) -> Double {
        Double(Float(bitPattern: UInt32(littleEndian: base.loadUnaligned(fromByteOffset: documentBoundsAt + 8 * doc, as: UInt32.self))))
    }

    /// A pair of ``gatherDocumentBounds(_:into:holding:)``: the static
    /// bound (its Float32 bits the low 32) and the length.
    @inline(__always)
    static func unpackBound(_ pair: UInt64) -> (staticBound: Double, length: Double) {
        (Double(Float(bitPattern: UInt32(truncatingIfNeeded: pair))), Double(UInt32(truncatingIfNeeded: pair >> 32)))
    }

    /// Each of `docs`' (decoded from this segment, so in range) static
    /// bound and length as one value, the bound's bits the low 32, into
    /// `pairs` (at least as long): ``staticBound(_:)`` and ``length(_:)``
    /// of a block's postings in one loop of independent reads. With
    /// `holding` (one entry a document, as long), only the documents whose
    /// entry is not 0; the others' pairs are left as they were.
    ///
    /// ```swift
    /// segment.gatherDocumentBounds(docs, into: &pairs)
    /// Float(bitPattern: UInt32(truncatingIfNeeded: pairs[0]))   // staticBound(docs[0])
    /// UInt32(truncatingIfNeeded: pairs[0] >> 32)                // length(docs[0])
    /// ```
    @_spi(Inspection) public func gatherDocumentBounds(_ docs: UnsafeBufferPointer<UInt32>, into pairs: inout [UInt64],
                                                       holding: [UInt32]? = nil) {
        let bounds = documentBounds
        (holding ?? []).withUnsafeBufferPointer { holding in
            pairs.withUnsafeMutableBufferPointer { pairs in
                for index in docs.indices where holding.isEmpty || holding[index] != 0 {
                    pairs[index] = UInt64(littleEndian: bounds.loadUnaligned(fromByteOffset: 8 * Int(docs[index]), as: UInt64.self))
                }
            }
        }
    }

    @_spi(Inspection) public func termDocumentCount(_ term: Int) -> Int { Int(termDocs.value(term, in: base)) }
    @_spi(Inspection) public func termMaxG(_ term: Int) -> Double { maximum(.termMaxG, term) }
    @_spi(Inspection) public func termMaxGS(_ term: Int) -> Double { termMaximum(.termMaxGS, block: blockMaxGSAt, term) }
    /// ``termMaxGS(_:)`` without the exact-title share: a prefix's completions' bound.
    @_spi(Inspection) public func termMaxGSPart(_ term: Int) -> Double { termMaximum(.termMaxGSPart, block: blockMaxGSPartAt, term) }
    /// The bound of a term's list: with the exact-title share for a whole word typed.
    @inline(__always)
    func termMaxGS(_ term: Int, wholeWord: Bool) -> Double { wholeWord ? termMaxGS(term) : termMaxGSPart(term) }
    @_spi(Inspection) public func termMaxS(_ term: Int) -> Double { termMaximum(.termMaxS, block: blockMaxSAt, term) }

    /// A term's maximum of `section` (G×S, S or G×S without the share): a
    /// term of one block has its block's (the block table at `block`), one
    /// of more has an entry of its own, at its rank among those
    /// (``multiBlockCount(before:)``). Damaged tables give +∞ (a bound
    /// that prunes nothing) or 0 (a term without postings), never a read
    /// outside them. Terms read in order of id: ``TermMaxima``.
    @inline(__always)
    private func termMaximum(_ section: SegmentFormat.Section, block blockTable: Int, _ term: Int) -> Double {
        let documents = termDocumentCount(term)
        if documents <= SegmentFormat.blockSize { return singleBlockMaximum(at: blockTable, term, documents: documents) }
        return ownMaximum(section, rank: multiBlockCount(before: term))
    }

    /// The maximum a term of one block (`documents` postings) has in the
    /// block table at `blockTable`: its block's; 0 without postings.
    @inline(__always)
    private func singleBlockMaximum(at blockTable: Int, _ term: Int, documents: Int) -> Double {
        let block = firstBlock(of: term)
        guard documents > 0, block < blockCount else { return 0 }
        return maximum(at: blockTable, block)
    }

    /// Entry `rank` of `section`, one of the maxima only terms of more than
    /// one block have; +∞ past their count (damaged tables).
    @inline(__always)
    func ownMaximum(_ section: SegmentFormat.Section, rank: Int) -> Double {
        rank < multiBlockTermCount ? maximum(section, rank) : .infinity
    }

    /// The terms of more than one block before term `term`: its group's
    /// count before the group (``SegmentFormat/termGroupMultiBlockOffset``),
    /// plus those of its group before it. A term of more than one block
    /// has its maxima at this rank.
    func multiBlockCount(before term: Int) -> Int {
        let group = term / SegmentFormat.termGroupSize
        let entry = at(.termGroups) + SegmentFormat.termGroupStride * group + SegmentFormat.termGroupMultiBlockOffset
        var count = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: entry, as: UInt32.self)))
        for other in (group * SegmentFormat.termGroupSize)..<term where termDocumentCount(other) > SegmentFormat.blockSize { count += 1 }
        return count
    }

    /// The first block of term `term` (unchecked: ``blocks(of:)`` checks it).
    @inline(__always)
    func firstBlock(of term: Int) -> Int { Int(termFirstBlock.value(term, in: base)) }

    /// ``termMaxG(_:)`` without the exact-title share.
    func termMaxGPart(_ term: Int) -> Double { maximum(.termMaxGPart, term) }
    @inline(__always)
    func termMaxG(_ term: Int, wholeWord: Bool) -> Double { wholeWord ? termMaxG(term) : termMaxGPart(term) }

    /// Sums and maxima over the terms of one group (``SegmentFormat/termGroupSize`` consecutive ids).
    @_spi(Inspection) public struct TermGroup {
        /// Postings of all its terms.
        package var documents: Int
        /// Postings of its most frequent term.
        package var mostDocuments: Int
        package var maxG: Double
        package var maxGS: Double
        package var maxS: Double
        /// ``maxG`` and ``maxGS`` without the exact-title share (a prefix's completions).
        var maxGPart: Double
        var maxGSPart: Double

        func maxG(wholeWord: Bool) -> Double { wholeWord ? maxG : maxGPart }
        func maxGS(wholeWord: Bool) -> Double { wholeWord ? maxGS : maxGSPart }
        /// Whether the group's ids `ids` hold a whole word typed (``RankedScoring/flag(_:wholeWord:)``).
        func wholeWord(for wholeWord: Int, in ids: Range<Int>) -> Bool {
            wholeWord == RankedScoring.everyToken || ids.contains(wholeWord)
        }
    }

    @_spi(Inspection) public static func groupCount(terms: Int) -> Int { (terms + SegmentFormat.termGroupSize - 1) / SegmentFormat.termGroupSize }

    /// Group `group`, which holds term ids `group × 64 ..< (group + 1) × 64`.
    @_spi(Inspection) public func termGroup(_ group: Int) -> TermGroup {
        let at = at(.termGroups) + SegmentFormat.termGroupStride * group
        func u32(_ offset: Int) -> UInt32 { UInt32(littleEndian: base.loadUnaligned(fromByteOffset: at + offset, as: UInt32.self)) }
        func f32(_ offset: Int) -> Double { Double(Float(bitPattern: u32(offset))) }
        // At most every document for each of the group's terms: a damaged
        // sum is clamped, so that adding groups up cannot overflow.
        let stored = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        let documents = Int(min(stored, UInt64(SegmentFormat.termGroupSize) * UInt64(documentCount)))
        return TermGroup(documents: documents, mostDocuments: Int(u32(8)), maxG: f32(12), maxGS: f32(16), maxS: f32(20),
                         maxGPart: f32(52), maxGSPart: f32(48))
    }

    /// The doc id of `rowid`, if the segment holds it.
    package func document(rowid: Int64) -> Int? {
        var low = 0, high = documentCount
        while low < high {
            let mid = (low + high) / 2
            let doc = rowidOrder(mid)
            guard doc < documentCount else { return nil }
            if self.rowid(doc) < rowid { low = mid + 1 } else { high = mid }
        }
        guard low < documentCount else { return nil }
        let doc = rowidOrder(low)
        return doc < documentCount && self.rowid(doc) == rowid ? doc : nil
    }

    /// The smallest and largest rowid held (nil when empty, or when a
    /// damaged order puts them the wrong way round).
    package var rowidRange: ClosedRange<Int64>? {
        guard documentCount > 0 else { return nil }
        let first = rowidOrder(0), last = rowidOrder(documentCount - 1)
        guard first < documentCount, last < documentCount, rowid(first) <= rowid(last) else { return nil }   // nil when damaged
        return rowid(first)...rowid(last)
    }

    // MARK: - Unique identifiers and typed values

    /// The documents whose unique identifier hashes to `hash`, deleted ones
    /// included: candidates, which the caller checks against the row.
    ///
    /// The hashes are uniform, so the search starts where `hash` falls in
    /// proportion (interpolation) and gallops from there: a few reads near
    /// each other instead of a binary search's twenty scattered ones,
    /// which at 1M items cost the writer ~3 µs an item in cache misses.
    package func documents(uidHash hash: UInt64) -> [Int] {
        let n = documentCount
        guard n > 0 else { return [] }
        @inline(__always) func key(_ index: Int) -> UInt64 { u64(.uidHashes, index) }
        let guess = min(n - 1, Int((Double(hash) / 18_446_744_073_709_551_616.0) * Double(n)))
        // Bracket the first index whose key is ≥ hash: low's key < hash (or low = 0), high's ≥ hash (or high = n).
        var low = guess, high = guess
        if key(guess) < hash {
            var step = 1
            high = guess + 1
            while high < n, key(high) < hash {
                low = high
                high = min(n, high + step)
                step *= 2
            }
            low += 1
        } else {
            var step = 1
            low = guess
            while low > 0, key(low - 1) >= hash {
                high = low - 1
                low = max(0, low - step)
                step *= 2
            }
        }
        while low < high {
            let mid = (low + high) / 2
            if key(mid) < hash { low = mid + 1 } else { high = mid }
        }
        var out: [Int] = []
        while low < n, key(low) == hash {
            let doc = Int(uidDocs.value(low, in: base))
            if doc < n { out.append(doc) }
            low += 1
        }
        return out
    }

    /// The unique identifier of `doc`, as its item was indexed.
    ///
    /// ```swift
    /// let identifier = try segment.identifier(segment.document(rowid: rowid)!)
    /// ```
    package func identifier(_ doc: Int) throws(SegmentError) -> String {
        var bytes: [UInt8] = []
        try identifierBytes(doc, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The UTF-8 bytes of `doc`'s unique identifier, into `bytes`
    /// (replacing what it held): decoded from the start of its run
    /// (``IdentifierRuns``), at most 16 identifiers.
    package func identifierBytes(_ doc: Int, into bytes: inout [UInt8]) throws(SegmentError) {
        guard doc >= 0, doc < documentCount else { throw .corrupt("no document \(doc) to name") }
        try IdentifierRuns.decode(identifierSection, from: identifierRunStart(doc / IdentifierRuns.runLength),
                                  skipping: doc % IdentifierRuns.runLength, into: &bytes)
    }

    /// Every document's identifier in doc order, each decoded over the one
    /// before: `body` gets the doc and its identifier's bytes (valid
    /// during the call). A merge reads them so, once.
    func forEachIdentifier(_ body: (Int, [UInt8]) throws(SegmentError) -> Void) throws(SegmentError) {
        var bytes: [UInt8] = []
        var reader = IdentifierRuns.Reader(identifierSection, at: 0)
        for doc in 0..<documentCount {
            if doc % IdentifierRuns.runLength == 0 { reader = IdentifierRuns.Reader(identifierSection, at: try identifierRunStart(doc / IdentifierRuns.runLength)) }
            try reader.next(into: &bytes, first: doc % IdentifierRuns.runLength == 0)
            try body(doc, bytes)
        }
    }

    /// The `uidBytes` section.
    private var identifierSection: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: base[at(.uidBytes)..<sectionEnd(.uidBytes)])
    }

    /// Where run `run` of identifiers starts in `uidBytes`, checked to lie inside it.
    private func identifierRunStart(_ run: Int) throws(SegmentError) -> Int {
        let start = Int(uidRuns.value(run, in: base))
        guard start <= sectionEnd(.uidBytes) - at(.uidBytes) else { throw .corrupt("identifiers of run \(run) out of place") }
        return start
    }

    /// The `index`th identifier hash in ascending order, and its document.
    func uidHash(_ index: Int) -> UInt64 { u64(.uidHashes, index) }
    func uidDoc(_ index: Int) -> UInt32 { UInt32(truncatingIfNeeded: uidDocs.value(index, in: base)) }

    /// The unique identifier hash of every document, by doc id (for merges).
    @_spi(Inspection) public func uidHashesByDocument() -> [UInt64] {
        var out = [UInt64](repeating: 0, count: documentCount)
        for index in 0..<documentCount {
            let doc = Int(uidDocs.value(index, in: base))
            if doc < documentCount { out[doc] = u64(.uidHashes, index) }
        }
        return out
    }

    /// The bytes of typed attribute name `index` (names ascend by bytes).
    @_spi(Inspection) public func numberName(_ index: Int) throws(SegmentError) -> UnsafeRawBufferPointer {
        let start = Int(truncatingIfNeeded: u64(.numberNameOffsets, index)), end = Int(truncatingIfNeeded: u64(.numberNameOffsets, index + 1))
        let size = sectionEnd(.numberNameBytes) - at(.numberNameBytes)
        guard start >= 0, start <= end, end <= size else { throw .corrupt("typed attribute name \(index) out of its section") }
        return UnsafeRawBufferPointer(start: base.baseAddress! + at(.numberNameBytes) + start, count: end - start)
    }

    /// The typed values of name `index`: a range of ``numberValue(_:)`` indexes.
    @_spi(Inspection) public func numberValues(ofName index: Int) throws(SegmentError) -> Range<Int> {
        let start = Int(truncatingIfNeeded: u64(.numberNameStarts, index)), end = Int(truncatingIfNeeded: u64(.numberNameStarts, index + 1))
        guard start >= 0, start <= end, end <= numberValueCount else { throw .corrupt("typed values of name \(index) out of range") }
        return start..<end
    }

    @_spi(Inspection) public func numberValue(_ index: Int) -> Double {
        index < zeroValueCount ? 0 : typedValues.value(index - zeroValueCount, in: base)
    }
    @_spi(Inspection) public func numberDoc(_ index: Int) -> UInt32 { UInt32(truncatingIfNeeded: numberDocs.value(index, in: base)) }

    /// Drops from resident memory what a merge read of `terms` and their
    /// `blocks`, once, in order (``SegmentBytes/release(_:minimum:)``): the
    /// terms' offsets, bytes, first blocks and counts, the blocks' offsets
    /// and postings. A large merge would otherwise keep most of every
    /// input resident.
    func releaseMerged(terms: Range<Int>, blocks: Range<Int>) {
        guard !terms.isEmpty, terms.upperBound <= termCount, blocks.upperBound <= blockCount else { return }
        // The byte ranges first: reading an offset would map its page back.
        let termBytes = termOffset(terms.lowerBound)..<max(termOffset(terms.lowerBound), termOffset(terms.upperBound))
        let postings = blockOffset(blocks.lowerBound)..<max(blockOffset(blocks.lowerBound), blockOffset(blocks.upperBound))
        let page = 1 << 12
        func release(_ section: SegmentFormat.Section, _ range: Range<Int>) {
            guard range.lowerBound >= 0 else { return }   // damaged offsets: nothing released
            bytes.release((at(section) + range.lowerBound)..<(at(section) + range.upperBound), minimum: page)
        }
        for table in [termOffsets, termFirstBlock, termDocs] { bytes.release(table.byteRange(terms), minimum: page) }
        release(.termBytes, termBytes)
        bytes.release(blockOffsets.byteRange(blocks), minimum: page)
        release(.postingsData, postings)
    }

    /// Drops `sections` from resident memory, once a merge has read them.
    func release(_ sections: [SegmentFormat.Section]) {
        for section in sections { bytes.release(at(section)..<sectionEnd(section), minimum: 1 << 12) }
    }

    /// Drops from resident memory every per-document section and the
    /// identifiers and typed values, which a merge reads once.
    func releaseDocuments() {
        release([.rowids, .expires, .hints, .recency, .engagement, .engagedAt, .documentBounds, .rowidOrder,
                 .titleLengths, .plainColumns, .quality, .impressions, .uidHashes, .uidDocs, .uidBytes, .uidRuns, .numberValues, .numberDocs])
    }

    /// Drops from resident memory the typed values and docs of indexes
    /// `values` (``SegmentBytes/release(_:minimum:)``), after a range (or
    /// a merge, with a page as `minimum`) read them all.
    func releaseNumbers(_ values: Range<Int>, minimum: Int = SegmentBytes.releaseMinimum) {
        let stored = max(0, values.lowerBound - zeroValueCount)..<max(0, values.upperBound - zeroValueCount)
        bytes.release(typedValues.byteRange(stored), minimum: minimum)
        bytes.release(numberDocs.byteRange(values), minimum: minimum)
    }

    /// The values of attribute `name` within `range`: indexes of
    /// ``numberValue(_:)`` and ``numberDoc(_:)``, found by binary searches.
    func numberValues(named name: String, in range: NumberRange) throws(SegmentError) -> Range<Int> {
        var low = 0, high = numberNameCount
        let key = Array(name.utf8)
        while low < high {
            let mid = (low + high) / 2
            let bytes = try numberName(mid)
            if bytes.lexicographicallyPrecedes(key) { low = mid + 1 } else { high = mid }
        }
        guard low < numberNameCount, try numberName(low).elementsEqual(key) else { return 0..<0 }
        let values = try numberValues(ofName: low)
        // First index whose value is not below the range, then first past it.
        func firstIndex(where isPast: (Double) -> Bool) -> Int {
            var low = values.lowerBound, high = values.upperBound
            while low < high {
                let mid = (low + high) / 2
                if isPast(numberValue(mid)) { high = mid } else { low = mid + 1 }
            }
            return low
        }
        let start = range.lower.map { bound in firstIndex { range.lowerInclusive ? $0 >= bound : $0 > bound } } ?? values.lowerBound
        let end = range.upper.map { bound in firstIndex { range.upperInclusive ? $0 > bound : $0 >= bound } } ?? values.upperBound
        return start..<max(start, end)
    }

    // MARK: - Dictionary

    /// The bytes of term `term`.
    @inline(__always)
    package func term(_ term: Int) throws(SegmentError) -> UnsafeRawBufferPointer {
        let start = termOffset(term), end = termOffset(term + 1)
        guard start >= 0, start <= end, end <= termBytesSize else { throw .corrupt("term \(term) out of its section") }
        return UnsafeRawBufferPointer(start: base.baseAddress! + termBytesAt + start, count: end - start)
    }

    /// The first term id whose bytes are not less than `key` (with
    /// `pastPrefix`, the first whose bytes do not start with `key` and are greater).
    ///
    /// The term groups are searched first, by the first 16 bytes of their
    /// first term kept in their entries (one compact section), then the one
    /// group's 64 terms: a binary search over the whole dictionary touched
    /// ~20 pages spread over two sections, and the kernel maps 64 KB around
    /// each page a query faults in (fault-around), so a single prefix query
    /// at 1M items made ~70 MB resident.
    @_spi(Inspection) public func lowerBound(_ key: [UInt8], pastPrefix: Bool = false) throws(SegmentError) -> Int {
        var failure: SegmentError?
        let found = key.withUnsafeBytes { (keyBytes: UnsafeRawBufferPointer) -> Int in
          do throws(SegmentError) {
            // Whether the term (or a term starting with `prefix`, of `length` bytes) lies before the answer.
            @inline(__always) func goesRight(_ bytes: UnsafeRawBufferPointer, length: Int) -> Bool? {
                let common = min(bytes.count, keyBytes.count)
                if common > 0 {
                    let order = memcmp(bytes.baseAddress!, keyBytes.baseAddress!, common)
                    if order != 0 { return order < 0 }
                }
                if bytes.count < length && bytes.count < keyBytes.count { return nil }   // the stored bytes end too soon to tell
                if pastPrefix, length >= keyBytes.count { return true }   // starts with key: before the end
                return length < keyBytes.count
            }
            @inline(__always) func termGoesRight(_ id: Int) throws(SegmentError) -> Bool {
                let bytes = try term(id)
                return goesRight(bytes, length: bytes.count)!
            }
            // The first group whose first term does not go right.
            let groups = Self.groupCount(terms: termCount)
            var low = 0, high = groups
            while low < high {
                let mid = (low + high) / 2
                let entry = at(.termGroups) + SegmentFormat.termGroupStride * mid
                let length = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: entry + SegmentFormat.termGroupKeyLengthOffset, as: UInt32.self)))
                let stored = UnsafeRawBufferPointer(start: base.baseAddress! + entry + SegmentFormat.termGroupKeyOffset,
                                                    count: min(length, SegmentFormat.termGroupKeySize))
                let right: Bool
                if let decided = goesRight(stored, length: length) { right = decided } else { right = try termGoesRight(mid * SegmentFormat.termGroupSize) }
                if right { low = mid + 1 } else { high = mid }
            }
            // Every term before group `low` goes right, and group `low`'s first does not:
            // the answer is in group `low - 1`, or is group `low`'s first term.
            var termLow = max(0, (low - 1) * SegmentFormat.termGroupSize)
            var termHigh = min(termCount, low * SegmentFormat.termGroupSize)
            while termLow < termHigh {
                let mid = (termLow + termHigh) / 2
                if try termGoesRight(mid) { termLow = mid + 1 } else { termHigh = mid }
            }
            return termLow
          } catch {
            failure = error
            return 0
          }
        }
        if let failure { throw failure }
        return found
    }

    /// The first term id after `start` that does not begin with `prefix`,
    /// given that term `start` does: galloping forward, then binary search,
    /// so that passing a few terms costs a few comparisons.
    func prefixEnd(_ prefix: UnsafeRawBufferPointer, from start: Int) throws(SegmentError) -> Int {
        // Compared from the prefix's end: a term past `start` shares the
        // start of `prefix` (the terms are sorted), so where it differs is
        // mostly late.
        @inline(__always) func begins(_ id: Int) throws(SegmentError) -> Bool {
            let bytes = try term(id)
            guard bytes.count >= prefix.count else { return false }
            var index = prefix.count
            while index > 0 {
                index -= 1
                if bytes[index] != prefix[index] { return false }
            }
            return true
        }
        return try firstTerm(from: start + 1, where: { id throws(SegmentError) in try !begins(id) })
    }

    /// The first term id from `start` on whose bytes are not less than
    /// `key`, given that term `start - 1` is: galloping forward, then binary
    /// search, so that a key a few terms ahead costs a few comparisons.
    @_spi(Inspection) public func lowerBound(_ key: UnsafeRawBufferPointer, from start: Int) throws(SegmentError) -> Int {
        @inline(__always) func isBelow(_ id: Int) throws(SegmentError) -> Bool {
            let bytes = try term(id)
            let common = min(bytes.count, key.count)
            var index = 0
            while index < common {
                if bytes[index] != key[index] { return bytes[index] < key[index] }
                index += 1
            }
            return bytes.count < key.count
        }
        return try firstTerm(from: start, where: { id throws(SegmentError) in try !isBelow(id) })
    }

    /// The first term id from `start` on for which `reached` holds (or
    /// `termCount`), given that it holds for every term after one it
    /// holds for: galloping forward, then binary search.
    @inline(__always)
    private func firstTerm(from start: Int, where reached: (Int) throws(SegmentError) -> Bool) throws(SegmentError) -> Int {
        var low = start, high = start, step = 1
        while high < termCount, try !reached(high) {
            low = high + 1
            high += step
            step *= 2
        }
        high = min(high, termCount)
        while low < high {
            let mid = (low + high) / 2
            if try reached(mid) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// Term ids equal to `token`, or starting with it for a prefix (words
    /// only: an empty prefix stops before the initials).
    @_spi(Inspection) public func terms(matching token: [UInt8], prefix: Bool) throws(SegmentError) -> Range<Int> {
        let low = min(try lowerBound(token), wordCount)
        if prefix { return low..<max(low, min(try lowerBound(token, pastPrefix: true), wordCount)) }
        guard low < wordCount, try term(low).elementsEqual(token) else { return low..<low }
        return low..<(low + 1)
    }

    /// The ids of the words among `words` that the dictionary holds,
    /// ascending. The words are put in byte order and each is looked up
    /// from where the one before it was (``lowerBound(_:from:)``): an
    /// infix fragment's thousand words cost a walk through the dictionary,
    /// not a thousand binary searches.
    @_spi(Inspection) public func terms(matchingAnyOf words: [String]) throws(SegmentError) -> [Int] {
        let keys = words.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        var out: [Int] = []
        var start = 0
        for (index, key) in keys.enumerated() where index == 0 || key != keys[index - 1] {
            var failure: SegmentError?
            let id = key.withUnsafeBytes { bytes -> Int in
                do throws(SegmentError) { return try lowerBound(bytes, from: start) } catch { failure = error; return wordCount }
            }
            if let failure { throw failure }
            guard id < wordCount else { break }
            if try term(id).elementsEqual(key) { out.append(id) }
            start = id
        }
        return out
    }

    /// Ids of the terms whose bytes contain `fragment`, ascending: one
    /// scan over the dictionary's bytes (terms are stored end to end),
    /// each hit mapped to its term by binary search. Stops after `limit` terms.
    @_spi(Inspection) public func terms(containing fragment: [UInt8], limit: Int = .max) throws(SegmentError) -> [Int] {
        guard !fragment.isEmpty, wordCount > 0, limit > 0 else { return [] }
        let start = at(.termBytes)
        func offset(_ term: Int) -> Int { termOffset(term) }
        guard offset(termCount) <= sectionEnd(.termBytes) - start, offset(wordCount) <= offset(termCount) else {
            throw .corrupt("the dictionary's bytes are out of their section")
        }
        // The words' bytes only: the initials follow them.
        let size = offset(wordCount)
        let haystack = base.baseAddress! + start
        var out: [Int] = []
        var position = 0, term = 0
        // The scan reads every term once: its pages leave resident memory after.
        defer { bytes.release(start..<(start + size)) }
        fragment.withUnsafeBytes { needle in
            while position < size, out.count < limit,
                  let at = Self.find(needle, in: haystack, from: position, size: size) {
                // The term holding byte `at`: the last whose start is ≤ at (from `term` on: hits ascend).
                var low = term, high = wordCount
                while high - low > 1 {
                    let mid = (low + high) / 2
                    if offset(mid) <= at { low = mid } else { high = mid }
                }
                term = low
                let end = offset(term + 1)
                if at + needle.count <= end {
                    out.append(term)
                    position = max(end, at + 1)
                    term += 1
                } else {
                    position = at + 1   // spans two terms: look again inside the next
                }
            }
        }
        return out
    }

    /// The first offset ≥ `from` where `needle` (not empty) starts in
    /// `haystack[..<size]`.
    ///
    /// Sixteen starting offsets at a time: vectors compare their first
    /// bytes with the needle's first byte, their second with its second
    /// and their bytes `count - 1` on with its last, and only offsets where
    /// all three agree are compared in full. A fragment's first letter
    /// alone is common in a dictionary (`memchr` for it, then `memcmp`,
    /// stopped every few bytes and made half of a `*ste*` query at 1M
    /// items), and so are first and last alone (`e?e`); all three together
    /// are rare. The last offsets, fewer than sixteen, are tried one by one.
    @_spi(Inspection) public static func find(_ needle: UnsafeRawBufferPointer, in haystack: UnsafeRawPointer, from: Int, size: Int) -> Int? {
        let count = needle.count
        let first = needle[0], last = needle[count - 1]
        let secondOffset = count > 2 ? 1 : 0
        @inline(__always) func matches(at position: Int) -> Bool {
            guard haystack.load(fromByteOffset: position, as: UInt8.self) == first,
                  haystack.load(fromByteOffset: position &+ count &- 1, as: UInt8.self) == last else { return false }
            // Fragments are short: the middle bytes compared in place cost
            // less than a call.
            guard count > 16 else {
                var index = 1
                while index < count &- 1 {
                    if haystack.load(fromByteOffset: position &+ index, as: UInt8.self) != needle[index] { return false }
                    index &+= 1
                }
                return true
            }
            return memcmp(haystack + position + 1, needle.baseAddress! + 1, count - 2) == 0
        }
        typealias Lanes = SIMD16<UInt8>
        let firsts = Lanes(repeating: first), seconds = Lanes(repeating: needle[secondOffset]), lasts = Lanes(repeating: last)
        var position = from
        // Offsets from here on leave room for a whole vector at `count - 1`.
        let lastVector = size - Lanes.scalarCount - count + 1
        while position <= lastVector {
            let starts = haystack.loadUnaligned(fromByteOffset: position, as: Lanes.self)
            let nexts = haystack.loadUnaligned(fromByteOffset: position &+ secondOffset, as: Lanes.self)
            let ends = haystack.loadUnaligned(fromByteOffset: position &+ count &- 1, as: Lanes.self)
            let all = (starts .== firsts) .& (nexts .== seconds) .& (ends .== lasts)
            if any(all) {
                for lane in 0..<Lanes.scalarCount where all[lane] && matches(at: position &+ lane) {
                    return position &+ lane
                }
            }
            position &+= Lanes.scalarCount
        }
        while position + count <= size {
            if matches(at: position) { return position }
            position += 1
        }
        return nil
    }

    // MARK: - Postings

    /// The blocks of term `term`.
    @_spi(Inspection) public func blocks(of term: Int) throws(SegmentError) -> Range<Int> {
        let first = Int(termFirstBlock.value(term, in: base))
        let count = (termDocumentCount(term) + SegmentFormat.blockSize - 1) / SegmentFormat.blockSize
        guard first + count <= blockCount else { throw .corrupt("term \(term)'s blocks out of range") }
        return first..<(first + count)
    }

    /// The block's largest term score × S without the exact-title share (a prefix's completions').
    @_spi(Inspection) public func blockMaxGSPart(_ block: Int) -> Double { maximum(at: blockMaxGSPartAt, block) }

    /// ``blockMaxGS(_:)`` for a whole word typed, ``blockMaxGSPart(_:)`` for a completion.
    @inline(__always)
    func blockMaxGS(_ block: Int, wholeWord: Bool) -> Double { wholeWord ? blockMaxGS(block) : blockMaxGSPart(block) }

    @_spi(Inspection) public func blockMaxGS(_ block: Int) -> Double { maximum(at: blockMaxGSAt, block) }
    func blockLastDoc(_ block: Int) -> UInt32 { UInt32(truncatingIfNeeded: blockLastDocs.value(block, in: base)) }

    /// The first doc id block `block` of a term's `blocks` can hold: one
    /// past the previous block's last, or 0 for the first. A damaged table
    /// whose previous block ends at the largest doc id gives 0 (the widest
    /// span, so the block is read and its decoding reports the damage),
    /// not an overflow.
    func blockFirstDoc(_ block: Int, of blocks: Range<Int>) -> UInt32 {
        block == blocks.lowerBound ? 0 : blockLastDoc(block - 1) &+ 1
    }

    /// Whether block `block` of a term's `blocks` spans a document of
    /// `candidates` (always, without): one that does not is not decoded.
    ///
    /// The tables bound a term's first block from doc 0 only, so there the
    /// block's own first doc id (its header) is read: a short prefix's
    /// thousands of rare tokens have a block each, most of one posting,
    /// and a span from 0 held a candidate for nearly all of them.
    @inline(__always)
    func block(_ block: Int, of blocks: Range<Int>, mayHoldAnyOf candidates: DocumentBitmap?) -> Bool {
        guard let candidates else { return true }
        let first = block == blocks.lowerBound ? storedFirstDoc(block) ?? 0 : Int(blockFirstDoc(block, of: blocks))
        return !candidates.isEmpty(from: first, through: Int(blockLastDoc(block)))
    }

    /// The first doc id block `block`'s header holds (a block of one
    /// posting in the compact form: its last, the table's); nil when the
    /// block lies outside its section (its decoding then reports the damage).
    @inline(__always)
    private func storedFirstDoc(_ block: Int) -> Int? {
        let start = blockOffset(block), size = sectionEnd(.postingsData) - at(.postingsData)
        guard start >= 0, start < size else { return nil }
        if PostingBlock.isCompact(base.baseAddress! + at(.postingsData) + start) { return Int(blockLastDoc(block)) }
        guard start + PostingBlock.headerSize <= size else { return nil }
        return Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: at(.postingsData) + start + 4, as: UInt32.self)))
    }
    @_spi(Inspection) public func blockMaxS(_ block: Int) -> Double { maximum(at: blockMaxSAt, block) }

    /// Decodes one block into `docs` and `frequencies` (weighted tf × 16).
    @_spi(Inspection) public func decodeBlock(_ block: Int, docs: inout [UInt32], frequencies: inout [UInt32]) throws(SegmentError) {
        var columns: [UInt8] = []
        try decodeBlock(block, docs: &docs, frequencies: &frequencies, columns: &columns, keepColumns: false)
    }

    /// Decodes one block into `docs`, `frequencies` (weighted tf × 16) and
    /// `columns` (the columns holding the token, a bit each).
    func decodeBlock(_ block: Int, docs: inout [UInt32], frequencies: inout [UInt32], columns: inout [UInt8]) throws(SegmentError) {
        try decodeBlock(block, docs: &docs, frequencies: &frequencies, columns: &columns, keepColumns: true)
    }

    /// Where block `block` lies in the postings, and its length: checked
    /// to lie inside the section with ``PostingBlock/padding`` bytes after.
    @inline(__always)
    private func blockBytes(_ block: Int) throws(SegmentError) -> (bytes: UnsafeRawPointer, length: Int) {
        let start = blockOffset(block), end = blockOffset(block + 1)
        let size = sectionEnd(.postingsData) - at(.postingsData)
        guard start >= 0, start <= end, end <= size - PostingBlock.padding else { throw .corrupt("block \(block) out of its section") }
        return (base.baseAddress! + at(.postingsData) + start, end - start)
    }

    /// The doc id of block `block` at `bytes` when it is in the compact
    /// form of one posting (the table's last doc), 0 for any other: its
    /// header holds its own, and reading the table for every block
    /// decoded kept `blockLastDoc`'s pages resident (~1 MB of query RSS
    /// at 1M items).
    @inline(__always)
    private func compactDoc(_ block: Int, _ bytes: UnsafeRawPointer) -> UInt32 {
        PostingBlock.isCompact(bytes) ? blockLastDoc(block) : 0
    }

    /// Decodes one block into buffers of ``SegmentFormat/blockSize``;
    /// returns how many postings it holds.
    @inline(__always)
    func unpackBlock(_ block: Int, docs: UnsafeMutablePointer<UInt32>, frequencies: UnsafeMutablePointer<UInt32>?,
                     columns: UnsafeMutablePointer<UInt8>?) throws(SegmentError) -> Int {
        let (bytes, length) = try blockBytes(block)
        guard let count = PostingBlock.unpack(bytes, length: length, documentCount: UInt64(documentCount), lastDoc: compactDoc(block, bytes),
                                              docs: docs, frequencies: frequencies, columns: columns) else {
            throw .corrupt("block \(block) does not decode (its widths, length or doc ids are out of range)")
        }
        return count
    }

    /// A probe of block `block` (``PostingBlock/Probe``): read only as far as asked.
    func probe(_ block: Int) throws(SegmentError) -> PostingBlock.Probe {
        let (bytes, length) = try blockBytes(block)
        guard let probe = PostingBlock.Probe(bytes, length: length, documentCount: UInt64(documentCount), lastDoc: compactDoc(block, bytes)) else {
            throw .corrupt("block \(block) does not decode (its widths, length or doc ids are out of range)")
        }
        return probe
    }

    /// Decodes into the arrays' own storage: a block is read for every
    /// candidate a cursor checks, so this is the hottest loop of a search (``PostingBlock/unpack(_:length:documentCount:docs:frequencies:columns:)``).
    @inline(__always)
    private func decodeBlock(_ block: Int, docs: inout [UInt32], frequencies: inout [UInt32], columns: inout [UInt8],
                             keepColumns: Bool) throws(SegmentError) {
        let (bytes, length) = try blockBytes(block)
        let documentCount = UInt64(self.documentCount), lastDoc = compactDoc(block, bytes)
        let capacity = SegmentFormat.blockSize
        // Straight into the arrays' storage, sized to a full block first
        // and cut to what the block holds.
        // (Growing back keeps the storage a shorter block left.)
        if docs.count != capacity { docs.append(contentsOf: repeatElement(0, count: capacity - docs.count)) }
        if frequencies.count != capacity { frequencies.append(contentsOf: repeatElement(0, count: capacity - frequencies.count)) }
        if keepColumns, columns.count != capacity { columns.append(contentsOf: repeatElement(0, count: capacity - columns.count)) }
        let decoded = docs.withUnsafeMutableBufferPointer { docs in
            frequencies.withUnsafeMutableBufferPointer { frequencies in
                if keepColumns {
                    columns.withUnsafeMutableBufferPointer { columns in
                        PostingBlock.unpack(bytes, length: length, documentCount: documentCount, lastDoc: lastDoc, docs: docs.baseAddress!,
                                            frequencies: frequencies.baseAddress!, columns: columns.baseAddress!)
                    }
                } else {
                    PostingBlock.unpack(bytes, length: length, documentCount: documentCount, lastDoc: lastDoc, docs: docs.baseAddress!,
                                        frequencies: frequencies.baseAddress!, columns: nil)
                }
            }
        } ?? -1
        if decoded >= 0, decoded < capacity {
            docs.removeLast(capacity - decoded)
            frequencies.removeLast(capacity - decoded)
            if keepColumns { columns.removeLast(capacity - decoded) }
        }
        if decoded < 0 {
            docs.removeAll()
            frequencies.removeAll()
            columns.removeAll()
            throw .corrupt("block \(block) does not decode (its widths, length or doc ids are out of range)")
        }
    }
}
