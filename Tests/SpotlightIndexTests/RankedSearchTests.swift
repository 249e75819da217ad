import Foundation
import Synchronization
import GRDB
import Testing
import TestSupport
@_spi(Inspection) import RankedSearch
@testable import SpotlightIndex

/// The ranked index against the full-text table on real text: the same
/// items for every query, and top-k pruning that changes nothing.
@Suite(.serialized) struct RankedDifferentialTests {
    /// Every 20th Debian package (~3,200), as the benchmark indexes them, in batches of 500.
    static func debianStore(clock: TestClock) throws -> (SpotlightStore, [String]) {
        let lines = try gunzipLines(corpusFile("debian-packages.jsonl.gz"))
        var items: [SearchableItem] = []
        var titles: [String] = []
        for (index, line) in lines.enumerated() where index % 20 == 0 {
            let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
            var attributes: [String: AttributeValue] = [:]
            if let title = object["title"] as? String { attributes["title"] = .string(title); titles.append(title) }
            if let summary = object["summary"] as? String { attributes["contentDescription"] = .string(summary) }
            if let description = object["description"] as? String { attributes["textContent"] = .string(description) }
            if let keywords = object["keywords"] as? [String] { attributes["keywords"] = .strings(keywords) }
            attributes["rankingHint"] = .number(.int(Int64(index % 101)))
            attributes["contentModificationDate"] = .date(Date(timeIntervalSince1970: 1_700_000_000 + Double(index * 977 % 40_000_000)))
            items.append(SearchableItem(uniqueIdentifier: object["id"] as! String, attributes: attributes))
        }
        let store = try memoryStore(clock: clock)
        for start in stride(from: 0, to: items.count, by: 500) {
            try store.index(Array(items[start..<min(start + 500, items.count)]))
        }
        return (store, titles)
    }

    /// The free-text queries of `queries.tsv`, then prefixes of 1–3 letters,
    /// title words and their prefixes, and pairs of them.
    static func queries(titles: [String]) throws -> [String] {
        let tsv = try String(contentsOf: corpusFile("queries.tsv"), encoding: .utf8)
        var queries = tsv.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return fields.count >= 2 && ["word", "prefix", "multi"].contains(fields[0]) ? String(fields[1]) : nil
        }
        queries += ["a", "l", "x", "z", "q", "li", "py", "gn", "lib", "pyt", "doc", "xs", "0", "3d"]
        for (index, title) in titles.enumerated() where index % 40 == 0 {
            let words = title.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
            guard let word = words.first else { continue }
            queries.append(word)
            queries.append(String(word.prefix(max(1, word.count / 2))))
            if words.count > 1 { queries.append("\(words[1]) \(word.prefix(2))") }
        }
        queries += ["library python", "gnome de", "the lib", "data files for", "zzzz", "perl module for", "TITLE", "Ünïcödé"]
        return queries
    }

    @Test func sameItemsAsTheFullTextTableAndPruningChangesNothing() throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_760_000_000))
        let (store, titles) = try Self.debianStore(clock: clock)
        let queries = try Self.queries(titles: titles)
        #expect(queries.count > 300)
        try store.write { db in try FullTextIndex.buildReference(db) }
        var nonEmpty = 0
        for query in queries {
            let terms = TextTokenizer.queryTerms(query)
            let everything = try store.searchRanked(terms, limit: Int.max, typos: false)
            let reference = try store.searchFullText(terms, limit: Int.max)
            #expect(Set(everything.map(\.item.uniqueIdentifier)) == Set(reference.map(\.item.uniqueIdentifier)), "\(query)")
            #expect(everything.count == Set(everything.map(\.item.uniqueIdentifier)).count, "\(query): a result twice")
            // Ranked best first; the top 20 found with pruning are the first 20 of the full ranking.
            #expect(zip(everything, everything.dropFirst()).allSatisfy { $0.score.total >= $1.score.total }, "\(query)")
            let top = try store.searchRanked(terms, limit: 20, typos: false)
            #expect(top.map(\.item.uniqueIdentifier) == everything.prefix(20).map(\.item.uniqueIdentifier), "\(query)")
            for result in top {
                let s = result.score
                #expect(abs(s.total - s.product) <= 1e-9 * s.total)
            }
            if !everything.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > 250)
    }

    @Test func chineseJapaneseAndKoreanMatchAsTheFullTextTableDoes() throws {
        let lines = try gunzipLines(corpusFile("cjk-manpages.jsonl.gz"))
        var items: [SearchableItem] = []
        var queries: [String] = []
        for (index, line) in lines.enumerated() where index % 8 == 0 {
            let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
            let title = object["title"] as! String, description = object["description"] as! String
            items.append(item(object["id"] as! String, title: title, ["contentDescription": .string(description)]))
            if index % 96 == 0 {
                let characters = Array(description)
                for length in [1, 2, 3, 4] where characters.count > 10 + length {
                    queries.append(String(characters[10..<(10 + length)]))
                }
                if let word = description.split(separator: " ").dropFirst(2).first { queries.append(String(word)) }
            }
        }
        let store = try memoryStore()
        try store.index(items)
        try store.write { db in try FullTextIndex.buildReference(db) }
        var nonEmpty = 0
        for query in queries {
            let terms = TextTokenizer.queryTerms(query)
            guard !terms.isEmpty else { continue }
            let ranked = Set(try store.searchRanked(terms, limit: Int.max, typos: false).map(\.item.uniqueIdentifier))
            let reference: Set<String>
            reference = Set(try store.searchFullText(terms, limit: Int.max).map(\.item.uniqueIdentifier))
            #expect(ranked == reference, "\(query)")
            if !ranked.isEmpty { nonEmpty += 1 }
        }
        #expect(queries.count > 100 && nonEmpty > queries.count / 2)
    }
}

