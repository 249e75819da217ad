import ArgumentParser
import Foundation
import SpotlightIndex
import SpotlightService

/// `spotlight maintain`: deliver reindex requests to apps' index extensions.
struct Maintain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run apps' index extensions for lost stores and items about to expire.",
        discussion: """
            Run it periodically (a systemd timer, cron): apps that are not running rebuild \
            a lost index and refresh expiring items through their registered index extension.

            Example:
              spotlight maintain
              spotlight maintain --json
            """
    )

    @Flag(help: "Print JSON instead of text.") var json = false

    func run() throws {
        let deliveries = Output.guarded { try IndexMaintenance().deliverPendingRequests() }
        if json { return print(try Output.json(encoding: ["deliveries": deliveries])) }
        if deliveries.isEmpty { return print("nothing to do: no index asks for a reindex, nothing expires within a day") }
        for delivery in deliveries {
            let what = delivery.request.kind == .reindexAll
                ? "reindex \(delivery.request.indexName) (\(delivery.request.reason ?? ""))"
                : "refresh \(delivery.request.identifiers.count) expiring items of \(delivery.request.indexName)"
            let status = delivery.succeeded ? (delivery.request.kind == .reindexAll && !delivery.acknowledged ? "ran, not acknowledged: asked again next time" : "done") : "failed: \(delivery.outcome)"
            print("\(delivery.app.displayName): \(what) — \(status)")
        }
        if deliveries.contains(where: { !$0.succeeded }) { throw ExitCode(1) }
    }
}
