import Foundation

/// Where an encoded segment's bytes go when they are not kept in memory
/// (a merge's segment file): appended in order, then the header written
/// over the first ``SegmentFormat/headerSize`` bytes appended.
///
/// ```swift
/// let merged = try SegmentMerger.mergeEncoded(inputs, scoring: scoring, buildTime: now, streamingTo: file)
/// // merged.byteCount bytes are in `file`, header included
/// ```
package protocol SegmentSink: AnyObject {
    /// Appends `bytes` after those appended before.
    func append(_ bytes: UnsafeRawBufferPointer) throws
    /// Writes the finished header over the start, once every byte is appended.
    func writeHeader(_ bytes: UnsafeRawBufferPointer) throws
    /// Where a merge streamed here keeps its encoded postings until the
    /// encoder reaches them (``PostingsSpill``), on the segment's own file
    /// system; `nil` (the default) keeps them in memory.
    var scratchDirectory: String? { get }
}

extension SegmentSink {
    package var scratchDirectory: String? { nil }
}

extension SegmentEncoder {
    /// A segment's bytes as they are written: sections aligned to 8
    /// bytes, each one's offset noted for the header, and the sections
    /// whose values are all one value collapsed to it.
    ///
    /// Streaming to a ``SegmentSink``, it hands its bytes over whenever a
    /// section starts past `bufferSize` of them, and large byte runs (the
    /// postings) go over at once, so it never holds the segment; the
    /// checksum is kept as the bytes go (in pieces of a multiple of 8
    /// bytes, as ``SegmentFormat/Checksum`` wants).
    struct SectionWriter {
        var writer = ByteWriter()
        var sectionOffsets = [Int](repeating: 0, count: SegmentFormat.Section.allCases.count)
        var constantSections: UInt32 = 0
        /// Each packed section's width (``SegmentFormat/packedWidthsOffset``), set as it begins.
        var packedWidths = [UInt8](repeating: 0, count: SegmentFormat.Section.allCases.count)
        /// What every stored rowid is above (``SegmentFormat/rowidBaseOffset``).
        var rowidBase: Int64 = 0
        /// Each Float64 section's ``FloatTable/Mode`` (``SegmentFormat/floatModesOffset``), set as it begins.
        var floatModes = [UInt8](repeating: 0, count: SegmentFormat.Section.allCases.count)
        /// Bytes handed to the sink (a multiple of 8).
        private(set) var flushed = 0
        /// The checksum of the handed bytes past the header.
        private var checksum = SegmentFormat.Checksum()
        private let sink: (any SegmentSink)?
        /// The sink's first error: nothing is handed over after it, and finishing throws it.
        private var failure: (any Error)?
        private let bufferSize: Int

        init(streamingTo sink: (any SegmentSink)? = nil, bufferSize: Int = 1 << 20) {
            self.sink = sink
            self.bufferSize = bufferSize
            writer.bytes = [UInt8](repeating: 0, count: SegmentFormat.headerSize)
        }

        var bytes: [UInt8] {
            get { writer.bytes }
            _modify { yield &writer.bytes }
        }

        /// The segment's length so far.
        var count: Int { flushed + writer.bytes.count }

        mutating func begin(_ section: SegmentFormat.Section) {
            writer.align8()
            sectionOffsets[section.rawValue] = count
            if sink != nil, writer.bytes.count >= bufferSize { flush() }
        }

        /// Begins packed section `section` (``SegmentFormat/packedSections``)
        /// of `width`-bit values, added through the returned bits and
        /// finished (``PackedBits/finish(into:)``) before the next section.
        mutating func beginPacked(_ section: SegmentFormat.Section, width: Int) -> PackedBits {
            assert(SegmentFormat.packedSections.contains(section), "\(section) is not packed")
            begin(section)
            packedWidths[section.rawValue] = UInt8(width)
            return PackedBits(width: width)
        }

        /// Begins the rowids, packed above the smallest of `range` (the
        /// documents' smallest and largest; nil without documents): the
        /// header's ``SegmentFormat/rowidBaseOffset``, which each rowid
        /// added less ``rowidBase`` is.
        mutating func beginRowids(_ range: ClosedRange<Int64>?) -> PackedBits {
            rowidBase = range?.lowerBound ?? 0
            let span = range.map { UInt64(bitPattern: $0.upperBound &- $0.lowerBound) } ?? 0
            return beginPacked(.rowids, width: SegmentFormat.packedWidth(maximum: span))
        }

