import Foundation
import SpotlightIndex
import Synchronization

/// Which stores an app has: its indexes and whether it donated activities.
struct AppLayout: Sendable, Equatable {
    /// The app's index names (``SpotlightStore/indexNames(bundleIdentifier:location:)``).
    var indexNames: [String]
    /// Whether it has a store of donated activities.
    var hasActivities: Bool

    /// Every store searched for the app: its indexes, then its activities.
    var names: [String] { hasActivities ? indexNames + [UserActivityStore.indexName] : indexNames }
}

/// Each app's ``AppLayout``, listed again only when the app's folder changed.
///
/// A search reads every app's layout several times (statistics, results,
/// the app's factor, the answer's sources); listing the folder each time
/// cost more than a small store's search. A store made or removed changes
/// the folder's modification time, so a layout is kept with the folder's
/// `lstat` and reused while that is the same. A folder changed in the last
/// second is listed every time: its time may not have moved on yet for a
/// change made within the same clock tick.
///
/// ```swift
/// let layouts = AppLayouts()
/// let stores = layouts.layout(of: "com.example.notes", location: .automatic).names   // ["default", "activities…"]
/// ```
final class AppLayouts: Sendable {
    private struct Stamp: Equatable {
        var device: UInt64, inode: UInt64
        var modified: timespec, changed: timespec

        static func == (a: Stamp, b: Stamp) -> Bool {
            a.device == b.device && a.inode == b.inode
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }
    }

    private let kept = Mutex<[String: (stamp: Stamp, layout: AppLayout)]>([:])

    /// How long after its last change a folder's listing is trusted to stay.
    static let settled: TimeInterval = 1

    func layout(of bundleIdentifier: String, location: StoreLocation) -> AppLayout {
        func list() -> AppLayout {
            AppLayout(indexNames: SpotlightStore.indexNames(bundleIdentifier: bundleIdentifier, location: location),
                      hasActivities: UserActivityStore.exists(bundleIdentifier: bundleIdentifier, location: location))
        }
        guard let folder = location.folderPath(of: bundleIdentifier) else { return list() }
        var status = stat()
        guard lstat(folder, &status) == 0 else { return list() }
        let stamp = Stamp(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), modified: status.st_mtim, changed: status.st_ctim)
        let key = folder
        if let known = kept.withLock({ $0[key] }), known.stamp == stamp { return known.layout }
        let layout = list()
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let age = Double(now.tv_sec - max(stamp.modified.tv_sec, stamp.changed.tv_sec))
        if age > Self.settled { kept.withLock { $0[key] = (stamp, layout) } }
        return layout
    }
}