/// How the ranked index follows writes and recovers.
@Suite(.serialized) struct RankedIndexStoreTests {
    static func segments(_ store: SpotlightStore) throws -> [Row] {
        try store.read { try Row.fetchAll($0, sql: "SELECT id, file, documents, deleted_count FROM ranked_segments ORDER BY id") }
    }

    /// A segment kept inside the SQLite file is written into its row's
    /// pages by incremental I/O (``RankedIndex/insertInline(_:token:documentCount:_:)``):
    /// each row holds the very bytes the writer keeps, checksum and all.
    /// (A damaged one would be rebuilt from the items on the next open,
    /// so searches alone would not show it.)
    @Test func aSegmentInsideTheFileIsTheOneTheWriterKeeps() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir)
        for batch in 0..<3 {
            try store.index((0..<(100 + 150 * batch)).map { item("b\(batch)-\($0)", title: "entry \($0) of batch \(batch)") })
        }
        let rows = try store.read { try Row.fetchAll($0, sql: "SELECT token, documents, data FROM ranked_segments WHERE file IS NULL ORDER BY id") }
        #expect(rows.map { $0["documents"] as Int } == [100, 250, 400])
        for row in rows {
            let data: Data = row["data"]
            let kept = try #require(store.ranked.cache.withLock { $0[row["token"]] })
            #expect(data.elementsEqual(kept.segment.bytes.buffer))
            let stored = try Segment(SegmentBytes(copying: data), verifyChecksum: true)
            #expect(stored.documentCount == row["documents"])
        }
    }

    @Test func followsInsertsReplacementsDeletionsAndExpiry() throws {
        let clock = TestClock()
        let store = try memoryStore(clock: clock)
        try store.index([item("a", title: "Alpine meadow"), item("b", title: "Alpine lake"), item("c", title: "Desert")])
        #expect(try store.ids("alp").sorted() == ["a", "b"])
        try store.index([item("b", title: "Ocean")])                                   // replaced
        #expect(try store.ids("alp") == ["a"])
        #expect(try store.ids("ocean") == ["b"])
        try store.deleteItems(withIdentifiers: ["a"])
        #expect(try store.ids("alp").isEmpty)
        var expiring = item("d", title: "Alpine hut")
        expiring.expirationDate = clock.now.addingTimeInterval(60)
        try store.index([expiring])
        #expect(try store.ids("alpine") == ["d"])
        clock.advance(by: 61)
        #expect(try store.ids("alpine").isEmpty)                                       // expired: never returned
        try store.deleteAllItems()
        #expect(try Self.segments(store).isEmpty)
        #expect(try store.ids("desert").isEmpty)
    }

    /// Results' items are read one to a statement, in the hits' order:
    /// each must stay with its own hit, whatever the page's size, and a
    /// missing one is damage.
    @Test(arguments: [1, 20, SpotlightStore.itemsPerStatement, SpotlightStore.itemsPerStatement + 1, 150])
    func eachResultCarriesItsOwnItem(limit: Int) throws {
        let store = try memoryStore()
        try store.index((0..<150).map { index in
            item("item-\(index)", title: "common words", ["rankingHint": .number(.int(Int64(index % 101))), "keywords": .strings(["n\(index)"])])
        })
        let results = try store.search("common", limit: limit)
        #expect(results.count == limit)
        for result in results {
            guard case .number(let hint)? = result.item.attributes["rankingHint"],
                  case .strings(let keywords)? = result.item.attributes["keywords"] else { Issue.record("attributes lost"); continue }
            #expect(keywords == ["n\(result.item.uniqueIdentifier.dropFirst(5))"])
            #expect(abs(result.score.hintFactor - (1 + store.options.ranking.rankingHint * hint.doubleValue / 100)) < 1e-12,
                    "\(result.item.uniqueIdentifier)")
        }
        #expect(zip(results, results.dropFirst()).allSatisfy { $0.score.total >= $1.score.total })
        // The index names a row the store no longer holds: damage, said as such.
        let hits = try store.read { try store.rankedHits(TextTokenizer.queryTerms("common"), limit: limit, $0) }
        try store.write { try $0.execute(sql: "DELETE FROM items WHERE rowid = ?", arguments: [hits[hits.count / 2].rowid]) }
        #expect(throws: SegmentError.self) { try store.read { try SpotlightStore.results(of: hits, $0) } }
    }

    @Test func engagementLiftsAnItemAtOnce() throws {
        let store = try memoryStore()
        try store.index([item("x", title: "Tomato soup"), item("y", title: "Tomato salad")])
        let before = try store.ids("tomato")
        let second = try #require(before.last)
        for _ in 0..<5 { try store.recordEngagement(.selection, itemIdentifier: second) }
        #expect(try store.ids("tomato").first == second)
        #expect(try store.search("tomato").first?.score.engagementFactor ?? 1 > 1)
    }

    @Test func manySmallWritesAreMergedAndStayCorrect() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir) { $0.rankedInlineLimit = 16 << 10 }
        for batch in 0..<120 {
            try store.index((0..<30).map { item("i\(batch)-\($0)", title: "batch\(batch) item \($0) common") })
            if batch % 10 == 9 { try store.deleteItems(withIdentifiers: (0..<30).map { "i\(batch - 5)-\($0)" }) }
        }
        try store.finishMerging()
        let segments = try Self.segments(store)
        #expect(segments.count < 16)
        #expect(segments.contains { ($0["file"] as String?) != nil })                   // big ones in files
        let directory = dir.url.appendingPathComponent("org.openspotlight.tests/shared.ranked")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files == segments.compactMap { $0["file"] as String? }.flatMap { [$0, $0 + ".ok"] }.sorted())   // no file left behind
        #expect(try store.search("common", limit: 10_000).count == 120 * 30 - 12 * 30)
        #expect(try store.ids("batch4 item").isEmpty)                                 // deleted in batch 9
        #expect(try store.ids("batch7 item").count == 30)
        // Another store object on the same file sees the same.
        let other = try fileStore(dir)
        #expect(try other.search("common", limit: 10_000).count == 120 * 30 - 12 * 30)
        try store.index([item("late", title: "common latecomer")])
        #expect(try other.ids("latecomer") == ["late"])
    }

    @Test func staleDamagedOrMissingSegmentsAreRebuiltFromTheItems() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        do {
            let store = try fileStore(dir) { $0.rankedInlineLimit = 4 << 10 }
            try store.index((0..<400).map { item("n\($0)", title: "note \($0) shared words") })
            #expect(try Self.segments(store).contains { ($0["file"] as String?) != nil })
        }
        let file = dir.url.appendingPathComponent("org.openspotlight.tests/shared.sqlite")
        let directory = dir.url.appendingPathComponent("org.openspotlight.tests/shared.ranked")
        // Damaged file: the next search rebuilds and answers.
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".seg") {
            let url = directory.appendingPathComponent(name)
            var bytes = try Data(contentsOf: url)
            bytes[bytes.count - 100] ^= 0x5A
            try bytes.write(to: url)
        }
        do {
            let store = try fileStore(dir)
            #expect(try store.search("shared", limit: 1_000).count == 400)
        }
        // Missing file.
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        do {
            let store = try fileStore(dir)
            #expect(try store.search("note 12", limit: 1_000).map(\.item.uniqueIdentifier).sorted() == ["n12", "n120", "n121", "n122", "n123", "n124", "n125", "n126", "n127", "n128", "n129"])
        }
        // Stale: built by other code; damaged inline bytes.
        let queue = try DatabaseQueue(path: file.path)
        try queue.write { db in
            try db.execute(sql: "UPDATE meta SET value = 'old' WHERE key = 'ranked_format'")
            try db.execute(sql: "UPDATE ranked_segments SET data = zeroblob(300) WHERE data IS NOT NULL")
        }
        try queue.close()
        let store = try fileStore(dir)
        #expect(try store.read { try $0.meta("ranked_format", as: String.self) } == store.ranked.formatTag)
        #expect(try store.search("shared", limit: 1_000).count == 400)
        try store.write { db in try db.execute(sql: "UPDATE ranked_segments SET data = zeroblob(300)") }
        let fresh = try fileStore(dir)
        #expect(try fresh.search("shared", limit: 1_000).count == 400)
        // Inline bytes gone: an empty blob, or none, where a segment should be.
        for emptied in ["x''", "NULL"] {
            try fresh.write { db in try db.execute(sql: "UPDATE ranked_segments SET data = \(emptied) WHERE file IS NULL") }
            let rebuilt = try fileStore(dir)
            #expect(try rebuilt.search("shared", limit: 1_000).count == 400, "inline data \(emptied)")
        }
    }
}

