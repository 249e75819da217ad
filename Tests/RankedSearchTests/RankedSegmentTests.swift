import Foundation
@_spi(Inspection) import RankedSearch
import TestSupport
import Testing

/// The segment format: the dictionary, term groups, postings, initials,
/// typed values and identifier hashes as written and read back; bounds
/// never below exact scores; encoding and merging in parts or whole give
/// the same bytes; the merge policy.
@Suite struct RankedSegmentTests {
    static let scoring = RankedScoring(weights: RankingWeights())

    static func document(_ rowid: Int64, title: String = "", description: String = "", hint: Double = 0,
                         numbers: [(String, Double)] = [], uid: String? = nil) -> RankedDocument {
        let uid = uid ?? "item-\(rowid)"
        let builder = DocumentTokens.Builder(weights: .standard)
        builder.add(title, column: 0)
        builder.add(description, column: 2)
        return RankedDocument(rowid: rowid, expires: .infinity, hint: hint, recency: nil, engagement: 0, engagedAt: 0, tokens: builder.finish(),
                              uid: uid, uidHash: RankedDocument.uidHash(uid), numbers: numbers)
    }

    static func segment(_ documents: [RankedDocument]) throws -> Segment {
        let bytes = SegmentEncoder.encode(SegmentContents(documents: documents), scoring: scoring, buildTime: 0)
        return try Segment(SegmentBytes(copying: bytes), verifyChecksum: true)
    }

    /// A term's postings, decoded.
    static func postings(_ segment: Segment, term: Int) throws -> [(doc: UInt32, frequency: UInt32, columns: UInt8)] {
        let buffers = BlockBuffers()
        var out: [(doc: UInt32, frequency: UInt32, columns: UInt8)] = []
        for block in try segment.blocks(of: term) {
            let count = try segment.unpack(block, into: buffers, columns: true)
            out += (0..<count).map { (buffers.docs[$0], buffers.frequencies[$0], buffers.columns[$0]) }
        }
        return out
    }

    /// The segment's words (the initials after them left out).
    func terms(_ segment: Segment) throws -> [String] {
        try (0..<segment.wordCount).map { String(decoding: try segment.term($0), as: UTF8.self) }
    }

    /// After the words, one initial per first letter of an alphabet
    /// (``SegmentInitials``): its postings are each document's largest stored
    /// frequency and every column among its tokens starting with the letter.
    /// No lookup of words reaches them; Han characters have none.
    @Test func initialsFollowTheWordsWithEachDocumentsBestToken() throws {
        let segment = try Self.segment([
            Self.document(1, title: "Library card", description: "libraries lend books"),
            Self.document(2, title: "Élan vital", description: "élan libre λόγος 東京"),
        ])
        let words = try terms(segment)
        let initials = try (segment.wordCount..<segment.termCount).map { Array(try segment.term($0)) }
        #expect(initials == ["b", "c", "e", "l", "v", "λ"].map { [SegmentFormat.initialMarker] + Array($0.utf8) })
        #expect(words.contains("東京") && words.contains { $0.hasPrefix("λ") })
        for (letter, initial) in zip(["b", "c", "e", "l", "v", "λ"], segment.wordCount..<segment.termCount) {
            #expect(try segment.initial(of: Array(letter.utf8)) == initial)
            // Per document: the largest frequency, the union of columns, of the letter's words.
            var expected: [UInt32: (UInt32, UInt8)] = [:]
            for word in 0..<segment.wordCount {
                guard try segment.term(word).starts(with: Array(letter.utf8)) else { continue }
                for (doc, frequency, columns) in try Self.postings(segment, term: word) {
                    let known = expected[doc] ?? (0, 0)
                    expected[doc] = (max(known.0, frequency), known.1 | columns)
                }
            }
            let found = try Self.postings(segment, term: initial)
            #expect(found.map(\.doc) == expected.keys.sorted(), "\(letter)")
            #expect(found.allSatisfy { expected[$0.doc]! == ($0.frequency, $0.columns) }, "\(letter)")
        }
        #expect(try segment.initial(of: Array("東".utf8)) == nil)
        #expect(try segment.initial(of: Array("li".utf8)) == nil)
        #expect(try segment.initial(of: Array("z".utf8)) == nil)
        #expect(try segment.terms(matching: [], prefix: true) == 0..<segment.wordCount)
        #expect(try segment.terms(containing: Array("b".utf8)).allSatisfy { $0 < segment.wordCount })
    }

    @Test func dictionaryIsSortedByBytesAndAnswersWordsAndPrefixes() throws {
        let segment = try Self.segment([
            Self.document(7, title: "Library card", description: "libraries lend books"),
            Self.document(3, title: "Élan vital", description: "élan libre"),
        ])
        #expect(try terms(segment) == ["books", "card", "elan", "lend", "libraries", "library", "libre", "vital"])
        #expect(segment.documentCount == 2)
        #expect(segment.rowid(0) == 3 && segment.rowid(1) == 7)          // doc ids in rowid order
        #expect(segment.document(rowid: 7) == 1 && segment.document(rowid: 5) == nil)
        #expect(try segment.terms(matching: Array("libr".utf8), prefix: true) == 4..<7)
        #expect(try segment.terms(matching: Array("library".utf8), prefix: false) == 5..<6)
        #expect(try segment.terms(matching: Array("libr".utf8), prefix: false).isEmpty)
        #expect(try segment.terms(matching: Array("z".utf8), prefix: true).isEmpty)
        #expect(try segment.terms(matching: Array("".utf8), prefix: true) == 0..<8)
    }

    /// A segment's words are in byte order however they were added and
    /// whatever they share: sorted by their first eight bytes, a byte at a
    /// time, then words alike in those by the rest (longer after shorter).
    @Test func wordsAreInByteOrderWhateverTheyShare() throws {
        var words: [String] = []
        for index in 0..<300 { words.append("w" + String(index * 7919 % 1000)) }   // short, digits
        for index in 0..<200 { words.append("counterrevolution" + String(UnicodeScalar(97 + index * 7 % 26)!) + String(index)) }
        words += ["counterr", "counterre", "counterrevolution", "counterrevolutionary", "a", "zz", "zzzzzzzzzz", "zzzzzzzzz"]
        words += ["émile", "über", "ça", "ñandú", "øre"]   // first bytes past ASCII
        words += ["abcdefgi", "abcdefga", "abcdefgh", "abcdefg", "abcdefgha"]   // alike but the eighth byte, or past it
        // Added in a scrambled order.
        let scrambled = words.indices.map { words[$0 * 337 % words.count] }
        #expect(Set(scrambled).count == Set(words).count)
        let documents = stride(from: 0, to: scrambled.count, by: 9).map { start in
            Self.document(Int64(start), title: scrambled[start..<min(start + 9, scrambled.count)].joined(separator: " "))
        }
        let all = try terms(try Self.segment(documents))
        #expect(all.count >= Set(words).count - 5)
        for (earlier, later) in zip(all, all.dropFirst()) {
            #expect(earlier.utf8.lexicographicallyPrecedes(later.utf8), "\(earlier) before \(later)")
        }
        for word in ["counterr", "counterre", "counterrevolution", "counterrevolutionary", "zzzzzzzzz", "zzzzzzzzzz", "w0"] {
            #expect(all.contains(word), "\(word)")
        }
    }

