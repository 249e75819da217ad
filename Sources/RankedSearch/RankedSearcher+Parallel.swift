import Foundation
import Synchronization

extension RankedSearcher {
    /// Fewest live documents for a search to split its segments between
    /// two threads (``parallelHalves(_:query:)``): below it, the hand-off
    /// costs about what the second core saves.
    static let parallelDocuments = 400_000

    /// The resolved segments in two halves of about as many live documents
    /// each, when this search runs them on two threads at once: it has two
    /// terms or more, the store holds ``parallelMinimum`` live documents or
    /// more (``parallelDocuments`` unless a test lowers it), in segments
    /// that split so that each half holds a quarter of them at least, the
    /// machine has two cores, and no phrase needs its rows read (`verify`,
    /// the caller's, runs on its thread only).
    ///
    /// One term's search stops early on its lists' bounds and is short at
    /// any size (1M items: ~0.2 ms at p50); handing half of it to another
    /// thread made it ~25% slower. Several common words' search reads most
    /// of their postings: split, multi-word p99 at 1M 2.4 → 1.7 ms.
    ///
    /// A store of 1M items as bulk indexing leaves it (512,000 documents,
    /// then segments of 64,000 and 8,000) splits into the largest segment
    /// and the rest; one merged into a single segment does not split.
    func parallelHalves(_ resolved: [Resolved], query: RankedQuery) -> [[Int]]? {
        guard Parallelism.cores > 1, resolved.count > 1, query.terms.count > 1, query.phrases.isEmpty else { return nil }
        let sizes = resolved.map { segments[$0.index].segment.documentCount - segments[$0.index].deleted.count }
        let total = sizes.reduce(0, +)
        guard total >= parallelMinimum else { return nil }
        // Largest first, each into the half with fewer documents so far.
        var halves: [[Int]] = [[], []], weights = [0, 0]
        for position in resolved.indices.sorted(by: { sizes[$0] > sizes[$1] }) {
            let lighter = weights[0] <= weights[1] ? 0 : 1
            halves[lighter].append(position)
            weights[lighter] += sizes[position]
        }
        guard min(weights[0], weights[1]) * 4 >= total else { return nil }
        return halves.map { $0.sorted() }
    }

    /// Searches each half of the segments on a thread of its own, as
    /// ``search(_:limit:excluding:collection:resolution:verify:)`` searches
    /// them all (the same scales, plan and driving lists), and merges the
    /// two pages. Each half prunes by the higher of the two halves' k-th
    /// scores (``SharedThreshold``): the hits are those of one thread,
    /// score for score and in the same order (`RankedPlanTests`).
    mutating func searchHalves(_ halves: [[Int]], resolved: [Resolved], plan: ReadPlan, lists: [DriverList], scales: Scales,
                               query: RankedQuery, limit: Int, excluding: Set<Int64>) throws -> [RankedHit] {
        let shared = SharedThreshold()
        let base = Box(self)
        let outcomes = Mutex<[Result<([RankedHit], Statistics), any Error>?]>([nil, nil])
        DispatchQueue.concurrentPerform(iterations: halves.count) { half in
            let outcome = Result { () throws -> ([RankedHit], Statistics) in
                var searcher = base.value
                searcher.statistics = Statistics()
                var top = TopHits(limit: limit, shared: shared)
                // Phrases are never split (``parallelHalves(_:query:)``), so no row is verified.
                try searcher.search(resolved, only: Set(halves[half]), plan: plan, lists: lists, scales: scales, query: query,
                                    excluding: excluding, top: &top, verify: { _ in true })
                return (top.sorted, searcher.statistics)
            }
            outcomes.withLock { $0[half] = outcome }
        }
        var hits: [RankedHit] = []
        statistics.threads = halves.count
        for outcome in outcomes.withLock({ $0 }) {
            guard let (found, counted) = try outcome?.get() else { continue }
            hits += found
            statistics.add(counted)
        }
        hits.sort { TopHits.precedes($0.score.total, $0.rowid, $1) }
        return Array(hits.prefix(limit))
    }
}

/// A value handed to the threads of one search, each taking its own copy.
private final class Box<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
