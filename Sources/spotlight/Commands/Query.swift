import ArgumentParser
import Foundation
import SpotlightIndex

/// `spotlight query --app ID 'QUERY'`: the query language on one app's indexes.
struct Query: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "query",
        abstract: "Run a Spotlight query string on one app's indexes (as CSSearchQuery does).",
        discussion: """
            Example:
              spotlight query --app org.openspotlight.examples.GreenGrocer 'title == "app*"cd && rankingHint > 50'
              spotlight query --app org.openspotlight.examples.Colleagues --json '** == "*zoe*"cd'

            A query that runs past --time-limit stops with "query too expensive" (exit 1).
            """
    )

    @Option(help: "The app's bundle identifier.") var app: String
    @Option(help: "Only this index (default: every index of the app).") var index: String?
    @Option(help: "Print at most this many items (the count is always complete).") var limit = 100
    @Option(name: .customLong("time-limit"), help: ArgumentHelp("Stop a query running longer than this.", valueName: "seconds"))
    var timeLimit: Double = StoreOptions().queryTimeBudget
    @Flag(help: "Print JSON instead of text.") var json = false
    @Argument(help: "The query string.") var query: String

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more") }
        guard timeLimit.isFinite, timeLimit > 0 else { throw ValidationError("--time-limit must be a number of seconds above 0") }
    }

    func run() throws {
        var found: [(index: String, item: SearchableItem)] = []
        var total = 0
        var options = AppStores.readingOptions
        options.queryTimeBudget = timeLimit
        for store in AppStores.open(app, index: index, options: options) {
            _ = Output.guarded {
                try store.query(query, batchSize: 256) { batch in
                    total += batch.count
                    for item in batch where found.count < limit { found.append((store.indexName, item)) }
                }
            }
        }
        if json {
            let items = found.map { ["index": $0.index, "id": $0.item.uniqueIdentifier, "title": $0.item.displayTitle ?? ""] }
            print(try Output.json(["query": query, "count": total, "items": items]))
            return
        }
        for (index, item) in found { print("\(item.uniqueIdentifier.terminalSafe)\t\((item.displayTitle ?? "").terminalSafe)\t(\(index.terminalSafe))") }
        print("\(total) item\(total == 1 ? "" : "s")\(total > found.count ? " (\(found.count) shown; raise --limit)" : "")")
    }
}
