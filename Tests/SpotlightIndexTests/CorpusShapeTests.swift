import Corpora
import Foundation
import Testing

/// Where the corpora are found, and that the corpora read (the shared ones or those
/// `Scripts/make-corpora.py` builds) have the shape the other tests and the benchmark rely on.
@Suite(.serialized) struct CorpusShapeTests {
    @Test(arguments: [
        ("/tmp/somewhere", "/tmp/somewhere"),   // the environment wins
        ("/tmp/a/../b", "/tmp/b"),
        ("", nil),                              // empty: as if unset
        (nil, nil),
    ] as [(String?, String?)])
    func theCorporaAreFoundInTheEnvironmentsDirectoryElseSharedElseBuilt(_ variable: String?, _ expected: String?) {
        let environment = variable.map { [Corpora.environmentKey: $0] } ?? [:]
        let found = Corpora.directory(environment: environment).path
        if let expected {
            #expect(found == expected)
        } else {
            let sharedHasThem = FileManager.default.isReadableFile(atPath: Corpora.shared.appendingPathComponent("debian-packages.jsonl.gz").path)
            #expect(found == (sharedHasThem ? Corpora.shared.standardizedFileURL.path : Corpora.built.path))
            #expect(found.hasSuffix(sharedHasThem ? "/shared/corpora" : "/.build/corpora"))
        }
    }

    @Test func aMissingCorpusSaysHowToMakeIt() throws {
        let error = #expect(throws: Corpora.Missing.self) {
            try Corpora.file("debian-packages.jsonl.gz", environment: [Corpora.environmentKey: "/nonexistent/corpora"])
        }
        #expect(error?.description.contains("python3 Scripts/make-corpora.py") == true)
        #expect(error?.file.path == "/nonexistent/corpora/debian-packages.jsonl.gz")
    }

    static func objects(_ name: String) throws -> [[String: Any]] {
        try gunzipLines(corpusFile(name)).map { line in
            try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
        }
    }

    @Test func debianPackagesHaveTheirFieldsSortedByID() throws {
        let packages = try Self.objects("debian-packages.jsonl.gz")
        #expect(packages.count > 50_000)
        let ids = packages.compactMap { $0["id"] as? String }
        #expect(ids.count == packages.count)
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0.utf8.lexicographicallyPrecedes($1.utf8) }, "sorted by id, each once")
        var described = 0
        for package in packages {
            let id = package["id"] as? String ?? "?"
            #expect(package["title"] as? String == id)
            #expect(package["summary"] is String && package["section"] is String && package["version"] is String
                    && package["maintainer"] is String, "\(id)")
            #expect((package["keywords"] as? [String])?.isEmpty == false, "\(id)")
            #expect(package["installedSize"] is Int || package["installedSize"] is NSNull, "\(id)")
            #expect(package["homepage"] is String || package["homepage"] is NSNull, "\(id)")
            if let description = package["description"] as? String, !description.isEmpty { described += 1 }
        }
        #expect(described > packages.count * 9 / 10, "the long descriptions are there")
    }

    @Test func cjkEntriesHaveTheirLanguageAndSource() throws {
        let entries = try Self.objects("cjk-manpages.jsonl.gz")
        let ids = entries.compactMap { $0["id"] as? String }
        #expect(ids.count == entries.count)
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0.utf8.lexicographicallyPrecedes($1.utf8) }, "sorted by id, each once")
        var languages: Set<String> = []
        for entry in entries {
            let id = entry["id"] as? String ?? "?", language = entry["language"] as? String ?? "?"
            languages.insert(language)
            #expect(["ja", "ko", "zh_CN", "zh_TW"].contains(language), "\(id)")
            #expect(["manpages-ja", "manpages-zh", "ddtp", "hunspell-ko"].contains(entry["source"] as? String ?? ""), "\(id)")
            #expect(id.hasPrefix("man-\(language):") || id.hasPrefix("ddtp-\(language):") || id.hasPrefix("ko-dict:"), "\(id)")
            #expect(entry["title"] is String && entry["summary"] is String && entry["description"] is String && entry["name"] is String)
        }
        #expect(languages == ["ja", "ko", "zh_CN", "zh_TW"])
    }

    /// 300 queries of the five kinds, each drawn from the corpus it comes with.
    @Test func queriesAreDrawnFromTheCorpus() throws {
        let lines = try String(contentsOf: corpusFile("queries.tsv"), encoding: .utf8).split(separator: "\n")
        let queries = lines.map { $0.split(separator: "\t", maxSplits: 1).map(String.init) }
        #expect(queries.count == 300 && queries.allSatisfy { $0.count == 2 })
        let kinds = Dictionary(grouping: queries, by: { $0[0] }).mapValues(\.count)
        #expect(kinds == ["word": 80, "prefix": 80, "multi": 60, "substring": 50, "attribute": 30])
        let packages = try Self.objects("debian-packages.jsonl.gz")
        let summaries = packages.map { ($0["summary"] as? String ?? "").lowercased() }
        let sections = Set(packages.compactMap { $0["section"] as? String })
        for query in queries where query.count == 2 {
            let text = query[1]
            switch query[0] {
            case "word", "prefix":
                #expect(!text.isEmpty && text.allSatisfy { ("a"..."z").contains($0) }, "\(text)")
            case "multi":
                // Every word, in order, in one package's summary.
                let words = text.split(separator: " ").map(String.init)
                #expect((2...3).contains(words.count), "\(text)")
                #expect(summaries.contains { summary in
                    var rest = summary[...]
                    for word in words {
                        guard let found = rest.range(of: word) else { return false }
                        rest = rest[found.upperBound...]
                    }
                    return true
                }, "\(text)")
            case "substring":
                #expect(text.hasPrefix("*") && text.hasSuffix("*") && (5...8).contains(text.count), "\(text)")
            case "attribute":
                let parts = text.split(separator: " ").map(String.init)
                #expect(parts.count == 3 && (parts[0] == "section" && parts[1] == "==" && sections.contains(parts[2])
                                             || parts[0] == "installedSize" && parts[1] == ">" && Int(parts[2]) != nil), "\(text)")
            default:
                Issue.record("unknown kind \(query[0])")
            }
        }
    }
}
