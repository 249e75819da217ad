import Foundation
import Testing
@testable import SpotlightIndex
@testable import SpotlightSystem
@testable import SpotlightService

/// A resident front end's kept answers: reused for the same question, never after a change.
@Suite struct SearchAnswersTests {
    func item(_ id: String, _ title: String) -> SearchableItem {
        SearchableItem(uniqueIdentifier: id, attributes: ["title": .string(title)])
    }

    func titles(_ found: SystemSearchResults) -> [String] { found.groups.flatMap(\.results).map(\.title) }

    @Test func theSameQuestionIsAnsweredFromMemoryUntilAStoreChanges() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.grocer", "Grocer"))
        try root.store("com.example.grocer").index([item("g1", "Apple")])
        let search = SystemSearch(registry: root.registry, keepsAnswers: true)
        #expect(titles(try search.search("apple")) == ["Apple"])
        #expect(titles(try search.search("apple")) == ["Apple"] && search.reusedAnswers == 1)
        #expect(titles(try search.search("apple", resultsPerApp: 5)) == ["Apple"] && search.reusedAnswers == 1, "another question")

        // Every kind of change made elsewhere is seen by the very next search.
        let changes: [(String, () throws -> Void, [String])] = [
            ("an item indexed", { _ = try root.store("com.example.grocer").index([self.item("g2", "Apple pie")]) }, ["Apple", "Apple pie"]),
            ("an item deleted", { try root.store("com.example.grocer").deleteItems(withIdentifiers: ["g1"]) }, ["Apple pie"]),
            ("a second index", { _ = try root.store("com.example.grocer", "recipes").index([self.item("r1", "Apple crumble")]) }, ["Apple crumble", "Apple pie"]),
            ("an app registered", {
                try root.registry.register(app("com.example.notes", "Notes"))
                _ = try root.store("com.example.notes").index([self.item("n1", "Apple notes")])
            }, ["Apple crumble", "Apple pie", "Apple notes"]),
            ("a store made anew", {
                try FileManager.default.removeItem(at: root.url.appendingPathComponent("com.example.notes"))
                _ = try root.store("com.example.notes").index([self.item("n2", "Apple list")])
            }, ["Apple crumble", "Apple pie", "Apple list"]),
            ("an app unregistered", { try root.registry.unregister("com.example.notes") }, ["Apple crumble", "Apple pie"]),
        ]
        for (change, make, expected) in changes {
            let reused = search.reusedAnswers
            try make()
            #expect(titles(try search.search("apple")).sorted() == expected.sorted(), "\(change)")
            #expect(search.reusedAnswers == reused, "\(change): answered anew")
            #expect(titles(try search.search("apple")).sorted() == expected.sorted() && search.reusedAnswers == reused + 1, "\(change): then kept")
        }
    }

    @Test func engagementRecordedElsewhereReordersTheNextAnswer() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.grocer", "Grocer"))
        try root.store("com.example.grocer").index([item("g1", "Apple red"), item("g2", "Apple green")])
        let search = SystemSearch(registry: root.registry, keepsAnswers: true)
        let before = titles(try search.search("apple"))
        let last = try #require(try search.search("apple").groups.first?.results.last?.reference.itemIdentifier)
        for _ in 0..<5 { try root.store("com.example.grocer").recordEngagement(.selection, itemIdentifier: last) }
        let after = try search.search("apple").groups.first?.results.first?.reference.itemIdentifier
        #expect(after == last, "the selected item rises at once: \(before)")
    }

    @Test func answersWithProblemsAreNotKeptAndAnswersGrowOld() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.grocer", "Grocer"))
        try root.registry.register(app("com.example.gone", "Gone"))
        try root.store("com.example.grocer").index([item("g1", "Apple")])
        try root.store("com.example.gone").index([item("x", "Other")])
        try FileManager.default.removeItem(at: root.url.appendingPathComponent("com.example.gone"))
        let search = SystemSearch(registry: root.registry, keepsAnswers: true)
        #expect(try search.search("zebra").unavailableApps == ["com.example.gone"])
        _ = try search.search("zebra")
        #expect(search.reusedAnswers == 0, "an answer naming a problem is made again")

        let answers = SearchAnswers(lifetime: .milliseconds(30))
        let question = SearchAnswers.Question(text: "a", resultsPerApp: 3, webResults: 0, near: [])
        let sources = SearchAnswers.Sources(apps: [], stores: [:])
        answers.keep(SystemSearchResults(query: "a", groups: [], problems: []), for: question, from: sources, madeAt: .now)
        #expect(answers.answer(question, from: sources) != nil)
        #expect(answers.answer(question, from: SearchAnswers.Sources(apps: [], stores: ["x/default": .init(identity: nil, version: 1)])) == nil)
        answers.keep(SystemSearchResults(query: "a", groups: [], problems: []), for: question, from: sources, madeAt: .now)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(answers.answer(question, from: sources) == nil, "past its lifetime")
    }

    /// Full, the kept answers lose those past their lifetime, then the
    /// oldest until they fill three quarters.
    @Test func aFullSetOfAnswersDropsTheOldOnesFirst() {
        let answers = SearchAnswers(lifetime: .seconds(60), capacity: 8)
        let sources = SearchAnswers.Sources(apps: [], stores: [:])
        func question(_ text: String) -> SearchAnswers.Question { .init(text: text, resultsPerApp: 3, webResults: 0, near: []) }
        func keep(_ text: String, age: Duration) {
            answers.keep(SystemSearchResults(query: text, groups: [], problems: []), for: question(text), from: sources, madeAt: .now - age)
        }
        for index in 0..<6 { keep("old\(index)", age: .seconds(120)) }
        keep("new0", age: .zero)
        keep("new1", age: .zero)
        #expect(answers.count == 8)
        keep("new2", age: .zero)
        #expect(answers.count == 3, "the six past their lifetime went")
        for text in ["new0", "new1", "new2"] { #expect(answers.answer(question(text), from: sources)?.query == text) }

        // new0…new2 are already kept, made now; new3…new7 are made earlier, the higher the older.
        for index in 3..<8 { keep("new\(index)", age: .seconds(index)) }
        #expect(answers.count == 8)
        keep("new8", age: .zero)
        #expect(answers.count == 7, "eight fresh answers fill more than three quarters: the two oldest went")
        for index in 0...8 {
            #expect((answers.answer(question("new\(index)"), from: sources) != nil) == !(6...7).contains(index), "new\(index)")
        }
    }
}
