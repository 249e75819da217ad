import Foundation
import Testing
@testable import SpotlightIndex

@Suite struct SearchTests {
    static let corpus: [SearchableItem] = [
        item("zoe", title: "Zoë Martin", ["keywords": .strings(["colleague"]), "contentDescription": .string("Product designer in Paris")]),
        item("francois", title: "François Dupont", ["contentDescription": .string("Ingénieur logiciel")]),
        item("fullwidth", title: "ＡＢＣ Ｃｏｆｆｅｅ"),
        item("strasse", title: "Hauptstraße 5"),
        item("apple-pie", title: "Apple pie", ["textContent": .string("Bake with cinnamon")]),
        item("apples", title: "Green apples", ["keywords": .strings(["fruit"])]),
        item("ja", title: "東京タワーの夜景"),
        item("zh", title: "中文输入法"),
        item("ko", title: "학교에서 공부하기"),
        item("mixed", title: "Linux를 설치하는 방법"),
        item("display", ["displayName": .string("Display Only"), "authorNames": .strings(["Ada Lovelace"])]),
        item("camel", title: "MyWindowClass"),
        item("hidden", ["contentType": .string("public.secretword"), "relatedUniqueIdentifier": .string("secretword")]),
    ]

    static let cases: [(String, Set<String>)] = [
        ("zoe", ["zoe"]), ("ZOË", ["zoe"]), ("zo", ["zoe"]), ("zoe mar", ["zoe"]), ("martin zo", ["zoe"]),
        // A space or punctuation after the last word: it is finished, not a prefix.
        ("zoe mar ", []), ("zoe martin ", ["zoe"]), ("haupt ", []), ("haupt*", ["strasse"]), ("zo.", []),
        ("mar zoe", []), ("colleague", ["zoe"]), ("paris designer", ["zoe"]),
        ("francois", ["francois"]), ("FRANÇ", ["francois"]), ("ingenieur", ["francois"]), ("INGÉNIEUR LOG", ["francois"]),
        ("abc", ["fullwidth"]), ("ｃｏｆ", ["fullwidth"]), ("coffee", ["fullwidth"]),
        ("strasse", []), ("hauptstrasse", ["strasse"]), ("hauptstraße", ["strasse"]), ("haupt", ["strasse"]),
        ("apple", ["apple-pie", "apples"]), ("apple pie", ["apple-pie"]), ("apples", ["apples", "apple-pie"]), ("cinnamon", ["apple-pie"]),  // apple-pie: "apple" by one typo, after
        ("fruit app", ["apples"]), ("apple*", ["apple-pie", "apples"]), ("pie apple", ["apple-pie"]),
        ("東", ["ja"]), ("東京", ["ja"]), ("夜景", ["ja"]), ("タワー", ["ja"]), ("京タ", ["ja"]), ("東京タワーの夜景", ["ja"]),
        ("中", ["zh"]), ("输入", ["zh"]), ("中文输入法", ["zh"]), ("法中", []), ("输法", []),
        ("학교", ["ko"]), ("학교에서", ["ko"]), ("학교를", ["ko"]), ("공부", ["ko"]), ("학", ["ko"]),
        ("linux", ["mixed"]), ("설치", ["mixed"]), ("linux 방법", ["mixed"]),
        ("window", ["camel"]), ("my window", ["camel"]), ("mywindow", ["camel"]),
        ("display", ["display"]), ("lovelace", ["display"]), ("secretword", []), ("secret", []),
        ("", []), ("   ", []), ("!!!", []), ("\"", []), ("*", []), ("a OR b", []), ("NEAR(", []), ("title:zoe", []),
    ]

    @Test(arguments: 0..<cases.count)
    func whatAUserTypesFindsExactlyTheseItems(index: Int) throws {
        let (query, expected) = Self.cases[index]
        let store = try memoryStore()
        try store.index(Self.corpus)
        #expect(Set(try store.ids(query)) == expected, "query \(query)")
    }

    @Test func hostileQueriesNeverFail() throws {
        let store = try memoryStore()
        try store.index(Self.corpus)
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abc \"*^:()-+{}[],.'\\NEARORAND中학\u{0}\u{301}é")
        for _ in 0..<500 {
            let length = Int.random(in: 0...20, using: &generator)
            let query = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            _ = try store.search(query)
        }
    }

    @Test func limitBoundsTheResults() throws {
        let store = try memoryStore()
        try store.index((0..<30).map { item("i\($0)", title: "common word \($0)") })
        #expect(try store.search("common", limit: 7).count == 7)
        #expect(try store.search("common", limit: 0).isEmpty)
        #expect(try store.search("common").count == 20)
        #expect(throws: SpotlightIndexError.self) { try store.search("common", limit: -1) }
    }

    @Test func resultsCarryTheWholeItem() throws {
        let store = try memoryStore()
        try store.index(Self.corpus)
        let result = try #require(try store.search("zoe").first)
        #expect(result.item == Self.corpus[0])
    }

    /// Completions come from the ranked index's dictionaries: the typed word
    /// first when it is a word, then by how many live items hold each word.
    @Test func suggestionsCompleteTheLastWordByLiveItems() throws {
        let clock = TestClock()
        let store = try memoryStore(clock: clock)
        try store.index([
            item("a", title: "Paris trains"), item("b", title: "Paris travel guide"), item("c", title: "Travel light"),
            item("d", title: "Trams of Lisbon"), item("e", title: "Tra"),
        ])
        #expect(try store.suggestions(completing: "paris tra", limit: 3) == ["paris tra", "paris travel", "paris trains"])
        #expect(try store.suggestions(completing: "Paris TRAV ") == ["Paris travel"])
        #expect(try store.suggestions(completing: "zzz").isEmpty)
        #expect(try store.suggestions(completing: "", limit: 3).isEmpty)
        try store.deleteItems(withIdentifiers: ["c"])
        #expect(try store.suggestions(completing: "tra") == ["tra", "trains", "trams", "travel"])
        var expiring = item("f", title: "Trams again")
        expiring.expirationDate = clock.now.addingTimeInterval(60)
        try store.index([expiring])
        #expect(try store.suggestions(completing: "tra", limit: 2) == ["tra", "trams"])
        clock.advance(by: 61)
        #expect(try store.suggestions(completing: "tra", limit: 2) == ["tra", "trains"])
    }
}
