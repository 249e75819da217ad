/// One block of postings (up to ``SegmentFormat/blockSize``), bit-packed.
///
/// Layout: `count − 1` (1 byte), the bit width of the doc gaps and of the
/// frequencies (1 byte each), a zero byte, the first doc id (UInt32), then
/// three runs, each packed least-significant bit first and padded to a
/// byte: `count − 1` gaps (each doc id minus the previous, minus 1), `count`
/// weighted frequencies (tf × 16), and `count` 4-bit column masks. Unpacking
/// reads every value with one unaligned 8-byte load, so the postings
/// section ends with ``padding`` zero bytes after its last block.
///
/// Decoding is the hottest loop of a search (a block per candidate a
/// cursor checks): a value costs a load, a shift and a mask, where the
/// varints of format 5 cost a branch per byte.
///
/// ```swift
/// var bytes: [UInt8] = []
/// PostingBlock.append(docs: [3, 4, 9], frequencies: [16, 32, 16], columns: [1, 1, 4], to: &bytes)
/// ```
@_spi(Inspection) public enum PostingBlock {
    static let headerSize = 8
    /// Zero bytes after the last block, so the last value's 8-byte load stays inside.
    package static let padding = 8

    /// Appends a block of ascending `docs` with their frequencies and columns.
    package static func append(docs: ArraySlice<UInt32>, frequencies: ArraySlice<UInt32>, columns: ArraySlice<UInt8>, to out: inout [UInt8]) {
        docs.withUnsafeBufferPointer { docs in
            frequencies.withUnsafeBufferPointer { frequencies in
                columns.withUnsafeBufferPointer { columns in
                    append(docs: docs, frequencies: frequencies, columns: columns, to: &out)
                }
            }
        }
    }

    /// Appends a block: the exact size is reserved first, then each run is
    /// packed through a 64-bit accumulator.
    static func append(docs: UnsafeBufferPointer<UInt32>, frequencies: UnsafeBufferPointer<UInt32>, columns: UnsafeBufferPointer<UInt8>,
                       to out: inout [UInt8]) {
        let count = docs.count
        precondition(count > 0 && count <= SegmentFormat.blockSize && frequencies.count == count && columns.count == count)
        var largestGap: UInt32 = 0, largestFrequency: UInt32 = 0
        for index in 1..<max(1, count) { largestGap = max(largestGap, docs[index] &- docs[index - 1] &- 1) }
        for frequency in frequencies { largestFrequency = max(largestFrequency, frequency) }
        let gapBits = width(largestGap), frequencyBits = width(largestFrequency)
        let start = out.count
        let total = size(count: count, gapBits: gapBits, frequencyBits: frequencyBits)
        out.append(contentsOf: repeatElement(0, count: total))
        out.withUnsafeMutableBufferPointer { buffer in
            let block = buffer.baseAddress! + start
            block[0] = UInt8(count - 1)
            block[1] = UInt8(gapBits)
            block[2] = UInt8(frequencyBits)
            UnsafeMutableRawPointer(block + 4).storeBytes(of: docs[0].littleEndian, as: UInt32.self)
            var at = headerSize
            pack(count - 1, bits: gapBits, into: block + at) { docs[$0 + 1] &- docs[$0] &- 1 }
            at += packedSize(count - 1, bits: gapBits)
            pack(count, bits: frequencyBits, into: block + at) { frequencies[$0] }
            at += packedSize(count, bits: frequencyBits)
            pack(count, bits: Int(SegmentFormat.columnBits), into: block + at) { UInt32(columns[$0] & 0x0F) }
        }
    }

    /// Bytes a block of `count` postings takes with these widths.
    static func size(count: Int, gapBits: Int, frequencyBits: Int) -> Int {
        headerSize + packedSize(count - 1, bits: gapBits) + packedSize(count, bits: frequencyBits)
            + packedSize(count, bits: Int(SegmentFormat.columnBits))
    }

    @inline(__always)
    static func packedSize(_ count: Int, bits: Int) -> Int { (count * bits + 7) / 8 }

    static func width(_ value: UInt32) -> Int { value == 0 ? 0 : 32 - value.leadingZeroBitCount }

