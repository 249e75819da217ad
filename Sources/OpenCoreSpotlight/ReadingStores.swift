import Foundation
import SpotlightIndex

/// The stores queries read, opened once per process and kept.
///
/// Opening a store checks its file (`quick_check` reads all of it: a quarter of
/// a second at a million items), so `CSSearchQuery`, `CSUserQuery` and
/// `userEngaged` reuse one handle per file instead of opening the app's stores
/// on every query. A handle is keyed by the file's identity (device and inode):
/// a store that was lost and made anew, or moved aside as damaged, is a new file
/// and is opened afresh; the old handle keeps the unlinked file alive, so its
/// inode cannot be reused while it is cached.
enum ReadingStores {
    private static let cache = StoreCache()

    /// The app's store of `indexName`, shared by every query of this process.
    static func store(bundleIdentifier: String, indexName: String, location: StoreLocation) throws -> SpotlightStore {
        guard let root = location.rootDirectory else {
            return try SpotlightStore(bundleIdentifier: bundleIdentifier, indexName: indexName, location: location)
        }
        let file = root.appendingPathComponent(bundleIdentifier, isDirectory: true).appendingPathComponent(indexName + ".sqlite")
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
              let inode = attributes[.systemFileNumber], let device = attributes[.systemNumber] else {
            return try SpotlightStore(bundleIdentifier: bundleIdentifier, indexName: indexName, location: location)
        }
        return try cache.store("\(file.path)#\(device):\(inode)") {
            try SpotlightStore(bundleIdentifier: bundleIdentifier, indexName: indexName, location: location)
        }
    }
}
