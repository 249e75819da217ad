extension PostingBlock {
    /// One block read in doc order only as far as it is asked, and one
    /// posting's frequency read where it lies: what a cursor over a common
    /// word needs, asked about a document here and there. Decoding the
    /// whole block (its gaps, frequencies or palette) for one document
    /// was a third of `for tools` at 10M items: `for` is in 79% of the
    /// documents, and each of the few thousand documents `tools…` asks
    /// about falls in another of its blocks.
    ///
    /// The header is checked as for unpacking (``header(_:length:)``),
    /// and each doc id as it is reached, so damaged bytes are
    /// reported, never read past.
    ///
    /// ```swift
    /// var probe = try #require(PostingBlock.Probe(bytes, length: length, documentCount: 1_000, lastDoc: 42))
    /// if let index = try probe.seek(42) { print(probe.frequency(at: index)) }
    /// ```
    struct Probe {
        private let bytes: UnsafeRawPointer
        private let count: Int, gapBits: Int, frequencyBits: Int, paletteSize: Int
        private let documentCount: UInt64
        /// Where the frequencies (no palette) or the palette's frequencies start.
        private let valuesAt: Int
        /// Where a palette's indices start, and their width.
        private let indicesAt: Int, indexBits: Int
        /// The posting reached, its doc id, and the bit of the next gap.
        private var index = 0, doc: UInt64, bit = 0

        /// Nil when the header is damaged (``PostingBlock/header(_:length:)``).
        /// `lastDoc`: the doc id of a block in the compact form (its
        /// table's last doc; its frequency is read as a run of one value
        /// after its first byte); unread for another block.
        init?(_ bytes: UnsafeRawPointer, length: Int, documentCount: UInt64, lastDoc: UInt32) {
            self.bytes = bytes
            self.documentCount = documentCount
            if PostingBlock.isCompact(bytes) {
                guard PostingBlock.compact(bytes, length: length) != nil else { return nil }
                (count, gapBits, frequencyBits, paletteSize) = (1, 0, (length - 1) * 8, 0)
                doc = UInt64(lastDoc)
                valuesAt = 1
                (indicesAt, indexBits) = (valuesAt, 0)
                return
            }
            guard let header = PostingBlock.header(bytes, length: length) else { return nil }
            (count, gapBits, frequencyBits, paletteSize) = header
            doc = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
            valuesAt = headerSize + packedSize(count - 1, bits: gapBits)
            indicesAt = valuesAt + packedSize(paletteSize, bits: frequencyBits) + packedSize(paletteSize, bits: Int(SegmentFormat.columnBits))
            indexBits = PostingBlock.indexBits(paletteSize: paletteSize)
        }

        /// The first posting at or after the one reached whose doc id is
        /// `target` or more, and whether it is `target`; nil past the last.
        /// Targets asked must not go down (a new probe starts again).
        mutating func seek(_ target: UInt32) throws(SegmentError) -> (index: Int, found: Bool)? {
            guard doc < documentCount else { throw .corrupt("a block's doc id is out of range") }
            let target = UInt64(target)
            guard doc < target else { return (index, doc == target) }
            let mask = UInt64(1) &<< UInt64(truncatingIfNeeded: gapBits) &- 1
            let gaps = bytes + headerSize
            while index &+ 1 < count {
                var next = doc &+ 1
                if gapBits > 0 {
                    let word = UInt64(littleEndian: gaps.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
                    next = next &+ (word &>> UInt64(truncatingIfNeeded: bit & 7)) & mask
                }
                guard next < documentCount else { throw .corrupt("a block's doc id is out of range") }
                doc = next
                bit = bit &+ gapBits
                index = index &+ 1
                if doc >= target { return (index, doc == target) }
            }
            return nil
        }

        /// The weighted frequency of posting `index` (of those reached).
        func frequency(at index: Int) -> UInt32 {
            if paletteSize == 0 { return value(at: valuesAt, index, bits: frequencyBits) }
            let entry = paletteSize == 1 ? 0 : Int(value(at: indicesAt, index, bits: indexBits))
            // An index past the palette reads as zero, as unpacking reads it.
            return entry < paletteSize ? value(at: valuesAt, entry, bits: frequencyBits) : 0
        }

        /// Value `index` of a run of `bits`-bit values at byte `offset`.
        @inline(__always)
        private func value(at offset: Int, _ index: Int, bits: Int) -> UInt32 {
            guard bits > 0 else { return 0 }
            let bit = index &* bits
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset &+ bit &>> 3, as: UInt64.self))
            return UInt32(truncatingIfNeeded: (word &>> UInt64(truncatingIfNeeded: bit & 7)) & (UInt64(1) &<< UInt64(truncatingIfNeeded: bits) &- 1))
        }
    }
}
