import ArgumentParser
import Foundation
import SpotlightIndex

/// `spotlight search --app ID TEXT`: search one app's store as a user types.
struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search one app's index the way a user types (the last word is a prefix).",
        discussion: """
            Example:
              spotlight search --app org.openspotlight.examples.GreenGrocer "appl"
              spotlight search --app org.openspotlight.examples.Colleagues --json "zoe"
            """
    )

    @Option(help: "The app's bundle identifier.")
    var app: String

    @Option(help: "The index name within the app.")
    var index: String = "default"

    @Option(help: "At most this many results.")
    var limit: Int = 20

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Argument(help: "What to search for.")
    var text: String

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more") }
    }

    func run() throws {
        do {
            try StoreName.validateBundleIdentifier(app)
            try StoreName.validateIndexName(index)
            guard SpotlightStore.exists(bundleIdentifier: app, indexName: index) else {
                Output.fail("no index \"\(index)\" for \(app) under \(StoreLocation.automaticRoot().path); index something first (try: spotlight demo)")
            }
            let store = try SpotlightStore(bundleIdentifier: app, indexName: index)
            let results = try store.search(text, limit: limit)
            if json {
                print(try Output.json(["query": text, "results": results.map { Output.object($0, app: app) }]))
            } else if results.isEmpty {
                print("no results for \"\(text)\" in \(app) (\(try store.itemCount()) items)")
            } else {
                for result in results { print(Output.line(result)) }
            }
        } catch let error as SpotlightIndexError {
            Output.fail(error.description)
        }
    }
}
