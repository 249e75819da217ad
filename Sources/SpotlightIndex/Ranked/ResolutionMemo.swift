import RankedSearch
import Synchronization

/// A store's last few resolutions of a query's terms in its segments
/// (``/RankedSearch/RankedSearcher/Resolution``), by the terms and the
/// stamp of the snapshot they were resolved in.
///
/// A system search resolves each keystroke's terms in every store twice:
/// once for the statistics over all stores
/// (``SpotlightStore/recentSearchStatistics(terms:)``), once for the
/// matches (``SpotlightStore/systemSearchPart(_:limit:rows:statistics:typos:)``),
/// nearly always in the same snapshot. A stamp names the segments and
/// their deletions exactly (``RankedSnapshotStamp``), so an answer kept
/// under it holds for any read that sees that stamp.
///
/// ```swift
/// let resolution = try memo.resolution(of: terms, stamp: stamp) { try searcher.resolution(of: RankedQuery(terms)) }
/// ```
final class ResolutionMemo: Sendable {
    struct Key: Hashable {
        var terms: [TextTokenizer.QueryTerm]
        var stamp: RankedSnapshotStamp
    }

    /// Enough for a few people typing into the store at once; first in, first out.
    static let capacity = 8
    private let kept = Mutex<[(key: Key, resolution: RankedSearcher.Resolution)]>([])

    /// The kept resolution of `terms` in the snapshot `stamp` names, or `make`'s, kept.
    func resolution(of terms: [TextTokenizer.QueryTerm], stamp: RankedSnapshotStamp,
                    _ make: () throws -> RankedSearcher.Resolution) rethrows -> RankedSearcher.Resolution {
        let key = Key(terms: terms, stamp: stamp)
        if let found = kept.withLock({ $0.first { $0.key == key }?.resolution }) { return found }
        let made = try make()
        kept.withLock { kept in
            if kept.count >= Self.capacity { kept.removeFirst() }
            kept.append((key, made))
        }
        return made
    }

    /// How many resolutions are kept now (for tests).
    var count: Int { kept.withLock { $0.count } }
}
