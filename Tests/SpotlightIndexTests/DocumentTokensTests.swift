import Testing
@_spi(Inspection) import RankedSearch
@testable import SpotlightIndex

/// An item's tokens aggregated for the ranked index: each distinct token
/// once, however it was read (the ASCII path reads words a machine word
/// at a time, the Unicode path byte by byte), with its weighted frequency
/// and its columns.
@Suite struct DocumentTokensTests {
    static func summary(_ tokens: DocumentTokens) -> [String: String] {
        var out: [String: String] = [:]
        for index in 0..<tokens.count {
            let text = tokens.withToken(index) { String(decoding: $0, as: UTF8.self) }
            out[text] = "\(tokens.tokens[index].frequency)/\(tokens.tokens[index].columns)"
        }
        return out
    }

    @Test func tokensFromEveryPathAggregate() {
        let tokens = DocumentTokens(attributes: [
            "title": .string("Café cafe CAFE"),                     // Unicode run, then ASCII runs
            "contentDescription": .string("CAFE résumé averyveryverylongword"),
            "keywords": .strings(["resume", "AVERYVERYVERYLONGWORD", "resume", "resume"]),
            "contentType": .string("public.item"),                  // not searched
        ], weights: .standard)
        // Sixteenths: title 160 (counted twice at most), keywords 80 (once), description 64 (once);
        // columns: title 1, keywords 2, description 4.
        #expect(Self.summary(tokens) == [
            "cafe": "384/5", "resume": "144/6", "averyveryverylongword": "144/6",
        ])
        #expect(tokens.length == 10)
        #expect(tokens.titleLength == 3)
    }

    /// A prepared item holds its tokens until its batch is written: a
    /// token is its hash, place, frequency and columns, 24 bytes (the
    /// per-column counts that cap the frequency stay in the builder).
    @Test func aTokenIsTwentyFourBytes() {
        #expect(MemoryLayout<DocumentTokens.Token>.stride == 24)
    }

    @Test func manyDistinctTokensGrowTheTableAndKeepTheirCounts() {
        // Letters only (digits would add parts): "waa", "wab", …
        let words = (0..<500).map { index in "w" + String(UnicodeScalar(97 + index / 26 % 26)!) + String(UnicodeScalar(97 + index % 26)!) + "x" }
        let text = (words + words.prefix(100)).joined(separator: " ")
        let builder = DocumentTokens.Builder(weights: .standard)
        builder.add(["textContent": .string(text)])
        let first = builder.finish()
        builder.add(["title": .string("wabx")])                        // the next document starts empty
        let second = builder.finish()
        let summary = Self.summary(first)
        #expect(summary.count == 500 && summary["waax"] == "32/8" && summary[words[499]] == "16/8")
        #expect(Self.summary(second) == ["wabx": "160/1"])
        #expect(first.length == 600 && second.length == 1)
    }
}
