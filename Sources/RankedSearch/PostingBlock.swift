/// One block of postings (up to ``SegmentFormat/blockSize``), bit-packed.
///
/// Layout: `count − 1` (1 byte), the bit width of the doc gaps and of the
/// frequencies (1 byte each), the palette's size `k` (1 byte, 0 for none),
/// the first doc id (UInt32), then runs, each packed least-significant bit
/// first and padded to a byte: `count − 1` gaps (each doc id minus the
/// previous, minus 1), then either
///
/// - without a palette, `count` weighted frequencies (tf × 16) and `count`
///   4-bit column masks, or
/// - with one, `k` frequencies and `k` column masks (the block's distinct
///   pairs, in order of first use) and `count` indices into them, each
///   `width(k − 1)` bits (none when `k` is 1).
///
/// A block of one posting (a word in one document: half a segment's
/// terms) is instead ``compactFlag`` with its column mask in one byte,
/// then its frequency's bytes (as few as it needs, at most 4): its doc id
/// is its last, which the block table holds (`blockLastDoc`), so 2–3
/// bytes where the general form took 10–11.
///
/// A block's (frequency, columns) pairs are few: a token once in the
/// description, once in the title… In the shared corpus a block holds
/// one pair in 60% of blocks and rarely more than 16, so the palette
/// takes a posting's frequency and columns from ~12.8 bits to ~3.8. The
/// writer keeps whichever form is smaller. Unpacking reads every value
/// with one unaligned 8-byte load, so the postings section ends with
/// ``padding`` zero bytes after its last block.
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
    /// Set in a block's first byte (which otherwise holds `count − 1`,
    /// at most 127): a block of one posting in the compact form.
    static let compactFlag: UInt8 = 0x80
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

    /// Appends a block: its palette is gathered, the smaller form chosen,
    /// the exact size reserved, then each run is packed through a 64-bit
    /// accumulator.
    static func append(docs: UnsafeBufferPointer<UInt32>, frequencies: UnsafeBufferPointer<UInt32>, columns: UnsafeBufferPointer<UInt8>,
                       to out: inout [UInt8]) {
        let count = docs.count
        precondition(count > 0 && count <= SegmentFormat.blockSize && frequencies.count == count && columns.count == count)
        if count == 1 {
            appendOne(frequency: frequencies[0], columns: columns[0], to: &out)
            return
        }
        var largestGap: UInt32 = 0, largestFrequency: UInt32 = 0
        for index in 1..<max(1, count) { largestGap = max(largestGap, docs[index] &- docs[index - 1] &- 1) }
        for frequency in frequencies { largestFrequency = max(largestFrequency, frequency) }
        let gapBits = width(largestGap), frequencyBits = width(largestFrequency)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: SegmentFormat.blockSize) { indices in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: SegmentFormat.blockSize) { firstUses in
                // One posting (most blocks): a palette of one takes as many bytes.
                let paletteSize = count == 1 ? 0 : palette(frequencies: frequencies, columns: columns, indices: indices.baseAddress!,
                                                           firstUses: firstUses.baseAddress!)
                let direct = size(count: count, gapBits: gapBits, frequencyBits: frequencyBits, paletteSize: 0)
                let paletted = paletteSize == 0 ? direct : size(count: count, gapBits: gapBits, frequencyBits: frequencyBits, paletteSize: paletteSize)
                let k = paletted < direct ? paletteSize : 0
                let start = out.count
                out.append(contentsOf: repeatElement(0, count: min(direct, paletted)))
                out.withUnsafeMutableBufferPointer { buffer in
                    let block = buffer.baseAddress! + start
                    block[0] = UInt8(count - 1)
                    block[1] = UInt8(gapBits)
                    block[2] = UInt8(frequencyBits)
                    block[3] = UInt8(k)
                    UnsafeMutableRawPointer(block + 4).storeBytes(of: docs[0].littleEndian, as: UInt32.self)
                    var at = headerSize
                    pack(count - 1, bits: gapBits, into: block + at) { docs[$0 + 1] &- docs[$0] &- 1 }
                    at += packedSize(count - 1, bits: gapBits)
                    let columnBits = Int(SegmentFormat.columnBits)
                    if k == 0 {
                        pack(count, bits: frequencyBits, into: block + at) { frequencies[$0] }
                        at += packedSize(count, bits: frequencyBits)
                        pack(count, bits: columnBits, into: block + at) { UInt32(columns[$0] & 0x0F) }
                    } else {
                        let firstUses = firstUses.baseAddress!, indices = indices.baseAddress!
                        pack(k, bits: frequencyBits, into: block + at) { frequencies[firstUses[$0]] }
                        at += packedSize(k, bits: frequencyBits)
                        pack(k, bits: columnBits, into: block + at) { UInt32(columns[firstUses[$0]] & 0x0F) }
                        at += packedSize(k, bits: columnBits)
                        pack(count, bits: indexBits(paletteSize: k), into: block + at) { UInt32(indices[$0]) }
                    }
                }
            }
        }
    }

    /// A block of one posting (a small segment's rarest terms: a word in
    /// one document) in the compact form: ``compactFlag`` and the column
    /// mask, then the frequency's little-endian bytes, as many as its
    /// width needs (none for 0). Its doc id is not written: a reader has
    /// it from the block table (the block's last doc).
    @inline(__always)
    private static func appendOne(frequency: UInt32, columns: UInt8, to out: inout [UInt8]) {
        let frequencyBytes = packedSize(1, bits: width(frequency))
        let bytes = (UInt64(compactFlag | columns & 0x0F) | UInt64(frequency) << 8).littleEndian
        withUnsafeBytes(of: bytes) { raw in
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[..<(1 + frequencyBytes)]))
        }
    }

    /// The frequency and column mask of a block in the compact form
    /// (``appendOne(frequency:columns:)``: `length` bytes at `bytes`, with
    /// ``padding`` readable after); nil when its length cannot be one.
    @inline(__always)
    static func compact(_ bytes: UnsafeRawPointer, length: Int) -> (frequency: UInt32, columns: UInt8)? {
        guard length >= 1, length <= 5 else { return nil }
        let word = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
        let frequencyBits = UInt64(truncatingIfNeeded: (length - 1) * 8)
        let frequency = UInt32(truncatingIfNeeded: (word >> 8) & (UInt64(1) &<< frequencyBits &- 1))
        return (frequency, UInt8(truncatingIfNeeded: word) & 0x0F)
    }

    /// Whether the block at `bytes` is in the compact form of one posting.
    @inline(__always)
    static func isCompact(_ bytes: UnsafeRawPointer) -> Bool { bytes.load(as: UInt8.self) & compactFlag != 0 }

    /// The block's distinct (frequency, columns) pairs: each posting's
    /// index among them into `indices`, where each is first used into
    /// `firstUses`; returns how many there are. A short block (most are a
    /// rare token's few postings) compares with the pairs found so far; a
    /// longer one probes a 256-slot open-addressed table on the stack.
    private static func palette(frequencies: UnsafeBufferPointer<UInt32>, columns: UnsafeBufferPointer<UInt8>,
                                indices: UnsafeMutablePointer<UInt8>, firstUses: UnsafeMutablePointer<Int>) -> Int {
        @inline(__always) func pair(_ index: Int) -> UInt64 { UInt64(frequencies[index]) << 4 | UInt64(columns[index] & 0x0F) }
        let count = frequencies.count
        if count <= 16 {
            var distinct = 0
            for index in 0..<count {
                let key = pair(index)
                var found = 0
                while found < distinct, pair(firstUses[found]) != key { found += 1 }
                if found == distinct {
                    firstUses[distinct] = index
                    distinct += 1
                }
                indices[index] = UInt8(found)
            }
            return distinct
        }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 256) { keys in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { slots in
                keys.initialize(repeating: .max)
                var distinct = 0
                for index in 0..<count {
                    let key = pair(index)
                    var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 56)
                    while keys[slot] != key, keys[slot] != .max { slot = (slot + 1) & 255 }
                    if keys[slot] == .max {
                        keys[slot] = key
                        slots[slot] = UInt8(distinct)
                        firstUses[distinct] = index
                        distinct += 1
                    }
                    indices[index] = slots[slot]
                }
                return distinct
            }
        }
    }

    /// Bytes a block of `count` postings takes with these widths and a
    /// palette of `paletteSize` pairs (0: none).
    package static func size(count: Int, gapBits: Int, frequencyBits: Int, paletteSize: Int) -> Int {
        let columnBits = Int(SegmentFormat.columnBits)
        let values = paletteSize == 0
            ? packedSize(count, bits: frequencyBits) + packedSize(count, bits: columnBits)
            : packedSize(paletteSize, bits: frequencyBits) + packedSize(paletteSize, bits: columnBits)
                + packedSize(count, bits: indexBits(paletteSize: paletteSize))
        return headerSize + packedSize(count - 1, bits: gapBits) + values
    }

    /// Bits of an index into a palette of `paletteSize` pairs (at most 7).
    @inline(__always)
    static func indexBits(paletteSize: Int) -> Int { width(UInt32(truncatingIfNeeded: paletteSize &- 1)) }

    @inline(__always)
    static func packedSize(_ count: Int, bits: Int) -> Int { (count * bits + 7) / 8 }

    package static func width(_ value: UInt32) -> Int { value == 0 ? 0 : 32 - value.leadingZeroBitCount }

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

    /// The header of the block at `bytes`: its postings, the widths of
    /// its gaps and frequencies, its palette's size; nil when a width is
    /// over 32, the palette outnumbers the postings, or they do not add up
    /// to `length`.
    @inline(__always)
    static func header(_ bytes: UnsafeRawPointer, length: Int) -> (count: Int, gapBits: Int, frequencyBits: Int, paletteSize: Int)? {
        guard length >= headerSize else { return nil }
        let count = Int(bytes.load(fromByteOffset: 0, as: UInt8.self)) + 1
        let gapBits = Int(bytes.load(fromByteOffset: 1, as: UInt8.self))
        let frequencyBits = Int(bytes.load(fromByteOffset: 2, as: UInt8.self))
        let paletteSize = Int(bytes.load(fromByteOffset: 3, as: UInt8.self))
        guard count <= SegmentFormat.blockSize, gapBits <= 32, frequencyBits <= 32, paletteSize <= count,
              length == size(count: count, gapBits: gapBits, frequencyBits: frequencyBits, paletteSize: paletteSize) else { return nil }
        return (count, gapBits, frequencyBits, paletteSize)
    }

    /// Unpacks the block at `bytes` (`length` of them, with at least
    /// ``padding`` readable bytes after) into the buffers, which hold
    /// ``SegmentFormat/blockSize`` each; returns the postings' count, or
    /// nil when the bytes are damaged (a width over 32, a length that does
    /// not add up, a doc id not below `documentCount`).
    /// Without `frequencies` (nor `columns`), only the doc ids are unpacked
    /// (a bitmap of a term's documents needs no more).
    /// `lastDoc`: the doc id of a block in the compact form
    /// (``appendOne(frequency:columns:)``), its table's last doc; unread
    /// for another block, whose header holds its own.
    @inline(__always)
    package static func unpack(_ bytes: UnsafeRawPointer, length: Int, documentCount: UInt64, lastDoc: UInt32,
                       docs: UnsafeMutablePointer<UInt32>, frequencies: UnsafeMutablePointer<UInt32>?,
                       columns: UnsafeMutablePointer<UInt8>?) -> Int? {
        if isCompact(bytes) {
            guard UInt64(lastDoc) < documentCount, let (frequency, mask) = compact(bytes, length: length) else { return nil }
            docs[0] = lastDoc
            frequencies?[0] = frequency
            columns?[0] = mask
            return 1
        }
        guard let (count, gapBits, frequencyBits, paletteSize) = header(bytes, length: length) else { return nil }
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
        guard paletteSize > 0 else {
            unpack(bytes + at, count: count, bits: frequencyBits, into: frequencies)
            at += packedSize(count, bits: frequencyBits)
            if let columns { unpackColumns(bytes + at, count: count, into: columns) }
            return count
        }
        unpackPalette(bytes + at, count: count, size: paletteSize, frequencyBits: frequencyBits,
                      frequencies: frequencies, columns: columns)
        return count
    }

    /// Unpacks a palette of `size` pairs and `count` indices into it. The
    /// indices are looked up in tables of `2^indexBits` entries (zero past
    /// the palette), so a damaged index reads a zero, never outside them.
    @inline(__always)
    private static func unpackPalette(_ bytes: UnsafeRawPointer, count: Int, size: Int, frequencyBits: Int,
                                      frequencies: UnsafeMutablePointer<UInt32>, columns: UnsafeMutablePointer<UInt8>?) {
        let columnsAt = packedSize(size, bits: frequencyBits)
        let indicesAt = columnsAt + packedSize(size, bits: Int(SegmentFormat.columnBits))
        let bits = indexBits(paletteSize: size)
        if size == 1 {
            // One pair (most blocks of a rare token): no indices.
            let mask = UInt64(1) &<< UInt64(truncatingIfNeeded: frequencyBits) &- 1
            let frequency = UInt32(truncatingIfNeeded: UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self)) & mask)
            frequencies.update(repeating: frequency, count: count)
            if let columns { columns.update(repeating: bytes.load(fromByteOffset: columnsAt, as: UInt8.self) & 0x0F, count: count) }
            return
        }
        let entries = 1 << bits
        if let columns {
            // Rarely asked (the query language's candidates): the indices
            // go through `frequencies` first.
            unpack(bytes + indicesAt, count: count, bits: bits, into: frequencies)
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: SegmentFormat.blockSize) { columnTable in
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: SegmentFormat.blockSize) { frequencyTable in
                    let columnTable = columnTable.baseAddress!, frequencyTable = frequencyTable.baseAddress!
                    unpackColumns(bytes + columnsAt, count: size, into: columnTable)
                    (columnTable + size).update(repeating: 0, count: entries - size)
                    unpack(bytes, count: size, bits: frequencyBits, into: frequencyTable)
                    (frequencyTable + size).update(repeating: 0, count: entries - size)
                    for index in 0..<count {
                        let entry = Int(truncatingIfNeeded: frequencies[index])
                        columns[index] = columnTable[entry]
                        frequencies[index] = frequencyTable[entry]
                    }
                }
            }
            return
        }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: SegmentFormat.blockSize) { table in
            let table = table.baseAddress!
            unpack(bytes, count: size, bits: frequencyBits, into: table)
            (table + size).update(repeating: 0, count: entries - size)
            // Each index read and looked up at once.
            let indices = bytes + indicesAt
            let mask = UInt64(1) &<< UInt64(truncatingIfNeeded: bits) &- 1
            var bit = 0, index = 0
            while index < count {
                let word = UInt64(littleEndian: indices.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
                frequencies[index] = table[Int(truncatingIfNeeded: (word &>> UInt64(truncatingIfNeeded: bit & 7)) & mask)]
                bit = bit &+ bits
                index = index &+ 1
            }
        }
    }

    /// Unpacks `count` 4-bit column masks.
    @inline(__always)
    private static func unpackColumns(_ bytes: UnsafeRawPointer, count: Int, into columns: UnsafeMutablePointer<UInt8>) {
        for index in 0..<count {
            let byte = bytes.load(fromByteOffset: index >> 1, as: UInt8.self)
            columns[index] = index & 1 == 0 ? byte & 0x0F : byte >> 4
        }
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