/// Typo tolerance: words of five letters or more match one edit away, nine
/// or more two; such matches come after every exact match.
@Suite struct RankedTypoTests {
    static func store() throws -> SpotlightStore {
        let store = try memoryStore()
        try store.index([
            item("lib", title: "Library of Alexandria", ["contentDescription": .string("ancient scrolls")]),
            item("libre", title: "LibreOffice suite", ["contentDescription": .string("documents and spreadsheets")]),
            item("pear", title: "Pear", ["contentDescription": .string("Conference pears")]),
            item("cat", title: "Catalogue", ["contentDescription": .string("international shipping")]),
            item("nat", title: "Internationalization", ["contentDescription": .string("translations")]),
            item("py", title: "python3-numpy", ["contentDescription": .string("arrays for Python 3")]),
        ])
        return store
    }

    @Test(arguments: [
        ("librery", ["lib"]),                 // one substitution, as a prefix of "library"
        ("libary of", ["lib"]),               // one deletion in a whole word
        ("alexandira", ["lib"]),              // a swap of two adjacent letters is one edit
        ("spredsheets", ["libre"]),
        ("internationalisation", ["nat"]),    // s for z
        ("paer", ["pear"]),                   // four letters: one edit, here a swap
        ("pera", ["pear"]),                   // …also as a prefix
        ("pae", []),                          // three letters: no typos
        ("xibrary", ["lib"]),                 // a first letter typed wrong, tried when nothing else matches
        ("yxbrary", []),                      // …but then the rest is exact
        ("shipping2", []),                    // a digit is never edited (nor dropped)
        ("pyhton3 numpy", ["py"]),            // the letters of a word with digits are
        ("pyhton4 numpy", []),                // …but not its digits
        ("alxenadria", ["lib"]),              // two edits from eight letters
        ("librxry ancient", ["lib"]),
        ("catalgue internatonal", ["cat"]),   // two words, one typo each
    ])
    func typosFind(_ text: String, _ expected: [String]) throws {
        #expect(try Self.store().ids(text) == expected, "\(text)")
    }

