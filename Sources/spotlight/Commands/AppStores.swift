import Foundation
import SpotlightIndex

/// The `--app ID [--index NAME]` stores of a command.
enum AppStores {
    /// How a command that only reads opens stores (`search`, `query`,
    /// `show`, `explain`). No full quick_check of every store on every
    /// command: maintenance (`spotlight maintain`, the service's schedule)
    /// checks them (with it, `search --app` over a 1M-item store read the
    /// whole 1 GB file first: 0.5 s from the page cache, 9 s cold). Nor a
    /// background recheck of every segment, which would only compete with
    /// the command and be cut short. One connection a store, not a pool's
    /// two: the process reads each store once; and no dense tails kept
    /// for searches that will not come. Commands that write
    /// (`delete`, `import`) keep the check.
    static var readingOptions: StoreOptions {
        var options = StoreOptions()
        options.checksIntegrityOnOpen = false
        options.rankedBackgroundChecks = false
        options.rankedKeepsDenseTails = false
        options.opensOneConnection = true
        return options
    }

    /// The app's existing stores: one index, or all of them when `index` is nil.
    static func open(_ app: String, index: String?, options: StoreOptions = StoreOptions()) -> [SpotlightStore] {
        Output.guarded {
            try StoreName.validateBundleIdentifier(app)
            if let index { try StoreName.validateIndexName(index) }
            let names = index.map { [$0] } ?? SpotlightStore.indexNames(bundleIdentifier: app)
            let existing = names.filter { SpotlightStore.exists(bundleIdentifier: app, indexName: $0) }
            if existing.isEmpty {
                Output.fail("\(app) has no \(index.map { "index \"\($0)\"" } ?? "index") under \(StoreLocation.automaticRoot().path); index something first (try: spotlight demo)")
            }
            let stores = try existing.map { try SpotlightStore(bundleIdentifier: app, indexName: $0, options: options) }
            stores.forEach(Output.noteIfLost)
            return stores
        }
    }
}
