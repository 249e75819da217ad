import Foundation
import Testing
@testable import SpotlightIndex

/// Typos as people make them (Damerau–Levenshtein, from four letters, the
/// first letter last), exhaustively on a few package names, and the
/// match-quality ladder of the text score.
@Suite struct TypoModelTests {
    static let names = ["python3-numpy", "libxml2-dev", "gnome-shell-extensions", "firefox-esr", "postgresql-15", "kiwi"]

    /// The names among neighbours that share their words, so that a typo
    /// has something else to land on.
    static let store: SpotlightStore = {
        let store = try! memoryStore()
        var items = names.map { item($0, title: $0, ["contentDescription": .string("the \($0) package")]) }
        for (index, name) in ["python3-numpy-dbg", "python3-scipy", "libxml2-utils", "libxslt1-dev", "gnome-shell", "gnome-session",
                              "firefox-l10n-de", "thunderbird", "postgresql-client-15", "kiwix", "kiwi-tools", "pyhon-docs"].enumerated() {
            items.append(item("other\(index)", title: name, ["contentDescription": .string("another package")]))
        }
        _ = try! store.index(items)
        return store
    }()

    /// Every swap, deletion, insertion and substitution at every position
    /// of every word of four letters or more (digits untouched) finds the
    /// name in the top 3.
    @Test(arguments: names)
    func everyOneEditTypoFindsTheName(_ name: String) throws {
        let characters = Array(name)
        var words: [Range<Int>] = []
        var start: Int?
        for index in 0...characters.count {
            let inWord = index < characters.count && (characters[index].isLetter || characters[index].isNumber)
            if inWord, start == nil { start = index }
            if !inWord, let begun = start { words.append(begun..<index); start = nil }
        }
        var typed: Set<String> = []
        for word in words where characters[word].filter(\.isLetter).count >= 4 {
            let letters = word.filter { characters[$0].isLetter }
            for at in letters {
                if at + 1 < word.upperBound, characters[at + 1].isLetter, characters[at] != characters[at + 1] {
                    var swapped = characters
                    swapped.swapAt(at, at + 1)
                    typed.insert(String(swapped))
                }
                if letters.count >= 5 {
                    var deleted = characters
                    deleted.remove(at: at)
                    typed.insert(String(deleted))
                }
                var replaced = characters
                replaced[at] = characters[at] == "q" ? "z" : "q"
                typed.insert(String(replaced))
            }
            for at in word.lowerBound...word.upperBound {
                var inserted = characters
                inserted.insert("q", at: at)
                typed.insert(String(inserted))
            }
        }
        #expect(typed.count >= 10)
        var missed: [String] = []
        for text in typed.sorted() where try !Self.store.ids(text, limit: 3).contains(name) { missed.append(text) }
        #expect(missed.isEmpty, "\(name): \(missed)")
    }

    /// Exact title, whole word in a title, a title word begun, the
    /// description (weighing 4), other text (1): in that order.
    @Test func matchQualityOrdersOtherwiseEqualItems() throws {
        let store = try memoryStore()
        try store.index([
            item("other", title: "Fruit", ["textContent": .string("kiwi tart")]),
            item("begun", title: "Kiwifruit tart"),
            item("word", title: "Kiwi tart with cream"),
            item("exact", title: "Kiwi tart"),
            item("described", title: "Dessert", ["contentDescription": .string("a kiwi tart")]),
        ])
        #expect(try store.ids("kiwi tart") == ["exact", "word", "described", "other"])
        // A completion of the last word ("kiwifruit") is a title word begun: no title part.
        #expect(try store.ids("kiwi") == ["exact", "word", "begun", "described", "other"])
        // "kiw" is being typed: no title part for any of them, they rank by BM25.
        #expect(Set(try store.ids("kiw").prefix(3)) == ["exact", "word", "begun"])
        #expect(try store.ids("tart kiwi").first == "exact")
        let scores = Dictionary(uniqueKeysWithValues: try store.search("kiwi tart").map { ($0.item.uniqueIdentifier, $0.score) })
        #expect(scores["described"]!.matchQuality == 0 && scores["other"]!.matchQuality == 0)
        #expect(scores["exact"]!.matchQuality > scores["word"]!.matchQuality && scores["word"]!.matchQuality > 0)
    }
}
