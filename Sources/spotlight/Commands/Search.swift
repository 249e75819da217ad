import ArgumentParser
import Foundation
import PublicIndexProtocol
import SpotlightIndex
import SpotlightSystem
import SpotlightService
import SpotlightServer

/// `spotlight search TEXT`: system-wide search, grouped by app.
struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search",
        abstract: "Search every registered app the way a user types (the last word is a prefix unless a space follows it).",
        discussion: """
            Results are grouped by app, the app with the best result first, a few per app. \
            Each result prints the reference `spotlight open` takes. With --app, one app's \
            index is searched, registered or not. When this device opted in to the public \
            index (spotlight public device --enable URL), its results come last, under "Public".

            Example:
              spotlight search "appl"
              spotlight search mulberry street
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

    @Argument(help: ArgumentHelp("What to search for; several words need no quotes (with --near it may be left out: every place nearby).", valueName: "text"))
    var words: [String] = []

    /// What the user typed: the words as one string, as a search box would hold them.
    var text: String { words.joined(separator: " ") }

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

    @Flag(name: .customLong("no-service"), help: "Search the stores directly even when `spotlight serve` is running.")
    var noService = false

    func run() async throws {
        if let app { return try searchOneApp(app) }
        let found: API.SearchResponse, local: SystemSearch?
        do {
            (found, local) = try await Self.systemSearch(text, perApp: perApp, publicResults: publicResults, near: area, useService: !noService)
        } catch {
            Output.fail("\(error)")
        }
        if json {
            print(try Output.json(encoding: found))
            Output.finishReading(keeping: local)
        }
        // What a person is shown counts as impressions (--json output is for programs, which record their own).
        do { try Self.recordImpressions(of: found, local: local) } catch {
            FileHandle.standardError.write(Data("spotlight: impressions not recorded: \(error)\n".utf8))
        }
        for problem in found.problems { FileHandle.standardError.write(Data("spotlight: skipped \(problem)\n".utf8)) }
        if found.groups.isEmpty && found.web.isEmpty && found.publicResults.isEmpty {
            let apps = (try? AppRegistry().apps().count) ?? 0
            let what = text.isEmpty ? "no places" : "no results for \"\(text)\""
            let areaText = area.map { " within \(Self.kilometres($0.radius ?? SearchArea.defaultBrowseRadius)) of \($0.center)" } ?? ""
            print(apps == 0 ? "no apps registered (try: spotlight demo)" : "\(what)\(areaText) in \(apps) apps")
            return
        }
        for group in found.groups {
            print(group.app.displayName.terminalSafe + (group.offersSearchInApp && !text.isEmpty ? "    [Search in App: spotlight open --search-in-app \(group.app.bundleIdentifier) \(shellQuoted(text))]" : ""))
            for result in group.results {
                print("  \(result.title.terminalSafe)\(result.description.map { " — \($0.terminalSafe)" } ?? "")")
                var details: [String] = []
                if let rating = result.rating { details.append(String(repeating: "★", count: Int(rating.rounded())) + String(repeating: "☆", count: 5 - Int(rating.rounded()))) }
                if let price = result.price { details.append(String(format: "%.2f", price)) }
                if let address = result.address, !Self.says(result.description, address) { details.append(address.terminalSafe) }
                if !details.isEmpty { print("    \(details.joined(separator: "  "))") }
                print("    \(result.reference.terminalSafe)")
                if let distance = result.distance { print("    · \(Self.kilometres(distance)) away") }
                for action in result.actions { print("    · \(action.label.terminalSafe)") }
            }
            if group.hasMoreResults { print("  …") }
        }
        if !found.web.isEmpty { print("Web") }
        for page in found.web {
            print("  \(page.title.terminalSafe)\(page.description.map { " — \($0.terminalSafe)" } ?? "")")
            print("    \(page.url.terminalSafe)")
            if let app = page.appName {
                print("    · open in \(app.terminalSafe) (\(page.appMatch ?? "")): spotlight open --web \(shellQuoted(page.url))")
            } else if let id = page.appStoreID {
                print("    · get the app: App Store id \(id)")
            } else if let app = page.associatedApps.first {
                print("    · opens in \(app.terminalSafe) when it is installed (universal link)")
            }
        }
        if !found.publicResults.isEmpty { print("Public") }
        for result in found.publicResults {
            print("  \(result.title.terminalSafe)\(result.description.map { " — \($0.terminalSafe)" } ?? "")")
            if let url = result.url { print("    \(url.terminalSafe)") }
            if let appName = result.appName {
                print("    · opens in \(appName.terminalSafe) (\(result.appMatch ?? ""))")
            } else if let publicApp = result.publicApp {
                print("    · the app \(publicApp.terminalSafe) opens it when it is installed")
            }
        }
    }

    /// System search through the running service when there is one for the same
    /// stores (it keeps them open: no store is opened or checked per keystroke),
    /// else in this process. The public index, when the device opted in, is
    /// asked from this process (the service does not ask it).
    static func systemSearch(_ text: String, perApp: Int, publicResults: Int, near area: SearchArea?,
                             useService: Bool) async throws -> (API.SearchResponse, SystemSearch?) {
        let registry = AppRegistry(location: .directory(StoreLocation.automaticRoot()))  // the environment read once
        let root = registry.location.rootDirectory?.path ?? ""
        let wantsPublic = publicResults > 0 && PublicIndexSettings.load(location: registry.location).isEnabled
        if useService, !wantsPublic, let paths = try? ServicePaths(create: false), FileManager.default.fileExists(atPath: paths.socket.path),
           let answer = try? ServiceClient(paths: paths, timeout: 2).search(text, resultsPerApp: perApp, near: area), answer.root == root {
            return (answer, nil)
        }
        let clock = ContinuousClock()
        let start = clock.now
        let search = SystemSearch(registry: registry, options: AppStores.readingOptions)
        let found = try await search.search(text, resultsPerApp: perApp, publicResults: publicResults, near: area)
        let elapsed = clock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
        return (API.SearchResponse(found, root: root, tookMilliseconds: (milliseconds * 1e3).rounded() / 1e3), search)
    }

    /// Records the printed results as impressions: in this process, or through the service that answered.
    static func recordImpressions(of found: API.SearchResponse, local: SystemSearch?) throws {
        let references = found.groups.flatMap(\.results).map(\.reference)
        guard !references.isEmpty else { return }
        if let local { _ = try local.recordImpressions(try references.map(ResultReference.init(parsing:))); return }
        let body = try JSONEncoder().encode(API.ImpressionsRequest(references: references))
        _ = try ServiceClient(paths: try ServicePaths(create: false), timeout: 2).request("POST", "/v1/impressions", json: body)
            .decode(API.ImpressionsResponse.self)
    }

    /// Whether a description already gives the address (its first part, the street).
    static func says(_ description: String?, _ address: String) -> Bool {
        guard let description, let street = address.split(separator: ",").first else { return false }
        return description.localizedCaseInsensitiveContains(street.trimmingCharacters(in: .whitespaces))
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
            let store = try SpotlightStore(bundleIdentifier: app, indexName: index, options: AppStores.readingOptions)
            Output.noteIfLost(store)
            let results = try store.search(text, limit: perApp)
            if json {
                print(try Output.json(["query": text, "results": results.map { Output.object($0, app: app) }]))
            } else if results.isEmpty {
                print("no results for \"\(text)\" in \(app) (\(try store.itemCount()) items)")
            } else {
                for result in results { print(Output.line(result)) }
                try store.recordImpressions(itemIdentifiers: results.map(\.item.uniqueIdentifier))
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
    static let configuration = CommandConfiguration(commandName: "open",
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
