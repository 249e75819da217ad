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
              spotlight search --near 40.7194,-73.997 --within 2 "fruit"
              spotlight search --near 40.7194,-73.997          # every place within 50 km, nearest first

            With --near, results with coordinates (`latitude`, `longitude`) rank higher the \
            nearer they are (a factor of 2 at the place, 1.5 at 2 km, tending to 1), and \
            --within keeps only those within that many kilometres.
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

    @Option(help: ArgumentHelp("Rank places by their distance from here: latitude,longitude in degrees.", valueName: "lat,lon"))
    var near: String?

    @Option(help: ArgumentHelp("With --near: only results within this many kilometres.", valueName: "km"))
    var within: Double?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Argument(help: "What to search for (with --near it may be left out: every place nearby).")
    var text: String = ""

    func validate() throws {
        guard perApp >= 1 else { throw ValidationError("--per-app must be 1 or more") }
        if let near, GeoPoint(parsing: near) == nil {
            throw ValidationError("--near takes latitude,longitude in decimal degrees (-90…90, -180…180), such as 40.7194,-73.997; got \(near.debugDescription)")
        }
        if let within {
            guard near != nil else { throw ValidationError("--within needs --near") }
            guard within.isFinite, within > 0, within <= 20_100 else { throw ValidationError("--within takes kilometres, more than 0 and at most 20,100") }
        }
        if near == nil && text.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("say what to search for (or give --near to list places nearby)") }
        if app != nil && near != nil { throw ValidationError("--near searches every app; leave out --app") }
    }

    /// The area of --near and --within.
    var area: SearchArea? {
        near.flatMap(GeoPoint.init(parsing:)).map { SearchArea(center: $0, radius: within.map { $0 * 1000 }) }
    }

    func run() async throws {
        if let app { return try searchOneApp(app) }
        let found: SystemSearchResults
        do { found = try await SystemSearch().search(text, resultsPerApp: perApp, publicResults: publicResults, near: area) } catch { Output.fail("\(error)") }
        if json { return print(try Output.json(encoding: found)) }
        for problem in found.problems { FileHandle.standardError.write(Data("spotlight: skipped \(problem)\n".utf8)) }
        if found.groups.isEmpty && found.web.isEmpty && found.publicResults.isEmpty {
            let apps = (try? AppRegistry().apps().count) ?? 0
            let what = text.isEmpty ? "no places" : "no results for \"\(text)\""
            let where_ = area.map { " within \(Self.kilometres($0.radius ?? SearchArea.defaultBrowseRadius)) of \($0.center)" } ?? ""
            print(apps == 0 ? "no apps registered (try: spotlight demo)" : "\(what)\(where_) in \(apps) apps")
            return
        }
        for group in found.groups {
            print(group.app.displayName.terminalSafe + (group.offersSearchInApp && !text.isEmpty ? "    [Search in App: spotlight open --search-in-app \(group.app.bundleIdentifier) \(shellQuoted(text))]" : ""))
            for result in group.results {
                print("  \(result.title.terminalSafe)\(result.description.map { " — \($0.terminalSafe)" } ?? "")")
                print("    \(result.reference.description.terminalSafe)")
                if let distance = result.distance { print("    · \(Self.kilometres(distance)) away") }
                for action in result.actions { print("    · \(action.label.terminalSafe)") }
            }
            if group.hasMoreResults { print("  …") }
        }
        if !found.web.isEmpty { print("Web") }
        for page in found.web {
            print("  \(page.title.terminalSafe)\(page.description.map { " — \($0.terminalSafe)" } ?? "")")
            print("    \(page.url.absoluteString.terminalSafe)")
            if let app = page.app {
                print("    · open in \(app.displayName.terminalSafe) (\(page.appMatch ?? "")): spotlight open --web \(shellQuoted(page.url.absoluteString))")
            } else if let id = page.appStoreID {
                print("    · get the app: App Store id \(id)")
            } else if let app = page.associatedApps.first {
                print("    · opens in \(app.terminalSafe) when it is installed (universal link)")
            }
        }
        if !found.publicResults.isEmpty { print("Public") }
        for result in found.publicResults {
            print("  \(result.title.terminalSafe)\(result.hit.description.map { " — \($0.terminalSafe)" } ?? "")")
            if let url = result.url { print("    \(url.absoluteString.terminalSafe)") }
            if let app = result.app {
                print("    · opens in \(app.displayName.terminalSafe) (\(result.appMatch ?? ""))")
            } else if let publicApp = result.hit.app {
                print("    · the app \(publicApp.terminalSafe) opens it when it is installed")
            }
        }
    }

    /// "350 m", "4.4 km", "120 km".
    static func kilometres(_ meters: Double) -> String {
        if meters < 1000 { return "\(Int(meters.rounded())) m" }
        return meters < 100_000 ? String(format: "%.1f km", meters / 1000) : "\(Int((meters / 1000).rounded())) km"
    }

    private func searchOneApp(_ app: String) throws {
        do {
            try StoreName.validateBundleIdentifier(app)
            try StoreName.validateIndexName(index)
            guard SpotlightStore.exists(bundleIdentifier: app, indexName: index) else {
                Output.fail("no index \"\(index)\" for \(app) under \(StoreLocation.automaticRoot().path); index something first (try: spotlight demo)")
            }
            let store = try SpotlightStore(bundleIdentifier: app, indexName: index)
            Output.noteIfLost(store)
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
              spotlight open --action navigate org.openspotlight.examples.GreenGrocer/.activities/<id>

            --action carries out one of the result's actions (call, email, navigate, open) \
            by handing its tel:, mailto:, geo: or https: URI to xdg-open (or to the command \
            in $OPENSPOTLIGHT_OPEN_COMMAND), and counts a selection of the result.
            """
    )

    @Option(name: .customLong("search-in-app"), help: "The app to hand the text to, instead of a result.")
    var searchInApp: String?

    @Flag(help: "The target is a web page's URL (a web result): open it in the app that handles it.")
    var web = false

    @Option(help: ArgumentHelp("Carry out this action of the result instead of opening it: call, email, navigate or open.", valueName: "kind"))
    var action: String?

    @Option(help: "How long the app may run, in seconds.")
    var timeout: Double = 30

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Argument(help: "The result reference (<bundle id>/<index>/<item id>), or with --search-in-app the text.")
    var target: String

    func validate() throws {
        if let action {
            guard ["call", "email", "navigate", "open", "openurl"].contains(action.lowercased()) else {
                throw ValidationError("--action takes call, email, navigate or open, not \(action.debugDescription)")
            }
            guard searchInApp == nil, !web else { throw ValidationError("--action takes a result reference; leave out --search-in-app and --web") }
        }
    }

    func run() throws {
        let launcher = AppLauncher(timeout: timeout)
        if let action {
            let done = Output.guarded { try launcher.perform(action, of: try ResultReference(parsing: target), runner: ActionRunner(timeout: timeout)) }
            if json { return print(try Output.json(encoding: done)) }
            return print("\(done.label.terminalSafe): handed \(done.uri.absoluteString) to \(done.command.joined(separator: " "))")
        }
        let outcome = Output.guarded {
            if let searchInApp { return try launcher.searchInApp(searchInApp, text: target) }
            if web {
                guard let url = URL(string: target), url.scheme != nil else { throw ValidationError("\(target.debugDescription) is not a URL") }
                return try launcher.openWebPage(url)
            }
            return try launcher.open(reference: target)
        }
        if json { return print(try Output.json(encoding: outcome)) }
        print("opened in \(outcome.app.displayName.terminalSafe) (\(outcome.activity.activityType.terminalSafe))\(outcome.recordedSelection ? "; selection recorded" : "")")
        let said = outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
        if !said.isEmpty { print(said.split(separator: "\n").map { "  \(String($0).terminalSafe)" }.joined(separator: "\n")) }
    }
}
