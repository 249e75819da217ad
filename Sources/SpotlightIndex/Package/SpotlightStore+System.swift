import Foundation

// The engine's plumbing for the system module (SpotlightSystem), at `package`
// access: the same package's modules may use it, apps may not. The system's
// own stores live under names no app can open through the public API: the
// bundle identifier `public.web` (`StoreName.reservedBundleIdentifiers`)
// and index names that start with `.`.

extension StoreName {
    /// The index name of the public web store (`public.web/.pages.sqlite`),
    /// the one store allowed the reserved bundle identifier `public.web`.
    package static let webIndexName = ".pages"
}

extension SpotlightStore {
    /// Opens one of the system's own stores: `indexName` may be a reserved
    /// name (starting with `.`), and the web store's may use `public.web`.
    /// Apps open theirs through the public `init(bundleIdentifier:indexName:location:options:)`.
    package convenience init(bundleIdentifier: String, reservedIndexName indexName: String, location: StoreLocation,
                             options: StoreOptions) throws {
        try self.init(bundleIdentifier: bundleIdentifier, checkedIndexName: indexName, location: location, options: options)
    }

    /// True when something is at the store's file path, a link included
    /// (opening it then says why it is refused); false for an in-memory location.
    package static func fileExists(bundleIdentifier: String, indexName: String, location: StoreLocation) -> Bool {
        guard let file = location.filePath(of: bundleIdentifier, index: indexName) else { return false }
        return StorePath.kind(file) != .missing
    }
}
