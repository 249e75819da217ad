import Foundation
@_spi(Inspection) import RankedSearch
import Testing

/// Bit-packed posting blocks: every width from 0 to 32 bits comes back
/// exactly, with and without a palette, the smaller form is written, and
/// damaged bytes are refused without reading out of bounds.
@Suite struct PostingBlockTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var docs: [UInt32]
        var frequencies: [UInt32]
        var columns: [UInt8]
        var description: String { name }
    }

    static let cases: [Case] = {
        var seed: UInt64 = 11
        func next() -> UInt32 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: seed >> 33)
        }
        var cases: [Case] = [
            Case(name: "one posting", docs: [7], frequencies: [16], columns: [1]),
            Case(name: "consecutive docs (0-bit gaps)", docs: Array(100..<228), frequencies: Array(repeating: 16, count: 128),
                 columns: Array(repeating: 15, count: 128)),
            Case(name: "zero frequencies (0 bits)", docs: [0, 5, 6], frequencies: [0, 0, 0], columns: [0, 2, 8]),
            Case(name: "32-bit values", docs: [0, UInt32.max - 1], frequencies: [UInt32.max, 1], columns: [3, 12]),
        ]
        // Palettes: a few (frequency, columns) pairs among many postings.
        let pairs: [(UInt32, UInt8)] = [(32, 4), (64, 4), (321, 1), (160, 2), (32, 8), (32, 12), (513, 5)]
        for (name, used, count) in [("a palette of one pair (no index bits)", 1, 128), ("a palette of two pairs", 2, 40),
                                    ("a palette of seven pairs", 7, 128), ("a palette, the same frequency in two columns", 6, 97)] {
            let docs = (0..<count).map { UInt32($0 * 3 + Int(next() % 3)) }
            let chosen = docs.indices.map { $0 < used ? $0 : Int(next() % UInt32(used)) }
            cases.append(Case(name: name, docs: docs, frequencies: chosen.map { pairs[$0].0 }, columns: chosen.map { pairs[$0].1 }))
        }
        cases.append(Case(name: "128 distinct pairs (no palette)", docs: Array(0..<128), frequencies: (0..<128).map { UInt32($0 * 16) },
                          columns: (0..<128).map { UInt8($0 % 16) }))
        for bits in [1, 3, 7, 8, 9, 13, 17, 24, 31] {
            var docs: [UInt32] = [], doc: UInt32 = next() % 1000
            for _ in 0..<(1 + Int(next() % 128)) {
                docs.append(doc)
                doc += 1 + next() % (1 << UInt32(min(bits, 20)))
            }
            let frequencies = docs.map { _ in next() & (UInt32(1) << UInt32(bits) - 1) }
            cases.append(Case(name: "\(bits)-bit values", docs: docs, frequencies: frequencies, columns: docs.map { _ in UInt8(next() % 16) }))
        }
        return cases
    }()

    /// `bytes` unpacked as a segment's block whose table says its last doc id is `lastDoc`.
    static func decode(_ bytes: [UInt8], documentCount: UInt64, lastDoc: UInt32) -> (docs: [UInt32], frequencies: [UInt32], columns: [UInt8])? {
        let padded = bytes + Array(repeating: 0, count: PostingBlock.padding)
        var docs = [UInt32](repeating: 0, count: SegmentFormat.blockSize)
        var frequencies = docs
        var columns = [UInt8](repeating: 0, count: SegmentFormat.blockSize)
        let count = padded.withUnsafeBytes { raw in
            PostingBlock.unpack(raw.baseAddress!, length: bytes.count, documentCount: documentCount, lastDoc: lastDoc,
                                docs: &docs, frequencies: &frequencies, columns: &columns)
        }
        guard let count else { return nil }
        return (Array(docs[..<count]), Array(frequencies[..<count]), Array(columns[..<count]))
    }

    /// Any single byte of `bytes` changed: refused, or decoded in bounds.
    static func expectAnyByteChangedRefusedOrInBounds(_ bytes: [UInt8], lastDoc: UInt32) {
        for index in bytes.indices {
            for value: UInt8 in [0, 1, 0x7F, 0x80, 0xFF] {
                var damaged = bytes
                damaged[index] = value
                if let decoded = decode(damaged, documentCount: 1 << 20, lastDoc: lastDoc) {
                    #expect(decoded.docs.count <= SegmentFormat.blockSize)
                    #expect(decoded.docs.allSatisfy { $0 < 1 << 20 })
                }
            }
        }
    }

    /// A block of one posting, byte for byte, in the compact form: the
    /// flag and the column mask, then the frequency in as many bytes as
    /// its width needs (least-significant first), and no doc id: it
    /// decodes to the last doc id the block table gives.
    @Test(arguments: [
        (UInt32(7), UInt32(16), UInt8(1), [UInt8](arrayLiteral: 0x81, 16)),
        (0, 0, 0, [0x80]),
        (0x0102_0304, 255, 0x1F, [0x8F, 255]),
        (1, 256, 8, [0x88, 0, 1]),
        (UInt32.max - 1, 0x00AB_CDEF, 12, [0x8C, 0xEF, 0xCD, 0xAB]),
        (2, UInt32.max, 3, [0x83, 255, 255, 255, 255]),
    ])
    func aBlockOfOnePosting(doc: UInt32, frequency: UInt32, columns: UInt8, expected: [UInt8]) throws {
        var bytes: [UInt8] = [9]   // appended after what is there
        PostingBlock.append(docs: [doc][...], frequencies: [frequency][...], columns: [columns][...], to: &bytes)
        #expect(bytes == [9] + expected)
        let block = Array(bytes.dropFirst())
        let decoded = try #require(Self.decode(block, documentCount: UInt64(doc) + 1, lastDoc: doc))
        #expect(decoded.docs == [doc] && decoded.frequencies == [frequency] && decoded.columns == [columns & 0x0F])
        // The table's doc id at the segment's count is damage; so is a
        // length no compact block has.
        #expect(Self.decode(block, documentCount: UInt64(doc), lastDoc: doc) == nil)
        #expect(Self.decode(block + [0, 0, 0, 0, 0], documentCount: .max, lastDoc: doc) == nil)
        Self.expectAnyByteChangedRefusedOrInBounds(block, lastDoc: doc % (1 << 20))
    }

    @Test(arguments: cases)
    func blocksComeBackExactly(_ block: Case) throws {
        var bytes: [UInt8] = []
        PostingBlock.append(docs: block.docs[...], frequencies: block.frequencies[...], columns: block.columns[...], to: &bytes)
        let decoded = try #require(Self.decode(bytes, documentCount: UInt64(UInt32.max), lastDoc: block.docs.last!))
        #expect(decoded.docs == block.docs)
        #expect(decoded.frequencies == block.frequencies)
        #expect(decoded.columns == block.columns)
        // A doc id at the segment's count is damage.
        #expect(Self.decode(bytes, documentCount: UInt64(block.docs.last!), lastDoc: block.docs.last!) == nil)
    }

    /// The form written: a palette when it is smaller, its size in byte 3.
    @Test(arguments: [
        ("consecutive docs (0-bit gaps)", 1), ("a palette of one pair (no index bits)", 1),
        ("a palette of two pairs", 2), ("a palette of seven pairs", 7), ("a palette, the same frequency in two columns", 6),
        ("128 distinct pairs (no palette)", 0), ("24-bit values", 0),
    ])
    func theSmallerFormIsWritten(name: String, paletteSize: Int) throws {
        let block = try #require(Self.cases.first { $0.name == name })
        var bytes: [UInt8] = []
        PostingBlock.append(docs: block.docs[...], frequencies: block.frequencies[...], columns: block.columns[...], to: &bytes)
        #expect(Int(bytes[3]) == paletteSize)
        let frequencyBits = PostingBlock.width(block.frequencies.max()!)
        let gapBits = PostingBlock.width(zip(block.docs.dropFirst(), block.docs).map { $0 - $1 - 1 }.max() ?? 0)
        let direct = PostingBlock.size(count: block.docs.count, gapBits: gapBits, frequencyBits: frequencyBits, paletteSize: 0)
        #expect(bytes.count == PostingBlock.size(count: block.docs.count, gapBits: gapBits, frequencyBits: frequencyBits, paletteSize: paletteSize))
        #expect(paletteSize == 0 ? bytes.count == direct : bytes.count < direct)
    }

    /// A palette block whose indices point past its palette decodes in
    /// bounds (a zero frequency and no columns), and one whose palette is
    /// larger than its postings is refused.
    @Test func damagedPalettesStayInBounds() throws {
        let block = try #require(Self.cases.first { $0.name == "a palette of seven pairs" })
        var bytes: [UInt8] = []
        PostingBlock.append(docs: block.docs[...], frequencies: block.frequencies[...], columns: block.columns[...], to: &bytes)
        #expect(bytes[3] == 7)
        var pastPalette = bytes
        // The last index is the block's top 3 bits (128 × 3 bits): make it 7, past the palette's 0...6.
        pastPalette[pastPalette.count - 1] |= 0xE0
        let decoded = try #require(Self.decode(pastPalette, documentCount: .max, lastDoc: 0))
        #expect(decoded.frequencies.last == 0 && decoded.columns.last == 0)
        #expect(Array(decoded.frequencies.dropLast()) == Array(block.frequencies.dropLast()))
        var oversized = bytes
        oversized[3] = 200
        #expect(Self.decode(oversized, documentCount: .max, lastDoc: 0) == nil)
        Self.expectAnyByteChangedRefusedOrInBounds(bytes, lastDoc: block.docs.last!)
    }

    @Test func damagedBlocksAreRefused() throws {
        var bytes: [UInt8] = []
        let block = try #require(Self.cases.first { $0.name == "3-bit values" })
        PostingBlock.append(docs: block.docs[...], frequencies: block.frequencies[...], columns: block.columns[...], to: &bytes)
        var width = bytes
        width[1] = 33
        #expect(Self.decode(width, documentCount: .max, lastDoc: 0) == nil)      // a width over 32
        #expect(Self.decode(Array(bytes.dropLast()), documentCount: .max, lastDoc: 0) == nil) // a length that does not add up
        #expect(Self.decode(Array(bytes.prefix(5)), documentCount: .max, lastDoc: 0) == nil)  // shorter than the header
        var count = bytes
        count[0] = 200
        #expect(Self.decode(count, documentCount: .max, lastDoc: 0) == nil)      // more than a block holds
        Self.expectAnyByteChangedRefusedOrInBounds(bytes, lastDoc: block.docs.last!)
    }
}
