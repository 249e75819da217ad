import ArgumentParser
import ExampleApps
import Foundation
import OpenCoreSpotlight

/// `spotlight example-app NAME COMMAND…`: the demo's example apps (hidden),
/// the same code as the `colleagues` and `greengrocer` executables.
struct ExampleAppCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "example-app",
        abstract: "Run one of the example apps (Colleagues, GreenGrocer), as `swift run colleagues` would.",
        discussion: """
            Example:
              spotlight example-app Colleagues settings all
              spotlight example-app GreenGrocer search pear
            """,
        shouldDisplay: false
    )

    @Argument(help: "Colleagues or GreenGrocer.") var name: String
    @Argument(parsing: .captureForPassthrough, help: "The app's command and its arguments.") var arguments: [String] = []

    func run() throws {
        guard let app = ExampleApps.named(name) else {
            throw ValidationError("no example app named \(name); use Colleagues or GreenGrocer")
        }
        ExampleApps.main(app, arguments: arguments)
    }
}
