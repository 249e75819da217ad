package import Foundation

/// The `query` child: opens the store an `index` child built and runs the
/// query set: one warm-up round, then `rounds` timed rounds. The engine's
/// child then runs the query-language workloads (``QueryLanguagePhase``),
/// after its peak RSS was taken.
package enum QueryPhase {
    package static func run(engine: EngineKind, scale: Int, directory: URL, corpusDirectory: URL, rounds: Int) throws -> QueryPhaseReport {
        let tag = "[\(engine.rawValue) \(grouped(scale))]"
        let queries = try QuerySet.load(from: corpusDirectory)

        var stopwatch = Stopwatch()
        let searcher = try Backends.searcher(engine, directory: directory, scale: scale)
        let openMs = stopwatch.elapsedMilliseconds
        guard let first = queries.first(where: { searcher.supports($0.kind) }) else {
            throw BenchError.failed("\(engine.rawValue) supports none of the queries")
        }
        _ = try searcher.search(first)
        let openAndFirstQueryMs = stopwatch.elapsedMilliseconds
        let answered = selected(queries, supports: searcher.supports)
        log("\(tag) store opened and first query answered in \(String(format: "%.1f", openAndFirstQueryMs)) ms; warm-up over \(answered.count) queries")

        var nonEmpty: [QueryKind: Int] = [:]
        var results: [QueryKind: Int] = [:]
        for query in answered {
            let ids = try searcher.search(query)
            if !ids.isEmpty { nonEmpty[query.kind, default: 0] += 1 }
            results[query.kind, default: 0] += ids.count
        }

        var samples: [QueryKind: [Double]] = [:]
        var slowest: [BenchQuery: Double] = [:]
        for round in 1...rounds {
            log("\(tag) timed round \(round)/\(rounds)")
            for query in answered {
                stopwatch.restart()
                let ids = try searcher.search(query)
                let milliseconds = stopwatch.elapsedMilliseconds
                withExtendedLifetime(ids) {}
                samples[query.kind, default: []].append(milliseconds)
                slowest[query] = max(slowest[query] ?? 0, milliseconds)
            }
        }
        logSlowest(slowest, tag: tag)
        let stats = self.stats(of: queries, answered: answered, supports: searcher.supports,
                               samples: samples, nonEmpty: nonEmpty, results: results)
        let peakRSSMB = ResourceUsage.peakRSSMB()
        ResourceUsage.logLargestMappings(tag: tag)
        // `SPOTLIGHT_BENCH_PAUSE=seconds` waits here, so that another shell can read /proc/PID/smaps.
        if let pause = ProcessInfo.processInfo.environment["SPOTLIGHT_BENCH_PAUSE"].flatMap({ Double($0) }) { Thread.sleep(forTimeInterval: pause) }

        var querylang: QueryLangReport?
        if let engineSearcher = searcher as? EngineSearcher {
            querylang = try QueryLanguagePhase.run(store: engineSearcher.store, queries: queries, rounds: rounds, tag: tag)
        }
        return QueryPhaseReport(engine: engine, scale: scale, openMs: openMs, openAndFirstQueryMs: openAndFirstQueryMs,
                                peakRSSMB: peakRSSMB, queries: stats, querylang: querylang)
    }

    /// The queries to time: those the engine supports, and with
    /// `SPOTLIGHT_BENCH_KINDS=word,multi` only those kinds, with
    /// `SPOTLIGHT_BENCH_QUERY=text` only that query (for profiling).
    package static func selected(_ queries: [BenchQuery], supports: (QueryKind) -> Bool) -> [BenchQuery] {
        let environment = ProcessInfo.processInfo.environment
        let kinds = environment["SPOTLIGHT_BENCH_KINDS"].map { Set($0.split(separator: ",").compactMap { QueryKind(rawValue: String($0)) }) }
        let only = environment["SPOTLIGHT_BENCH_QUERY"]
        return queries.filter { supports($0.kind) && kinds?.contains($0.kind) != false && only.map($0.text.elementsEqual) != false }
    }

    /// Each kind of the set's latencies (null for a kind the engine has no
    /// query for), from the timed samples: each kind's queries in order,
    /// round after round. With `SPOTLIGHT_BENCH_BEST_OF=1` each query's
    /// fastest round only: on a shared machine, what the code costs rather
    /// than who else ran.
    package static func stats(of queries: [BenchQuery], answered: [BenchQuery], supports: (QueryKind) -> Bool,
                      samples: [QueryKind: [Double]], nonEmpty: [QueryKind: Int],
                      results: [QueryKind: Int]) -> [String: LatencyStats?] {
        var samples = samples
        if ProcessInfo.processInfo.environment["SPOTLIGHT_BENCH_BEST_OF"] != nil {
            for kind in Array(samples.keys) {
                let count = answered.count(where: { $0.kind == kind })
                let all = samples[kind] ?? []
                samples[kind] = (0..<count).map { position in
                    stride(from: position, to: all.count, by: count).map { all[$0] }.min() ?? 0
                }
            }
        }
        var stats: [String: LatencyStats?] = [:]
        for kind in QueryKind.allCases {
            let count = queries.count(where: { $0.kind == kind })
            guard count > 0 else { continue }
            if supports(kind) {
                stats[kind.rawValue] = LatencyStats(samples: samples[kind] ?? [], count: count,
                                                    nonEmpty: nonEmpty[kind] ?? 0,
                                                    meanResults: Double(results[kind] ?? 0) / Double(count))
            } else {
                stats[kind.rawValue] = .some(nil)
            }
        }
        return stats
    }

    /// With `SPOTLIGHT_BENCH_SLOWEST=N` in the environment, logs the N
    /// slowest queries of each kind (their worst round): where p99 comes from.
    package static func logSlowest(_ worst: [BenchQuery: Double], tag: String) {
        guard let count = ProcessInfo.processInfo.environment["SPOTLIGHT_BENCH_SLOWEST"].flatMap({ Int($0) }), count > 0 else { return }
        for kind in QueryKind.allCases {
            let top = worst.filter { $0.key.kind == kind }.sorted { $0.value > $1.value }.prefix(count)
            guard !top.isEmpty else { continue }
            let list = top.map { "\($0.key.text) " + String(format: "%.2f", $0.value) }.joined(separator: ", ")
            log("\(tag) slowest \(kind.rawValue) (ms): \(list)")
        }
    }
}
