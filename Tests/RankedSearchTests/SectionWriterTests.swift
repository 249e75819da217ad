@testable import RankedSearch
import Testing

/// A segment written in memory (a flush's) is finished in the buffer it
/// was written in: its header is filled in place, never in a copy of the
/// whole segment.
@Suite struct SectionWriterTests {
    @Test func aSegmentFinishedInMemoryIsTheBufferItWasWrittenIn() {
        var out = SegmentEncoder.SectionWriter()
        out.begin(.rowids)
        out.append(values: [Int64](1...4_096))
        let written = out.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let header = SegmentEncoder.Header(documents: 4_096, terms: 0, blocks: 0, numberNames: 0, numberValues: 0, zeroValues: 0, multiBlockTerms: 0,
                                           fingerprint: 7,
                                           buildTime: 0, avgLength: 1)

        let bytes = out.finish(header)

        #expect(bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == written)
        #expect(bytes.count == SegmentFormat.headerSize + 4_096 * 8)
        bytes.withUnsafeBytes { raw in
            #expect(raw.loadUnaligned(fromByteOffset: SegmentFormat.magicOffset, as: UInt64.self) == SegmentFormat.magic)
            #expect(raw.loadUnaligned(fromByteOffset: SegmentFormat.docCountOffset, as: UInt32.self) == 4_096)
            #expect(raw.loadUnaligned(fromByteOffset: SegmentFormat.headerChecksumOffset, as: UInt64.self)
                == SegmentFormat.headerChecksum(raw))
            #expect(raw.loadUnaligned(fromByteOffset: SegmentFormat.headerSize + 8 * 4_095, as: Int64.self) == 4_096)
        }
    }
}
