import Foundation
import Synchronization

/// Which shards failed lately: a search skips their partitions (and says
/// it is partial) until a probe finds them back, a few seconds later.
final class ShardHealth: Sendable {
    /// How long a failed shard is skipped before it is tried again.
    static let retryInterval: TimeInterval = 2

    private let failedAt = Mutex<[String: Date]>([:])

    /// The shards skipped now.
    func down(now: Date = Date()) -> Set<String> {
        failedAt.withLock { failed in
            Set(failed.filter { now.timeIntervalSince($0.value) < Self.retryInterval }.keys)
        }
    }

    func markDown(_ shard: String, now: Date = Date()) {
        failedAt.withLock { $0[shard] = now }
    }

    func markUp(_ shard: String) {
        _ = failedAt.withLock { $0.removeValue(forKey: shard) }
    }
}

/// Impressions and opens waiting to be added to `items`, per (site, key).
struct EngagementCounts: Sendable {
    struct Key: Hashable, Sendable {
        var site: String
        var key: String
    }

    var impressions: [Key: Int] = [:]
    var opens: [Key: Int] = [:]

    var isEmpty: Bool { impressions.isEmpty && opens.isEmpty }
}
