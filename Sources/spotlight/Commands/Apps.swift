import ArgumentParser
import Foundation
import SpotlightIndex
import SpotlightSystem
import SpotlightService

/// `spotlight apps`: the apps system search knows.
struct Apps: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "apps",
        abstract: "List, register and unregister the apps system search knows.",
        discussion: """
            Example:
              spotlight apps
              spotlight apps register --manifest /usr/share/recipes/openspotlight.json
              spotlight apps register --bundle-id com.example.recipes --name Recipes \\
                  --activity-type com.example.recipes.view --search-in-app -- /usr/bin/recipes --continue '{activity}'
              spotlight apps unregister com.example.recipes --delete-index
            """,
        subcommands: [List.self, Register.self, Unregister.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the registered apps.",
                                                        discussion: "Example:\n  spotlight apps list --json")
        @Flag(help: "Print JSON instead of text.") var json = false

        func run() throws {
            let (apps, problems) = Output.guarded { try AppRegistry().scan() }
            if json {
                print(try Output.json(encoding: ["apps": apps]))
            } else if apps.isEmpty {
                print("no apps registered (try: spotlight demo, or spotlight apps register --help)")
            } else {
                for app in apps {
                    let extras = [app.supportsSearchContinuation ? "Search in App" : nil,
                                  app.indexExtensionCommand != nil ? "index extension" : nil].compactMap { $0 }
                    print("\(app.displayName.terminalSafe)  \(app.bundleIdentifier)\(extras.isEmpty ? "" : "  (" + extras.joined(separator: ", ") + ")")")
                    print("  launch: \(app.launchCommand.joined(separator: " ").terminalSafe)")
                    if !app.activityTypes.isEmpty { print("  activity types: \(app.activityTypes.joined(separator: ", ").terminalSafe)") }
                }
            }
            for problem in problems { FileHandle.standardError.write(Data("spotlight: skipped \(problem)\n".utf8)) }
        }
    }

    struct Register: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "register",
            abstract: "Register an app, from a manifest or from options (the command goes after --).",
            discussion: """
                In the command, {activity} becomes the activity as JSON and {activity-file} the path \
                of a file holding it; the activity is also in $OPENSPOTLIGHT_ACTIVITY.

                Example:
                  spotlight apps register --manifest recipes.json
                  spotlight apps register --bundle-id com.example.notes --name Notes -- /usr/bin/notes '{activity}'
                """)
        @Option(help: "A JSON manifest describing the app.") var manifest: String?
        @Option(name: .customLong("bundle-id"), help: "The app's bundle identifier (reverse DNS).") var bundleIdentifier: String?
        @Option(help: "The name results are grouped under.") var name: String?
        @Option(help: "An icon path or name.") var icon: String?
        @Option(name: .customLong("activity-type"), help: "An activity type the app continues (repeatable).") var activityTypes: [String] = []
        @Flag(name: .customLong("search-in-app"), help: "The app accepts \"Search in App\" (CoreSpotlightContinuation).") var searchInApp = false
        @Option(name: .customLong("index-extension"), help: "The index extension command, one string split at spaces, with {request}.")
        var indexExtension: String?
        @Flag(help: "Print JSON instead of text.") var json = false
        @Argument(parsing: .postTerminator, help: "The command that launches the app, after --.") var command: [String] = []

        func validate() throws {
            if manifest == nil && (bundleIdentifier == nil || name == nil || command.isEmpty) {
                throw ValidationError("give --manifest FILE, or --bundle-id, --name and the launch command after --")
            }
        }

        func run() throws {
            let registry = AppRegistry()
            let app: AppRegistration = Output.guarded {
                if let manifest { return try registry.register(manifestAt: URL(fileURLWithPath: manifest)) }
                let app = AppRegistration(bundleIdentifier: bundleIdentifier!, displayName: name!, icon: icon, launchCommand: command,
                                          activityTypes: activityTypes, supportsSearchContinuation: searchInApp,
                                          indexExtensionCommand: indexExtension.map { $0.split(separator: " ").map(String.init) })
                try registry.register(app)
                return app
            }
            print(json ? try Output.json(encoding: app) : "registered \(app.displayName.terminalSafe) (\(app.bundleIdentifier))")
        }
    }

    struct Unregister: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unregister",
            abstract: "Forget an app; its index stays unless --delete-index.",
            discussion: "Example:\n  spotlight apps unregister com.example.notes --delete-index")
        @Argument(help: "The app's bundle identifier.") var bundleIdentifier: String
        @Flag(name: .customLong("delete-index"), help: "Also delete the app's indexes and activities.") var deleteIndex = false
        @Flag(help: "Print JSON instead of text.") var json = false

        func run() throws {
            Output.guarded { try AppRegistry().unregister(bundleIdentifier, deletingIndexes: deleteIndex) }
            if json {
                print(try Output.json(encoding: ["unregistered": bundleIdentifier, "deletedIndex": deleteIndex ? "yes" : "no"]))
            } else {
                print("unregistered \(bundleIdentifier)\(deleteIndex ? " and deleted its indexes" : " (its indexes stay)")")
            }
        }
    }
}
