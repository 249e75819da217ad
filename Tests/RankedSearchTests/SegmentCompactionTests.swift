@_spi(Inspection) @testable import RankedSearch
import Testing

/// The compact tables of formats 16, 17 and 20: maxima in 2 bytes that
/// never fall below what they bound, integer tables bit-packed in the
/// bits their largest value needs, the exact-value index's values (all
/// 0) not stored, and a term of one block without maxima of its own.
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

    static func segment(_ documents: [RankedDocument]) throws -> Segment {
        let bytes = SegmentEncoder.encode(SegmentContents(documents: documents), scoring: scoring, buildTime: 0)
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

    /// Each integer table is packed in the bits its largest value needs,
    /// and reads back as written: doc ids, counts, offsets, and rowids
    /// far apart (above the smallest), before and after a merge.
    @Test func integerTablesArePackedInTheBitsTheyNeed() throws {
        // Rowids 2⁴⁰ apart at most: 41 bits above the smallest, which is negative.
        let documents = Self.documents(400).enumerated().map { index, document in
            var document = document
            document.rowid = index == 399 ? (1 << 40) - 3 : Int64(index) - 3
            return document
        }
        let segment = try Self.segment(documents)
        func width(_ section: SegmentFormat.Section) -> Int { Int(segment.bytes.buffer[SegmentFormat.packedWidthsOffset + section.rawValue]) }
        let expected: [(SegmentFormat.Section, Int)] = [
            (.rowids, 41), (.rowidOrder, 9), (.blockLastDoc, 9), (.numberDocs, 9), (.uidDocs, 9), (.termDocs, 9),
            (.termFirstBlock, SegmentFormat.packedWidth(maximum: UInt64(segment.blockCount))),
            (.termOffsets, SegmentFormat.packedWidth(maximum: UInt64(Self.sectionSize(segment, .termBytes)))),
            (.uidRuns, SegmentFormat.packedWidth(maximum: UInt64(Self.sectionSize(segment, .uidBytes)))),
        ]
        for (section, bits) in expected { #expect(width(section) == bits, "\(section)") }
        for section in SegmentFormat.Section.allCases where !SegmentFormat.packedSections.contains(section) && section != .numberValues {
            #expect(width(section) == 0, "\(section)")
        }
        #expect(Self.sectionSize(segment, .rowidOrder) == SegmentFormat.packedSize(count: 400, width: 9))
        #expect(Self.sectionSize(segment, .termDocs) == SegmentFormat.packedSize(count: segment.termCount, width: 9))

        for (doc, document) in documents.enumerated() {
            #expect(segment.rowid(doc) == document.rowid)
            #expect(segment.document(rowid: document.rowid) == doc)
            #expect(try segment.identifier(doc) == document.uid)
        }
        #expect(segment.rowidRange?.lowerBound == -3)
        #expect(segment.rowidRange?.upperBound == Int64(1 << 40) - 3)
        #expect((0..<400).map(segment.rowidOrder) == Array(0..<400))
        let word = try #require(try segment.terms(matching: Array("word123".utf8), prefix: false).first)
        #expect(segment.termDocumentCount(word) == 1)
        #expect(try segment.terms(matching: Array("common".utf8), prefix: false).map(segment.termDocumentCount) == [400])

        // Merged without every 7th document: the same values for the others, in fewer bits where fewer are needed.
        let deleted = Set(stride(from: 1, to: 400, by: 7))
        let deletion = DeletionSet(documentCount: 400, deleted: deleted.map { UInt32($0) })
        let snapshot = SegmentSnapshot(segment: segment, deleted: deletion)
        let merged = try Segment(SegmentBytes(copying: SegmentMerger.mergeEncoded([snapshot], scoring: Self.scoring, buildTime: 0).bytes),
                                 verifyChecksum: true)
        let kept = documents.enumerated().filter { !deleted.contains($0.offset) }.map(\.element)
        #expect(merged.documentCount == kept.count)
        for (doc, document) in kept.enumerated() {
            #expect(merged.rowid(doc) == document.rowid)
            #expect(merged.document(rowid: document.rowid) == doc)
            #expect(try merged.identifier(doc) == document.uid)
        }
        #expect(merged.bytes.buffer[SegmentFormat.packedWidthsOffset + SegmentFormat.Section.rowids.rawValue] == 41)
        #expect(merged.bytes.buffer[SegmentFormat.packedWidthsOffset + SegmentFormat.Section.rowidOrder.rawValue] == 9)
    }

    /// Values of every width up to the widest round-trip, at the ends of
    /// their range, whatever bit of a word they start at.
    @Test(arguments: [0, 1, 3, 7, 8, 13, 16, 31, 32, 33, 47, 56])
    func packedValuesRoundTrip(width: Int) {
        let top: UInt64 = width == 0 ? 0 : (1 << UInt64(width)) - 1
        let values: [UInt64] = (0..<300).map { index in
            switch index % 4 {
            case 0: top
            case 1: 0
            case 2: top / 3
            default: UInt64(index) & top
            }
        }
        var out = SegmentEncoder.SectionWriter()
        out.packed(.termDocs, width: width, values) { $0 }
        let start = SegmentFormat.headerSize
        #expect(out.bytes.count == start + SegmentFormat.packedSize(count: values.count, width: width))
        #expect(out.packedWidths[SegmentFormat.Section.termDocs.rawValue] == UInt8(width))
        let table = PackedTable(start: start, width: width)
        out.bytes.withUnsafeBytes { raw in
            for (index, value) in values.enumerated() { #expect(table.value(index, in: raw) == value) }
        }
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
        // The sizes, whole numbers below 50, packed in 6 bits above 0.
        #expect(Self.sectionSize(segment, .numberValues) == 8 + SegmentFormat.packedSize(count: kept.count, width: 6))
        #expect(Self.sectionSize(segment, .numberDocs)
            == SegmentFormat.packedSize(count: 3 * kept.count, width: SegmentFormat.packedWidth(maximum: UInt64(kept.count - 1))))
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

    /// A term of one block has no maxima of its own: it reads its block's.
    /// A term of more has them, at its rank among such terms, which its
    /// term group's count before it and its group's terms before it give.
    /// A block of one posting decodes to its table's doc id. The same
    /// after a streamed merge that drops documents.
    @Test(arguments: [false, true])
    func termsOfOneBlockReadTheirBlocksMaxima(merged: Bool) throws {
        // `common` in every document, `shared`, `description` and the
        // digits 0–4 in 400 or more: several blocks each, in the first
        // group and among the initials, in the last.
        var segment = try Self.segment(Self.documents(2_000))
        if merged {
            let deletion = DeletionSet(documentCount: 2_000, deleted: stride(from: 3, to: 2_000, by: 11).map { UInt32($0) })
            let bytes = try SegmentMerger.mergeEncoded([SegmentSnapshot(segment: segment, deleted: deletion)], scoring: Self.scoring, buildTime: 0).bytes
            segment = try Segment(SegmentBytes(copying: bytes), verifyChecksum: true)
        }
        var multiBlock = 0, groupsWithSome = Set<Int>()
        var docs: [UInt32] = [], frequencies: [UInt32] = []
        for term in 0..<segment.termCount {
            if term % SegmentFormat.termGroupSize == 0 {
                let entry = SegmentFormat.termGroupStride * (term / SegmentFormat.termGroupSize) + SegmentFormat.termGroupMultiBlockOffset
                let raw = segment.bytes.buffer
                let start = Int(raw.loadUnaligned(fromByteOffset: SegmentFormat.sectionOffsetField(.termGroups), as: UInt64.self))
                #expect(Int(raw.loadUnaligned(fromByteOffset: start + entry, as: UInt32.self)) == multiBlock, "group of term \(term)")
            }
            let blocks = try segment.blocks(of: term)
            #expect(segment.termMaxGS(term) == blocks.map(segment.blockMaxGS).max(), "term \(term)")
            #expect(segment.termMaxS(term) == blocks.map(segment.blockMaxS).max(), "term \(term)")
            #expect(segment.termMaxGSPart(term) == blocks.map(segment.blockMaxGSPart).max(), "term \(term)")
            if blocks.count > 1 {
                multiBlock += 1
                groupsWithSome.insert(term / SegmentFormat.termGroupSize)
            }
            if segment.termDocumentCount(term) == 1 {
                try segment.decodeBlock(blocks.lowerBound, docs: &docs, frequencies: &frequencies)
                #expect(docs == [segment.blockLastDoc(blocks.lowerBound)] && frequencies.count == 1, "term \(term)")
            }
        }
        #expect(multiBlock >= 10 && groupsWithSome.count >= 2)
        #expect(segment.multiBlockTermCount == multiBlock)
        #expect(Int(Self.header(segment, SegmentFormat.multiBlockTermCountOffset)) == multiBlock)
        for section in [SegmentFormat.Section.termMaxGS, .termMaxS, .termMaxGSPart] {
            #expect(Self.sectionSize(segment, section) == (2 * multiBlock + 7) / 8 * 8, "\(section)")
        }
    }

    /// A header naming more zero values than values, a packed width past
    /// the widest, a width for a section that is not packed, or more terms
    /// of several blocks than there are (or than the tables hold), is refused.
    @Test(arguments: [
        (SegmentFormat.zeroValueCountOffset, UInt32(1_000_000)),
        (SegmentFormat.packedWidthsOffset + SegmentFormat.Section.rowids.rawValue, UInt32(SegmentFormat.maxPackedWidth + 1)),
        (SegmentFormat.packedWidthsOffset + SegmentFormat.Section.expires.rawValue, UInt32(8)),
        // More terms of several blocks than terms, and more than the tables hold.
        (SegmentFormat.multiBlockTermCountOffset, UInt32(1_000_000)),
        (SegmentFormat.multiBlockTermCountOffset, UInt32(5)),
    ])
    func damagedCompactHeadersAreRefused(offset: Int, value: UInt32) throws {
        let segment = try Self.segment(Self.documents(20))
        var bytes = Array(segment.bytes.buffer)
        withUnsafeBytes(of: value.littleEndian) { for (index, byte) in $0.enumerated() { bytes[offset + index] = byte } }
        let sum = bytes.withUnsafeBytes { SegmentFormat.headerChecksum($0) }
        withUnsafeBytes(of: sum.littleEndian) { for (index, byte) in $0.enumerated() { bytes[SegmentFormat.headerChecksumOffset + index] = byte } }
        #expect(throws: SegmentError.self) { try Segment(SegmentBytes(copying: bytes), verifyChecksum: true) }
    }
}
