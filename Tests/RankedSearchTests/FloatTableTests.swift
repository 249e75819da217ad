@_spi(Inspection) @testable import RankedSearch
import Testing

/// Format 18's Float64 tables: each section in its smallest lossless
/// encoding (raw, collapsed, whole numbers above a base, or a palette),
/// every value read back bit for bit, before and after a merge.
@Suite struct FloatTableTests {
    typealias Encoding = SegmentFormat.FloatEncoding

    static let fractions = (0..<300).map { Double($0) + 0.25 }

    @Test(arguments: [
        ("none", [], true, Encoding.raw),
        ("one value, collapsible", [1.5, 1.5, 1.5], true, .collapsed(1.5)),
        ("one value, not collapsible", Array(repeating: 1.5, count: 40), false, .palette([1.5], width: 0)),
        ("three values, not collapsible", [1.5, 1.5, 1.5], false, .raw),   // a palette takes as many bytes
        ("whole numbers", (0..<300).map(Double.init), true, .integers(base: 0, width: 9)),
        ("whole numbers above a negative base", (0..<300).map { Double($0 - 1_000) }, true, .integers(base: -1_000, width: 9)),
        ("whole numbers and none", [7, .nan, 5, 6] + Array(repeating: 5, count: 40), true, .integers(base: 5, width: 2)),
        ("every value none", Array(repeating: .nan, count: 40), false, .integers(base: 0, width: 0)),
        ("two fractions", (0..<300).map { $0 % 2 == 0 ? 0.75 : 1.0625 }, true, .palette([0.75, 1.0625], width: 1)),
        ("fractions", fractions, true, .raw),
        ("seconds across 20 years", (0..<300).map { 978_307_200 + Double($0) * 2_103_840 }, true, .integers(base: 978_307_200, width: 30)),
        // −0 is not a whole number here (its sign would be lost); past ±2⁵³ neither.
        ("negative zero", [-0.0, 1, 2, 3] + fractions, true, .raw),
        ("past 2^53", [0, 9_007_199_254_740_994] + fractions, true, .raw),
        ("a span past 2^53", (0..<100).map { $0 % 2 == 0 ? -9_007_199_254_740_992 : 9_007_199_254_740_992 }, true,
         .palette([9_007_199_254_740_992, -9_007_199_254_740_992], width: 1)),
    ] as [(String, [Double], Bool, Encoding)])
    func theSmallestEncodingIsChosen(name: String, values: [Double], collapsible: Bool, expected: Encoding) {
        var stats = SegmentFormat.FloatStats()
        for value in values { stats.add(value) }
        #expect(stats.encoding(collapsible: collapsible) == expected, "\(name)")
    }

