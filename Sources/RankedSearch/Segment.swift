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
    var offsets: [Int] { shared.offsets }
    /// Where `termBytes` starts and how long it is: read on every term a
    /// typo walk or a prefix search passes.
    let termBytesAt: Int, termBytesSize: Int
    /// The same for the arrays a search reads per document and per block.
    let documentBoundsAt: Int, titleLengthsAt: Int
    let blockMaxGSAt: Int, blockMaxSAt: Int, blockMaxGSPartAt: Int
    // The tables and offsets below are internal, not private: the
    // extensions in Segment+Lookups, Segment+Dictionary and
    // Segment+Postings read them. Only Segment's files use them.

    /// The bit-packed tables (``SegmentFormat/packedSections``).
    let rowids: PackedTable, rowidOrderTable: PackedTable, plainColumnsTable: PackedTable, termOffsets: PackedTable, termFirstBlock: PackedTable,
                termDocs: PackedTable, blockOffsets: PackedTable, blockLastDocs: PackedTable, numberDocs: PackedTable,
                uidDocs: PackedTable, uidRuns: PackedTable
    /// What every stored rowid is above (``SegmentFormat/rowidBaseOffset``).
    let rowidBase: Int64
    /// The Float64 tables (``SegmentFormat/floatSections``).
    let expiresValues: FloatTable, hintValues: FloatTable, recencyValues: FloatTable, engagementValues: FloatTable,
                engagedAtValues: FloatTable, qualityValues: FloatTable, impressionValues: FloatTable, typedValues: FloatTable
    /// The segment's bytes (``bytes``' buffer).
    let base: UnsafeRawBufferPointer
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

    @inline(__always) func at(_ section: SegmentFormat.Section) -> Int { offsets[section.rawValue] }
    @inline(__always) func sectionEnd(_ section: SegmentFormat.Section) -> Int { offsets[section.rawValue + 1] }
    @inline(__always) func u64(_ section: SegmentFormat.Section, _ index: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at(section) + 8 * index, as: UInt64.self))
    }
    /// A stored maximum (``SegmentFormat/Maximum``) as a Double.
    @inline(__always) func maximum(_ section: SegmentFormat.Section, _ index: Int) -> Double {
        maximum(at: at(section), index)
    }
    @inline(__always) func maximum(at start: Int, _ index: Int) -> Double {
        SegmentFormat.Maximum(bits: UInt16(littleEndian: base.loadUnaligned(fromByteOffset: start + 2 * index, as: UInt16.self))).value
    }
    /// Where term `term`'s bytes start in `termBytes` (`termCount`: where the last ends).
    @inline(__always) func termOffset(_ term: Int) -> Int { Int(termOffsets.value(term, in: base)) }
    /// Where block `block` starts in `postingsData` (`blockCount`: where the last ends).
    @inline(__always) func blockOffset(_ block: Int) -> Int { Int(blockOffsets.value(block, in: base)) }

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
}

