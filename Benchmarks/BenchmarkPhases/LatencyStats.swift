/// Latency percentiles of one query kind, in milliseconds.
package struct LatencyStats: Codable, Sendable {
    package var p50: Double
    package var p95: Double
    package var p99: Double
    package var mean: Double
    package var max: Double
    /// Queries of this kind in the query set.
    package var count: Int
    /// Timed runs (`count` × rounds).
    package var samples: Int
    /// Queries that returned at least one result (warm-up round).
    package var nonEmpty: Int
    /// Mean number of results per query (at most 20).
    package var meanResults: Double

    package init(samples milliseconds: [Double], count: Int, nonEmpty: Int, meanResults: Double) {
        let sorted = milliseconds.sorted()
        p50 = Self.percentile(50, of: sorted)
        p95 = Self.percentile(95, of: sorted)
        p99 = Self.percentile(99, of: sorted)
        mean = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
        max = sorted.last ?? 0
        self.count = count
        samples = sorted.count
        self.nonEmpty = nonEmpty
        self.meanResults = meanResults
    }

    /// Nearest-rank percentile of sorted values.
    package static func percentile(_ p: Double, of sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }
}
