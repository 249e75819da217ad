import ArgumentParser
import Foundation
import SpotlightIndex

/// `spotlight explain --app ID ITEM 'TEXT'`: why an item ranks where it does.
struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "explain",
        abstract: "Explain an item's rank for what a user types, or why it does not match.",
        discussion: """
            Example:
              spotlight explain --app org.openspotlight.examples.GreenGrocer p-pear "pe"
              spotlight explain --app org.openspotlight.examples.Colleagues --json e01 "zoe paris"
            """
    )

    @Option(help: "The app's bundle identifier.") var app: String
    @Option(help: "The index name within the app.") var index = "default"
    @Flag(help: "Print JSON instead of text.") var json = false
    @Argument(help: "The item's unique identifier.") var item: String
    @Argument(help: "What the user types.") var text: String

    func run() throws {
        guard let store = AppStores.open(app, index: index, options: AppStores.readingOptions).first else { return }
        let why = Output.guarded { try store.explain(itemIdentifier: item, text: text) }
        if json {
            var object: [String: Any] = ["app": app, "index": index, "id": item, "text": text, "matches": why.matches,
                                         "matchCount": why.matchCount, "summary": why.summary,
                                         "terms": why.terms.map { ["term": $0.text, "foundIn": $0.foundIn, "idf": $0.idf] }]
            if let rank = why.rank { object["rank"] = rank }
            if let score = why.score {
                object["score"] = ["total": score.total, "text": score.text, "matchQuality": score.matchQuality,
                                   "rankingHint": score.rankingHint, "hintFactor": score.hintFactor,
                                   "engagement": score.engagement, "engagementFactor": score.engagementFactor,
                                   "recencyFactor": score.recencyFactor, "metadataFactor": score.metadataFactor,
                                   "impressions": score.impressions, "passedOverFactor": score.passedOverFactor,
                                   "typos": score.typos] as [String: Any]
            }
            print(try Output.json(object))
            return
        }
        print(why.summary.terminalSafe)
        for term in why.terms {
            print("  \(term.text.terminalSafe): " + (term.foundIn.isEmpty ? "not in the item" : "in " + term.foundIn.joined(separator: ", "))
                  + String(format: " (IDF %.4g)", term.idf))
        }
    }
}
