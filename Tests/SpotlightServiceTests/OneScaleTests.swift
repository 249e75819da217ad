import Foundation
import Testing
@testable import SpotlightIndex
@testable import SpotlightSystem
@testable import SpotlightService

/// Scores comparable across apps: every store's text scored with the
/// statistics of all the stores system search reads.
@Suite(.serialized) struct OneScaleTests {
    static func titled(_ id: String, _ title: String, _ more: [String: AttributeValue] = [:]) -> SearchableItem {
        var attributes = more
        attributes["title"] = .string(title)
        return SearchableItem(uniqueIdentifier: id, attributes: attributes)
    }

    /// `count` items, the first few weaker matches for "kiwi" (a title
    /// holding it among other words, a description, stuffed keywords),
    /// the rest filler that never matches.
    static func bigStore(_ count: Int) -> [SearchableItem] {
        let weaker = [
            titled("smoothie", "Kiwi smoothie bowl"),
            titled("salad", "Fruit salad", ["contentDescription": .string("kiwi, mango and lime")]),
            titled("stuffed", "Tropical box", ["keywords": .strings(Array(repeating: "kiwi", count: 8))]),
        ]
        let words = ["apple", "pear", "plum", "fig", "grape", "melon", "lemon", "peach", "cherry", "quince"]
        var items = Array(weaker.prefix(count))
        var index = 0
        while items.count < count {
            items.append(titled("f\(index)", "\(words[index % 10]) \(words[(index / 10) % 10]) \(index)",
                                ["contentDescription": .string("fresh \(words[(index / 100) % 10]) from the market")]))
            index += 1
        }
        return items
    }

    /// Each row: the number of items in the big app's store.
    @Test(arguments: [1, 10, 1_000, 100_000])
    func anExactTitleIsNeverBelowAWeakerMatchOfABiggerStore(_ size: Int) throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.big", "Big"))
        try root.registry.register(app("com.example.tiny", "Tiny"))
        try root.registry.register(app("com.example.viewer", "Viewer", types: ["com.example.viewer.show"]))
        try root.store("com.example.big").index(Self.bigStore(size))
        try root.store("com.example.tiny").index([Self.titled("kiwi", "Kiwi")])
        // A stand-alone activity with the exact title, and one tied to an item.
        try root.store("com.example.viewer").index([Self.titled("v1", "Kiwi tart recipe")])
        let activities = try UserActivityStore(bundleIdentifier: "com.example.viewer", location: root.location)
        var standAlone = UserActivityRecord(activityType: "com.example.viewer.show")
        standAlone.title = "Kiwi"
        try activities.donate(standAlone)
        var tied = UserActivityRecord(activityType: "com.example.viewer.show")
        tied.title = "Kiwi tart recipe (viewed)"
        try activities.donate(tied, contentAttributes: ["relatedUniqueIdentifier": .string("v1")])

        let found = try SystemSearch(registry: root.registry).search("kiwi", resultsPerApp: 5)
        let all = found.groups.flatMap(\.results)
        let exact = all.filter { $0.title == "Kiwi" }
        let weaker = all.filter { $0.title != "Kiwi" }
        #expect(exact.count == 2, "the one-item app's item and the stand-alone activity")
        #expect(!weaker.isEmpty)
        for match in exact {
            for other in weaker { #expect(match.score > other.score, "\(match.reference) \(match.score) ≤ \(other.reference) \(other.score)") }
        }
        #expect(found.groups.last?.app.displayName == "Big", "the apps with an exact title first")
        // The activity tied to an item is that item, ranked as its text says (a title word, not the whole title).
        let viewer = try #require(found.groups.first { $0.app.displayName == "Viewer" })
        #expect(viewer.results.map(\.title) == ["Kiwi", "Kiwi tart recipe"])
        // The same text scores the same in every store: the two exact titles tie on text.
        let scores = try exact.map { result -> Double in
            let store = result.reference.isActivity
                ? try UserActivityStore(bundleIdentifier: result.reference.bundleIdentifier, location: root.location).store
                : try root.store(result.reference.bundleIdentifier)
            var statistics = SearchStatistics()
            for (bundle, index) in [("com.example.big", "default"), ("com.example.tiny", "default"), ("com.example.viewer", "default")] {
                statistics.add(try root.store(bundle, index).searchStatistics("kiwi"))
            }
            statistics.add(try activities.store.searchStatistics("kiwi"))
            return try #require(try store.search("kiwi", limit: 1, statistics: statistics).first).score.text
        }
        #expect(abs(scores[0] - scores[1]) < 1e-9 * scores[0])
        // explain gives the score system search ranked by, on the same scale.
        let search = SystemSearch(registry: root.registry)
        for result in all {
            let why = try search.explain(result.reference, text: "kiwi")
            let total = try #require(why.score?.total, "\(result.reference)")
            #expect(abs(total - result.score) < 1e-6 * result.score, "\(result.reference): explain \(total), search \(result.score)")
        }
    }

