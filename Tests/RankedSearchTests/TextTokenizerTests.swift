@_spi(Inspection) import RankedSearch
import Testing

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
        // All ASCII (the fast path alone): words of one class, and of two
        // or three, with transitions or without (`The`, `HTTPServer`).
        "The HTTPServer2Go uses libGL3, x1y2z3 and iPhone15Pro; ABC abc 123 A1 1A aB Ab ab1 ABCdef 9z",
        "a b C 0 --- CamelCaseWordWithManyPartsInIt Z9Z9Z9Z9 utf8Decoder v2 W3C",
        // Words past the 64 bytes whose part boundaries the fast path keeps
        // on the stack (the cuts of such a word go on the heap), beside short ones.
        "aB1 " + String(repeating: "aB1", count: 30) + " x " + String(repeating: "Longer", count: 11) + "9 end" + String(repeating: "Q", count: 70),
        String(repeating: "ab", count: 32) + "C " + String(repeating: "ab", count: 32) + "Cd",
    ])
    func runsBetweenSpacesGiveTheWholeTextsTokens(text: String) {
        let expected = TextTokenizer.unicodeIndexTokens(of: text).sorted()
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
        ("\"OR\" NEAR", [Term(tokens: ["or"], isPrefix: false), Term(tokens: ["near"], isPrefix: true)]),
        // Text after the last word says it is finished: no prefix.
        ("\"OR\" NEAR(", [Term(tokens: ["or"], isPrefix: false), Term(tokens: ["near"], isPrefix: false)]),
        ("zoe mar ", [Term(tokens: ["zoe"], isPrefix: false), Term(tokens: ["mar"], isPrefix: false)]),
        ("ZOË\t", [Term(tokens: ["zoe"], isPrefix: false)]),
        ("c++", [Term(tokens: ["c"], isPrefix: false)]),
        ("zoe mar.", [Term(tokens: ["zoe"], isPrefix: false), Term(tokens: ["mar"], isPrefix: false)]),
        ("cafe\u{301}", [Term(tokens: ["cafe"], isPrefix: true)]),
        ("gtk*", [Term(tokens: ["gtk"], isPrefix: true)]),
        ("gtk **", [Term(tokens: ["gtk"], isPrefix: false)]),
        ("!!!", []),
    ])
    func queryTerms(text: String, terms: [Term]) {
        #expect(TextTokenizer.queryTerms(text) == terms)
    }

    /// ASCII queries take a path of their own; it gives what the general
    /// path gives, on typed-looking text and on seeded random ASCII.
    @Test func asciiQueriesGiveTheGeneralPathsTerms() {
        var texts = ["", " ", "*", "zoe mar", "Zoe MAR ", "gtk*", "gtk **", "c++ x", "a-b_c.d", "mp3Player v2", "x\ty\nz",
                     (0..<40).map { "w\($0)" }.joined(separator: " "), (0..<32).map { "w\($0)" }.joined(separator: " ") + "*"]
        var seed: UInt64 = 20_261_130
        for _ in 0..<500 {
            var text = ""
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for _ in 0..<Int(seed >> 60) * 3 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text.unicodeScalars.append(Unicode.Scalar(UInt8(truncatingIfNeeded: seed >> 33) & 0x7F))
            }
            texts.append(text)
        }
        for text in texts {
            #expect(TextTokenizer.queryTerms(text) == TextTokenizer.unicodeQueryTerms(text), "\(text.debugDescription)")
        }
    }

    @Test func longQueriesAreCapped() {
        let text = (0..<100).map { "w\($0)" }.joined(separator: " ")
        let terms = TextTokenizer.queryTerms(text)
        #expect(terms.count == TextTokenizer.maxQueryTerms)
        // The last term kept is followed by more words: it is whole.
        #expect(terms.last == Term(tokens: ["w\(TextTokenizer.maxQueryTerms - 1)"], isPrefix: false))
    }
}