    @Test func exactMatchesComeFirstAndTyposAreMarked() throws {
        let store = try memoryStore()
        try store.index([
            item("exact", title: "Plain", ["contentDescription": .string("library")]),
            item("typo", title: "Library library library", ["rankingHint": .number(.int(100))]),
        ])
        // "librari" is a prefix of nothing: both come from the typo tier.
        let results = try store.search("librari")
        #expect(Set(results.map(\.item.uniqueIdentifier)) == ["exact", "typo"] && results.allSatisfy(\.score.typos))
        let exact = try store.search("library")
        #expect(exact.allSatisfy { !$0.score.typos })
        let typo = try store.search("libraty")
        #expect(typo.count == 2 && typo.allSatisfy(\.score.typos))
        #expect(typo.first?.score.explanation.contains("typos") == true)
        // An exact match is never below a typo match.
        try store.index([item("late", title: "Libraty notes")])
        #expect(try store.ids("libraty") == ["late", "typo", "exact"])   // the typo tier by score: hint 100 first
        #expect(try store.search("libraty").map(\.score.typos) == [false, true, true])
    }

    @Test func distanceIsBoundedAndStopsEarly() {
        var column: [Int] = [], next: [Int] = []
        func check(_ word: String, _ candidate: String, _ maximum: Int, prefix: Bool = false) -> Bool {
            TypoDistance.matches(Array(word.unicodeScalars), candidate.unicodeScalars, maximum: maximum, isPrefix: prefix, column: &column, next: &next)
        }
        #expect(check("kitten", "sitten", 1))
        #expect(!check("kitten", "sitting", 2))
        #expect(check("kitten", "sitting", 3))
        #expect(check("librar", "library", 0, prefix: true))
        #expect(check("librer", "library", 1, prefix: true))
        #expect(!check("librer", "lib", 1, prefix: true))
        #expect(check("école", "ecole", 1))
        // Damerau: a swap of two adjacent letters is one edit, not two.
        #expect(check("pyhton", "python", 1))
        #expect(!check("pyhton", "python", 0))
        #expect(check("ab", "ba", 1))
        #expect(!check("abc", "cab", 1))
        // Digits are never edited when locked.
        func locked(_ word: String, _ candidate: String, _ maximum: Int, prefix: Bool = false) -> Bool {
            TypoDistance.matches(Array(word.unicodeScalars), candidate.unicodeScalars, maximum: maximum, isPrefix: prefix,
                                 lockDigits: true, column: &column, next: &next)
        }
        #expect(locked("pyhton3", "python3", 1))
        #expect(!locked("batch4", "batch5", 1))
        #expect(!locked("batch4", "batch14", 1))
        #expect(!locked("batch4", "batch", 1))
        #expect(check("batch4", "batch5", 1))
    }
}