    @Test func theBigStoresExactTitleStaysAboveATinyStoresWeakerMatch() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.big", "Big"))
        try root.registry.register(app("com.example.tiny", "Tiny"))
        try root.store("com.example.big").index(Self.bigStore(1_000).dropFirst(3) + [Self.titled("kiwi", "Kiwi")])
        try root.store("com.example.tiny").index([Self.titled("bowl", "Kiwi smoothie bowl")])
        let found = try SystemSearch(registry: root.registry).search("kiwi")
        #expect(found.groups.map(\.app.displayName) == ["Big", "Tiny"])
        #expect(found.groups[0].results[0].explanation.contains("match"))
    }

    @Test func typoMatchesComeAfterEveryExactMatch() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.a", "A"))
        try root.registry.register(app("com.example.b", "B"))
        try root.store("com.example.a").index([Self.titled("typo", "Pyhton tutorial", ["rankingHint": .number(100)])])
        try root.store("com.example.b").index([Self.titled("exact", "A long title that mentions python somewhere")])
        let found = try SystemSearch(registry: root.registry).search("python")
        #expect(found.groups.map(\.app.displayName) == ["B", "A"])
        #expect(found.groups[1].results[0].typos && !found.groups[0].results[0].typos)
    }

    /// Typos are tried when every app together found fewer than
    /// ``SystemSearch/typosBelow`` exact matches: a word typed right that
    /// one app holds does not send every other app through its typo tiers.
    @Test(arguments: [(exact: 2, typosShown: true), (exact: 3, typosShown: false), (exact: 5, typosShown: false)])
    func typosAreTriedOnlyWhenTheAppsFoundFewExactMatches(exact: Int, typosShown: Bool) throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.a", "A"))
        try root.registry.register(app("com.example.b", "B"))
        try root.store("com.example.a").index([Self.titled("typo", "Pyhton tutorial")])
        try root.store("com.example.b").index((0..<exact).map { Self.titled("exact\($0)", "Python notes \($0)") })
        let found = try SystemSearch(registry: root.registry).search("python", resultsPerApp: 10)
        #expect(found.groups.map(\.app.displayName) == (typosShown ? ["B", "A"] : ["B"]))
        #expect(found.groups[0].results.count == exact && !found.groups[0].results.contains(where: \.typos))
        #expect(found.groups.dropFirst().allSatisfy { $0.results.allSatisfy(\.typos) })
        // The app searched alone still tries them.
        #expect(try root.store("com.example.a").search("python", limit: 3).map(\.item.uniqueIdentifier) == ["typo"])
    }

    /// Statistics come from each store's last read, without a transaction
    /// of their own: after a commit, a search kept running scores with
    /// statistics of what it found the matches in, as a new one does.
    @Test func aCommitBetweenSearchesIsScoredOnWhatWasRead() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.a", "A"))
        try root.registry.register(app("com.example.b", "B"))
        try root.store("com.example.a").index([Self.titled("a1", "Kiwi jam")] + Self.bigStore(40))
        try root.store("com.example.b").index([Self.titled("b1", "Kiwi tart")])
        let kept = SystemSearch(registry: root.registry)
        let before = try kept.search("kiwi")
        // Many more kiwis in B: the word is far more common than the kept statistics say.
        try root.store("com.example.b").index((0..<60).map { Self.titled("k\($0)", "Kiwi crate \($0)") })
        let after = try kept.search("kiwi")
        let fresh = try SystemSearch(registry: root.registry).search("kiwi")
        func scores(_ found: SystemSearchResults) -> [String: Double] {
            Dictionary(uniqueKeysWithValues: found.groups.flatMap(\.results).map { ($0.reference.description, $0.score) })
        }
        #expect(!scores(after).isEmpty && scores(after) == scores(fresh))
        #expect(scores(after)["com.example.a/default/a1"] != scores(before)["com.example.a/default/a1"], "the word's IDF fell")
    }

    @Test func anAppShownOftenAndRarelyChosenLosesALittle() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.noisy", "Noisy"))
        try root.registry.register(app("com.example.useful", "Useful"))
        try root.store("com.example.noisy").index([Self.titled("n", "Lemon")] + (0..<30).map { Self.titled("x\($0)", "filler \($0)") })
        try root.store("com.example.useful").index([Self.titled("u", "Lemon")])
        let search = SystemSearch(registry: root.registry)
        #expect(try search.search("lemon").groups.map(\.app.displayName) == ["Noisy", "Useful"], "a tie: by name")
        // Every filler item of the noisy app shown many times, never chosen.
        let noisy = try root.store("com.example.noisy")
        for _ in 0..<10 { try noisy.recordImpressions(itemIdentifiers: (0..<30).map { "x\($0)" }) }
        let found = try search.search("lemon")
        #expect(found.groups.map(\.app.displayName) == ["Useful", "Noisy"])
        let factor = RankingWeights().appPassedOverFactor(engagement: 0, impressions: 300)
        #expect(factor < 1 && factor >= RankingWeights().appPassedOverFloor)
        #expect(abs(found.groups[1].results[0].score / found.groups[0].results[0].score - factor) < 1e-9)
        #expect(found.groups[1].results[0].explanation.contains("app(shown 300"))
        // explain says so too, with the score search ranked by.
        let why = try search.explain(found.groups[1].results[0].reference, text: "lemon")
        #expect(why.summary.contains("× app(shown 300"), "\(why.summary)")
        // (Explain runs a moment later, and impressions decay with time: equal to a millionth.)
        #expect(abs((why.score?.total ?? 0) / found.groups[1].results[0].score - 1) < 1e-6)
        // What system search shows is recorded as impressions.
        try search.recordImpressions(of: found)
        #expect(try root.store("com.example.useful").engagement(ofItem: "u").impressions == 1)
    }

    @Test func anItemThatIsACrawledPageIsShownOnceAsTheAppsResult() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.shop", "Shop", types: ["com.example.shop.view"]))
        let page = URL(string: "https://shop.example.com/pear")!, other = URL(string: "https://shop.example.com/pears-guide")!
        let web = try WebStore(location: root.location)
        try web.save([WebPage(url: page, title: "Williams pear", description: "Fresh pears from the shop", crawledAt: Date()),
                      WebPage(url: other, title: "Pear guide", description: "All about pears", crawledAt: Date())])
        try root.store("com.example.shop").index([Self.titled("p1", "Pear", ["contentURL": .url(page)])])
        let found = try SystemSearch(registry: root.registry).search("pear", webResults: 5)
        #expect(found.groups.flatMap(\.results).map(\.reference.itemIdentifier) == ["p1"])
        #expect(found.web.map(\.url) == [other], "the page the item stands for is not repeated")
        // An activity whose web page is the crawled page, the same way.
        let activities = try UserActivityStore(bundleIdentifier: "com.example.shop", location: root.location)
        var record = UserActivityRecord(activityType: "com.example.shop.view")
        record.title = "Pear guide (viewed)"
        record.webpageURL = other
        try activities.donate(record)
        let again = try SystemSearch(registry: root.registry).search("pear", webResults: 5)
        #expect(again.web.isEmpty)
        let viewed = try #require(again.groups.flatMap(\.results).first { $0.reference.isActivity })
        #expect(viewed.url == other)
    }
}