        /// Packed section `section` of `transform` of each of `values`, each below `1 << width`.
        mutating func packed<Source: Sequence>(_ section: SegmentFormat.Section, width: Int, _ values: Source,
                                               _ transform: (Source.Element) -> UInt64) {
            var bits = beginPacked(section, width: width)
            for value in values { bits.add(transform(value), to: &self) }
            bits.finish(into: &self)
        }

        /// Writes the section just begun as collapsed to `value` (every
        /// document has it): ``SegmentFormat/FloatEncoding/collapsed(_:)``.
        mutating func collapsed(_ section: SegmentFormat.Section, to value: Double) {
            constantSections |= 1 << UInt32(section.rawValue)
            writer.append(value)
        }

        /// Appends `values`' bytes (the host is little-endian, as the
        /// format); streaming, straight to the sink (``append(large:)-([UInt8])``).
        mutating func append<T: BitwiseCopyable>(values: [T]) {
            values.withUnsafeBytes { append(large: $0) }
        }

        /// Appends every page of `values` in order.
        mutating func append<T>(values: PagedArray<T>) {
            values.forEachPage { append(large: UnsafeRawBufferPointer($0)) }
        }

        /// `transform` of every value of `source`, page by page, in order.
        mutating func append<S, T: BitwiseCopyable>(contentsOf source: PagedArray<S>, _ transform: (S) -> T) {
            var chunk = Chunk<T>()
            source.forEachPage { page in
                for value in page { chunk.add(transform(value), to: &self) }
            }
            chunk.finish(into: &self)
        }

        /// Appends `transform` of each of `source`, a few thousand at a
        /// time: never a copy of the whole section.
        mutating func append<Source: Sequence, T: BitwiseCopyable>(contentsOf source: Source, _ transform: (Source.Element) -> T) {
            var chunk = Chunk<T>()
            for value in source { chunk.add(transform(value), to: &self) }
            chunk.finish(into: &self)
        }

        /// Appends `large`; streaming, straight to the sink but for the
        /// few bytes that keep the pieces a multiple of 8.
        mutating func append(large: [UInt8]) {
            large.withUnsafeBytes { append(large: $0) }
        }

        /// Appends `raw` (``append(large:)-([UInt8])``); called again, the
        /// bytes follow on, as one run.
        mutating func append(large raw: UnsafeRawBufferPointer) {
            guard sink != nil else { writer.bytes.append(contentsOf: raw); return }
            let fill = min(raw.count, (8 - writer.bytes.count % 8) % 8)
            writer.bytes.append(contentsOf: raw[..<fill])
            flush()
            guard writer.bytes.isEmpty else { return }   // `raw` was shorter than the fill
            let middle = fill + (raw.count - fill) / 8 * 8
            hand(UnsafeRawBufferPointer(rebasing: raw[fill..<middle]))
            writer.bytes.append(contentsOf: raw[middle...])
        }

        /// Hands the buffered bytes over, up to a multiple of 8.
        private mutating func flush() {
            let n = writer.bytes.count / 8 * 8
            guard n > 0 else { return }
            writer.bytes.withUnsafeBytes { raw in hand(UnsafeRawBufferPointer(rebasing: raw[..<n])) }
            writer.bytes.removeFirst(n)
        }

        private mutating func hand(_ raw: UnsafeRawBufferPointer) {
            guard !raw.isEmpty else { return }
            let skip = max(0, min(raw.count, SegmentFormat.headerSize - flushed))
            checksum.update(UnsafeRawBufferPointer(rebasing: raw[skip...]))
            if failure == nil {
                do { try sink?.append(raw) } catch { failure = error }
            }
            flushed += raw.count
        }

