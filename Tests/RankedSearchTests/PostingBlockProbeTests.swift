@_spi(Inspection) @testable import RankedSearch
import Testing

/// A block read only as far as asked (``PostingBlock/Probe``) answers what
/// the whole block unpacked answers, for every form a block is written in,
/// and damaged bytes are refused or read in bounds, never past.
@Suite struct PostingBlockProbeTests {
    /// Runs `body` with a probe of `bytes` (padded as a segment pads its
    /// postings), whose last doc id the block table says is `lastDoc`.
    static func withProbe<T>(_ bytes: [UInt8], documentCount: UInt64, lastDoc: UInt32,
                             _ body: (inout PostingBlock.Probe?) throws -> T) rethrows -> T {
        let padded = bytes + Array(repeating: 0, count: PostingBlock.padding)
        return try padded.withUnsafeBytes { raw in
            var probe = PostingBlock.Probe(raw.baseAddress!, length: bytes.count, documentCount: documentCount, lastDoc: lastDoc)
            return try body(&probe)
        }
    }

    /// Ascending targets, each a walk of its own: every doc id, every
    /// other, the gaps between them, and past the last.
    @Test(arguments: PostingBlockTests.cases)
    func aProbeAnswersAsTheUnpackedBlock(_ block: PostingBlockTests.Case) throws {
        var bytes: [UInt8] = []
        PostingBlock.append(docs: block.docs[...], frequencies: block.frequencies[...], columns: block.columns[...], to: &bytes)
        let documentCount = UInt64(UInt32.max)
        let decoded = try #require(PostingBlockTests.decode(bytes, documentCount: documentCount, lastDoc: block.docs.last!))
        let docs = decoded.docs
        let walks: [(String, [UInt32])] = [
            ("every doc", docs),
            ("every other", docs.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)),
            ("between docs", docs.map { $0 == 0 ? 0 : $0 - 1 }),
            ("past the last", docs.last.map { $0 < UInt32.max - 1 ? [$0 + 1] : [] } ?? []),
        ]
        for (name, targets) in walks {
            try Self.withProbe(bytes, documentCount: documentCount, lastDoc: block.docs.last!) { probe in
                #expect(probe != nil)
                for target in targets {
                    let reached = try probe?.seek(target)
                    let expected = docs.firstIndex { $0 >= target }
                    #expect(reached?.index == expected, "\(block.name), \(name): \(target)")
                    #expect(reached?.found == expected.map { docs[$0] == target }, "\(block.name), \(name): \(target)")
                    if let reached, let expected {
                        #expect(probe?.frequency(at: reached.index) == decoded.frequencies[expected], "\(block.name), \(name): \(target)")
                    }
                }
            }
        }
    }

    /// Any single byte changed: the probe is refused, throws, or answers
    /// doc ids below the count, walking the whole block; a doc id at the
    /// count throws.
    @Test(arguments: ["a palette of seven pairs", "13-bit values", "128 distinct pairs (no palette)", "one posting"])
    func damagedBlocksAreRefusedOrReadInBounds(_ name: String) throws {
        let block = try #require(PostingBlockTests.cases.first { $0.name == name })
        var bytes: [UInt8] = []
        PostingBlock.append(docs: block.docs[...], frequencies: block.frequencies[...], columns: block.columns[...], to: &bytes)
        let documentCount: UInt64 = 1 << 20
        for index in bytes.indices {
            for value: UInt8 in [0, 1, 0x7F, 0xFF] {
                var damaged = bytes
                damaged[index] = value
                Self.withProbe(damaged, documentCount: documentCount, lastDoc: block.docs.last!) { probe in
                    guard probe != nil else { return }
                    var target: UInt32 = 0
                    while let reached = try? probe?.seek(target) {
                        _ = probe?.frequency(at: reached.index)
                        target += 1_000
                    }
                }
            }
        }
        if let last = block.docs.last, last > 0 {
            try Self.withProbe(bytes, documentCount: UInt64(last), lastDoc: last) { probe in
                #expect(throws: SegmentError.self) { try probe?.seek(last) }
            }
        }
    }
}
