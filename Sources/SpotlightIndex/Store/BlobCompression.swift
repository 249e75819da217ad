/// A small, fast LZ77 compressor for stored attribute blobs, in pure Swift
/// (the engine's only native dependency stays SQLite).
///
/// Stored blobs start with a tag: the ``AttributeCodec`` version (1) for
/// bytes kept as they are, or `0xC1` for compressed ones:
/// `0xC1` `raw-length varint` then sequences, each
/// `token` (literal count in the high 4 bits, match length − 4 in the low 4;
/// 15 means more bytes follow, each added until one is under 255),
/// the literals, and, unless the sequence ends the block, a 2-byte
/// little-endian match offset (1…65,535 back). Blobs under
/// ``minimumToCompress`` bytes, or ones that do not shrink, are kept as
/// they are.
enum BlobCompression {
    static let compressedTag: UInt8 = 0xC1
    /// Blobs shorter than this are stored as they are: a few hundred bytes
    /// of text hold few repeats (the Debian corpus's ~600-byte items
    /// shrank by 15%), compressing them was a quarter of preparing an item
    /// for indexing, and inflating a 1–2 KB blob of short sequences cost a
    /// search result ~40k instructions, more than the rest of reading it.
    static let minimumToCompress = 4_096
    /// A raw length above this is damage, not data.
    static let maximumRawLength = 1 << 30
    private static let minMatch = 4
    private static let hashBits = 12

