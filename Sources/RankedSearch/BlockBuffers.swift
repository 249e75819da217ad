/// What one posting block decodes into: its doc ids, frequencies and
/// columns, each ``SegmentFormat/blockSize`` long, allocated once and freed
/// with the object. ``Segment/unpack(_:into:columns:)`` fills them and
/// returns how many postings are valid, never more than `blockSize`, so
/// loops over `0..<count` read them without further checks.
///
/// Readers that unpack many small blocks (a prefix's or a typo's thousands of
/// tokens) keep one of these instead of sizing arrays per block.
///
/// ```swift
/// let buffers = BlockBuffers()
/// for block in try segment.blocks(of: term) {
///     let count = try segment.unpack(block, into: buffers, columns: false)
///     for index in 0..<count { seen.insert(Int(buffers.docs[index])) }
/// }
/// ```
@_spi(Inspection) public final class BlockBuffers {
    /// Doc ids, ascending within a block.
    package let docs: UnsafeMutablePointer<UInt32>
    /// Weighted frequencies (tf × 16, the title bit in bit 0).
    @_spi(Inspection) public let frequencies: UnsafeMutablePointer<UInt32>
    /// The columns holding the token, a bit each; filled only when asked.
    package let columns: UnsafeMutablePointer<UInt8>

    package init() {
        docs = .allocate(capacity: SegmentFormat.blockSize)
        frequencies = .allocate(capacity: SegmentFormat.blockSize)
        columns = .allocate(capacity: SegmentFormat.blockSize)
    }

    deinit {
        docs.deallocate()
        frequencies.deallocate()
        columns.deallocate()
    }
}

extension Segment {
    /// Decodes block `block` into `buffers` (its columns too when
    /// `columns`); returns how many postings it holds.
    @inline(__always)
    @_spi(Inspection) public func unpack(_ block: Int, into buffers: BlockBuffers, columns: Bool) throws(SegmentError) -> Int {
        try unpackBlock(block, docs: buffers.docs, frequencies: buffers.frequencies, columns: columns ? buffers.columns : nil)
    }

    /// Decodes block `block`'s doc ids alone into `buffers` (its frequencies
    /// are left as they were): what a bitmap of documents reads, at about
    /// half the cost; returns how many postings it holds.
    @inline(__always)
    @_spi(Inspection) public func unpackDocs(_ block: Int, into buffers: BlockBuffers) throws(SegmentError) -> Int {
        try unpackBlock(block, docs: buffers.docs, frequencies: nil, columns: nil)
    }
}
