import ArgumentParser
import Foundation
import SpotlightIndex

/// `spotlight show --app ID ITEM`: every attribute of one item, like `mdls`.
struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show",
        abstract: "Print every attribute of one item, like mdls.",
        discussion: """
            Example:
              spotlight show --app org.openspotlight.examples.GreenGrocer p-pear
              spotlight show --app org.openspotlight.examples.Colleagues --json c-zoe
            """
    )

    @Option(help: "The app's bundle identifier.") var app: String
    @Option(help: "Only this index (default: the first index holding the item).") var index: String?
    @Flag(help: "Print JSON instead of text.") var json = false
    @Argument(help: "The item's unique identifier.") var item: String

    func run() throws {
        for store in AppStores.open(app, index: index, options: AppStores.readingOptions) {
            guard let stored = Output.guarded({ try store.item(withIdentifier: item) }) else { continue }
            let engagement = Output.guarded { try store.engagement(ofItem: item) }
            var attributes = stored.item.attributes
            if let type = stored.item.contentType {
                attributes["contentType"] = .string(type)
                attributes["contentTypeTree"] = .strings(stored.item.contentTypeTree)
            }
            if let domain = stored.item.domainIdentifier { attributes["domainIdentifier"] = .string(domain) }
            if json {
                var object: [String: Any] = ["app": app, "index": store.indexName, "id": item,
                                             "indexedAt": ISO8601DateFormatter().string(from: stored.indexedAt),
                                             "expiresAt": ISO8601DateFormatter().string(from: stored.expiresAt),
                                             "views": engagement.views, "selections": engagement.selections]
                object["attributes"] = attributes.mapValues { Output.text($0) }
                print(try Output.json(object))
                return
            }
            let width = attributes.keys.map(\.count).max() ?? 0
            print("\(app)/\(store.indexName.terminalSafe)/\(item.terminalSafe)")
            for name in attributes.keys.sorted() {
                print("  \(name.terminalSafe.padding(toLength: width, withPad: " ", startingAt: 0)) = \(Output.text(attributes[name]!))")
            }
            print("  indexed \(ISO8601DateFormatter().string(from: stored.indexedAt)), expires \(ISO8601DateFormatter().string(from: stored.expiresAt))")
            print("  engagement: \(engagement.views) views, \(engagement.selections) selections")
            return
        }
        Output.fail("\(app) has no item \(item.debugDescription)\(index.map { " in index \($0)" } ?? ""); `spotlight query --app \(app) 'title == \"*\"'` lists them")
    }
}
