import ArgumentParser
import Foundation
import SpotlightIndex
import SpotlightSystem
import SpotlightService

/// `spotlight maintain`: deliver reindex requests to apps' index extensions.
struct Maintain: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "maintain",
        abstract: "Run apps' index extensions for lost stores and items about to expire.",
        discussion: """
            Checks every store (SQLite's quick_check, which searches skip), runs apps' \
            index extensions (apps that are not running rebuild a lost or damaged index \
            and refresh expiring items), then merges each store's index segments into \
            one (searches read one segment) and gives back the free pages of stores that \
            are mostly empty space. `spotlight serve` does this on a schedule.

            Example:
              spotlight maintain
              spotlight maintain --json
            """
    )

    @Flag(help: "Print JSON instead of text.") var json = false

    func run() throws {
        let maintenance = IndexMaintenance()
        let checks = Output.guarded { try maintenance.verifyStores() }
        let deliveries = Output.guarded { try maintenance.deliverPendingRequests() }
        // After the extensions: a store they indexed again is left as one segment too.
        let merged = Output.guarded { try maintenance.mergeStores() }
        let compacted = Output.guarded { try maintenance.compactStores() }
        if json {
            struct Report: Encodable {
                var damaged: [IndexMaintenance.StoreCheck]
                var merged: [IndexMaintenance.StoreMerge]
                var compacted: [IndexMaintenance.StoreCompaction]
                var deliveries: [IndexMaintenance.Delivery]
            }
            return print(try Output.json(encoding: Report(damaged: checks, merged: merged, compacted: compacted, deliveries: deliveries)))
        }
        for check in checks {
            print("\(check.bundleIdentifier)/\(check.indexName): " + (check.movedAside.map { "damaged; moved aside to \($0), a reindex is requested" } ?? "cannot be opened: \(check.error ?? "")"))
        }
        for done in merged {
            print("\(done.bundleIdentifier)/\(done.indexName): \(done.segmentsMerged) index segments merged into one")
        }
        for done in compacted {
            let saved = ByteCountFormatter.string(fromByteCount: done.bytesSaved, countStyle: .file)
            print("\(done.bundleIdentifier)/\(done.indexName): \(saved) of free pages given back")
        }
        if deliveries.isEmpty {
            // After stores were reported, "nothing to do" would read as if none had been.
            let done = checks.isEmpty && merged.isEmpty && compacted.isEmpty ? "nothing to do" : "no index extension to run"
            return print("\(done): no index asks for a reindex, nothing expires within a day")
        }
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