        /// The segment in memory, its header and checksums set.
        mutating func finish(_ header: Header) -> [UInt8] {
            precondition(sink == nil, "a streamed segment finishes with finishStreamed")
            let sum = writer.bytes.withUnsafeBytes { raw in
                SegmentFormat.checksum(UnsafeRawBufferPointer(rebasing: raw[SegmentFormat.headerSize...]))
            }
            // In place: taken out of `self` first. Filled as `self.writer`,
            // the call's read of `self` shared the bytes with it, and the
            // first header field written copied the whole segment.
            var out = ByteWriter()
            swap(&out, &writer)
            fillHeader(&out, header, length: out.bytes.count, checksum: sum)
            return out.bytes
        }

        /// Hands the rest over, then the header; returns the segment's length.
        mutating func finishStreamed(_ header: Header) throws -> Int {
            writer.align8()
            flush()
            if let failure { throw failure }
            var head = ByteWriter()
            head.bytes = [UInt8](repeating: 0, count: SegmentFormat.headerSize)
            fillHeader(&head, header, length: flushed, checksum: checksum.value)
            try head.bytes.withUnsafeBytes { try sink?.writeHeader($0) }
            return flushed
        }

        /// Sets the header's fields in the first bytes of `out`, then its own checksum.
        private func fillHeader(_ out: inout ByteWriter, _ header: Header, length: Int, checksum: UInt64) {
            out.set(SegmentFormat.magic, at: SegmentFormat.magicOffset)
            out.set(SegmentFormat.version, at: SegmentFormat.versionOffset)
            out.set(UInt32(TextTokenizer.version), at: SegmentFormat.tokenizerOffset)
            out.set(UInt32(header.documents), at: SegmentFormat.docCountOffset)
            out.set(UInt32(header.terms), at: SegmentFormat.termCountOffset)
            out.set(UInt32(header.blocks), at: SegmentFormat.blockCountOffset)
            out.set(constantSections, at: SegmentFormat.constantSectionsOffset)
            out.set(UInt32(header.numberNames), at: SegmentFormat.numberNameCountOffset)
            out.set(UInt32(header.numberValues), at: SegmentFormat.numberValueCountOffset)
            out.set(UInt32(header.zeroValues), at: SegmentFormat.zeroValueCountOffset)
            out.set(UInt32(header.multiBlockTerms), at: SegmentFormat.multiBlockTermCountOffset)
            for (index, width) in packedWidths.enumerated() { out.bytes[SegmentFormat.packedWidthsOffset + index] = width }
            out.set(UInt64(bitPattern: rowidBase), at: SegmentFormat.rowidBaseOffset)
            for (index, mode) in floatModes.enumerated() { out.bytes[SegmentFormat.floatModesOffset + index] = mode }
            out.set(header.fingerprint, at: SegmentFormat.weightsHashOffset)
            out.set(header.buildTime.bitPattern, at: SegmentFormat.buildTimeOffset)
            out.set(header.avgLength.bitPattern, at: SegmentFormat.avgLengthOffset)
            out.set(UInt64(length), at: SegmentFormat.totalLengthOffset)
            for section in SegmentFormat.Section.allCases {
                out.set(UInt64(sectionOffsets[section.rawValue]), at: SegmentFormat.sectionOffsetField(section))
            }
            out.set(checksum, at: SegmentFormat.checksumOffset)
            let headerSum = out.bytes.withUnsafeBytes { SegmentFormat.headerChecksum($0) }
            out.set(headerSum, at: SegmentFormat.headerChecksumOffset)
        }
    }

    /// Values on their way to a section, a few thousand at a time
    /// (values that come one by one, as a merge makes them).
    struct Chunk<Value: BitwiseCopyable> {
        private var values: [Value] = []

        mutating func add(_ value: Value, to out: inout SectionWriter) {
            values.append(value)
            if values.count == 8_192 { finish(into: &out) }
        }

        /// Appends what is held.
        mutating func finish(into out: inout SectionWriter) {
            out.append(values: values)
            values.removeAll(keepingCapacity: true)
        }
    }

    /// What the header says besides the sections' offsets.
    struct Header {
        var documents: Int
        var terms: Int
        var blocks: Int
        var numberNames: Int
        var numberValues: Int
        /// The first typed values, the exact-value index's, not stored.
        var zeroValues: Int
        /// Terms of more than one block (``SegmentFormat/multiBlockTermCountOffset``).
        var multiBlockTerms: Int
        var fingerprint: UInt64
        var buildTime: Double
        var avgLength: Double
    }
}
