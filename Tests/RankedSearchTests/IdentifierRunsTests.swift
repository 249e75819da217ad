@_spi(Inspection) @testable import RankedSearch
import Testing

/// Identifiers front-coded in runs (``IdentifierRuns``, format 22): every
/// list comes back exactly, one by one and in order, whatever it shares;
/// damaged bytes throw, never read past their section; and segments
/// answer identifiers, lookups and merges as before.
@Suite struct IdentifierRunsTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var identifiers: [String]
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "none", identifiers: []),
        Case(name: "one", identifiers: ["only"]),
        Case(name: "a run exactly", identifiers: (0..<16).map { "mail/\($0)" }),
        Case(name: "a run and one", identifiers: (0..<17).map { "mail/\($0)" }),
        Case(name: "sorted names, three runs", identifiers: (0..<40).map { "lib\(["a", "ab", "abc", "b"][$0 % 4])-\($0 / 4)-dev" }.sorted()),
        Case(name: "repeats and prefixes", identifiers: ["a", "a", "ab", "a", "", "", "abc", "ab", "b"]),
        Case(name: "empty identifiers", identifiers: ["", "", ""]),
        Case(name: "long ones (two-byte lengths)", identifiers: [String(repeating: "x", count: 300), String(repeating: "x", count: 299) + "y",
                                                              String(repeating: "z", count: 20_000)]),
        Case(name: "UTF-8 sharing part of a character", identifiers: ["café", "cafè", "caf", "日本語", "日本", "日本語テキスト"]),
        Case(name: "random, nothing shared", identifiers: (0..<20).map { index in String(UInt64(index) &* 0x9E37_79B9_7F4A_7C15, radix: 16) }),
    ]

    static func encode(_ identifiers: [String]) -> (bytes: [UInt8], writer: IdentifierRuns.Writer) {
        var writer = IdentifierRuns.Writer(), bytes: [UInt8] = []
        for identifier in identifiers { writer.append(Array(identifier.utf8), to: &bytes) }
        return (bytes, writer)
    }

    @Test(arguments: cases)
    func identifiersComeBackExactly(_ list: Case) throws {
        let (bytes, writer) = Self.encode(list.identifiers)
        #expect(writer.written == UInt64(bytes.count))
        #expect(writer.runStarts.count == IdentifierRuns.runCount(documents: list.identifiers.count))
        try bytes.withUnsafeBytes { raw in
            var decoded: [UInt8] = []
            for (index, identifier) in list.identifiers.enumerated() {
                let run = index / IdentifierRuns.runLength
                try IdentifierRuns.decode(raw, from: Int(writer.runStarts[run]), skipping: index % IdentifierRuns.runLength, into: &decoded)
                #expect(decoded == Array(identifier.utf8), "\(list.name): \(index)")
            }
            // In order, each over the one before, restarting at each run.
            var reader = IdentifierRuns.Reader(raw, at: 0)
            for (index, identifier) in list.identifiers.enumerated() {
                try reader.next(into: &decoded, first: index % IdentifierRuns.runLength == 0)
                #expect(decoded == Array(identifier.utf8), "\(list.name): \(index) in order")
            }
        }
        // Front coding never costs more than a length byte or two an identifier.
        let raw = list.identifiers.reduce(0) { $0 + $1.utf8.count }
        #expect(bytes.count <= raw + 4 * list.identifiers.count)
    }

    /// Byte for byte: a run's first is its length and bytes; the next ones
    /// the bytes shared with the one before, the rest's length, the rest.
    @Test func theBytesWritten() {
        let (bytes, writer) = Self.encode(["mail/1", "mail/2", "x", "xy"])
        #expect(bytes == [6] + Array("mail/1".utf8) + [5, 1] + Array("2".utf8) + [0, 1] + Array("x".utf8) + [1, 1] + Array("y".utf8))
        #expect(writer.runStarts == [0])
        // The 17th starts a run of its own: no shared length.
        let (many, runs) = Self.encode((0..<17).map { _ in "ab" })
        #expect(runs.runStarts == [0, UInt64(3 + 15 * 2)])   // each after the first: 2 shared, nothing else
        #expect(many.suffix(3) == [2] + Array("ab".utf8))
    }

    /// Damaged bytes throw: a length past the section, a shared length
    /// past the identifier before, a length of too many bytes. Any byte
    /// changed decodes or throws, never reading past the section.
    @Test func damagedRunsThrow() throws {
        let (bytes, writer) = Self.encode(["mail/1", "mail/2", "mail/30"])
        func decode(_ bytes: [UInt8], skipping: Int) throws -> [UInt8] {
            var decoded: [UInt8] = []
            try bytes.withUnsafeBytes { try IdentifierRuns.decode($0, from: 0, skipping: skipping, into: &decoded) }
            return decoded
        }
        #expect(try decode(bytes, skipping: 2) == Array("mail/30".utf8))
        #expect(throws: SegmentError.self) { try decode(Array(bytes.dropLast()), skipping: 2) }   // runs past the section
        var sharesTooMuch = bytes
        sharesTooMuch[7] = 9                                                                  // 9 shared of "mail/1"'s 6
        #expect(throws: SegmentError.self) { try decode(sharesTooMuch, skipping: 1) }
        #expect(throws: SegmentError.self) { try decode([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 1], skipping: 0) }   // a length of 5 bytes
        #expect(throws: SegmentError.self) { try decode([], skipping: 0) }
        for index in bytes.indices {
            for value: UInt8 in [0, 1, 0x7F, 0x80, 0xFF] {
                var damaged = bytes
                damaged[index] = value
                for skipping in 0..<3 { _ = try? decode(damaged, skipping: skipping) }
            }
        }
        #expect(writer.runStarts == [0])
    }

    /// A segment answers each document's identifier, a lookup by
    /// identifier, and a merge that drops documents (breaking runs) keeps
    /// the others', in a section smaller than the identifiers.
    @Test(arguments: [false, true])
    func segmentsAnswerIdentifiers(merged: Bool) throws {
        let identifiers = (0..<100).map { "file:///home/user/Documents/report-\($0 / 10)/page-\($0).txt" }
        let documents = identifiers.enumerated().map { index, uid in
            let builder = DocumentTokens.Builder(weights: .standard)
            builder.add("page \(index)", column: 0)
            return RankedDocument(rowid: Int64(index + 1), expires: .infinity, hint: 0, recency: nil, engagement: 0, engagedAt: 0,
                                  tokens: builder.finish(), uid: uid, uidHash: RankedDocument.uidHash(uid), numbers: [])
        }
        var segment = try SegmentCompactionTests.segment(documents)
        var kept = identifiers
        if merged {
            let deleted = Set(stride(from: 2, to: 100, by: 3))
            let deletion = DeletionSet(documentCount: 100, deleted: deleted.map { UInt32($0) })
            let bytes = try SegmentMerger.mergeEncoded([SegmentSnapshot(segment: segment, deleted: deletion)],
                                                       scoring: SegmentCompactionTests.scoring, buildTime: 0).bytes
            segment = try Segment(SegmentBytes(copying: bytes), verifyChecksum: true)
            kept = identifiers.enumerated().filter { !deleted.contains($0.offset) }.map(\.element)
        }
        #expect(segment.documentCount == kept.count)
        for (doc, identifier) in kept.enumerated() { #expect(try segment.identifier(doc) == identifier) }
        var inOrder: [String] = []
        try segment.forEachIdentifier { _, bytes in inOrder.append(String(decoding: bytes, as: UTF8.self)) }
        #expect(inOrder == kept)
        let snapshot = [SegmentSnapshot(segment: segment, deleted: DeletionSet(documentCount: segment.documentCount, deleted: []))]
        #expect(try RankedLookups.rowids(identifier: kept[7], in: snapshot) == [segment.rowid(7)])
        #expect(try RankedLookups.rowids(identifier: "file:///home/user/Documents/report-0/page-", in: snapshot).isEmpty)
        #expect(throws: SegmentError.self) { try segment.identifier(kept.count) }
        let raw = kept.reduce(0) { $0 + $1.utf8.count }
        #expect(SegmentCompactionTests.sectionSize(segment, .uidBytes) < raw / 2)
        #expect(SegmentCompactionTests.sectionSize(segment, .uidRuns)
            == SegmentFormat.packedSize(count: IdentifierRuns.runCount(documents: kept.count) + 1,
                                        width: Int(segment.bytes.buffer[SegmentFormat.packedWidthsOffset + SegmentFormat.Section.uidRuns.rawValue])))
    }
}
