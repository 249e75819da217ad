import Foundation
import SpotlightIndex
import Testing
import TestSupport

/// Runs the built `spotlight` binary (or another program built beside it,
/// ``program``) with its stores in a fresh directory.
struct CLI {
    let home: URL
    /// The program run: `spotlight`, or an example app built beside it.
    var program = CLI.executable
    /// The directory `home` is, when this CLI made its own (``init()``).
    private var scratch: ScratchDirectory?

    init() throws {
        let scratch = try ScratchDirectory("cli")
        self.scratch = scratch
        home = scratch.url
    }

    func cleanUp() { scratch?.cleanUp() }

    static var executable: URL { BuiltExecutable.url(named: "spotlight") }

    typealias Result = ChildProcess.Result

    @discardableResult
    func run(_ arguments: String...) throws -> Result { try run(arguments) }
}

let grocer = "org.openspotlight.examples.GreenGrocer"
let colleagues = "org.openspotlight.examples.Colleagues"

@Suite(.serialized) struct CLITests {
    @Test func theDemoRegistersIndexesSearchesAndOpens() throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let demo = try cli.run("demo")
        #expect(demo.status == 0, "\(demo.error)")
        #expect(demo.output.contains("Zoë Martin"))
        #expect(demo.output.contains("open the best \"apple\" result → GreenGrocer: showing Apple (p-apple)"), "\(demo.output)")
        #expect(demo.output.contains("Search in App \"pear\" → GreenGrocer: searching for \"pear\" in the app: 1 found"))

        let apps = try cli.run("apps", "--json").json()["apps"] as? [[String: Any]]
        #expect(apps?.compactMap { $0["displayName"] as? String } == ["Colleagues", "GreenGrocer"])

        // Grouped system search: the app of the best result first, each result with its reference.
        let found = try cli.run("search", "--json", "apple").json()
        let groups = try #require(found["groups"] as? [[String: Any]])
        let names = groups.compactMap { ($0["app"] as? [String: Any])?["displayName"] as? String }
        #expect(names == ["GreenGrocer", "Colleagues"])
        let firstResults = try #require(groups.first?["results"] as? [[String: Any]])
        #expect(firstResults.compactMap { $0["reference"] as? String }.first == "\(grocer)/default/p-apple")
        #expect(groups.first?["offersSearchInApp"] as? Bool == true)
        let people = try #require(groups.last?["results"] as? [[String: Any]])
        let actions = try #require(people.first?["actions"] as? [[String: Any]])
        #expect(actions.compactMap { $0["kind"] as? String } == ["call", "email"])

        // Opening a result hands the app the item and records a selection.
        let opened = try cli.run("open", "\(colleagues)/default/e03")
        #expect(opened.status == 0 && opened.output.contains("Colleagues: showing Marta Kowalczyk — Marketing lead, Marketing"), "\(opened.output)\(opened.error)")
        let shown = try cli.run("show", "--app", colleagues, "--json", "e03").json()
        #expect(shown["selections"] as? Int == 1)
        let inApp = try cli.run("open", "--search-in-app", grocer, "apple")
        #expect(inApp.output.contains("GreenGrocer: searching for \"apple\" in the app: 2 found"))

        // The donated activity is the item it names: views counted there, no second result.
        let apple = try cli.run("show", "--app", grocer, "--json", "p-apple").json()
        #expect(apple["views"] as? Int == 2)
        let all = try cli.run("search", "--json", "--per-app", "10", "apple").json()["groups"] as? [[String: Any]] ?? []
        let titled = all.flatMap { ($0["results"] as? [[String: Any]]) ?? [] }.filter { $0["title"] as? String == "Apple" }
        #expect(titled.compactMap { $0["reference"] as? String } == ["\(grocer)/default/p-apple"], "the activity is not a second result")
    }

    @Test func failuresExitNonZeroWithAMessage() throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        _ = try cli.run("demo")
        let table: [([String], String)] = [
            (["open", "\(grocer)/default/nope"], "not stored"),
            (["open", "com.example.unknown/default/x"], "not registered"),
            (["open", "--search-in-app", colleagues, "zoe"], "does not accept search continuation"),
            (["open", "just-text"], "not a result reference"),
            (["search", "--app", "../../etc", "x"], "invalid bundle identifier"),
            (["query", "--app", "../evil", "title == x"], "invalid bundle identifier"),
            (["query", "--app", grocer, "title == (("], "invalid query"),
            (["show", "--app", grocer, "missing-item"], "has no item"),
            (["apps", "register", "--bundle-id", "a/../../b", "--name", "X", "--", "/bin/true"], "invalid bundle identifier"),
            (["apps", "unregister", "com.example.never"], "not registered"),
            (["delete", "--app", grocer], "give --item, --domain or --all"),
        ]
        for (arguments, message) in table {
            let result = try cli.run(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.error.contains(message), "\(arguments): \(result.error)")
        }
    }

    @Test func queryShowDeleteStatsAndApps() throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        _ = try cli.run("demo")
        let query = try cli.run("query", "--app", grocer, "--json", #"title == "*an*"cd && rankingHint > 20"#).json()
        #expect(query["count"] as? Int == 2)
        #expect((query["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["p-mango", "p-banana"])
        let deleted = try cli.run("delete", "--app", grocer, "--json", "--item", "p-kiwi", "--item", "p-pear").json()
        #expect(deleted["deleted"] as? Int == 2)
        let stats = try cli.run("stats", "--json", "--app", grocer).json()
        let indexes = ((stats["apps"] as? [[String: Any]])?.first?["indexes"] as? [[String: Any]]) ?? []
        #expect(indexes.first?["items"] as? Int == 8)
        let ranked = indexes.first?["rankedIndex"] as? [String: Any]
        #expect((ranked?["documents"] as? Int ?? 0) - (ranked?["deletedDocuments"] as? Int ?? 0) == 8, "\(ranked ?? [:])")
        #expect((stats["apps"] as? [[String: Any]])?.first?["activities"] as? Int == 2, "the store page and the viewed apple")

        let registered = try cli.run("apps", "register", "--bundle-id", "com.example.notes", "--name", "Notes",
                                     "--activity-type", "com.example.notes.view", "--", "/bin/echo", "{activity}")
        #expect(registered.status == 0, "\(registered.error)")
        #expect(try cli.run("apps").output.contains("Notes  com.example.notes"))
        #expect(try cli.run("apps", "unregister", "com.example.notes").status == 0)
        #expect(try cli.run("apps", "unregister", grocer, "--delete-index").status == 0)
        #expect(try cli.run("search", "--json", "apple").output.contains(grocer) == false)
    }
}