    /// Packs `count` values of `bits` bits each, least-significant bit
    /// first, into zeroed bytes at `out`.
    @inline(__always)
    private static func pack(_ count: Int, bits: Int, into out: UnsafeMutablePointer<UInt8>, _ value: (Int) -> UInt32) {
        guard bits > 0 else { return }
        var accumulator: UInt64 = 0, filled = 0, at = 0
        for index in 0..<count {
            accumulator |= UInt64(value(index)) << UInt64(filled)
            filled += bits
            while filled >= 8 {
                out[at] = UInt8(truncatingIfNeeded: accumulator)
                accumulator >>= 8
                filled -= 8
                at += 1
            }
        }
        if filled > 0 { out[at] = UInt8(truncatingIfNeeded: accumulator) }
    }

    /// Unpacks the block at `bytes` (`length` of them, with at least
    /// ``padding`` readable bytes after) into the buffers, which hold
    /// ``SegmentFormat/blockSize`` each; returns the postings' count, or
    /// nil when the bytes are damaged (a width over 32, a length that does
    /// not add up, a doc id not below `documentCount`).
    /// Without `frequencies` (nor `columns`), only the doc ids are unpacked
    /// (a bitmap of a term's documents needs no more).
    @inline(__always)
    package static func unpack(_ bytes: UnsafeRawPointer, length: Int, documentCount: UInt64,
                       docs: UnsafeMutablePointer<UInt32>, frequencies: UnsafeMutablePointer<UInt32>?,
                       columns: UnsafeMutablePointer<UInt8>?) -> Int? {
        guard length >= headerSize else { return nil }
        let count = Int(bytes.load(fromByteOffset: 0, as: UInt8.self)) + 1
        let gapBits = Int(bytes.load(fromByteOffset: 1, as: UInt8.self))
        let frequencyBits = Int(bytes.load(fromByteOffset: 2, as: UInt8.self))
        guard count <= SegmentFormat.blockSize, gapBits <= 32, frequencyBits <= 32,
              length == size(count: count, gapBits: gapBits, frequencyBits: frequencyBits) else { return nil }
        var doc = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
        docs[0] = UInt32(truncatingIfNeeded: doc)
        var at = headerSize
        if gapBits == 0 {
            for index in 1..<count {
                doc &+= 1
                docs[index] = UInt32(truncatingIfNeeded: doc)
            }
        } else {
            // Wrapping arithmetic, no range iterator: offsets stay far below
            // any overflow (a block is at most a few kilobytes).
            let mask = UInt64(1) &<< UInt64(truncatingIfNeeded: gapBits) &- 1
            let gaps = bytes + at
            var bit = 0, index = 1
            while index < count {
                let word = UInt64(littleEndian: gaps.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
                doc = doc &+ (word &>> UInt64(truncatingIfNeeded: bit & 7)) & mask &+ 1
                docs[index] = UInt32(truncatingIfNeeded: doc)
                bit = bit &+ gapBits
                index = index &+ 1
            }
        }
        // Ascending: the last doc id bounds them all.
        guard doc < documentCount else { return nil }
        guard let frequencies else { return count }
        at += packedSize(count - 1, bits: gapBits)
        unpack(bytes + at, count: count, bits: frequencyBits, into: frequencies)
        at += packedSize(count, bits: frequencyBits)
        if let columns {
            for index in 0..<count {
                let byte = bytes.load(fromByteOffset: at + index >> 1, as: UInt8.self)
                columns[index] = index & 1 == 0 ? byte & 0x0F : byte >> 4
            }
        }
        return count
    }

    @inline(__always)
    private static func unpack(_ bytes: UnsafeRawPointer, count: Int, bits: Int, into values: UnsafeMutablePointer<UInt32>) {
        guard bits > 0 else {
            values.update(repeating: 0, count: count)
            return
        }
        let mask = UInt64(1) &<< UInt64(truncatingIfNeeded: bits) &- 1
        var bit = 0, index = 0
        while index < count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
            values[index] = UInt32(truncatingIfNeeded: (word &>> UInt64(truncatingIfNeeded: bit & 7)) & mask)
            bit = bit &+ bits
            index = index &+ 1
        }
    }
}
