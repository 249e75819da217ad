import ArgumentParser
import Foundation
import SpotlightService

/// `spotlight suggest places`: proactive location suggestions.
struct Suggest: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "suggest",
        abstract: "Proactive suggestions from what the user did in apps.",
        subcommands: [Places.self]
    )

    /// `spotlight suggest places [--context TEXT]`.
    struct Places: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "places",
            abstract: "The places the user looked at last in apps, to offer back (Maps, the app switcher, the keyboard).",
            discussion: """
                A place is an app's activity with an address or coordinates (what \
                NSUserActivity.mapItem fills in). The most recently viewed come first; a view \
                counts half as much every 2 days and is not offered after 14. Each suggestion \
                names its app and offers Navigate (a geo: URI) and, with a phone number, Call: \
                carry them out with `spotlight open --action navigate REFERENCE`.

                With --context, places are offered only when the text ends in a phrase asking \
                for one ("meet me at", "directions to", "see you at", …); words typed after it \
                narrow them.

                Example:
                  spotlight suggest places
                  spotlight suggest places --context "Meet me at"
                  spotlight suggest places --context "see you at ray" --json
                """
        )

        @Option(help: "The text being typed; places are offered when it asks for one.")
        var context: String?

        @Option(help: "At most this many places.")
        var limit = 3

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func validate() throws {
            guard (1...50).contains(limit) else { throw ValidationError("--limit must be 1 to 50") }
        }

        func run() throws {
            let list = Output.guarded { try LocationSuggestions().suggestions(context: context, limit: limit) }
            if json { return print(try Output.json(encoding: list)) }
            for problem in list.problems { FileHandle.standardError.write(Data("spotlight: skipped \(problem)\n".utf8)) }
            if list.suggestions.isEmpty {
                print(context == nil ? "no places viewed in the last 14 days" : "no place to suggest for \(context!.debugDescription)")
                return
            }
            for place in list.suggestions {
                print("\(place.name.terminalSafe)\(place.address.map { " — \($0.terminalSafe)" } ?? "")    \(place.attribution.terminalSafe)")
                print("    \(place.reference.description.terminalSafe)")
                for action in place.actions { print("    · \(action.label.terminalSafe): \(action.uri.absoluteString.terminalSafe)") }
            }
        }
    }
}
