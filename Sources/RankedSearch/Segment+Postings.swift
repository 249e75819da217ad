import Foundation

/// A segment's postings: each term's blocks, their maxima and bounds in
/// doc-id space, and decoding a block (``PostingBlock``).
extension Segment {
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
