import Corpora
import Foundation
@_spi(Inspection) import RankedSearch
import Testing

/// The typo walks over a segment's sorted dictionary find exactly the
/// tokens the definition accepts, on ~6,000 Debian titles and summaries.
@Suite struct TypoWalkTests {
    /// Every tenth Debian package: its title and summary.
    static func corpusDocuments() throws -> [RankedDocument] {
        let lines = try Corpora.lines(ofGzipped: Corpora.file("debian-packages.jsonl.gz"))
        var documents: [RankedDocument] = []
        for (index, line) in lines.enumerated() where index % 10 == 0 {
            let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
            documents.append(RankedSegmentTests.document(Int64(index + 1), title: object["title"] as? String ?? "",
                                                         description: object["summary"] as? String ?? ""))
        }
        return documents
    }

    /// The trie walk over the sorted dictionary finds exactly the tokens the
    /// plain bounded distance accepts, for words and prefixes, one and two
    /// edits, on ~6,000 Debian descriptions plus accented words.
    @Test func dictionaryWalkFindsWhatTheDistanceAccepts() throws {
        let segment = try RankedSegmentTests.segment(try Self.corpusDocuments()
            + [RankedSegmentTests.document(1_000_000, title: "élan électrique", description: "libraríes librarïan")])
        let tokens = try (0..<segment.termCount).map { Array(String(decoding: try segment.term($0), as: UTF8.self).unicodeScalars) }
        var column: [Int] = [], next: [Int] = []
        let words = ["library", "libary", "librari", "libraries", "pythn", "python", "documentation", "documantation",
                     "lybrary", "electric", "elektrique", "compression", "kompression", "zzzzzz", "serveur", "libraríe",
                     "pyhton", "libarry", "docuemntation", "lirbary", "pyhton3", "libxlm2", "lib32", "python2"]
        var checked = 0
        for word in words {
            let scalars = Array(word.unicodeScalars)
            for (edits, isPrefix) in [(1, false), (1, true), (2, false), (2, true)] {
                let lock = scalars.contains(where: RankedQuery.isDigit)
                let typo = RankedQuery.Typo(word: scalars, edits: edits, isPrefix: isPrefix, lockDigits: lock)
                let walked = try TypoWalk.matches(typo, in: segment).flatMap { Array($0) }
                let expected = tokens.indices.filter { id in
                    tokens[id].first == scalars.first
                        && TypoDistance.matches(scalars, tokens[id], maximum: edits, isPrefix: isPrefix, lockDigits: lock,
                                                column: &column, next: &next)
                }
                #expect(walked == expected, "\(word) edits \(edits) prefix \(isPrefix)")
                checked += expected.count
            }
        }
        #expect(checked > 200)   // the words do have neighbours: the comparison is not of empty lists
    }

    /// A walk remembered by its segment is the walk: the first time, again,
    /// and after more walks than the segment keeps pushed it out.
    @Test func rememberedWalksAreTheWalks() throws {
        let segment = try RankedSegmentTests.segment(try Self.corpusDocuments())
        let words = try (0..<segment.termCount).compactMap { id -> [Unicode.Scalar]? in
            let word = Array(String(decoding: try segment.term(id), as: UTF8.self).unicodeScalars)
            return word.count >= 5 && id % 7 == 0 ? word : nil
        }
        let typos = words.prefix(TypoMemo.capacity + 40).enumerated().map { index, word in
            RankedQuery.Typo(word: word, edits: 1, isPrefix: index % 2 == 0, firstLetter: index % 3 == 0)
        }
        #expect(typos.count == TypoMemo.capacity + 40)
        for typo in typos + typos.prefix(50) + typos {
            #expect(try segment.typoMatches(typo) == TypoWalk.matches(typo, in: segment), "\(typo)")
        }
        #expect(segment.rememberedTypoWalks == TypoMemo.capacity)
    }

    /// A term's first letter, read from its bytes alone, is the one its
    /// decoded string starts with (U+FFFD for damaged bytes, as decoding repairs them).
    @Test(arguments: [[UInt8]("python".utf8), Array("école".utf8), Array("東京".utf8), Array("😀x".utf8), [0xFF, 0x61], [0xC3], [0x80, 0x80], []])
    func aTermsFirstLetterIsItsStringsFirstScalar(bytes: [UInt8]) {
        let expected = String(decoding: bytes, as: UTF8.self).unicodeScalars.first
        #expect(bytes.withUnsafeBytes { TypoWalk.firstScalar(of: $0) } == expected)
    }

    /// The walk with the first letter as the typo finds exactly what the
    /// definition says, on ~6,000 Debian titles and summaries.
    @Test func firstLetterTyposAreWhatTheyClaim() throws {
        let segment = try RankedSegmentTests.segment(try Self.corpusDocuments())
        let tokens = try (0..<segment.termCount).map { Array(String(decoding: try segment.term($0), as: UTF8.self).unicodeScalars) }
        var column: [Int] = [], next: [Int] = []
        func within(_ word: [Unicode.Scalar], _ token: [Unicode.Scalar], _ edits: Int, _ prefix: Bool) -> Bool {
            if edits == 0 { return prefix ? token.starts(with: word) : token == word }
            return token.first == word.first && TypoDistance.matches(word, token, maximum: edits, isPrefix: prefix, column: &column, next: &next)
        }
        var checked = 0
        for text in ["ibrary", "ylibrary", "ilbrary", "xibrary", "ython", "yphton", "tython", "ocumentation", "pdocumentation",
                     "dcoumentation", "ompression", "xompression", "erver"] {
            let word = Array(text.unicodeScalars)
            for (edits, isPrefix) in [(1, false), (1, true), (2, false), (2, true)] {
                let typo = RankedQuery.Typo(word: word, edits: edits, isPrefix: isPrefix)
                let found = Set(try TypoWalk.firstLetterMatches(typo, in: segment).flatMap { Array($0) })
                let expected = Set(tokens.indices.filter { id in
                    let token = tokens[id]
                    guard let first = token.first, !RankedQuery.isDigit(first) else { return false }
                    let swapped = [word[1], word[0]] + word.dropFirst(2)
                    return (word[1] != word[0] && within(swapped, token, edits - 1, isPrefix))              // first two swapped
                        || within(Array(word.dropFirst()), token, edits - 1, isPrefix)                       // a letter typed before
                        || (first != word[0] && within([first] + word.dropFirst(), token, 0, isPrefix))     // another first letter
                        || (first != word[0] && within([first] + word, token, 0, isPrefix))                 // the first left out
                })
                #expect(found == expected, "\(text) edits \(edits) prefix \(isPrefix): \(found.symmetricDifference(expected).map { String(String.UnicodeScalarView(tokens[$0])) })")
                checked += expected.count
            }
        }
        #expect(checked > 50)
    }
}
