import Testing
@testable import SpotlightIndex

@Suite struct TextTokenizerTests {
    @Test(arguments: [
        ("Zoë's Café", ["zoe", "s", "cafe"]),
        ("HELLO, World!", ["hello", "world"]),
        ("Ｆｕｌｌ－ｗｉｄｔｈ ＡＢＣ１２３", ["full", "width", "abc123", "abc", "123"]),
        ("Hauptstraße", ["hauptstrasse"]),
        ("ΣΊΣΥΦΟΣ", ["σισυφοσ"]),
        ("ﬁnance", ["finance"]),
        ("naïve résumé", ["naive", "resume"]),
        ("東京タワー", ["東京", "京タ", "タワ", "ワー", "東", "京", "タ", "ワ", "ー"]),
        ("中", ["中"]),
        ("ｶﾀｶﾅ", ["カタ", "タカ", "カナ", "カ", "タ", "カ", "ナ"]),
        ("がか", ["がか", "が", "か"]),
        ("학교에서 공부", ["학교에서", "학교", "공부"]),
        ("Linux를", ["linux를", "linux"]),
        ("나는", ["나는", "나"]),
        ("패키지에만", ["패키지에만", "패키지에", "패키지"]),
        ("는", ["는"]),
        ("abc中文def", ["abc", "中文", "中", "文", "def"]),
        ("", []),
        ("  ...  ", []),
        ("a\u{0}b", ["a", "b"]),
        ("MyWindowClass NSWindow", ["mywindowclass", "my", "mywindow", "window", "windowclass", "class", "nswindow"]),
        ("mp3 Win32API", ["mp3", "mp", "3", "win32api", "win", "win32", "32", "32api", "api"]),
        ("ÉcoleNormale", ["ecolenormale", "ecole", "normale"]),
        ("aBcDeFgHiJkLmNoPqR", ["abcdefghijklmnopqr", "a", "bc", "de", "fg", "hi", "jk", "lm", "no", "pq", "r"]),
    ])
    func indexTokens(text: String, tokens: [String]) {
        #expect(TextTokenizer.indexTokens(of: text) == tokens)
    }

    /// Text that is not all ASCII is tokenized run by run between ASCII
    /// spaces; the tokens (as a multiset) must be those of the whole text
    /// through the Unicode path.
    @Test(arguments: [
        "Zoë's Café au lait",
        "naïve MyWindowClass résumé Win32API",
        "Ｆｕｌｌ－ｗｉｄｔｈ ＡＢＣ１２３ plain ascii",
        "a\u{0308} e\u{301}cole \u{301}x",          // combining marks right after a space
        "x\u{00A8}y ¨ z",                          // ¨ folds to a space and a mark
        "東京 タワー 東京タワー tokyo",
        "학교에서 공부 Linux를 써요",
        "ΣΊΣΥΦΟΣ σοφός\tΌλα\nκαλά",
        "line one\r\nline two — «quoted» ﬁnance",
        "ÉcoleNormale\u{3000}ＴｅｓｔＣａｓｅ mp3",
    ])
    func runsBetweenSpacesGiveTheWholeTextsTokens(text: String) {
        var whole = JoinedTokens(text: "")
        TextTokenizer.unicodeTokens(text, into: &whole)
        let expected = whole.text.split(separator: " ").map(String.init).sorted()
        #expect(TextTokenizer.indexTokens(of: text).sorted() == expected)
    }

    @Test func decomposedHangulIsComposedFirst() {
        let nfd = "\u{1112}\u{1161}\u{11A8}\u{1100}\u{116D}" // 학교 as conjoining jamo
        #expect(TextTokenizer.indexTokens(of: nfd) == ["학교"])
    }

    typealias Term = TextTokenizer.QueryTerm

    @Test(arguments: [
        ("zoe mar", [Term(tokens: ["zoe"], isPrefix: false), Term(tokens: ["mar"], isPrefix: true)]),
        ("ZOË", [Term(tokens: ["zoe"], isPrefix: true)]),
        ("東", [Term(tokens: ["東"], isPrefix: false)]),
        ("東京", [Term(tokens: ["東京"], isPrefix: false)]),
        ("東京タワ", [Term(tokens: ["東京", "京タ", "タワ"], isPrefix: false)]),
        ("학교를 가", [Term(tokens: ["학교를"], isPrefix: false, alternatives: ["학교"]), Term(tokens: ["가"], isPrefix: true)]),
        ("효과", [Term(tokens: ["효과"], isPrefix: true, alternatives: ["효"])]),
        ("패키지에만", [Term(tokens: ["패키지에만"], isPrefix: true, alternatives: ["패키지에", "패키지"])]),
        ("\"OR\" NEAR(", [Term(tokens: ["or"], isPrefix: false), Term(tokens: ["near"], isPrefix: true)]),
        ("!!!", []),
    ])
    func queryTerms(text: String, terms: [Term]) {
        #expect(TextTokenizer.queryTerms(text) == terms)
    }

    @Test func longQueriesAreCapped() {
        let text = (0..<100).map { "w\($0)" }.joined(separator: " ")
        #expect(TextTokenizer.queryTerms(text).count == TextTokenizer.maxQueryTerms)
    }
}

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
