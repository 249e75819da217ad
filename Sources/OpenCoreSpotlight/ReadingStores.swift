import Foundation
import SpotlightIndex

/// The stores queries read, opened once per process and kept.
///
/// Opening a store checks its file (`quick_check` reads all of it: a quarter of
/// a second at a million items), so `CSSearchQuery`, `CSUserQuery` and
/// `userEngaged` reuse one handle per file instead of opening the app's stores
/// on every query. Handles are kept by file identity (``StoreCache``): a
/// store that was lost and made anew, or moved aside as damaged, is a new
/// file and is opened afresh. Every query reads in a transaction of its own,
/// so a kept handle sees every write committed before the query started,
/// from this process or another.
enum ReadingStores {
    private static let cache = StoreCache()

    /// The app's store of `indexName`, shared by every query of this process.
    static func store(bundleIdentifier: String, indexName: String, location: StoreLocation) throws -> SpotlightStore {
        try cache.store(bundleIdentifier: bundleIdentifier, indexName: indexName, location: location) {
            try SpotlightStore(bundleIdentifier: bundleIdentifier, indexName: indexName, location: location,
                               options: OpenSpotlightConfiguration.readingOptions)
        }
    }
}