    /// Every encoding reads back each value's bits, whatever bit of a word its code starts at.
    @Test(arguments: [
        (0..<300).map(Double.init), [7, .nan, 5, 6, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5], (0..<300).map { $0 % 3 == 0 ? 0.75 : -2.5 },
        fractions, [-0.0] + fractions, Array(repeating: .nan, count: 40),
    ] as [[Double]])
    func valuesRoundTrip(values: [Double]) throws {
        var out = SegmentEncoder.SectionWriter()
        out.floats(.numberValues, values)
        let section = SegmentFormat.headerSize..<out.bytes.count
        let mode = try #require(FloatTable.Mode(rawValue: out.floatModes[SegmentFormat.Section.numberValues.rawValue]))
        let width = Int(out.packedWidths[SegmentFormat.Section.numberValues.rawValue])
        let table = mode == .raw ? FloatTable(raw: section.lowerBound, stride: 8)
            : try out.bytes.withUnsafeBytes { raw in try FloatTable(mode, section: section, width: width, count: values.count, in: raw) }
        out.bytes.withUnsafeBytes { raw in
            for (index, value) in values.enumerated() { #expect(table.value(index, in: raw).bitPattern == value.bitPattern, "value \(index)") }
        }
    }

    static let scoring = RankedScoring(weights: RankingWeights())

    /// Documents whose dates are whole seconds (one without), two hints,
    /// impressions of two fractional values, and typed values both whole
    /// and fractional.
    static func documents(_ count: Int) -> [RankedDocument] {
        (1...count).map { index in
            let builder = DocumentTokens.Builder(weights: .standard)
            builder.add("title\(index % 37) word\(index)", column: 0)
            let uid = "item-\(index)"
            return RankedDocument(rowid: Int64(index), expires: .infinity, hint: index % 4 == 0 ? 2 : 0,
                                  recency: index == 5 ? nil : 1_000_000_000 + Double(index * 86_400), engagement: 0, engagedAt: 0,
                                  impressions: index % 3 == 0 ? 1.5 : 0.25, tokens: builder.finish(), uid: uid, uidHash: RankedDocument.uidHash(uid),
                                  numbers: [("size", Double(index % 50)), ("rating", Double(index % 7) / 4)])
        }
    }

    /// A segment's signals and typed values read back as indexed, and as
    /// the header says they are stored; then the same after a merge drops
    /// every fifth document.
    @Test func aSegmentsSignalsAndTypedValuesReadBackExactly() throws {
        let documents = Self.documents(500)
        let segment = try Segment(SegmentBytes(copying: SegmentEncoder.encode(SegmentContents(documents: documents), scoring: Self.scoring,
                                                                               buildTime: 0)), verifyChecksum: true)
        func mode(_ segment: Segment, _ section: SegmentFormat.Section) -> UInt8 { segment.bytes.buffer[SegmentFormat.floatModesOffset + section.rawValue] }
        #expect(mode(segment, .recency) == FloatTable.Mode.integers.rawValue)
        #expect(mode(segment, .hints) == FloatTable.Mode.palette.rawValue)
        #expect(mode(segment, .impressions) == FloatTable.Mode.palette.rawValue)
        #expect(mode(segment, .expires) == FloatTable.Mode.raw.rawValue)   // collapsed
        #expect(mode(segment, .numberValues) == FloatTable.Mode.palette.rawValue)   // sizes and ratings in quarters: 55 values
        for section in SegmentFormat.Section.allCases where !SegmentFormat.floatSections.contains(section) { #expect(mode(segment, section) == 0) }

        func check(_ segment: Segment, _ kept: [RankedDocument]) throws {
            #expect(segment.documentCount == kept.count)
            for (doc, document) in kept.enumerated() {
                #expect(segment.recency(doc) == document.recency)
                #expect(segment.hint(doc) == document.hint)
                #expect(segment.expires(doc) == .infinity)
                #expect(segment.quality(doc) == document.tokens.quality)
                #expect(segment.impressions(doc) == document.impressions)
            }
            for (name, value) in [("size", 7.0), ("rating", 1.25)] {
                let expected = kept.filter { document in document.numbers.contains { $0.0 == name && $0.1 == value } }.map(\.rowid)
                let found = try segment.numberValues(named: name, in: .equal(value)).map { segment.rowid(Int(segment.numberDoc($0))) }
                #expect(found.sorted() == expected, "\(name) == \(value)")
            }
        }
        try check(segment, documents)

        let deleted = Set(stride(from: 0, to: 500, by: 5))
        let snapshot = SegmentSnapshot(segment: segment, deleted: DeletionSet(documentCount: 500, deleted: deleted.map { UInt32($0) }))
        let merged = try Segment(SegmentBytes(copying: SegmentMerger.mergeEncoded([snapshot], scoring: Self.scoring, buildTime: 0).bytes),
                                 verifyChecksum: true)
        try check(merged, documents.enumerated().filter { !deleted.contains($0.offset) }.map(\.element))
        #expect(mode(merged, .recency) == FloatTable.Mode.integers.rawValue)
    }

    /// A mode on a section that is not a Float64 table, an unknown mode, a
    /// palette of no values or too many, or a section both collapsed and
    /// encoded, is refused.
    @Test(arguments: ["termDocs mode", "unknown mode", "empty palette", "palette too large", "collapsed and encoded"])
    func damagedFloatTablesAreRefused(damage: String) throws {
        let segment = try Segment(SegmentBytes(copying: SegmentEncoder.encode(SegmentContents(documents: Self.documents(50)), scoring: Self.scoring,
                                                                               buildTime: 0)), verifyChecksum: false)
        var bytes = Array(segment.bytes.buffer)
        let impressions = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: SegmentFormat.sectionOffsetField(.impressions), as: UInt64.self) })
        #expect(bytes[SegmentFormat.floatModesOffset + SegmentFormat.Section.impressions.rawValue] == FloatTable.Mode.palette.rawValue)
        switch damage {
        case "termDocs mode": bytes[SegmentFormat.floatModesOffset + SegmentFormat.Section.termDocs.rawValue] = 1
        case "unknown mode": bytes[SegmentFormat.floatModesOffset + SegmentFormat.Section.impressions.rawValue] = 3
        case "empty palette": bytes[impressions] = 0
        case "palette too large": (bytes[impressions], bytes[impressions + 1]) = (1, 1)
        default: bytes[SegmentFormat.constantSectionsOffset + 1] |= UInt8(1 << (SegmentFormat.Section.impressions.rawValue - 8))
        }
        let sum = bytes.withUnsafeBytes { SegmentFormat.headerChecksum($0) }
        withUnsafeBytes(of: sum.littleEndian) { for (index, byte) in $0.enumerated() { bytes[SegmentFormat.headerChecksumOffset + index] = byte } }
        #expect(throws: SegmentError.self) { try Segment(SegmentBytes(copying: bytes), verifyChecksum: false) }
    }
}
