import ArgumentParser
import Foundation
import PublicIndexProtocol
import SpotlightIndex
import SpotlightService

/// `spotlight search TEXT`: system-wide search, grouped by app.
struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search every registered app the way a user types (the last word is a prefix).",
        discussion: """
            Results are grouped by app, the app with the best result first, a few per app. \
            Each result prints the reference `spotlight open` takes. With --app, one app's \
            index is searched, registered or not. When this device opted in to the public \
            index (spotlight public device --enable URL), its results come last, under "Public".

            Example:
              spotlight search "appl"
              spotlight search --per-app 5 --json "zoe"
              spotlight search --app org.openspotlight.examples.GreenGrocer "pear"
            """
    )

    @Option(name: .customLong("per-app"), help: "At most this many results per app.")
    var perApp = 3

    @Option(name: .customLong("public"), help: "At most this many results of the public index (when opted in; 0: none).")
    var publicResults = 3

    @Option(help: "Search only this app's index (bundle identifier).")
    var app: String?

    @Option(help: "With --app: the index name.")
    var index = "default"

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Argument(help: "What to search for.")
    var text: String

    func validate() throws {
        guard perApp >= 1 else { throw ValidationError("--per-app must be 1 or more") }
    }

    func run() async throws {
        if let app { return try searchOneApp(app) }
        let found: SystemSearchResults
        do { found = try await SystemSearch().search(text, resultsPerApp: perApp, publicResults: publicResults) } catch { Output.fail("\(error)") }
        if json { return print(try Output.json(encoding: found)) }
        for problem in found.problems { FileHandle.standardError.write(Data("spotlight: skipped \(problem)\n".utf8)) }
        if found.groups.isEmpty && found.web.isEmpty && found.publicResults.isEmpty {
            let apps = (try? AppRegistry().apps().count) ?? 0
            print(apps == 0 ? "no apps registered (try: spotlight demo)" : "no results for \"\(text)\" in \(apps) apps")
            return
        }
        for group in found.groups {
            print(group.app.displayName + (group.offersSearchInApp ? "    [Search in App: spotlight open --search-in-app \(group.app.bundleIdentifier) \(shellQuoted(text))]" : ""))
            for result in group.results {
                print("  \(result.title)\(result.description.map { " — \($0)" } ?? "")")
                print("    \(result.reference)")
                for action in result.actions { print("    · \(action.label)") }
            }
            if group.hasMoreResults { print("  …") }
        }
        if !found.web.isEmpty { print("Web") }
        for page in found.web {
            print("  \(page.title)\(page.description.map { " — \($0)" } ?? "")")
            print("    \(page.url.absoluteString)")
            if let app = page.app {
                print("    · open in \(app.displayName) (\(page.appMatch ?? "")): spotlight open --web \(shellQuoted(page.url.absoluteString))")
            } else if let id = page.appStoreID {
                print("    · get the app: App Store id \(id)")
            } else if let app = page.associatedApps.first {
                print("    · opens in \(app) when it is installed (universal link)")
            }
        }
        if !found.publicResults.isEmpty { print("Public") }
        for result in found.publicResults {
            print("  \(result.title)\(result.hit.description.map { " — \($0)" } ?? "")")
            if let url = result.url { print("    \(url.absoluteString)") }
            if let app = result.app {
                print("    · opens in \(app.displayName) (\(result.appMatch ?? ""))")
            } else if let publicApp = result.hit.app {
                print("    · the app \(publicApp) opens it when it is installed")
            }
        }
    }

    private func searchOneApp(_ app: String) throws {
        do {
            try StoreName.validateBundleIdentifier(app)
            try StoreName.validateIndexName(index)
            guard SpotlightStore.exists(bundleIdentifier: app, indexName: index) else {
                Output.fail("no index \"\(index)\" for \(app) under \(StoreLocation.automaticRoot().path); index something first (try: spotlight demo)")
            }
            let store = try SpotlightStore(bundleIdentifier: app, indexName: index)
            let results = try store.search(text, limit: perApp)
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

/// Quotes a word for a POSIX shell when it needs it.
func shellQuoted(_ text: String) -> String {
    let safe = text.allSatisfy { $0.isLetter || $0.isNumber || "-_./:@".contains($0) }
    return safe && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// `spotlight open RESULT`: continue into the app.
struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open a result in its app (as tapping it), or \"Search in App\".",
        discussion: """
            The app's registered command is launched with the activity; when it exits with \
            status 0 the selection counts as engagement for the result.

            Example:
              spotlight open org.openspotlight.examples.GreenGrocer/default/p-pear
              spotlight open --search-in-app org.openspotlight.examples.GreenGrocer "pears"
              spotlight open --web https://shop.example.com/pear
            """
    )

    @Option(name: .customLong("search-in-app"), help: "The app to hand the text to, instead of a result.")
    var searchInApp: String?

    @Flag(help: "The target is a web page's URL (a web result): open it in the app that handles it.")
    var web = false

    @Option(help: "How long the app may run, in seconds.")
    var timeout: Double = 30

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Argument(help: "The result reference (<bundle id>/<index>/<item id>), or with --search-in-app the text.")
    var target: String

    func run() throws {
        let launcher = AppLauncher(timeout: timeout)
        let outcome = Output.guarded {
            if let searchInApp { return try launcher.searchInApp(searchInApp, text: target) }
            if web {
                guard let url = URL(string: target), url.scheme != nil else { throw ValidationError("\(target.debugDescription) is not a URL") }
                return try launcher.openWebPage(url)
            }
            return try launcher.open(reference: target)
        }
        if json { return print(try Output.json(encoding: outcome)) }
        print("opened in \(outcome.app.displayName) (\(outcome.activity.activityType))\(outcome.recordedSelection ? "; selection recorded" : "")")
        let said = outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
        if !said.isEmpty { print(said.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n")) }
    }
}
