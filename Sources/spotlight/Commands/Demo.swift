import ArgumentParser
import Foundation
import SpotlightIndex

/// `spotlight demo`: index the two example apps and search them.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Index the example apps' content and run a few searches, to see the whole flow.",
        discussion: """
            Indexes the Colleagues and GreenGrocer example apps into their own stores \
            (replacing what an earlier demo put there), records some engagement, and \
            searches both stores as a person types. Run it again at will.

            Example:
              spotlight demo
              OPENSPOTLIGHT_HOME=/tmp/os spotlight demo --json
            """
    )

    @Option(help: "Search this text instead of the built-in queries (repeatable).")
    var query: [String] = []

    @Option(help: "Results per app and query.")
    var limit: Int = 3

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let now = Date()
        let apps = SampleData.apps(now: now)
        var stores: [(SampleData.App, SpotlightStore)] = []
        var indexed: [[String: Any]] = []
        for app in apps {
            let store: SpotlightStore
            do {
                store = try SpotlightStore(bundleIdentifier: app.bundleIdentifier)
                try store.deleteAllItems()
                let report = try store.index(app.items)
                if try store.pendingReindex != nil { try store.acknowledgeReindex() }
                indexed.append(["app": app.displayName, "bundleIdentifier": app.bundleIdentifier, "items": report.accepted,
                                "refused": report.refused.map { ["id": $0.itemIdentifier, "reason": $0.error.message] },
                                "store": store.fileURL?.path ?? ""])
            } catch {
                Output.fail("cannot index \(app.displayName): \(error)")
            }
            stores.append((app, store))
        }
        // A little engagement: the user opened Zoë's card twice and picked the pear once.
        try stores[0].1.recordEngagement(.view, itemIdentifier: "c-zoe")
        try stores[0].1.recordEngagement(.view, itemIdentifier: "c-zoe")
        try stores[1].1.recordEngagement(.selection, itemIdentifier: "p-pear")

        var searches: [[String: Any]] = []
        var text = "OpenSpotlight demo: stores under \(StoreLocation.automaticRoot().path)\n"
        for entry in indexed { text += "  indexed \(entry["items"]!) items for \(entry["app"]!)\n" }
        for query in query.isEmpty ? SampleData.queries : query {
            text += "\nsearch \"\(query)\"\n"
            var results: [[String: Any]] = []
            for (app, store) in stores {
                let found = try store.search(query, limit: limit)
                guard !found.isEmpty else { continue }
                text += "  \(app.displayName)\n"
                for result in found {
                    text += Output.line(result) + "\n"
                    results.append(Output.object(result, app: app.bundleIdentifier))
                }
            }
            if results.isEmpty { text += "  no results\n" }
            searches.append(["query": query, "results": results])
        }
        print(json ? try Output.json(["indexed": indexed, "searches": searches]) : text, terminator: json ? "\n" : "")
    }
}
