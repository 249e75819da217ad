import ArgumentParser
import Foundation
import SpotlightIndex
import SpotlightSystem
import SpotlightService

/// `spotlight stats`: per app, what its indexes hold.
struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats",
        abstract: "Per app: items, domains, size on disk, items expiring within a day, donated activities.",
        discussion: """
            Example:
              spotlight stats
              spotlight stats --app org.openspotlight.examples.GreenGrocer --json
            """
    )

    @Option(help: "Only this app (registered or not).") var app: String?
    @Flag(help: "Print JSON instead of text.") var json = false

    struct IndexFigures: Encodable {
        var index: String
        var items: Int
        var domains: Int
        var bytes: Int64
        var expiringWithinADay: Int
        var pendingReindex: String?
        /// The ranked index that answers search: segments, documents, bytes.
        var rankedIndex: RankedIndexStatistics
    }

    struct AppFigures: Encodable {
        var bundleIdentifier: String
        var displayName: String?
        var indexes: [IndexFigures]
        var activities: Int
    }

    func run() throws {
        let registered = Output.guarded { try AppRegistry().apps() }
        let bundles = app.map { [$0] } ?? registered.map(\.bundleIdentifier)
        var figures: [AppFigures] = []
        for bundle in bundles {
            let stores = app == nil && SpotlightStore.indexNames(bundleIdentifier: bundle).isEmpty ? [] : AppStores.open(bundle, index: nil)
            let indexes = stores.map { store in
                Output.guarded {
                    IndexFigures(index: store.indexName, items: try store.itemCount(),
                                 domains: Set(try store.allItems().compactMap(\.item.domainIdentifier)).count,
                                 bytes: store.fileSize(), expiringWithinADay: try store.itemsExpiring(within: 86_400).count,
                                 pendingReindex: try store.pendingReindex?.rawValue,
                                 rankedIndex: try store.rankedIndexStatistics())
                }
            }
            let activities = UserActivityStore.exists(bundleIdentifier: bundle)
                ? Output.guarded { try UserActivityStore(bundleIdentifier: bundle).activityCount() } : 0
            figures.append(AppFigures(bundleIdentifier: bundle, displayName: registered.first { $0.bundleIdentifier == bundle }?.displayName,
                                      indexes: indexes, activities: activities))
        }
        if json { return print(try Output.json(encoding: ["apps": figures])) }
        if figures.isEmpty { return print("no apps registered (try: spotlight demo)") }
        for app in figures {
            print("\((app.displayName ?? app.bundleIdentifier).terminalSafe)  \(app.bundleIdentifier)")
            for index in app.indexes {
                let size = ByteCountFormatter.string(fromByteCount: index.bytes, countStyle: .file)
                print("  \(index.index.terminalSafe): \(index.items) items, \(index.domains) domains, \(size), \(index.expiringWithinADay) expiring within a day"
                      + (index.pendingReindex.map { ", needs a reindex (\($0))" } ?? ""))
                let ranked = index.rankedIndex
                print("    ranked index: \(ranked.segments) segment\(ranked.segments == 1 ? "" : "s"), \(ranked.documents) documents"
                      + (ranked.deletedDocuments > 0 ? " (\(ranked.deletedDocuments) replaced or deleted, until merged)" : "")
                      + ", \(ByteCountFormatter.string(fromByteCount: ranked.bytes, countStyle: .file))")
            }
            if app.indexes.isEmpty { print("  no index yet") }
            print("  \(app.activities) donated activit\(app.activities == 1 ? "y" : "ies")")
        }
    }
}
