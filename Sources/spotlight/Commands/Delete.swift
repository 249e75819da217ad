import ArgumentParser
import Foundation
import SpotlightIndex

/// `spotlight delete`: remove items by identifier, domain, or all.
struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete",
        abstract: "Delete items of one app: by identifier, by domain (and its sub-domains), or all.",
        discussion: """
            Example:
              spotlight delete --app com.example.notes --item n1 --item n2
              spotlight delete --app com.example.notes --domain archive
              spotlight delete --app com.example.notes --index drafts --all
            """
    )

    @Option(help: "The app's bundle identifier.") var app: String
    @Option(help: "Only this index (default: every index of the app).") var index: String?
    @Option(help: "An item identifier (repeatable).") var item: [String] = []
    @Option(help: "A domain: its items and its sub-domains' (repeatable).") var domain: [String] = []
    @Flag(help: "Delete every item.") var all = false
    @Flag(help: "Print JSON instead of text.") var json = false

    func validate() throws {
        let ways = (item.isEmpty ? 0 : 1) + (domain.isEmpty ? 0 : 1) + (all ? 1 : 0)
        guard ways == 1 else { throw ValidationError("give --item, --domain or --all (one of them)") }
    }

    func run() throws {
        var deleted = 0
        var indexes: [String] = []
        for store in AppStores.open(app, index: index) {
            Output.guarded {
                let before = try store.itemCount()
                if all { try store.deleteAllItems() } else if !domain.isEmpty { try store.deleteItems(inDomains: domain) } else {
                    try store.deleteItems(withIdentifiers: item)
                }
                deleted += before - (try store.itemCount())
            }
            indexes.append(store.indexName)
        }
        if json {
            print(try Output.json(["app": app, "indexes": indexes, "deleted": deleted]))
        } else {
            print("deleted \(deleted) item\(deleted == 1 ? "" : "s") of \(app) (\(indexes.joined(separator: ", ")))")
        }
    }
}