/// Readers and a writer on the same file, each with its own store object
/// (own connections, own segment cache): merges delete files that an older
/// snapshot may still name, and a reader must never fail or go back in time.
@Suite(.serialized) struct RankedConcurrencyTests {
    @Test func readersNeverFailWhileAWriterMergesAndDeletesSegmentFiles() async throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let writer = try fileStore(dir) { $0.rankedInlineLimit = 2 << 10 }
        try writer.index([item("seed", title: "common seed")])
        let batches = 150
        let started = Mutex(false)
        let reading = Task.detached {
            let reader = try fileStore(dir)
            var seen = 0, queries = 0
            while seen < batches * 10 + 1 {
                if queries == 1 { started.withLock { $0 = true } }
                let count = try reader.search("common", limit: 100_000).count
                #expect(count >= seen, "a later search saw fewer items (\(count) after \(seen))")
                seen = count
                queries += 1
            }
            return queries
        }
        while !started.withLock({ $0 }) { try await Task.sleep(nanoseconds: 1_000_000) }
        for batch in 0..<batches {
            try writer.index((0..<10).map { item("b\(batch)-\($0)", title: "common batch\(batch) entry \($0)") })
        }
        #expect(try await reading.value > 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent("org.openspotlight.tests/shared.ranked").path)
        #expect(!files.isEmpty)
        try writer.finishMerging()
        #expect(try writer.rankedIndexStatistics().segments < 16)
    }
}