    /// Lookups search the groups by their first term's first 16 bytes, then
    /// one group: the same answers as a scan of the whole dictionary, for
    /// keys between terms, prefixes of many, and terms sharing more than 16
    /// bytes across a group's boundary.
    @Test func lookupsThroughTheGroupsAgreeWithAScan() throws {
        var words: [String] = []
        for index in 0..<150 { words.append("w" + String(index * 7919 % 1000)) }
        for index in 0..<150 { words.append("internationalization" + String(UnicodeScalar(97 + index % 26)!) + String(index)) }
        words += ["a", "ab", "abc", "internationalizatio", "internationalization", "zz"]
        let documents = stride(from: 0, to: words.count, by: 10).map { start in
            Self.document(Int64(start), title: words[start..<min(start + 10, words.count)].joined(separator: " "))
        }
        let segment = try Self.segment(documents)
        let all = try terms(segment)
        #expect(segment.termCount > 4 * SegmentFormat.termGroupSize)
        let keys = all + ["", "0", "a", "aa", "w5", "w99", "internationalizationa", "internationalizationb1", "internationalization", "internationalizationz",
                          "internationalizationzzz", "internationalizatioo", "intern", "zzz", "~"]
        for key in keys {
            let bytes = Array(key.utf8)
            let scanned = all.firstIndex { !$0.utf8.lexicographicallyPrecedes(bytes) } ?? all.count
            #expect(try segment.lowerBound(bytes) == scanned, "\(key)")
            let past = all.firstIndex { !$0.utf8.lexicographicallyPrecedes(bytes) && !$0.hasPrefix(key) } ?? all.count
            // (Every term starts with the empty key, the initials after the words too.)
            #expect(try min(segment.lowerBound(bytes, pastPrefix: true), segment.wordCount) == past, "\(key) as a prefix")
        }
    }

    /// Each group of 64 consecutive terms sums their postings and keeps
    /// their maxima; the last group may be short.
    @Test(arguments: [1, 63, 64, 65, 200])
    func termGroupsSumAndMaximiseTheirTerms(words: Int) throws {
        let documents = (0..<150).map { (doc: Int) -> RankedDocument in
            let title: [String] = (0..<words).filter { ($0 + doc) % 3 == 0 }.map { "w\($0)" }
            let word = "w\(doc % words)"
            return Self.document(Int64(doc), title: title.joined(separator: " "), description: "\(word) \(word)", hint: Double(doc % 7 * 10))
        }
        let segment = try Self.segment(documents)
        #expect(segment.termCount >= words)
        #expect(Segment.groupCount(terms: segment.termCount) == (segment.termCount + 63) / 64)
        for group in 0..<Segment.groupCount(terms: segment.termCount) {
            let ids = (group * 64)..<min(group * 64 + 64, segment.termCount)
            let entry = segment.termGroup(group)
            #expect(entry.documents == ids.reduce(0) { $0 + segment.termDocumentCount($1) })
            #expect(entry.mostDocuments == ids.map(segment.termDocumentCount).max())
            #expect(entry.maxG == ids.map(segment.termMaxG).max())
            #expect(entry.maxGS == ids.map(segment.termMaxGS).max())
            #expect(entry.maxS == ids.map(segment.termMaxS).max())
            #expect(entry.maxGS > 0 && entry.maxS >= 1)
        }
    }

    /// Terms are stored end to end: a fragment spanning two terms (`yca` in
    /// `library` + `card`) must not match, and one holding a term twice is listed once.
    @Test func termsContainingAFragmentAreFoundInTheDictionaryBytes() throws {
        let segment = try Self.segment([
            Self.document(1, title: "Library card", description: "libraries lend books; ararat"),
            Self.document(2, title: "Élan vital", description: "élan libre"),
        ])
        let cases: [(String, [String])] = [
            ("brar", ["libraries", "library"]), ("yca", []), ("sc", []), ("ar", ["ararat", "card", "libraries", "library"]),
            ("lib", ["libraries", "library", "libre"]), ("k", ["books"]), ("vital", ["vital"]), ("vitals", []), ("s", ["books", "libraries"]),
        ]
        for (fragment, expected) in cases {
            let ids = try segment.terms(containing: Array(fragment.utf8))
            #expect(try ids.map { String(decoding: try segment.term($0), as: UTF8.self) } == expected, "\(fragment)")
        }
        #expect(try segment.terms(containing: Array("ar".utf8), limit: 2).count == 2)
        #expect(try segment.terms(containing: []).isEmpty)
    }

