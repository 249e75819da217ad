/// The ranked index's segment reader, for the fuzzer (`Fuzz/`): public only
/// so that the fuzzing executable can reach it; not API for apps.
///
/// ```swift
/// _SegmentFuzzing.exercise(bytes)          // must never crash, whatever the bytes
/// ```
///
/// A damaged segment must be refused with a `SegmentError` (and the index
/// rebuilt), never read out of bounds. Since anyone who can write a file
/// can also write its checksums, ``exercise(_:)`` first makes both
/// checksums right, so that the structural checks behind them are what the
/// fuzzer tests; then it searches the segment as queries do.
public enum _SegmentFuzzing {
    /// Reads `input` as a segment and runs searches, typo searches,
    /// dictionary walks and lookups over it.
    public static func exercise(_ input: [UInt8]) {
        var bytes = input
        guard bytes.count >= SegmentFormat.headerSize else {
            _ = try? Segment(SegmentBytes(copying: bytes), verifyChecksum: true)
            return
        }
        let body = bytes.withUnsafeBytes { SegmentFormat.checksum(UnsafeRawBufferPointer(rebasing: $0[SegmentFormat.headerSize...])) }
        withUnsafeBytes(of: body.littleEndian) { bytes.replaceSubrange(SegmentFormat.checksumOffset..<(SegmentFormat.checksumOffset + 8), with: $0) }
        let header = bytes.withUnsafeBytes { SegmentFormat.headerChecksum($0) }
        withUnsafeBytes(of: header.littleEndian) {
            bytes.replaceSubrange(SegmentFormat.headerChecksumOffset..<(SegmentFormat.headerChecksumOffset + 8), with: $0)
        }
        guard let segment = try? Segment(SegmentBytes(copying: bytes), verifyChecksum: true) else { return }
        let snapshot = [SegmentSnapshot(segment: segment, deleted: DeletionSet(documentCount: segment.documentCount, deleted: []))]
        var queries = ["apple", "pe", "green fruit", "a b", "東京", "zzz"]
        if segment.termCount > 0, let first = try? segment.term(0), let word = String(validating: first, as: UTF8.self) {
            queries.append(word)
        }
        let scoring = RankedScoring(weights: RankingWeights())
        for text in queries {
            let query = RankedQuery(TextTokenizer.queryTerms(text))
            var searcher = RankedSearcher(segments: snapshot, scoring: scoring, now: 1_800_000_000)
            _ = try? searcher.search(query, limit: 20, verify: { _ in true })
            if let typos = query.allowingTypos() { _ = try? searcher.search(typos, limit: 20, verify: { _ in true }) }
        }
        _ = try? RankedDictionary.words(containing: "pp", limit: 64, in: snapshot)
        _ = try? RankedDictionary.words(startingWith: "a", in: snapshot)
        _ = try? RankedDictionary.rowids(matching: [.prefix("a"), .word("fruit")], columns: 0xF, in: snapshot)
        _ = try? RankedLookups.rowids(named: "rating", in: NumberRange(lower: 1), segments: snapshot)
        _ = segment.documents(uidHash: RankedDocument.uidHash("p-apple"))
        _ = segment.document(rowid: 3)
        for doc in [0, 1, segment.documentCount - 1, segment.documentCount] { _ = try? segment.identifier(doc) }
        _ = try? RankedLookups.identifier(of: 3, in: snapshot)
    }

    /// A few small valid segments, the fuzzer's starting points.
    public static func seeds() -> [[UInt8]] {
        let builder = DocumentTokens.Builder(weights: DocumentTokens.ColumnWeights(RankingWeights()))
        let sets: [[[String: AttributeValue]]] = [
            [["title": .string("Apple"), "keywords": .strings(["fruit", "green"]), "rating": .number(.int(4))],
             ["title": .string("Pear"), "contentDescription": .string("Williams pears, ripe"), "rating": .number(.double(3.5))],
             ["title": .string("東京タワー"), "contentDescription": .string("展望台")]],
            (0..<300).map { ["title": .string("note \($0) apple pie \($0 % 7)"), "rank": .number(.int(Int64($0)))] },
        ]
        let scoring = RankedScoring(weights: RankingWeights())
        return sets.map { attributesList in
            let documents = attributesList.enumerated().map { index, attributes in
                let content = RankedIndex.content(uid: "p-\(index)", domain: nil, contentType: nil, attributes: attributes, tokens: builder)
                return RankedDocument(rowid: Int64(index + 1), expires: 2_000_000_000, hint: 0, recency: nil, engagement: 0, engagedAt: 0,
                                      tokens: content.tokens, uid: content.uid, uidHash: content.uidHash, numbers: content.numbers)
            }
            return SegmentEncoder.encode(SegmentContents.building(documents), scoring: scoring, buildTime: 1_800_000_000)
        }
    }
}
