import Foundation

extension SegmentFormat {
    /// The integer tables stored bit-packed (format 17): each value in the
    /// section's width of bits (the header's ``packedWidthsOffset``), least
    /// significant bit first, in 8-byte words, then one zero word, so that
    /// any value is one unaligned 8-byte load, a shift and a mask
    /// (``PackedTable``).
    ///
    /// A width is what the largest value the section can hold needs: doc
    /// ids `bits(documents − 1)`, offsets `bits(the section's length)`,
    /// rowids `bits(largest − smallest)` above the header's
    /// ``rowidBaseOffset``. At 63,666 items these tables took 5.0 MB of a
    /// 19.6 MB segment in 4 and 8 bytes a value, 2.6 MB packed (16 to 23
    /// bits: doc ids in 16).
    ///
    /// ```swift
    /// SegmentFormat.packedWidth(maximum: 63_665)          // 16
    /// SegmentFormat.packedSize(count: 63_666, width: 16)   // 127,344 bytes
    /// ```
    static let packedSections: [Section] = [
        .rowids, .rowidOrder, .plainColumns, .termOffsets, .termFirstBlock, .termDocs, .blockOffsets, .blockLastDoc, .numberDocs, .uidDocs,
        .uidRuns,
    ]

    /// One byte a section (in ``Section`` order, 37 bytes): a packed
    /// section's width in bits, 0 for every other section.
    static let packedWidthsOffset = 376
    /// Int64: what every stored rowid is above (the segment's smallest).
    static let rowidBaseOffset = 416
    /// The widest packed value: with the shift of its first bit within
    /// its byte, it fits the 8 bytes one load reads.
    static let maxPackedWidth = 56

    /// The bits `maximum` needs (0 for 0).
    @_spi(Inspection) public static func packedWidth(maximum: UInt64) -> Int { 64 - maximum.leadingZeroBitCount }

    /// The bytes of a packed section of `count` values of `width` bits:
    /// whole words, then the zero word after the last.
    @_spi(Inspection) public static func packedSize(count: Int, width: Int) -> Int { 8 * ((count * width + 63) / 64 + 1) }
}

/// Where a packed section (``SegmentFormat/packedSections``) lies in a
/// segment's bytes, and its width: its values read in place.
///
/// ```swift
/// let table = PackedTable(start: 512, width: 16)
/// table.value(3, in: bytes)   // bits 48..<64 of the section
/// ```
struct PackedTable: BitwiseCopyable {
    let start: Int
    let width: Int

    /// Value `index` (below the section's count, which the segment checked its length for).
    @inline(__always)
    func value(_ index: Int, in base: UnsafeRawBufferPointer) -> UInt64 {
        let bit = index &* width
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start &+ (bit &>> 3), as: UInt64.self))
        return (word &>> UInt64(bit & 7)) & ((1 &<< UInt64(width)) &- 1)
    }

    /// The bytes holding values `indices` (for releasing what a merge read).
    func byteRange(_ indices: Range<Int>) -> Range<Int> {
        (start + indices.lowerBound * width / 8)..<(start + (indices.upperBound * width + 7) / 8)
    }
}

extension SegmentEncoder {
    /// Values on their way to a packed section, a word at a time, handed
    /// to the section writer a few thousand words at a time.
    struct PackedBits {
        let width: Int
        private var word: UInt64 = 0
        private var used = 0
        private var words: [UInt64] = []

        init(width: Int) {
            precondition(width >= 0 && width <= SegmentFormat.maxPackedWidth, "a packed width of \(width) bits")
            self.width = width
        }

        /// Appends `value`, which must fit in ``width`` bits.
        @inline(__always)
        mutating func add(_ value: UInt64, to out: inout SectionWriter) {
            assert(width == 64 || value >> UInt64(width) == 0, "\(value) does not fit in \(width) bits")
            guard width > 0 else { return }
            word |= value &<< UInt64(used)
            used += width
            guard used >= 64 else { return }
            words.append(word)
            used -= 64
            word = used == 0 ? 0 : value &>> UInt64(width - used)
            if words.count == 4_096 { hand(to: &out) }
        }

        /// Appends every value of `values`, each plus `base`, page by page.
        mutating func add<T: BinaryInteger>(_ values: PagedArray<T>, plus base: UInt64 = 0, to out: inout SectionWriter) {
            values.forEachPage { page in
                for value in page { add(UInt64(value) + base, to: &out) }
            }
        }

        /// The last word and the zero word after it.
        mutating func finish(into out: inout SectionWriter) {
            if used > 0 { words.append(word) }
            words.append(0)
            hand(to: &out)
            (word, used) = (0, 0)
        }

        private mutating func hand(to out: inout SectionWriter) {
            out.append(values: words)
            words.removeAll(keepingCapacity: true)
        }
    }
}
