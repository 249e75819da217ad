import Foundation
import GRDB
import SpotlightQuery
import Testing
import TestSupport
@testable import SpotlightIndex

/// Infix wildcards (`*brar*`) through the ranked index's term dictionaries:
/// exact results, candidates limited to the items holding a matching word,
/// words that follow deletes, rollbacks and other connections, and the old
/// vocabulary's tables dropped from stores that had them.
@Suite struct InfixQueryTests {
    static let items: [SearchableItem] = [
        item("lib", title: "Library of Babel", ["keywords": .strings(["books"])]),
        item("libs", title: "Shared libraries", ["contentDescription": .string("libfoo and libbar")]),
        item("cls", title: "MyLibraryClass"),
        item("cafe", title: "Café Résumé"),
        item("hindi", title: "हिन्दी पुस्तकालय"),
        item("dash", title: "libfoo-dev", ["textContent": .string("development files for Brarian")]),
        item("none", title: "Gardening", ["contentDescription": .string("roses")]),
    ]

    /// Query, expected identifiers (in index order), and the most candidates the evaluator may check.
    static let cases: [(String, [String], Int)] = [
        (#"title == "*brar*"c"#, ["lib", "libs", "cls"], 3),
        (#"title == "*BRAR*""#, [], 3),
        (#"title == "*ibrar*"cd"#, ["lib", "libs", "cls"], 3),
        (#"** == "*brar*"c"#, ["lib", "libs", "cls", "dash"], 4),
        (#"* == "*brar*"c"#, ["lib", "libs", "cls"], 4),
        (#"title == "*ésu*"c"#, ["cafe"], 1),
        (#"title == "*esu*"cd"#, ["cafe"], 1),
        (#"title == "*esu*"c"#, [], 1),
        (#"title == "*स्तका*""#, ["hindi"], 1),
        (#"title == "*oo-d*"c"#, ["dash"], 1),
        (#"title == "*ary"c"#, [], 2),
        (#"title == "*ary*of*"c"#, ["lib"], 1),
        (#"title == "*aryclass"c"#, ["cls"], 1),
        (#"title == "*zzz*"c"#, [], 0),
        (#"title == "*ar*"c && keywords == "books""#, ["lib"], 1),
        (#"title == "*brar*"c || title == "*arden*"c"#, ["lib", "libs", "cls", "none"], 4),
        (#"contentDescription == "*bfo*"c"#, ["libs"], 1),
        (#"title == "*brar*"c || contentDescription == "*brar*"c"#, ["lib", "libs", "cls"], 3),
        (#"title == "*bfo*"c || contentDescription == "*bfo*"c"#, ["libs", "dash"], 2),
        (#"title == "*bfo*"c || keywords == "*ook*"c"#, ["lib", "dash"], 2),
    ]

    /// One pattern in two attributes joined by `||` is looked up once, in
    /// both columns; two patterns, or a pattern and a literal, each alone.
    @Test func onePatternInTwoAttributesIsLookedUpOnce() throws {
        var fragments: [String] = []
        var lookups: [UInt8] = []
        let planner = QueryPlanner(evaluator: QueryEvaluator(now: Date(), timeZone: TimeZone(identifier: "UTC")!),
                                   wordsContaining: { fragment in fragments.append(fragment); return [fragment + "s"] },
                                   rowidsMatching: { _, columns, _ in lookups.append(columns); return ([Int64(columns)], []) })
        let title = TextColumns.bit(of: "title"), summary = TextColumns.bit(of: "contentDescription")
        let cases: [(String, [String], [UInt8])] = [
            (#"title == "*ste*"c || contentDescription == "*ste*"c"#, ["ste"], [title | summary]),
            (#"title == "*ste*"c || contentDescription == "*sta*"c"#, ["ste", "sta"], [title, summary]),
            (#"title == "ste*"c || contentDescription == "ste*"c"#, [], [title | summary]),
            (#"title == "ste"c || contentDescription == "ste"c"#, [], [title, summary]),
            (#"title == "*ste*"c || uniqueIdentifier == "*ste*"c"#, ["ste"], [title]),
        ]
        for (query, expectedFragments, expectedLookups) in cases {
            fragments = []
            lookups = []
            _ = try planner.candidates(try QueryParser.parse(query))
            #expect(fragments == expectedFragments, "\(query)")
            #expect(lookups == expectedLookups, "\(query)")
        }
    }

    @Test(arguments: cases)
    func infixQueries(query: String, expected: [String], maxCandidates: Int) throws {
        let store = try QueryEngineTests.store(Self.items)
        var found: [String] = []
        let outcome = try store.query(query) { found += $0.map(\.uniqueIdentifier) }
        #expect(found == expected)
        #expect(outcome.candidatesChecked <= maxCandidates, "checked \(outcome.candidatesChecked) items")
    }

    @Test func fragmentsInTooManyWordsFallBackToReadingItems() throws {
        let store = try memoryStore()
        try store.index((0...(QueryPlanner.maxInfixWords + 5)).map { item("i\($0)", title: "wordab\($0)x") })
        var count = 0
        let outcome = try store.query(#"title == "*dab*""#) { count += $0.count }
        #expect(count == QueryPlanner.maxInfixWords + 6)
        #expect(outcome.candidatesChecked == QueryPlanner.maxInfixWords + 6)
    }

    @Test func deletingEverythingLeavesNoWordAndNewItemsAreFound() throws {
        let store = try memoryStore()
        try store.index([item("a", title: "library")])
        try store.deleteAllItems()
        #expect(try store.items(matching: #"title == "*brar*""#).isEmpty)
        #expect(try store.read { db in try RankedDictionary.words(containing: "brar", limit: 10, in: try store.ranked.snapshot(db)) } == [])
        try store.index([item("b", title: "library")])
        #expect(try store.items(matching: #"title == "*brar*""#).map(\.uniqueIdentifier) == ["b"])
    }

    @Test func aRolledBackTransactionLeavesNoWord() throws {
        struct Abort: Error {}
        let store = try memoryStore()
        #expect(throws: Abort.self) {
            try store.write { db in
                let prepared = try store.validator.prepare(item("a", title: "zzlibrary"))
                _ = try store.apply(.index([prepared]), db)
                throw Abort()
            }
        }
        #expect(try store.read { db in try RankedDictionary.words(containing: "zlib", limit: 10, in: try store.ranked.snapshot(db)) } == [])
        try store.index([item("a", title: "zzlibrary")])
        #expect(try store.items(matching: #"title == "*zlib*""#).map(\.uniqueIdentifier) == ["a"])
    }

    @Test func anotherConnectionDeletingEverythingIsNoticed() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let first = try fileStore(dir)
        let second = try fileStore(dir)
        try first.index([item("a", title: "library")])
        try second.deleteAllItems()
        try first.index([item("b", title: "library")])
        #expect(try second.items(matching: #"title == "*brar*""#).map(\.uniqueIdentifier) == ["b"])
    }

    @Test func aStoreWrittenWithTheOldVocabularyLosesItsTablesOnOpen() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        do {
            let store = try fileStore(dir)
            try store.index(Self.items)
            try store.write { db in
                try db.execute(sql: """
                    CREATE TABLE term_blocks(id INTEGER PRIMARY KEY, terms TEXT NOT NULL);
                    INSERT INTO term_blocks(terms) VALUES ('library books');
                    INSERT INTO meta(key, value) VALUES ('terms_generation', 3);
                    DELETE FROM grdb_migrations WHERE identifier = 'v6-no-vocabulary';
                    """)
            }
        }
        let reopened = try fileStore(dir)
        #expect(try reopened.items(matching: #"title == "*brar*"c"#).map(\.uniqueIdentifier) == ["lib", "libs", "cls"])
        #expect(try reopened.read { db in try db.tableExists("term_blocks") } == false)
        #expect(try reopened.read { db in try db.meta("terms_generation", as: Int.self) } == nil)
    }
}
