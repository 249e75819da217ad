@_spi(Inspection) @testable import RankedSearch
import Testing

/// Format 16's compact tables: maxima in 2 bytes that never fall below
/// what they bound, term and block offsets in 4 bytes unless their
/// section is past the limit, and the exact-value index's values (all 0)
/// not stored.
@Suite struct SegmentCompactionTests {
    static let scoring = RankedScoring(weights: RankingWeights())

    @Test(arguments: [
        // (value, stored value): exact ones stay, others take the next 2-byte value up.
        (0.0, 0.0), (1.0, 1.0), (1.5, 1.5), (3.0, 3.0), (1.2345, 1.23486328125), (0.1, 0.100006103515625),
        (1.0000001, 1.00048828125), (255.5, 255.5), (255.51, 255.5625), (100_000, 100_000),
        // Past the range: the smallest stored value, or infinity; a negative or NaN one: 0, or infinity.
        (1e-40, 0.00006103515625), (0.00006103515625, 0.00006103515625), (3e5, .infinity), (1e300, .infinity),
        (.infinity, .infinity), (-1.5, 0), (.nan, .infinity),
    ] as [(Double, Double)])
    func maximaRoundUpToTheNextStoredValue(value: Double, stored: Double) {
        let maximum = SegmentFormat.Maximum(roundingUp: value)
        #expect(maximum.value == stored)
        #expect(value.isNaN || maximum.value >= value)
        // The 2-byte value just below a positive one is below `value`.
        if value > 0, maximum.value != value, maximum.bits > 1, maximum.bits < SegmentFormat.Maximum.infinity {
            #expect(SegmentFormat.Maximum(bits: maximum.bits - 1).value < value)
        }
    }

    /// Every code reads back as a value no smaller than the code below
    /// it, and stores as itself: the 2-byte values are ordered and exact.
    @Test func everyStoredValueRoundTrips() {
        var previous = -1.0
        for code in 0...UInt16.max {
            let value = SegmentFormat.Maximum(bits: code).value
            #expect(value > previous, "code \(code)")
            #expect(SegmentFormat.Maximum(roundingUp: value).bits == code, "code \(code)")
            previous = value
        }
    }

    static func documents(_ count: Int) -> [RankedDocument] {
        (1...count).map { index in
            let builder = DocumentTokens.Builder(weights: .standard)
            builder.add("common title\(index % 37) word\(index)", column: 0)
            builder.add("shared description \(index % 5)", column: 2)
            let uid = "item-\(index)"
            let numbers: [(String, Double)] = [
                (ExactValues.name(attribute: "section", value: index % 3 == 0 ? "libs" : "devel")!, 0),
                (ExactValues.name(attribute: "contentType", value: "public.item")!, 0),
                ("size", Double(index % 50)),
            ]
            return RankedDocument(rowid: Int64(index), expires: .infinity, hint: 0, recency: nil, engagement: 0, engagedAt: 0,
                                  tokens: builder.finish(), uid: uid, uidHash: RankedDocument.uidHash(uid), numbers: numbers)
        }
    }

    static func segment(_ documents: [RankedDocument], offsetLimit: Int = SegmentFormat.narrowOffsetLimit) throws -> Segment {
        let bytes = SegmentEncoder.encode(SegmentContents(documents: documents), scoring: scoring, buildTime: 0, offsetLimit: offsetLimit)
        return try Segment(SegmentBytes(copying: bytes), verifyChecksum: true)
    }

    static func header(_ segment: Segment, _ offset: Int) -> UInt32 {
        segment.bytes.buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
    }

    static func sectionSize(_ segment: Segment, _ section: SegmentFormat.Section) -> Int {
        let raw = segment.bytes.buffer
        let start = Int(raw.loadUnaligned(fromByteOffset: SegmentFormat.sectionOffsetField(section), as: UInt64.self))
        let next = SegmentFormat.Section(rawValue: section.rawValue + 1)
        let end = next.map { Int(raw.loadUnaligned(fromByteOffset: SegmentFormat.sectionOffsetField($0), as: UInt64.self)) } ?? raw.count
        return end - start
    }

    /// Every term's bytes, postings and maxima, and every block's bounds, as read back.
    static func contents(_ segment: Segment) throws -> [String] {
        var out: [String] = []
        var docs: [UInt32] = [], frequencies: [UInt32] = []
        for term in 0..<segment.termCount {
            var line = "\(Array(try segment.term(term))) \(segment.termMaxG(term)) \(segment.termMaxGS(term)) \(segment.termMaxS(term))"
            for block in try segment.blocks(of: term) {
                try segment.decodeBlock(block, docs: &docs, frequencies: &frequencies)
                line += " [\(docs) \(frequencies) \(segment.blockMaxGS(block)) \(segment.blockMaxS(block)) \(segment.blockMaxGSPart(block))]"
            }
            out.append(line)
        }
        return out
    }

