@testable import SpotlightQuery
import Testing

struct FoldCase: Sendable, CustomTestStringConvertible {
    let input: String
    let c: Bool
    let d: Bool
    let output: String
    var testDescription: String { "\(input) c:\(c) d:\(d)" }
}

@Suite struct QueryTextFoldingTests {
    static let cases: [FoldCase] = [
        FoldCase(input: "Café Résumé", c: true, d: true, output: "cafe resume"),
        FoldCase(input: "Café Résumé", c: true, d: false, output: "café résumé"),
        FoldCase(input: "Café Résumé", c: false, d: true, output: "Cafe Resume"),
        FoldCase(input: "Café Résumé", c: false, d: false, output: "Café Résumé"),
        FoldCase(input: "ABC xyz 123_-", c: true, d: true, output: "abc xyz 123_-"),
        FoldCase(input: "Straße", c: true, d: false, output: "strasse"),
        FoldCase(input: "ẞ", c: true, d: false, output: "ss"),
        FoldCase(input: "ﬁle", c: true, d: false, output: "file"),
        FoldCase(input: "ΣΊΣΥΦΟΣ", c: true, d: false, output: "σίσυφοσ"),
        FoldCase(input: "ΣΊΣΥΦΟΣ", c: true, d: true, output: "σισυφοσ"),
        FoldCase(input: "İstanbul", c: true, d: true, output: "istanbul"),
        FoldCase(input: "Ångström", c: true, d: true, output: "angstrom"),
        FoldCase(input: "Tschüß", c: true, d: true, output: "tschuss"),
        FoldCase(input: "ø łódź", c: false, d: true, output: "ø łodz"),
        FoldCase(input: "e\u{301}", c: false, d: false, output: "\u{e9}"),
        FoldCase(input: "E\u{301}", c: true, d: false, output: "\u{e9}"),
        FoldCase(input: "a\u{20D7}", c: false, d: true, output: "a"),
        FoldCase(input: "ＡＢＣ", c: true, d: false, output: "ａｂｃ"),
        FoldCase(input: "a\r\nB", c: true, d: false, output: "a\r\nb"),
        FoldCase(input: "日本語", c: true, d: true, output: "日本語"),
        FoldCase(input: "", c: true, d: true, output: ""),
    ]

    @Test(arguments: cases)
    func fold(_ testCase: FoldCase) {
        let folded = QueryEvaluator.fold(testCase.input, caseInsensitive: testCase.c, diacriticInsensitive: testCase.d)
        #expect(folded == testCase.output)
        // Always NFC, scalar for scalar.
        #expect(Array(folded.unicodeScalars) == Array(testCase.output.precomposedForTest.unicodeScalars))
    }

    @Test func foldingIsIdempotent() {
        for testCase in Self.cases {
            let once = QueryEvaluator.fold(testCase.input, caseInsensitive: true, diacriticInsensitive: true)
            #expect(QueryEvaluator.fold(once, caseInsensitive: true, diacriticInsensitive: true) == once)
        }
    }

    /// Word boundaries come from the original text: non-alphanumerics, and
    /// lower-case letters or digits followed by upper-case letters.
    @Test(arguments: [
        ("MyWindowClass", "|My|Window|Class|"),
        ("NSWindow", "|NSWindow|"),
        ("Broken Window", "|Broken| |Window|"),
        ("paris-france.jpg", "|paris|-|france|.|jpg|"),
        ("Base64Encoder", "|Base64|Encoder|"),
        ("Window2", "|Window2|"),
        ("Q*A? notes", "|Q|*|A|?| |notes|"),
        ("Café", "|Café|"),
        ("", "|"),
    ])
    func boundaries(_ text: String, _ marked: String) {
        let folded = FoldedText(text, caseInsensitive: false, diacriticInsensitive: false)
        var rendered = ""
        for (index, character) in folded.characters.enumerated() {
            if folded.boundaries[index] { rendered += "|" }
            rendered.append(character)
        }
        if folded.boundaries.last == true { rendered += "|" }
        #expect(rendered == marked)
    }

    @Test func foldedBoundariesSurviveExpansion() {
        // ß folds to "ss": the boundary stays before the word, none inside the expansion.
        let folded = FoldedText("Große Straße", caseInsensitive: true, diacriticInsensitive: false)
        #expect(String(folded.characters) == "grosse strasse")
        #expect(folded.boundaries.enumerated().filter(\.element).map(\.offset) == [0, 6, 7, 14])
    }
}

import Foundation

extension String {
    var precomposedForTest: String { precomposedStringWithCanonicalMapping }
}