    static func pack(_ raw: [UInt8]) -> [UInt8] {
        guard raw.count >= minimumToCompress else { return raw }
        var out: [UInt8] = [compressedTag]
        AttributeCodec.writeVarint(UInt64(raw.count), &out)
        out.reserveCapacity(raw.count)
        // A table about as large as the input (at most 4,096 slots): a
        // blob of a few hundred bytes is most items, and clearing 16 KB
        // for each cost more than compressing it.
        let bits = min(hashBits, max(8, Int.bitWidth - raw.count.leadingZeroBitCount))
        raw.withUnsafeBufferPointer { input in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 1 << bits) { table in
                table.initialize(repeating: -1)
                compress(input, into: &out, table: table, bits: bits)
            }
        }
        return out.count < raw.count ? out : raw
    }

    private static func compress(_ input: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], table: UnsafeMutableBufferPointer<Int32>, bits: Int) {
        let count = input.count
        var anchor = 0
        var position = 0
        let limit = count - minMatch - 1
        // After every 32 positions without a match the step grows by one
        // (LZ4's acceleration): text that does not repeat is passed
        // quickly, at a small cost in ratio.
        var misses = 0
        while position < limit {
            let word = load32(input, position)
            let slot = Int((word &* 2_654_435_761) >> UInt32(32 - bits))
            let candidate = Int(table[slot])
            table[slot] = Int32(position)
            if candidate >= 0, position - candidate <= 65_535, load32(input, candidate) == word {
                var length = minMatch
                while position + length < count, input[candidate + length] == input[position + length] { length += 1 }
                emit(literals: input, from: anchor, to: position, matchLength: length, offset: position - candidate, into: &out)
                position += length
                anchor = position
                misses = 0
            } else {
                misses += 1
                position += 1 + misses >> 5
            }
        }
        emit(literals: input, from: anchor, to: count, matchLength: 0, offset: 0, into: &out)
    }

    @inline(__always)
    private static func load32(_ input: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
        UInt32(input[at]) | UInt32(input[at + 1]) << 8 | UInt32(input[at + 2]) << 16 | UInt32(input[at + 3]) << 24
    }

    private static func emit(literals input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
                             matchLength: Int, offset: Int, into out: inout [UInt8]) {
        let literalCount = end - start
        let matchCode = matchLength == 0 ? 0 : matchLength - minMatch
        out.append(UInt8(min(literalCount, 15) << 4 | min(matchCode, 15)))
        if literalCount >= 15 { writeLength(literalCount - 15, &out) }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<end]))
        guard matchLength > 0 else { return }
        out.append(UInt8(truncatingIfNeeded: offset))
        out.append(UInt8(truncatingIfNeeded: offset >> 8))
        if matchCode >= 15 { writeLength(matchCode - 15, &out) }
    }

    private static func writeLength(_ value: Int, _ out: inout [UInt8]) {
        var value = value
        while value >= 255 { out.append(255); value -= 255 }
        out.append(UInt8(value))
    }

    struct DamageError: Error, CustomStringConvertible {
        var description: String
    }

    /// The raw bytes of a stored blob; throws on damage, never reads or writes out of bounds.
    ///
    /// Search results decode every hit's blob, and a long description
    /// inflates to tens of kilobytes, so literals and matches that do not
    /// overlap their source are copied in bulk; only a match closer than
    /// its own length (a repeat) is copied byte by byte.
    static func unpack(_ stored: [UInt8]) throws -> [UInt8] {
        guard stored.first == compressedTag else { return stored }
        var reader = AttributeCodec.Reader(bytes: stored, offset: 1)
        let rawLength = try reader.varint()
        guard rawLength <= UInt64(maximumRawLength) else { throw DamageError(description: "compressed attributes claim \(rawLength) bytes") }
        let start = reader.offset
        let length = Int(rawLength)
        // Room past the end, so that short copies are whole machine words.
        var out = try stored.withUnsafeBufferPointer { input in
            try [UInt8](unsafeUninitializedCapacity: length + slack) { output, initialized in
                initialized = try inflate(input, from: start, into: output, length: length)
            }
        }
        out.removeLast(out.count - length)
        return out
    }

    /// Bytes after the output that short copies may write (then dropped).
    private static let slack = 32

    /// Inflates the sequences of `input[start...]` into the first `length`
    /// bytes of `output` (which has ``slack`` more), which must be filled
    /// exactly; returns how many bytes of `output` were written (the
    /// slack that copies overran included). Every length is checked before
    /// its copy; a literal of up to 16 bytes with 16 readable after it is
    /// copied as two words, and a match at least 8 back, 8 bytes at a
    /// time (each word's source is written before it is read).
    private static func inflate(_ input: UnsafeBufferPointer<UInt8>, from start: Int,
                                into output: UnsafeMutableBufferPointer<UInt8>, length capacity: Int) throws(DamageError) -> Int {
        guard let source = input.baseAddress, let target = output.baseAddress else { throw DamageError(description: "compressed attributes end too soon") }
        (target + capacity).initialize(repeating: 0, count: output.count - capacity)
        let end = input.count
        var at = start
        var written = 0
        @inline(__always) func length(_ code: Int) throws(DamageError) -> Int {
            var value = code
            guard code == 15 else { return value }
            while true {
                guard at < end else { throw DamageError(description: "compressed attributes end too soon") }
                let next = Int(source[at])
                at += 1
                value += next
                if value > maximumRawLength { throw DamageError(description: "compressed length overflows") }
                if next < 255 { return value }
            }
        }
        @inline(__always) func word(_ pointer: UnsafePointer<UInt8>) -> UInt64 { UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self) }
        @inline(__always) func store(_ value: UInt64, _ pointer: UnsafeMutablePointer<UInt8>) { UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: UInt64.self) }
        while at < end {
            let token = Int(source[at])
            at += 1
            let literalCount = try length(token >> 4)
            guard literalCount <= end - at, literalCount <= capacity - written else {
                throw DamageError(description: "compressed literals run past the end")
            }
            if literalCount > 0 {
                if literalCount <= 16, end - at >= 16 {
                    store(word(source + at), target + written)
                    store(word(source + at + 8), target + written + 8)
                } else {
                    (target + written).update(from: source + at, count: literalCount)
                }
                written += literalCount
                at += literalCount
            }
            if at == end { break }
            guard end - at >= 2 else { throw DamageError(description: "compressed attributes end too soon") }
            let offset = Int(source[at]) | Int(source[at + 1]) << 8
            at += 2
            let matchLength = try length(token & 0x0F) + minMatch
            guard offset > 0, offset <= written, matchLength <= capacity - written else {
                throw DamageError(description: "compressed match points outside the data")
            }
            let destination = target + written
            if offset >= 8 {
                // Whole words, overrunning by under 8 bytes into the slack.
                var copied = 0
                while copied < matchLength {
                    store(word(destination - offset + copied), destination + copied)
                    copied += 8
                }
            } else {
                for index in 0..<matchLength { destination[index] = destination[index - offset] }
            }
            written += matchLength
        }
        guard written == capacity else { throw DamageError(description: "compressed attributes inflate to \(written) bytes, not \(capacity)") }
        return min(output.count, capacity + slack)
    }
}
