import Foundation
import Testing
@_spi(Inspection) import RankedSearch
@testable import SpotlightIndex

/// Real Chinese, Japanese and Korean text from `cjk-manpages.jsonl.gz` (see ``corpusFile(_:)``).
@Suite(.serialized) struct CJKCorpusTests {
    struct Entry { var id, title, description, language: String }

    /// Every 3rd entry of the corpus, deterministic.
    static func load() throws -> [Entry] {
        let lines = try gunzipLines(corpusFile("cjk-manpages.jsonl.gz"))
        var entries: [Entry] = []
        for (index, line) in lines.enumerated() where index % 3 == 0 {
            let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
            entries.append(Entry(id: object["id"] as! String, title: object["title"] as! String,
                                 description: object["description"] as! String, language: object["language"] as! String))
        }
        return entries
    }

    static func store(_ entries: [Entry]) throws -> SpotlightStore {
        let store = try memoryStore()
        try store.index(entries.map { item($0.id, title: $0.title, ["contentDescription": .string($0.description)]) })
        return store
    }

    static func isHanOrKana(_ c: Character) -> Bool {
        c.unicodeScalars.count == 1 && TextFolding.isCJK(c.unicodeScalars.first!.value)
    }

    @Test func chineseAndJapaneseAreFoundByOneOrTwoCharacters() throws {
        let entries = try Self.load()
        // Whichever corpus is read (the shared one or Scripts/make-corpora.py's): thousands of
        // entries, every language this suite samples among them.
        #expect(entries.count > 1_000)
        #expect(Set(entries.map(\.language)).isSuperset(of: ["ja", "zh_CN", "zh_TW", "ko"]))
        let store = try Self.store(entries)
        var checked = 0
        for language in ["ja", "zh_CN", "zh_TW"] {
            let sample = entries.filter { $0.language == language }.enumerated().filter { $0.offset % 25 == 0 }.map(\.element).prefix(40)
            for entry in sample {
                let title = Array(entry.title)
                guard let start = title.indices.first(where: { $0 + 1 < title.count && Self.isHanOrKana(title[$0]) && Self.isHanOrKana(title[$0 + 1]) }) else { continue }
                for word in [String(title[start]), String(title[start...(start + 1)])] {
                    let ids = try store.search(word, limit: 100_000).map(\.item.uniqueIdentifier)
                    #expect(ids.contains(entry.id), "\(language) \(entry.id): \(word) in \(entry.title)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 100)
    }

    @Test func koreanIsFoundByAWordWithoutItsParticle() throws {
        let entries = try Self.load().filter { $0.language == "ko" && $0.id.hasPrefix("ddtp-ko") }
        let store = try Self.store(entries)
        var checked = 0
        for entry in entries.enumerated().filter({ $0.offset % 20 == 0 }).map(\.element) {
            let words = entry.description.split(separator: " ").map(String.init)
            // A word with a particle, whose stem is two syllables or more, then any other Hangul word.
            guard let withParticle = words.first(where: { word in
                KoreanParticles.stem(of: Array(word.unicodeScalars)).map { $0.count >= 2 && $0.allSatisfy { KoreanParticles.isHangul($0.value) } } ?? false
            }), let other = words.last(where: { $0 != withParticle && $0.unicodeScalars.allSatisfy { KoreanParticles.isHangul($0.value) } }) else { continue }
            let stem = String(String.UnicodeScalarView(KoreanParticles.stems(of: Array(withParticle.unicodeScalars)).last!))
            // The stem is not the last word, so it must match as a whole word: through the particle stripping.
            let ids = try store.search("\(stem) \(other)", limit: 100_000).map(\.item.uniqueIdentifier)
            #expect(ids.contains(entry.id), "\(entry.id): \(stem) (from \(withParticle)) + \(other)")
            checked += 1
        }
        #expect(checked >= 50)
    }
}
