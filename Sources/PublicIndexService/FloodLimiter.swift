public import Foundation
import Synchronization

/// Per-token budgets against floods: a bucket of `capacity` units per key,
/// refilled at `refillPerSecond`. Keys are keyed hashes of tokens held in
/// memory only; buckets that are full again are forgotten.
///
/// ```swift
/// let limiter = FloodLimiter(capacity: 600, refillPerSecond: 10)
/// if let wait = limiter.take(5, for: key) { /* 429, Retry-After: wait */ }
/// ```
public final class FloodLimiter: Sendable {
    struct Bucket {
        var level: Double
        var updated: Date
    }

    public let capacity: Double
    public let refillPerSecond: Double
    private let buckets = Mutex<[Data: Bucket]>([:])

    public init(capacity: Int, refillPerSecond: Double) {
        self.capacity = Double(capacity)
        self.refillPerSecond = refillPerSecond
    }

    /// Takes `units` from the key's bucket. Returns nil when allowed, else
    /// the seconds until that many units will be there (nothing is taken).
    public func take(_ units: Int, for key: Data, now: Date = Date()) -> Double? {
        buckets.withLock { buckets in
            if buckets.count > 200_000 { forgetFull(&buckets, now: now) }
            var bucket = buckets[key] ?? Bucket(level: capacity, updated: now)
            bucket.level = min(capacity, bucket.level + now.timeIntervalSince(bucket.updated) * refillPerSecond)
            bucket.updated = now
            let wanted = Double(units)
            guard bucket.level >= wanted else {
                buckets[key] = bucket
                return wanted > capacity ? .infinity : (wanted - bucket.level) / refillPerSecond
            }
            bucket.level -= wanted
            buckets[key] = bucket
            return nil
        }
    }

    private func forgetFull(_ buckets: inout [Data: Bucket], now: Date) {
        buckets = buckets.filter { $0.value.level + now.timeIntervalSince($0.value.updated) * refillPerSecond < capacity }
    }
}
