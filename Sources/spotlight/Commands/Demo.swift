import ArgumentParser
import Foundation
import SpotlightIndex
import SpotlightSystem
import SpotlightService

/// `spotlight demo`: the whole flow with the two example apps.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "demo",
        abstract: "Register the example apps, index their content, search across them and open a result.",
        discussion: """
            Registers the Colleagues and GreenGrocer example apps (the `colleagues` and \
            `greengrocer` programs beside this one, written with the Apple API; built first \
            when this one runs from a SwiftPM build folder without them) from the manifests \
            they print, lets each index its content and donate a viewed item, \
            runs system searches as a person types, opens the best "apple" result in its app, \
            hands GreenGrocer a "Search in App" and asks which place to suggest after "Meet me at". Run it again at will: each app replaces \
            what it indexed.

            Example:
              spotlight demo
              OPENSPOTLIGHT_HOME=/tmp/os spotlight demo --json
            """
    )

    @Option(help: "Search this text instead of the built-in queries (repeatable).")
    var query: [String] = []

    @Option(name: .customLong("per-app"), help: "Results per app.")
    var perApp = 3

    @Flag(help: "Print JSON instead of text.")
    var json = false

    struct Report: Encodable {
        var root: String
        var registered: [AppRegistration]
        var indexed: [String]
        var searches: [SystemSearchResults]
        var opened: AppLauncher.Outcome?
        var searchInApp: AppLauncher.Outcome?
        /// What the keyboard offers after "Meet me at": the store page's place.
        var places: PlaceSuggestionList?
    }

    func run() throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let registry = AppRegistry()
        var report = Report(root: StoreLocation.automaticRoot().path, registered: [], indexed: [], searches: [])
        // Each app registers from its own manifest, then runs as its own process: indexes, and the user looks at a few things.
        for (name, commands) in Self.sessions {
            let app = try ExampleAppExecutables.find(name, beside: executable)
            let manifest = try runExample(app, ["manifest"])
            let registration = Output.guarded { try Self.register(manifest: manifest, in: registry) }
            report.registered.append(registration)
            report.indexed.append(try commands.map { try runExample(app, $0).split(separator: "\n").first.map(String.init) ?? "" }
                .joined(separator: "; "))
        }
        let search = SystemSearch(registry: registry)
        for text in query.isEmpty ? Self.queries : query {
            report.searches.append(Output.guarded { try search.search(text, resultsPerApp: perApp) })
        }
        let launcher = AppLauncher(registry: registry)
        if let best = Output.guarded({ try search.search("apple", resultsPerApp: 1) }).groups.first?.results.first {
            report.opened = Output.guarded { try launcher.open(best) }
        }
        if let grocer = report.registered.first(where: \.supportsSearchContinuation) {
            report.searchInApp = Output.guarded { try launcher.searchInApp(grocer.bundleIdentifier, text: "pear") }
        }
        report.places = Output.guarded { try LocationSuggestions(registry: registry).suggestions(context: Self.placeContext) }
        print(json ? try Output.json(encoding: report) : text(report), terminator: json ? "\n" : "")
    }

    /// The example apps' executables and what the demo runs in each: Colleagues
    /// indexes everyone and is looked at twice, GreenGrocer indexes its produce
    /// and store page, and its apple is looked at twice.
    static let sessions: [(executable: String, commands: [[String]])] = [
        ("colleagues", [["settings", "all"], ["view", "e01"], ["view", "e01"]]),
        ("greengrocer", [["index"], ["store"], ["view", "p-apple"], ["view", "p-apple"]]),
    ]

    /// What the demo searches, as a person would type it.
    static let queries = ["ma", "apple", "paris des", "zoe", "山田", "디자이너", "jalapeno", "mulberry street", "swift"]

    /// The text typed before the demo asks for place suggestions.
    static let placeContext = "Meet me at"

    /// Registers an app as its installer would: from the manifest it printed
    /// (`colleagues manifest`), written to a file the registry reads.
    private static func register(manifest: String, in registry: AppRegistry) throws -> AppRegistration {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("openspotlight-demo-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(manifest.utf8).write(to: file)
        return try registry.register(manifestAt: file)
    }

    /// Runs the example app as its own process, as a real app would run.
    private func runExample(_ app: URL, _ command: [String]) throws -> String {
        let process = Process()
        process.executableURL = app
        process.arguments = command
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Output.fail("the \(app.lastPathComponent) example app failed: \(command.joined(separator: " "))")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func text(_ report: Report) -> String {
        var text = "OpenSpotlight demo: stores under \(report.root)\n"
        for (app, indexed) in zip(report.registered, report.indexed) {
            text += "  registered \(app.displayName) (\(app.bundleIdentifier)); ran it: \(indexed)\n"
        }
        for found in report.searches {
            text += "\nsearch \"\(found.query)\"\n"
            if found.groups.isEmpty { text += "  no results\n" }
            for group in found.groups {
                text += "  \(group.app.displayName.terminalSafe)\(group.offersSearchInApp ? "    [Search in App]" : "")\n"
                for result in group.results {
                    text += "    \(result.title.terminalSafe)\(result.description.map { " — \($0.terminalSafe)" } ?? "")\n"
                    text += "      \(result.reference.description.terminalSafe)  score \(result.explanation)\n"
                    for action in result.actions { text += "      · \(action.label.terminalSafe)\n" }
                }
            }
        }
        if let opened = report.opened {
            text += "\nopen the best \"apple\" result → \(opened.output.trimmingCharacters(in: .whitespacesAndNewlines))\n"
        }
        if let searchInApp = report.searchInApp {
            text += "Search in App \"pear\" → \(searchInApp.output.trimmingCharacters(in: .whitespacesAndNewlines))\n"
        }
        for place in report.places?.suggestions ?? [] {
            text += "\"\(Self.placeContext)\" → suggest \(place.name.terminalSafe), \((place.address ?? "").terminalSafe)    \(place.attribution.terminalSafe)\n"
            for action in place.actions { text += "  · \(action.label.terminalSafe): \(action.uri.absoluteString)\n" }
        }
        text += "\nNext: spotlight search TEXT · spotlight open REFERENCE · spotlight suggest places · spotlight apps · spotlight stats\n"
        return text
    }
}