extension CLITests {
    @Test func aLostIndexIsRebuiltByTheAppsIndexExtension() throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        _ = try cli.run("demo")
        let file = cli.home.appendingPathComponent(grocer).appendingPathComponent("default.sqlite")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        let maintained = try cli.run("maintain", "--json").json()
        let deliveries = try #require(maintained["deliveries"] as? [[String: Any]])
        #expect((maintained["compacted"] as? [Any])?.isEmpty == true, "the demo's stores are small")
        #expect(maintained["merged"] is [Any], "stores whose segments became one, by the same shape")
        #expect(deliveries.count == 1)
        #expect((deliveries.first?["request"] as? [String: Any])?["reason"] as? String == "storeMissing")
        #expect(deliveries.first?["acknowledged"] as? Bool == true && deliveries.first?["succeeded"] as? Bool == true)
        #expect(try cli.run("search", "pear").output.contains("\(grocer)/default/p-pear"))
        // Acknowledged: asked once. (The search's impressions re-ranked items, so there may be segments to merge.)
        let again = try cli.run("maintain").output
        #expect(again.contains("no index asks for a reindex") && !again.contains("reindex default"), "\(again)")
    }

    /// `search --app` answers from one app's index, opened as a system
    /// search opens stores (one connection, no whole-file check), and the
    /// results it prints are recorded as impressions through it.
    @Test func searchInOneAppRecordsWhatItShows() throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        _ = try cli.run("demo")
        let found = try cli.run("search", "--app", grocer, "--json", "pear").json()
        #expect((found["results"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["p-pear"], "\(found)")
        let store = try SpotlightStore(bundleIdentifier: grocer, indexName: "default", location: .directory(cli.home))
        let before = try store.engagementTotals().impressions
        #expect(try cli.run("search", "--app", grocer, "pear").output.localizedCaseInsensitiveContains("pear"))
        #expect(try store.engagementTotals().impressions > before, "the printed result counts as shown")
    }

    /// After giving back a store's free pages, maintenance with no extension
    /// to run says so, not "nothing to do".
    @Test func maintenanceSaysWhatItDidWhenNoExtensionRuns() throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        _ = try cli.run("demo")
        let store = try SpotlightStore(bundleIdentifier: grocer, indexName: "default", location: .directory(cli.home))
        // Bytes drawn at random (a fixed seed), not text: nothing to tokenize, and compression cannot
        // shrink them under the 4 MB of free pages maintenance passes over.
        var seed: UInt64 = 7
        func bytes() -> Data {
            Data((0..<3_000).map { _ -> UInt8 in
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: seed >> 33)
            })
        }
        let ids = (0..<2_000).map { "big\($0)" }
        try store.index(ids.map { SearchableItem(uniqueIdentifier: $0, attributes: ["title": .string("big"), "thumbnailData": .data(bytes())]) })
        try store.deleteItems(withIdentifiers: ids)
        try store.finishMerging()
        let output = try cli.run("maintain").output
        #expect(output.contains("\(grocer)/default: ") && output.contains("of free pages given back"), "\(output)")
        #expect(output.contains("no index extension to run") && !output.contains("nothing to do"), "\(output)")
    }
}

extension CLITests {
    @Test func filesAreIndexedByTheAppThatImportsTheirType() throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        _ = try cli.run("demo")
        let list = cli.home.appendingPathComponent("groceries.txt")
        try Data("Saturday market\n2 pears\nbananas, ripe\n".utf8).write(to: list)
        let indexed = try cli.run("index-file", list.path)
        #expect(indexed.status == 0 && indexed.output.contains("indexed by GreenGrocer as public.plain-text"), "\(indexed.output)\(indexed.error)")
        let found = try cli.run("search", "--json", "saturday").json()
        let results = ((found["groups"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
        #expect(results.compactMap { $0["reference"] as? String } == ["\(grocer)/files/\(list.standardizedFileURL.path)"])
        #expect(results.first?["description"] as? String == "Shopping list: 2 lines, 2 of our products")
        let photo = cli.home.appendingPathComponent("photo.jpg")
        try Data([0xFF, 0xD8]).write(to: photo)
        let failures: [(String, String)] = [
            (photo.path, "no registered app imports public.jpeg"),
            (cli.home.appendingPathComponent("x.unknownext").path, "is not a file"),
            (cli.home.path, "is not a file"),
        ]
        for (path, message) in failures {
            let result = try cli.run("index-file", path)
            #expect(result.status == 1 && result.error.contains(message), "\(path): \(result.error)")
        }
    }
}

extension CLI {
    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Result {
        var environment = ProcessInfo.processInfo.environment
        environment.merge(extra) { $1 }
        environment["OPENSPOTLIGHT_HOME"] = home.path
        return try ChildProcess.run(program, arguments, environment: environment)
    }
}

extension ChildProcess.Result {
    func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "not a JSON object: \(output)")
    }
}