    /// Offsets take 4 bytes unless the section they point into is past
    /// the limit; both widths read back the same dictionary and postings.
    @Test func offsetsAreWideOnlyPastTheirLimit() throws {
        let documents = Self.documents(400)
        let narrow = try Self.segment(documents)
        let wide = try Self.segment(documents, offsetLimit: 0)
        #expect(Self.header(narrow, SegmentFormat.wideOffsetsOffset) == 0)
        #expect(Self.header(wide, SegmentFormat.wideOffsetsOffset) == SegmentFormat.wideTermOffsets | SegmentFormat.wideBlockOffsets)
        #expect(Self.sectionSize(narrow, .termOffsets) < Self.sectionSize(wide, .termOffsets))
        #expect(Self.sectionSize(narrow, .blockOffsets) < Self.sectionSize(wide, .blockOffsets))
        #expect(Self.sectionSize(narrow, .termOffsets) >= 4 * (narrow.termCount + 1))
        #expect(Self.sectionSize(wide, .termOffsets) >= 8 * (wide.termCount + 1))
        #expect(try Self.contents(narrow) == Self.contents(wide))
        #expect(try narrow.terms(matching: Array("word1".utf8), prefix: true) == wide.terms(matching: Array("word1".utf8), prefix: true))
        #expect(try narrow.terms(containing: Array("itle3".utf8)) == wide.terms(containing: Array("itle3".utf8)))
        // A merge writes them narrow again.
        let merged = try SegmentMerger.merge([SegmentSnapshot(segment: wide, deleted: DeletionSet(documentCount: 400, deleted: [UInt32]()))])
        let rewritten = try Segment(SegmentBytes(copying: SegmentEncoder.encode(merged, scoring: Self.scoring, buildTime: 0)), verifyChecksum: true)
        #expect(Self.header(rewritten, SegmentFormat.wideOffsetsOffset) == 0)
        #expect(try Self.contents(rewritten) == Self.contents(narrow))
    }

    /// The exact-value index's names come first among the typed values;
    /// their values are 0 and not stored, the others' are, and lookups
    /// read both as written, before and after a merge that drops documents.
    @Test(arguments: [false, true])
    func theExactValueIndexStoresNoValues(merged: Bool) throws {
        var segment = try Self.segment(Self.documents(300))
        var kept = Array(1...300)
        if merged {
            let deleted = Set(stride(from: 0, to: 300, by: 7))
            let deletion = DeletionSet(documentCount: 300, deleted: deleted.map { UInt32($0) })
            let contents = try SegmentMerger.merge([SegmentSnapshot(segment: segment, deleted: deletion)])
            segment = try Segment(SegmentBytes(copying: SegmentEncoder.encode(contents, scoring: Self.scoring, buildTime: 0)), verifyChecksum: true)
            kept = kept.enumerated().filter { !deleted.contains($0.offset) }.map(\.element)
        }
        // Two exact values (a section, a content type) a document, then its size.
        #expect(segment.numberValueCount == 3 * kept.count)
        #expect(segment.zeroValueCount == 2 * kept.count)
        #expect(Int(Self.header(segment, SegmentFormat.zeroValueCountOffset)) == 2 * kept.count)
        #expect(Self.sectionSize(segment, .numberValues) == 8 * kept.count)
        #expect(Self.sectionSize(segment, .numberDocs) >= 4 * 3 * kept.count)
        for index in 0..<segment.zeroValueCount { #expect(segment.numberValue(index) == 0) }

        func rowids(_ name: String, _ range: NumberRange) throws -> [Int64] {
            try segment.numberValues(named: name, in: range).map { segment.rowid(Int(segment.numberDoc($0))) }.sorted()
        }
        let libs = try rowids(ExactValues.name(attribute: "section", value: "libs")!, .equal(0))
        #expect(libs == kept.filter { $0 % 3 == 0 }.map(Int64.init))
        #expect(try rowids(ExactValues.name(attribute: "contentType", value: "public.item")!, .equal(0)) == kept.map(Int64.init))
        #expect(try rowids("size", .equal(7)) == kept.filter { $0 % 50 == 7 }.map(Int64.init))
        #expect(try rowids("size", NumberRange(lower: 47, lowerInclusive: false, upper: nil, upperInclusive: false))
            == kept.filter { $0 % 50 > 47 }.map(Int64.init))
        #expect(try ExactValues.lists(attribute: "section", in: segment))
    }

    /// A header naming more zero values than values, or offset widths it
    /// does not know, is refused.
    @Test(arguments: [(SegmentFormat.zeroValueCountOffset, UInt32(1_000_000)), (SegmentFormat.wideOffsetsOffset, UInt32(4))])
    func damagedCompactHeadersAreRefused(offset: Int, value: UInt32) throws {
        let segment = try Self.segment(Self.documents(20))
        var bytes = Array(segment.bytes.buffer)
        withUnsafeBytes(of: value.littleEndian) { for (index, byte) in $0.enumerated() { bytes[offset + index] = byte } }
        let sum = bytes.withUnsafeBytes { SegmentFormat.headerChecksum($0) }
        withUnsafeBytes(of: sum.littleEndian) { for (index, byte) in $0.enumerated() { bytes[SegmentFormat.headerChecksumOffset + index] = byte } }
        #expect(throws: SegmentError.self) { try Segment(SegmentBytes(copying: bytes), verifyChecksum: true) }
    }
}
