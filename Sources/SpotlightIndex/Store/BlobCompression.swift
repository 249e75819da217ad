/// A small, fast LZ77 compressor for stored attribute blobs, in pure Swift
/// (the engine's only native dependency stays SQLite).
///
/// Stored blobs start with a tag: the ``AttributeCodec`` version (1) for
/// bytes kept as they are, or `0xC1` for compressed ones:
/// `0xC1` `raw-length varint` then sequences, each
/// `token` (literal count in the high 4 bits, match length − 4 in the low 4;
/// 15 means more bytes follow, each added until one is under 255),
/// the literals, and, unless the sequence ends the block, a 2-byte
/// little-endian match offset (1…65,535 back). Short blobs, or ones that do
/// not shrink, are kept as they are.
enum BlobCompression {
    static let compressedTag: UInt8 = 0xC1
    static let minimumToCompress = 64
    /// A raw length above this is damage, not data.
    static let maximumRawLength = 1 << 30
    private static let minMatch = 4
    private static let hashBits = 12

    static func pack(_ raw: [UInt8]) -> [UInt8] {
        guard raw.count >= minimumToCompress else { return raw }
        var out: [UInt8] = [compressedTag]
        AttributeCodec.writeVarint(UInt64(raw.count), &out)
        out.reserveCapacity(raw.count)
        raw.withUnsafeBufferPointer { input in
            var table = [Int32](repeating: -1, count: 1 << hashBits)
            table.withUnsafeMutableBufferPointer { table in
                compress(input, into: &out, table: table)
            }
        }
        return out.count < raw.count ? out : raw
    }

    private static func compress(_ input: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], table: UnsafeMutableBufferPointer<Int32>) {
        let count = input.count
        var anchor = 0
        var position = 0
        let limit = count - minMatch - 1
        while position < limit {
            let word = load32(input, position)
            let slot = Int((word &* 2_654_435_761) >> UInt32(32 - hashBits))
            let candidate = Int(table[slot])
            table[slot] = Int32(position)
            if candidate >= 0, position - candidate <= 65_535, load32(input, candidate) == word {
                var length = minMatch
                while position + length < count, input[candidate + length] == input[position + length] { length += 1 }
                emit(literals: input, from: anchor, to: position, matchLength: length, offset: position - candidate, into: &out)
                position += length
                anchor = position
            } else {
                position += 1
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
    static func unpack(_ stored: [UInt8]) throws -> [UInt8] {
        guard stored.first == compressedTag else { return stored }
        var reader = AttributeCodec.Reader(bytes: stored, offset: 1)
        let rawLength = try reader.varint()
        guard rawLength <= UInt64(maximumRawLength) else { throw DamageError(description: "compressed attributes claim \(rawLength) bytes") }
        var out: [UInt8] = []
        out.reserveCapacity(Int(rawLength))
        var at = reader.offset
        func byte() throws -> UInt8 {
            guard at < stored.count else { throw DamageError(description: "compressed attributes end too soon") }
            defer { at += 1 }
            return stored[at]
        }
        func length(_ start: Int) throws -> Int {
            var value = start
            guard start == 15 else { return value }
            while true {
                let next = try byte()
                value += Int(next)
                if value > maximumRawLength { throw DamageError(description: "compressed length overflows") }
                if next < 255 { return value }
            }
        }
        while at < stored.count {
            let token = try byte()
            let literalCount = try length(Int(token >> 4))
            guard literalCount <= stored.count - at, out.count + literalCount <= Int(rawLength) else {
                throw DamageError(description: "compressed literals run past the end")
            }
            out.append(contentsOf: stored[at..<(at + literalCount)])
            at += literalCount
            if at == stored.count { break }
            let offset = Int(try byte()) | Int(try byte()) << 8
            let matchLength = try length(Int(token & 0x0F)) + minMatch
            guard offset > 0, offset <= out.count, out.count + matchLength <= Int(rawLength) else {
                throw DamageError(description: "compressed match points outside the data")
            }
            let from = out.count - offset
            for index in 0..<matchLength { out.append(out[from + index]) }
        }
        guard out.count == Int(rawLength) else { throw DamageError(description: "compressed attributes inflate to \(out.count) bytes, not \(rawLength)") }
        return out
    }
}