    /// The dictionary scan's search finds what a byte-by-byte search finds:
    /// haystacks of two or three letters (many near misses), needles of 1
    /// to 20 bytes, from every offset, at the start, the end and across the
    /// sixteen-byte blocks it compares at once.
    @Test func theDictionaryScanFindsWhatAByteByByteSearchFinds() {
        func naive(_ needle: [UInt8], _ haystack: [UInt8], from: Int) -> Int? {
            guard haystack.count >= needle.count else { return nil }
            return (from..<max(from, haystack.count - needle.count + 1)).first { start in
                haystack[start..<(start + needle.count)].elementsEqual(needle)
            }
        }
        var random = SplitMix(seed: 28)
        var checked = 0
        for round in 0..<400 {
            let alphabet = Array((round % 2 == 0 ? "ab" : "abc").utf8)
            let haystack = (0..<Int.random(in: 0...70, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            let needle = (0..<Int.random(in: 1...20, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            // A needle cut from the haystack itself, so most rounds have a match.
            let planted = haystack.isEmpty ? needle : Array(haystack[Int.random(in: 0..<haystack.count, using: &random)...].prefix(needle.count))
            for probe in [needle, planted] {
                haystack.withUnsafeBytes { bytes in
                    probe.withUnsafeBytes { needleBytes in
                        for from in 0...haystack.count {
                            let base = bytes.baseAddress ?? UnsafeRawPointer(needleBytes.baseAddress!)
                            let found = Segment.find(needleBytes, in: base, from: from, size: haystack.count)
                            #expect(found == naive(probe, haystack, from: from), "\(probe) in \(haystack) from \(from)")
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 20_000)
    }

    /// Words looked up together, walking the dictionary from one to the
    /// next, are found as each alone is: given in any order, repeated,
    /// missing, past the last term, non-ASCII (after `z` in byte order),
    /// each found once.
    @Test func wordsLookedUpTogetherAreFoundAsEachAlone() throws {
        let segment = try Self.segment([
            Self.document(1, title: "Library card", description: "libraries lend books; ararat"),
            Self.document(2, title: "Élan vital", description: "élan libre zebra"),
        ])
        let cases: [[String]] = [
            [], ["card"], ["zebra", "books", "card"], ["library", "library", "libre"], ["aaa", "card", "libr", "zzz"],
            ["élan", "vital", "ararat"], ["zzzz", "élan"], ["libraries", "library", "lend", "books", "ararat", "card", "vital", "élan", "libre", "zebra"],
        ]
        for words in cases {
            let alone = try Set(words).flatMap { try segment.terms(matching: Array($0.utf8), prefix: false) }.sorted()
            #expect(try segment.terms(matchingAnyOf: words) == alone, "\(words)")
        }
        // Folded when indexed: `élan` is held as `elan`.
        #expect(try segment.terms(matchingAnyOf: ["elan", "vital", "ararat", "élan"]).count == 3)
    }

    /// Signals equal for every document are stored once, and read back
    /// the same; differing ones stay per document. Bits naming any other
    /// section are refused as damage.
    @Test func sectionsOfOneValueAreStoredOnce() throws {
        var same = [Self.document(1, title: "alpha", hint: 5), Self.document(2, title: "beta", hint: 5)]
        let collapsed = try Self.segment(same)
        same[1].hint = 7
        same[1].recency = 1_000
        let mixed = try Self.segment(same)
        #expect(collapsed.bytes.buffer.count < mixed.bytes.buffer.count)
        for doc in 0..<2 {
            #expect(collapsed.hint(doc) == 5 && collapsed.expires(doc) == .infinity && collapsed.recency(doc) == nil)
            #expect(collapsed.engagement(doc) == 0 && collapsed.engagedAt(doc) == 0)
        }
        #expect(mixed.hint(0) == 5 && mixed.hint(1) == 7 && mixed.recency(0) == nil && mixed.recency(1) == 1_000)
        #expect(mixed.expires(1) == .infinity)

        var bytes = Array(collapsed.bytes.buffer)
        bytes[SegmentFormat.constantSectionsOffset] |= 1   // "rowids are one value": not a collapsible section
        #expect(throws: SegmentError.self) { try Segment(SegmentBytes(copying: bytes), verifyChecksum: false) }
    }

    @Test(arguments: [
        ([3], 0, 2, true), ([3], 0, 3, false), ([3], 3, 3, false), ([3], 4, 200, true), ([64], 0, 63, true),
        ([64], 60, 64, false), ([64, 191], 65, 190, true), ([64, 191], 65, 191, false), ([0], 0, 0, false), ([199], 199, 199, false),
    ])
    func documentBitmapKnowsEmptyRanges(members: [Int], first: Int, last: Int, empty: Bool) {
        var bits = DocumentBitmap(documentCount: 200)
        for doc in members { bits.insert(doc) }
        #expect(bits.isEmpty(from: first, through: last) == empty)
        #expect(members.allSatisfy(bits.contains) && !bits.contains(1))
    }

    @Test func postingsRoundTrip() throws {
        // 300 documents: "common" in all (three blocks), "even" in half, "title" weighted by column.
        var documents: [RankedDocument] = []
        for index in 1...300 {
            let title = index == 42 ? "common title" : "common"
            documents.append(Self.document(Int64(index), title: title, description: index % 2 == 0 ? "even" : "odd"))
        }
        let segment = try Self.segment(documents)
        let common = try #require(try segment.terms(matching: Array("common".utf8), prefix: false).first)
        #expect(segment.termDocumentCount(common) == 300)
        #expect(try segment.blocks(of: common).count == 3)
        var docs: [UInt32] = [], frequencies: [UInt32] = []
        var all: [UInt32] = []
        for block in try segment.blocks(of: common) {
            try segment.decodeBlock(block, docs: &docs, frequencies: &frequencies)
            all += docs
            #expect(frequencies.allSatisfy { $0 == 160 << 1 | 1 })     // title weight 10 × 16, in the title
        }
        #expect(all == Array(0..<300))
        let title = try #require(try segment.terms(matching: Array("title".utf8), prefix: false).first)
        try segment.decodeBlock(try segment.blocks(of: title).first!, docs: &docs, frequencies: &frequencies)
        #expect(docs == [41] && frequencies == [160 << 1 | 1])
        #expect(segment.length(41) == 3)
    }

    @Test func boundsAreNeverBelowExactScores() throws {
        var documents: [RankedDocument] = []
        for index in 1...500 {
            var document = Self.document(Int64(index), title: index % 7 == 0 ? "apple apple" : "apple",
                                         description: String(repeating: "pie ", count: index % 13), hint: Double(index % 101))
            document.engagement = Double(index % 5)
            document.engagedAt = 1_000
            document.recency = index % 3 == 0 ? nil : Double(index * 1_000)
            documents.append(document)
        }
        let segment = try Self.segment(documents)
        let term = try #require(try segment.terms(matching: Array("apple".utf8), prefix: false).first)
        var docs: [UInt32] = [], frequencies: [UInt32] = []
        for block in try segment.blocks(of: term) {
            try segment.decodeBlock(block, docs: &docs, frequencies: &frequencies)
            for (doc, frequency) in zip(docs, frequencies) {
                let norm = RankedScoring.norm(length: segment.length(Int(doc)), avgLength: segment.avgLength)
                let g = Self.scoring.termScore(frequency: frequency, norm: norm, titleLength: segment.titleLength(Int(doc)), wholeWord: true)
                let part = Self.scoring.termScore(frequency: frequency, norm: norm, titleLength: segment.titleLength(Int(doc)), wholeWord: false)
                let exact = Self.scoring.breakdown(text: g, matchQuality: 0, segment, Int(doc), now: 600_000).total
                #expect(exact <= segment.blockMaxGS(block) && g <= segment.termMaxG(term))
                #expect(Self.scoring.breakdown(text: part, matchQuality: 0, segment, Int(doc), now: 600_000).total <= segment.blockMaxGSPart(block))
                #expect(part <= g && segment.blockMaxGSPart(block) <= segment.termMaxGSPart(term))
                #expect(segment.staticBound(Int(doc)) <= segment.blockMaxS(block))
            }
        }
    }

    /// A block's documents' static bounds and lengths read in one pass (the
    /// driver loop's) are each document's own; with a mask, only the
    /// documents it holds are read, the others' entries left as they were.
    @Test func gatheredBoundsAreEachDocumentsOwn() throws {
        var documents: [RankedDocument] = []
        for index in 1...400 {
            documents.append(Self.document(Int64(index), title: "apple", description: String(repeating: "pie ", count: index % 17),
                                           hint: Double(index % 97)))
        }
        let segment = try Self.segment(documents)
        let term = try #require(try segment.terms(matching: Array("apple".utf8), prefix: false).first)
        var docs: [UInt32] = [], frequencies: [UInt32] = []
        var lengths: Set<UInt32> = []
        for block in try segment.blocks(of: term) {
            try segment.decodeBlock(block, docs: &docs, frequencies: &frequencies)
            var pairs = [UInt64](repeating: 0, count: docs.count)
            docs.withUnsafeBufferPointer { segment.gatherDocumentBounds($0, into: &pairs) }
            for (doc, pair) in zip(docs, pairs) {
                #expect(Double(Float(bitPattern: UInt32(truncatingIfNeeded: pair))) == segment.staticBound(Int(doc)))
                #expect(Double(UInt32(truncatingIfNeeded: pair >> 32)) == segment.length(Int(doc)))
                lengths.insert(UInt32(truncatingIfNeeded: pair >> 32))
            }
            let holding = docs.map { $0 % 3 == 0 ? UInt32(1) : 0 }
            var masked = [UInt64](repeating: .max, count: docs.count)
            docs.withUnsafeBufferPointer { segment.gatherDocumentBounds($0, into: &masked, holding: holding) }
            #expect(masked == zip(pairs, holding).map { $1 != 0 ? $0 : .max })
        }
        #expect(lengths.count == 17)   // every length the documents have, not one read over and over
    }

    /// A term's cursor answers the same frequencies, and bounds that hold,
    /// whether its tokens are walked lazily, read densely (every one, or a
    /// tail past the eight largest), or densely only for candidates (the
    /// documents it is then asked about); with
    /// `rare` more tokens of one document each (a short prefix's long tail,
    /// whose blocks the candidates rule out by their first doc).
    @Test(arguments: [(tokens: 5, asked: 0, rare: 0), (tokens: 5, asked: 1_000_000, rare: 0), (tokens: 12, asked: 0, rare: 0),
                      (tokens: 12, asked: 1_000_000, rare: 0), (tokens: 12, asked: 30, rare: 0), (tokens: 12, asked: 30, rare: 400)])
    func termCursorsAgreeLazyOrDense(tokens: Int, asked: Int, rare: Int) throws {
        var random = SplitMix(seed: 7)
        var documents: [RankedDocument] = []
        for index in 1...2_500 {
            // Token t is in about one document in t + 1, some of them twice.
            var words = (0..<tokens).filter { random.next() % UInt64($0 + 1) == 0 }.map { "alp\(String(UnicodeScalar(UInt8(97 + $0))))" }
            // A rare token in every sixth document, each its own.
            if index % 6 == 0, index / 6 <= rare {
                words.append("alpzz" + String(index, radix: 26).map { String(UnicodeScalar(UInt8(97 + Int(String($0), radix: 26)!))) }.joined())
            }
            documents.append(Self.document(Int64(index), title: words.prefix(2).joined(separator: " "),
                                           description: (words + words.suffix(1)).joined(separator: " ") + " other"))
        }
        var segment = try Self.segment(documents)
        segment.keepsDenseTails = false   // read each time (DenseTailTests has kept tails)
        let range = try segment.terms(matching: Array("alp".utf8), prefix: true)
        #expect(range.count == tokens + rare)
        var expected = [UInt32](repeating: 0, count: segment.documentCount)
        var docs: [UInt32] = [], frequencies: [UInt32] = []
        for id in range {
            for block in try segment.blocks(of: id) {
                try segment.decodeBlock(block, docs: &docs, frequencies: &frequencies)
                for (doc, frequency) in zip(docs, frequencies) { expected[Int(doc)] = max(expected[Int(doc)], frequency) }
            }
        }
        var candidates = DocumentBitmap(documentCount: segment.documentCount)
        for doc in stride(from: 3, to: segment.documentCount, by: 37) { candidates.insert(doc) }
        for bits in [nil, candidates] {
            var cursor = try TermCursor(segment: segment, ranges: [range], asked: asked, candidates: bits)
            for doc in 0..<segment.documentCount where bits?.contains(doc) != false {
                let want: UInt32? = expected[doc] > 0 ? expected[doc] : nil
                #expect(try cursor.frequency(at: UInt32(doc)) == want, "doc \(doc)")
                if want != nil {
                    #expect(try cursor.maxGS(from: UInt32(doc), through: UInt32(doc)) != nil, "doc \(doc)")
                }
            }
            // Rewound, from the first document it can be asked about (with candidates, only those).
            cursor.rewind()
            let first = try #require((0..<segment.documentCount).first { bits?.contains($0) != false })
            #expect(try cursor.frequency(at: UInt32(first)) == (expected[first] > 0 ? expected[first] : nil))
        }
    }

    /// Bounds stored at the segment's average length, rescaled to a longer
    /// store average, stay above every exact score there, and are tighter
    /// than scaling by the ratio of the averages.
    @Test(arguments: [1.0, 1.02, 1.1, 1.5, 3.0])
    func rescaledBoundsHoldAtALongerStoreAverage(_ growth: Double) throws {
        var documents: [RankedDocument] = []
        for index in 1...600 {
            let words = index % 11 == 0 ? "apple apple apple" : "apple"
            var document = Self.document(Int64(index), title: index % 5 == 0 ? words : "pie",
                                         description: (index % 5 == 0 ? "" : words + " ") + String(repeating: "pie ", count: index % 29),
                                         hint: Double(index % 101))
            document.recency = Double(index * 1_000)
            documents.append(document)
        }
        let segment = try Self.segment(documents)
        let term = try #require(try segment.terms(matching: Array("apple".utf8), prefix: false).first)
        let storeAverage = segment.avgLength * growth
        let ratio = segment.avgLength / storeAverage
        let rise = RankedScoring.growth(ratio: ratio)
        var docs: [UInt32] = [], frequencies: [UInt32] = []
        var termMost = 0.0, termMostG = 0.0
        for block in try segment.blocks(of: term) {
            try segment.decodeBlock(block, docs: &docs, frequencies: &frequencies)
            var most = 0.0
            for (doc, frequency) in zip(docs, frequencies) {
                let g = Self.scoring.termScore(frequency: frequency, norm: RankedScoring.norm(length: segment.length(Int(doc)), avgLength: storeAverage),
                                               titleLength: segment.titleLength(Int(doc)), wholeWord: true)
                let exact = Self.scoring.breakdown(text: g, matchQuality: 0, segment, Int(doc), now: 600_000).total
                most = max(most, exact)
                termMostG = max(termMostG, g)
            }
            termMost = max(termMost, most)
            let bound = RankedScoring.rescaled(maxGS: segment.blockMaxGS(block), maxS: segment.blockMaxS(block), ratio: ratio, growth: rise)
            #expect(most <= bound * (1 + 1e-12), "block \(block)")
            #expect(bound <= segment.blockMaxGS(block) / ratio * (1 + 1e-12))
        }
        #expect(termMost <= RankedScoring.rescaled(maxGS: segment.termMaxGS(term), maxS: segment.termMaxS(term), ratio: ratio, growth: rise) * (1 + 1e-12))
        #expect(termMostG <= RankedScoring.rescaled(maxGS: segment.termMaxG(term), maxS: 1, ratio: ratio, growth: rise) * (1 + 1e-12))
        // The rise is the largest f(G) − G over G's range.
        let c = RankedScoring.k1 + 1
        let sampled = stride(from: 0.0, through: c, by: c / 1_000).map { g in g * c / (ratio * c + (1 - ratio) * g) - g }.max()!
        #expect(sampled <= rise + 1e-12 && rise <= sampled + 1e-4)
        if growth > 1 {
            // Near G's ceiling the bound on G barely moves, where the old ×(1/ratio) did.
            #expect(RankedScoring.rescaledG(maxGS: 2.1, maxS: 1, ratio: ratio) < 2.1 / ratio)
            #expect(RankedScoring.rescaledG(maxGS: 2.2, maxS: 1, ratio: ratio) == 2.2)
        }
    }

    /// Encoding in two halves on two threads gives the same bytes as in one.
    @Test func encodingInTwoPartsGivesTheSameBytes() throws {
        let documents = (0..<600).map { Self.document(Int64($0) * 3, title: "title \($0 % 37) word\($0)", description: "shared text \($0 % 5) more",
                                                      hint: Double($0 % 9), numbers: [("size", Double($0 % 11))]) }
        let contents = SegmentContents(documents: documents)
        let whole = SegmentEncoder.encode(contents, scoring: Self.scoring, buildTime: 0, parallelPostings: .max)
        let split = SegmentEncoder.encode(contents, scoring: Self.scoring, buildTime: 0, parallelPostings: 0)
        #expect(whole == split)
        _ = try Segment(SegmentBytes(copying: split), verifyChecksum: true)
    }

    /// Building in two halves on two threads, joined, gives the contents one pass does.
    @Test func buildingInTwoHalvesGivesTheSameSegment() throws {
        let documents: [RankedDocument] = (0..<301).reversed().map { (index: Int) -> RankedDocument in
            let numbers: [(String, Double)] = index % 4 == 0 ? [("a", Double(index))] : [("b", 1), ("c", Double(index))]
            return Self.document(Int64(index) * 2, title: "t\(index % 17) only\(index)", description: "both halves \(index % 3)", numbers: numbers)
        }
        let one = SegmentContents(documents: documents)
        let two = SegmentContents.building(documents, parallelDocuments: 2)
        #expect(SegmentEncoder.encode(one, scoring: Self.scoring, buildTime: 0) == SegmentEncoder.encode(two, scoring: Self.scoring, buildTime: 0))
        #expect(two.rowids == (0..<301).map { Int64($0) * 2 })
    }

    /// A builder fed chunk by chunk (as a transaction's contents pipeline
    /// feeds it) gives the contents one pass over all the documents does.
    @Test(arguments: [1, 7, 64, 301])
    func buildingChunkByChunkGivesTheSameSegment(chunk: Int) throws {
        let documents: [RankedDocument] = (0..<301).map { (index: Int) -> RankedDocument in
            let numbers: [(String, Double)] = index % 4 == 0 ? [("a", Double(index))] : [("b", 1), ("c", Double(index))]
            return Self.document(Int64(index) * 3 + 1, title: "t\(index % 17) only\(index)", description: "every chunk \(index % 5) éclair",
                                 numbers: numbers)
        }
        var builder = SegmentContents.Builder()
        for start in stride(from: 0, to: documents.count, by: chunk) {
            for document in documents[start..<min(start + chunk, documents.count)] { builder.add(document) }
        }
        #expect(builder.documentCount == 301 && builder.lastRowid == 901)
        let chunked = builder.finish()
        let one = SegmentContents(documents: documents)
        #expect(SegmentEncoder.encode(chunked, scoring: Self.scoring, buildTime: 0) == SegmentEncoder.encode(one, scoring: Self.scoring, buildTime: 0))
        #expect(chunked.rowids == documents.map(\.rowid))
    }

    /// Identifier hashes are found by interpolation from where each falls:
    /// every stored one (collisions included) and none absent.
    @Test func identifierHashesAreFoundWhereverTheyFall() throws {
        var generator = SplitMix(seed: 7)
        var hashes = (0..<3_000).map { _ in generator.next() }
        hashes += [0, 1, UInt64.max, UInt64.max - 1, hashes[5], hashes[5], hashes[2_999]]   // edges and collisions
        var contents = SegmentContents(documents: hashes.indices.map { Self.document(Int64($0)) })
        contents.uidHashes = hashes
        let segment = try Segment(SegmentBytes(copying: SegmentEncoder.encode(contents, scoring: Self.scoring, buildTime: 0)), verifyChecksum: true)
        var expected: [UInt64: [Int]] = [:]
        for (doc, hash) in hashes.enumerated() { expected[hash, default: []].append(doc) }
        for (hash, docs) in expected { #expect(segment.documents(uidHash: hash) == docs, "\(hash)") }
        for _ in 0..<2_000 {
            let absent = generator.next()
            if expected[absent] == nil { #expect(segment.documents(uidHash: absent).isEmpty) }
        }
        #expect(segment.uidHashesByDocument() == hashes)
    }

    @Test func damagedBytesAreRefusedNotCrashedOn() throws {
        let documents = (1...200).map { Self.document(Int64($0), title: "word\($0) shared", description: "text \($0)") }
        let bytes = SegmentEncoder.encode(SegmentContents(documents: documents), scoring: Self.scoring, buildTime: 0)
        // Truncated, bad magic, wrong version: refused by the header.
        #expect(throws: SegmentError.self) { try Segment(SegmentBytes(copying: bytes.dropLast(8)), verifyChecksum: false) }
        var magic = bytes; magic[0] ^= 0xFF
        #expect(throws: SegmentError.self) { try Segment(SegmentBytes(copying: magic), verifyChecksum: false) }
        // Any flipped byte past the header fails the checksum.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            var damaged = bytes
            damaged[Int.random(in: SegmentFormat.headerSize..<bytes.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
            #expect(throws: SegmentError.self) { try Segment(SegmentBytes(copying: damaged), verifyChecksum: true) }
            // Unchecked, reading every structure either works or throws.
            if let segment = try? Segment(SegmentBytes(copying: damaged), verifyChecksum: false) {
                var docs: [UInt32] = [], frequencies: [UInt32] = []
                for term in 0..<segment.termCount {
                    _ = try? segment.term(term)
                    if let blocks = try? segment.blocks(of: term) {
                        for block in blocks { try? segment.decodeBlock(block, docs: &docs, frequencies: &frequencies) }
                    }
                }
            }
        }
    }

    @Test func mergingDropsDeletedDocumentsAndKeepsEverythingElse() throws {
        let first = try Self.segment([Self.document(1, title: "alpha beta"), Self.document(2, title: "beta gamma"), Self.document(3, title: "delta")])
        let second = try Self.segment([Self.document(4, title: "alpha"), Self.document(5, title: "epsilon beta")])
        let merged = try SegmentMerger.merge([
            SegmentSnapshot(segment: first, deleted: DeletionSet(documentCount: 3, deleted: [2])),   // rowid 3 gone
            SegmentSnapshot(segment: second, deleted: DeletionSet(documentCount: 2, deleted: [])),
        ])
        let segment = try Segment(SegmentBytes(copying: SegmentEncoder.encode(merged, scoring: Self.scoring, buildTime: 0)), verifyChecksum: true)
        #expect(try terms(segment) == ["alpha", "beta", "epsilon", "gamma"])     // "delta" had only the deleted document
        #expect((0..<segment.documentCount).map(segment.rowid) == [1, 2, 4, 5])
        let beta = try #require(try segment.terms(matching: Array("beta".utf8), prefix: false).first)
        var docs: [UInt32] = [], frequencies: [UInt32] = []
        try segment.decodeBlock(try segment.blocks(of: beta).first!, docs: &docs, frequencies: &frequencies)
        #expect(docs.map { segment.rowid(Int($0)) } == [1, 2, 5])
        let epsilon = try #require(try segment.terms(matching: Array("epsilon".utf8), prefix: false).first)
        try segment.decodeBlock(try segment.blocks(of: epsilon).first!, docs: &docs, frequencies: &frequencies)
        #expect(docs == [3])
        #expect(try (0..<segment.documentCount).map(segment.identifier) == ["item-1", "item-2", "item-4", "item-5"])
    }

    /// Each document's identifier comes back as given, whatever it holds,
    /// built in one piece or in two halves; past the documents is an error.
    @Test func identifiersComeBackAsGiven() throws {
        let identifiers = ["", "a", "Zoë Martin", "../../etc/passwd", "東京タワー", "x\u{0}y", String(repeating: "long-", count: 400), "a"]
        let documents = identifiers.enumerated().map { Self.document(Int64($0.offset + 1), title: "word \($0.offset)", uid: $0.element) }
        let segment = try Self.segment(documents)
        #expect(try (0..<segment.documentCount).map(segment.identifier) == identifiers)
        let halves = SegmentContents.building(documents, parallelDocuments: 2)
        let built = try Segment(SegmentBytes(copying: SegmentEncoder.encode(halves, scoring: Self.scoring, buildTime: 0)), verifyChecksum: true)
        #expect(try (0..<built.documentCount).map(built.identifier) == identifiers)
        #expect(throws: SegmentError.self) { try segment.identifier(identifiers.count) }
        #expect(throws: SegmentError.self) { try segment.identifier(-1) }
        // Through the rowid, the live document's, never a deleted one's
        // (SQLite gives a deleted last rowid again).
        let live = SegmentSnapshot(segment: segment, deleted: DeletionSet(documentCount: identifiers.count, deleted: []))
        let deleted = SegmentSnapshot(segment: segment, deleted: DeletionSet(documentCount: identifiers.count, deleted: [2]))
        let reused = SegmentSnapshot(segment: try Self.segment([Self.document(3, title: "new", uid: "reused")]),
                                     deleted: DeletionSet(documentCount: 1, deleted: []))
        #expect(try RankedLookups.identifier(of: 3, in: [live]) == "Zoë Martin")
        #expect(try RankedLookups.identifier(of: 3, in: [deleted, reused]) == "reused")
        #expect(try RankedLookups.identifier(of: 3, in: [deleted]) == nil)
        #expect(try RankedLookups.identifier(of: 99, in: [live]) == nil)
    }

    /// A hit says where the search found it, by every plan, and its
    /// identifier is read there; a hit whose place is gone, deleted or
    /// holds another rowid is found again by its rowid.
    @Test(arguments: [RankedSearcher.Plan.drivers, .conjunctions, .scans])
    func hitsSayWhereTheirIdentifiersAre(plan: RankedSearcher.Plan) throws {
        let first = try Self.segment((1...6).map { Self.document(Int64($0), title: "blue stone \($0)", uid: "first-\($0)") })
        let second = try Self.segment((7...9).map { Self.document(Int64($0), title: "blue stone \($0)", uid: "second-\($0)") })
        let snapshots = [first, second].map { SegmentSnapshot(segment: $0, deleted: DeletionSet(documentCount: $0.documentCount, deleted: [])) }
        var searcher = RankedSearcher(segments: snapshots, scoring: Self.scoring, now: 1_000)
        searcher.plan = plan
        let hits = try searcher.search(RankedQuery(TextTokenizer.queryTerms("blue stone ")), limit: 20, verify: { _ in true })
        #expect(hits.count == 9)
        for hit in hits {
            let (segment, doc) = hit.rowid <= 6 ? (0, Int(hit.rowid) - 1) : (1, Int(hit.rowid) - 7)
            #expect(hit.segment == segment && hit.doc == doc, "rowid \(hit.rowid) at \(hit.segment) \(hit.doc)")
            #expect(try RankedLookups.identifier(of: hit, in: snapshots) == (segment == 0 ? "first-\(hit.rowid)" : "second-\(hit.rowid)"))
        }
        let score = try #require(hits.first).score
        let deleted = [snapshots[0], SegmentSnapshot(segment: second, deleted: DeletionSet(documentCount: 3, deleted: [1]))]
        let cases: [(hit: RankedHit, segments: [SegmentSnapshot], expected: String?)] = [
            (RankedHit(rowid: 8, score: score), snapshots, "second-8"),                        // no place: by rowid
            (RankedHit(rowid: 8, score: score, segment: 2, doc: 1), snapshots, "second-8"),    // no such segment
            (RankedHit(rowid: 8, score: score, segment: 1, doc: 9), snapshots, "second-8"),    // past its documents
            (RankedHit(rowid: 8, score: score, segment: 0, doc: 1), snapshots, "second-8"),    // another rowid's place
            (RankedHit(rowid: 8, score: score, segment: 1, doc: 1), deleted, nil),             // deleted since
        ]
        for (hit, segments, expected) in cases {
            #expect(try RankedLookups.identifier(of: hit, in: segments) == expected, "\(hit.segment) \(hit.doc)")
        }
    }

    /// Merging in two halves of the term space gives the segment a merge in one does.
    @Test func mergingInTwoPartsGivesTheSameSegment() throws {
        let inputs = try (0..<4).map { part in
            let documents = (0..<200).map { index in
                Self.document(Int64(part * 1_000 + index), title: "t\(index % 13) w\(part)x\(index)", description: "common \(index % 7)",
                              numbers: [("n", Double(index))])
            }
            return SegmentSnapshot(segment: try Self.segment(documents),
                                   deleted: DeletionSet(documentCount: 200, deleted: part == 1 ? [3, 50, 199] : []))
        }
        let whole = try SegmentMerger.merge(inputs, parallelPostings: .max)
        let split = try SegmentMerger.merge(inputs, parallelPostings: 0)
        #expect(SegmentEncoder.encode(whole, scoring: Self.scoring, buildTime: 0) == SegmentEncoder.encode(split, scoring: Self.scoring, buildTime: 0))
        #expect(whole.termCount == split.termCount && whole.documentCount == 797)
    }

    /// A merge reads each input's typed values and identifier hashes ahead
    /// in runs (``SegmentMerger/mergeRun`` entries): inputs longer than
    /// several runs, values tied across inputs (the earlier input's first),
    /// deletions across a run's end and an input's values all deleted
    /// from the middle on give the bytes of encoding the merged contents.
    @Test func lookupsPastOneRunAreMergedInOrder() throws {
        let count = 3 * SegmentMerger.mergeRun + 37
        let deletions: [[UInt32]] = [[], (400..<700).map(UInt32.init), (UInt32(count / 2)..<UInt32(count)).map { $0 }]
        let inputs = try (0..<3).map { part in
            let documents = (0..<count).map { index in
                Self.document(Int64(part * 10_000 + index), title: "v\(index % 11)",
                              numbers: [("size", Double(index % 100)), ("rank\(part % 2)", Double((index * 7 + part) % 1_000))])
            }
            return SegmentSnapshot(segment: try Self.segment(documents),
                                   deleted: DeletionSet(documentCount: count, deleted: deletions[part]))
        }
        let contents = try SegmentMerger.merge(inputs, parallelPostings: .max)
        let merged = try SegmentMerger.mergeEncoded(inputs, scoring: Self.scoring, buildTime: 3)
        // Compared apart: a failed expectation would print both segments' bytes.
        let same = merged.bytes == SegmentEncoder.encode(contents, scoring: Self.scoring, buildTime: 3)
        #expect(same, "the merge's bytes differ from encoding the merged contents")
        let kept = 3 * count - 300 - (count - count / 2)
        #expect(merged.documentCount == kept)
    }

    /// Merging and encoding in one pass (what background merges do) writes
    /// the bytes of encoding the merged contents, in one part or two, with
    /// deleted documents, terms left with none, and terms of many blocks.
    @Test(arguments: [Int.max, 0])
    func mergingWhileEncodingGivesTheEncodedMerge(parallelPostings: Int) throws {
        let inputs = try (0..<4).map { part in
            let documents = (0..<300).map { index in
                Self.document(Int64(part * 1_000 + index), title: "t\(index % 13) w\(part)x\(index)",
                              description: "common \(index % 7) every", hint: Double(index % 5), numbers: [("n\(part % 2)", Double(index))])
            }
            return SegmentSnapshot(segment: try Self.segment(documents),
                                   deleted: DeletionSet(documentCount: 300, deleted: part == 1 ? [3, 50, 299] : part == 2 ? Array(0..<150) : []))
        }
        let contents = try SegmentMerger.merge(inputs, parallelPostings: .max)
        let merged = try SegmentMerger.mergeEncoded(inputs, scoring: Self.scoring, buildTime: 7, parallelPostings: parallelPostings)
        #expect(merged.bytes == SegmentEncoder.encode(contents, scoring: Self.scoring, buildTime: 7))
        #expect(merged.documentCount == 1_200 - 3 - 150)
        #expect(merged.docMaps.map { $0.filter { $0 >= 0 }.count } == [300, 297, 150, 300])
        #expect(merged.docMaps[2][149] == -1 && merged.docMaps[2][150] == 597)
        // Streamed to a sink, holding 64 bytes or a megabyte, the postings
        // in memory or in scratch files (64 bytes: handed over after every
        // term, read back in pieces): the same bytes, and no file left.
        let scratch = try ScratchDirectory("spill")
        defer { scratch.cleanUp() }
        for bufferSize in [64, 1 << 20] {
            for directory in [nil, scratch.url.path] {
                let sink = MemorySink(scratchDirectory: directory)
                let streamed = try SegmentMerger.mergeEncoded(inputs, scoring: Self.scoring, buildTime: 7, streamingTo: sink, bufferSize: bufferSize,
                                                              parallelPostings: parallelPostings)
                #expect(streamed.bytes.isEmpty && streamed.byteCount == merged.bytes.count && sink.bytes == merged.bytes)
                #expect(sink.pieces.allSatisfy { $0 % 8 == 0 } && sink.headers == 1)
                #expect(streamed.docMaps == merged.docMaps && streamed.documentCount == merged.documentCount)
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == [])
        let segment = try Segment(SegmentBytes(copying: merged.bytes), verifyChecksum: true)
        #expect(try (0..<segment.documentCount).allSatisfy { try segment.identifier($0) == "item-\(segment.rowid($0))" })
        let every = try #require(try segment.terms(matching: Array("every".utf8), prefix: false).first)
        #expect(try segment.blocks(of: every).count == (1_047 + SegmentFormat.blockSize - 1) / SegmentFormat.blockSize)
    }

    /// A streamed merge writes its documents' sections from the inputs
    /// (``SegmentMerger/streamDocuments(_:scoring:buildTime:into:)``): the
    /// bytes of the merged contents' encoding when the inputs' rowids
    /// interleave (the rowid order merged from theirs), when a column has
    /// one value in every kept document or not, and when the deletions
    /// leave one input empty or remove its smallest rowids.
    @Test(arguments: [0, 1, 2])
    func streamedDocumentsAreTheEncodedOnes(variant: Int) throws {
        let inputs = try (0..<3).map { part in
            let documents = (0..<90).map { index in
                var document = Self.document(Int64(index * 3 + (2 - part)), title: "t\(index % 5) p\(part)", description: "d \(index % 4)",
                                             hint: variant == 1 ? Double(index % 3) : 2, numbers: [("n", Double(index))])
                if variant == 2 {
                    document.recency = index % 2 == 0 ? Double(index) : nil
                    document.engagement = Double(part)
                    document.expires = 1_000 + Double(index)
                }
                return document
            }
            let deleted: [UInt32] = part == 0 ? Array(0..<10) : part == 1 && variant == 2 ? Array(0..<90) : [5, 89]
            return SegmentSnapshot(segment: try Self.segment(documents), deleted: DeletionSet(documentCount: 90, deleted: deleted))
        }
        let expected = SegmentEncoder.encode(try SegmentMerger.merge(inputs, parallelPostings: .max), scoring: Self.scoring, buildTime: 7)
        let sink = MemorySink()
        let streamed = try SegmentMerger.mergeEncoded(inputs, scoring: Self.scoring, buildTime: 7, streamingTo: sink, bufferSize: 64)
        #expect(sink.bytes == expected)
        let kept: Int = variant == 2 ? 168 : 256
        #expect(streamed.documentCount == kept)
        let segment = try Segment(SegmentBytes(copying: sink.bytes), verifyChecksum: true)
        let rowids = (0..<segment.documentCount).map { segment.rowid(segment.rowidOrder($0)) }
        #expect(rowids == rowids.sorted() && Set(rowids).count == rowids.count)
    }

    /// A sink that keeps what it is given, and a failing one.
    final class MemorySink: SegmentSink {
        var bytes: [UInt8] = [], pieces: [Int] = [], headers = 0
        let scratchDirectory: String?
        init(scratchDirectory: String? = nil) { self.scratchDirectory = scratchDirectory }
        func append(_ raw: UnsafeRawBufferPointer) throws {
            bytes += raw
            pieces.append(raw.count)
        }
        func writeHeader(_ raw: UnsafeRawBufferPointer) throws {
            bytes.replaceSubrange(0..<raw.count, with: raw)
            headers += 1
        }
    }

    final class FullDisk: SegmentSink {
        struct Full: Error {}
        var appended = 0
        func append(_ raw: UnsafeRawBufferPointer) throws {
            appended += 1
            if appended > 2 { throw Full() }
        }
        func writeHeader(_ raw: UnsafeRawBufferPointer) throws { Issue.record("no header after a failed write") }
    }

    @Test func aSinkThatFailsFailsTheMerge() throws {
        let inputs = try (0..<2).map { part in
            SegmentSnapshot(segment: try Self.segment((0..<400).map { Self.document(Int64(part * 1_000 + $0), title: "w\($0) common") }),
                            deleted: DeletionSet(documentCount: 400, deleted: []))
        }
        let sink = FullDisk()
        #expect(throws: FullDisk.Full.self) {
            try SegmentMerger.mergeEncoded(inputs, scoring: Self.scoring, buildTime: 0, streamingTo: sink, bufferSize: 64)
        }
        #expect(sink.appended == 3)   // nothing handed over after the failure
    }

    /// A table of pages: every value where it was appended, full pages but the last.
    @Test func pagedArraysKeepEveryValueInPlace() {
        var values = PagedArray<UInt32>()
        let count = 2 * PagedArray<UInt32>.pageSize + 5
        for value in 0..<count { values.append(UInt32(value) &* 2_654_435_761) }
        #expect(values.count == count)
        #expect(values.pages.map(\.count) == [PagedArray<UInt32>.pageSize, PagedArray<UInt32>.pageSize, 5])
        #expect((0..<count).allSatisfy { values[$0] == UInt32($0) &* 2_654_435_761 })
        #expect(values.pages.joined().elementsEqual((0..<count).map { UInt32($0) &* 2_654_435_761 }))
    }

    /// A table whose full pages wait in a scratch file (a streamed merge's
    /// block tables): every value read back in order, page by page, the
    /// pages written once each and the file gone with the spill.
    @Test func spillingPagedArraysReadBackEveryValue() throws {
        let scratch = try ScratchDirectory("tables")
        defer { scratch.cleanUp() }
        let expected = (0..<23).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
        do {
            let spill = try PostingsSpill(directory: scratch.url.path, threshold: 64)
            var values = PagedArray<UInt64>(spillingTo: spill, pageSize: 5)
            for value in expected { values.append(value) }
            var read: [UInt64] = [], pageCounts: [Int] = []
            values.forEachPage { page in
                read += page
                pageCounts.append(page.count)
            }
            #expect(read == expected && values.count == 23)
            #expect(pageCounts == [5, 5, 5, 5, 3])
            #expect(spill.count == 4 * 5 * MemoryLayout<UInt64>.size)   // the last page stays in memory
            try spill.check()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == [])
    }

    /// More terms and blocks than a table's page: every term's postings
    /// are found past the first page, whole and merged alike.
    @Test func tablesPastOnePageAreReadBack() throws {
        let count = PagedArray<UInt32>.pageSize + 3_000
        let halves = try [0..<count / 2, count / 2..<count].map { range in
            let documents = range.map { Self.document(Int64($0), title: "u\($0)x") }
            return SegmentSnapshot(segment: try Self.segment(documents), deleted: DeletionSet(documentCount: range.count, deleted: []))
        }
        let merged = try SegmentMerger.mergeEncoded(halves, scoring: Self.scoring, buildTime: 0)
        let whole = try Self.segment((0..<count).map { Self.document(Int64($0), title: "u\($0)x") })
        let segment = try Segment(SegmentBytes(copying: merged.bytes), verifyChecksum: true)
        for probe in [0, 40_000, count - 1] {
            for segment in [segment, whole] {
                let term = try #require(try segment.terms(matching: Array("u\(probe)x".utf8), prefix: false).first)
                #expect(try Self.postings(segment, term: term).map(\.doc) == [UInt32(probe)])
            }
        }
    }

    /// A merge whose postings have nowhere to wait fails, saying why, and never finishes its segment.
    @Test func aMergeWithoutScratchSpaceFails() throws {
        let inputs = try (0..<2).map { part in
            SegmentSnapshot(segment: try Self.segment((0..<400).map { Self.document(Int64(part * 1_000 + $0), title: "w\($0) common") }),
                            deleted: DeletionSet(documentCount: 400, deleted: []))
        }
        let sink = MemorySink(scratchDirectory: "/nonexistent-openspotlight-scratch")
        #expect {
            try SegmentMerger.mergeEncoded(inputs, scoring: Self.scoring, buildTime: 0, streamingTo: sink, bufferSize: 64)
        } throws: { error in
            guard case SegmentError.scratch(let why) = error else { return false }
            return why.contains("/nonexistent-openspotlight-scratch")
        }
        #expect(sink.headers == 0)
    }

    static func sizes(_ live: [Int], deleted: [Int]? = nil) -> [MergePolicy.SegmentSize] {
        live.enumerated().map { MergePolicy.SegmentSize(id: Int64($0.offset + 1), live: $0.element, deleted: deleted?[$0.offset] ?? 0) }
    }

    static let mergeCases: [([MergePolicy.SegmentSize], [Int64]?)] = [
        ([], nil),
        (sizes(Array(repeating: 900, count: 7)), nil),
        (sizes(Array(repeating: 900, count: 9)), [1, 2, 3, 4, 5, 6, 7, 8]),
        (sizes([50_000] + Array(repeating: 900, count: 7)), nil),
        (sizes([10_000], deleted: [6_000]), [1]),
        (sizes([10], deleted: [600]), nil),               // too small to bother
    ]

    @Test(arguments: mergeCases)
    func mergePlan(sizes: [MergePolicy.SegmentSize], expected: [Int64]?) {
        #expect(MergePolicy.plan(sizes) == expected)
    }

    static let consolidationCases: [([MergePolicy.SegmentSize], [Int64]?)] = [
        ([], nil),
        (sizes([50_000]), nil),                          // one segment, nothing deleted
        (sizes([50_000], deleted: [4_999]), nil),         // under a tenth deleted
        (sizes([45_000], deleted: [5_000]), [1]),         // a tenth deleted: merged alone
        (sizes([0], deleted: [10]), [1]),                 // everything deleted
        (sizes([40_000, 5_000, 5_000]), [1, 2, 3]),       // the bulk indexer's shape
        (sizes([1, 1]), [1, 2]),
    ]

    @Test(arguments: consolidationCases)
    func consolidationPlan(sizes: [MergePolicy.SegmentSize], expected: [Int64]?) {
        #expect(MergePolicy.consolidation(sizes) == expected)
    }
}
