import Foundation
import SpotlightIndex

/// The `--app ID [--index NAME]` stores of a command.
enum AppStores {
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