/// A large segment file verified as it is now is checksummed again in the
/// background; damage found there (below the file system, which its
/// verification record cannot see) makes the next search rebuild the index,
/// answers staying right.
@Suite(.serialized) struct RankedBackgroundCheckTests {
    @Test func damageInALargeSegmentIsFoundInTheBackgroundAndRebuilt() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let words = (0..<400).map { "word\($0)x" }
        do {
            let store = try fileStore(dir) { $0.rankedInlineLimit = 64 << 10 }
            for batch in 0..<8 {
                try store.index((0..<300).map { index in
                    let n = batch * 300 + index
                    return item("d\(n)", title: "document \(n)",
                                ["textContent": .string((0..<200).map { words[(n * 7 + $0 * 13) % words.count] }.joined(separator: " "))])
                })
            }
            try store.finishMerging()
        }
        let directory = dir.url.appendingPathComponent("org.openspotlight.tests/shared.ranked")
        let large = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".seg") }
            .map { directory.appendingPathComponent($0) }
            .first { ((try? FileManager.default.attributesOfItem(atPath: $0.path))?[.size] as? NSNumber)?.intValue ?? 0 > 1 << 20 }
        let file = try #require(large, "a segment file over the synchronous check's limit")
        var bytes = try Data(contentsOf: file)
        let checksum = try Segment(SegmentBytes(copying: bytes), verifyChecksum: false).storedChecksum
        bytes[bytes.count / 2] ^= 0x40                      // in the postings or forward lists: structurally fine
        try bytes.write(to: file)
        // As if the bytes had rotted on disk: the file's record still says it
        // was verified, two days ago (a younger record is trusted as it is).
        SegmentVerification.record(file, checksum: checksum)
        let record = SegmentVerification.recordURL(for: file)
        #expect(!SegmentVerification.isDueForRecheck(file))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -2 * 86_400)], ofItemAtPath: record.path)
        #expect(SegmentVerification.isDueForRecheck(file))
        #expect(SegmentVerification.isVerified(file, checksum: checksum), "the record's age is not part of what it says")

        let store = try fileStore(dir)
        var rebuilt = false
        for _ in 0..<200 {
            #expect(try store.search("document", limit: 10_000).count == 2_400)
            if !FileManager.default.fileExists(atPath: file.path) { rebuilt = true; break }
            Thread.sleep(forTimeInterval: 0.025)
        }
        #expect(rebuilt, "the damaged file was replaced by a rebuild")
        try store.write { db in try FullTextIndex.buildReference(db) }
        let reference = try store.searchFullText(TextTokenizer.queryTerms("word5x"), limit: 10_000).count
        #expect(try store.searchRanked(TextTokenizer.queryTerms("word5x"), limit: 10_000, typos: false).count == reference)
    }
}

extension RankedIndexStoreTests {
    /// A large segment whose record is a day old is read again in the
    /// background when a store loads it, and recorded anew when it passes;
    /// one recorded since is trusted as it is.
    @Test func anOldRecordIsCheckedAgainAndRenewed() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        do {
            let store = try fileStore(dir) { $0.rankedInlineLimit = 64 << 10 }
            for batch in 0..<8 {
                try store.index((0..<300).map { index in
                    let n = batch * 300 + index
                    return item("d\(n)", title: "document \(n)", ["textContent": .string((0..<200).map { "w\((n * 7 + $0 * 13) % 400)x" }.joined(separator: " "))])
                })
            }
            try store.finishMerging()
        }
        let directory = dir.url.appendingPathComponent("org.openspotlight.tests/shared.ranked")
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".seg") }
            .map { directory.appendingPathComponent($0) }
            .first { ((try? FileManager.default.attributesOfItem(atPath: $0.path))?[.size] as? NSNumber)?.intValue ?? 0 > 1 << 20 })
        #expect(!SegmentVerification.isDueForRecheck(file), "the writer's record is new")
        let record = SegmentVerification.recordURL(for: file)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -2 * 86_400)], ofItemAtPath: record.path)
        #expect(SegmentVerification.isDueForRecheck(file))
        let store = try fileStore(dir)
        #expect(try store.search("document", limit: 10_000).count == 2_400)
        var renewed = false
        for _ in 0..<200 where !renewed {
            renewed = !SegmentVerification.isDueForRecheck(file)
            if !renewed { Thread.sleep(forTimeInterval: 0.025) }
        }
        #expect(renewed, "checked in the background and recorded anew")
        #expect(FileManager.default.fileExists(atPath: file.path), "not rebuilt: it passed")
    }

    @Test func aLostStoresSegmentFilesAreRemovedWhenTheNewStoreBuildsItsIndex() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let file = dir.url.appendingPathComponent("org.openspotlight.tests/shared.sqlite")
        let directory = dir.url.appendingPathComponent("org.openspotlight.tests/shared.ranked")
        do {
            let store = try fileStore(dir) { $0.rankedInlineLimit = 4 << 10 }
            try store.index((0..<300).map { item("n\($0)", title: "note \($0)") })
        }
        #expect(try !FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        let store = try fileStore(dir)
        #expect(try store.pendingReindex == .storeMissing)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        #expect(try store.ids("note").isEmpty)
    }
}
