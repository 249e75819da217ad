import BenchmarkPhases
import Foundation

/// The readable report: one block per scale, one row per metric, one
/// column per engine, then the engine's figure over each other engine's
/// from the same run (`engine/fts5`, `engine/tantivy`): for latencies
/// p50 over p50 / p99 over p99, otherwise the plain quotient.
enum ResultsTable {
    static func render(_ results: BenchmarkResults) -> String {
        var out = ""
        let scales = results.runs.map(\.scale).reduce(into: [Int]()) { if !$0.contains($1) { $0.append($1) } }
        for scale in scales {
            let runs = results.runs.filter { $0.scale == scale }
            let columns = EngineKind.allCases.compactMap { kind in runs.first { $0.engine == kind } }
            let engine = columns.first { $0.engine == .engine }
            let peers = engine == nil ? [] : columns.filter { $0.engine != .engine }
            var rows: [[String]] = [["metric"] + columns.map(\.engine.rawValue) + peers.map { "engine/\($0.engine.rawValue)" }]

            func row(_ name: String, _ value: (RunResult) -> Double?, format: (Double) -> String, ratio: Bool = true) {
                rows.append([name] + columns.map { value($0).map(format) ?? "n/a" }
                            + peers.map { ratio ? quotient(engine.flatMap(value), value($0)) : "" })
            }

            // Speed from the preloaded run, where there is one (``IndexMode``); the
            // streamed run's beside it, whose clock stops while each batch is read.
            row("indexing items/s", { $0.indexing.itemsPerSecond }, format: { grouped(Int($0.rounded())) })
            if columns.contains(where: { $0.indexing.speedMode == .preloaded }) {
                row("  (read as it goes: items/s)", { $0.indexing.streamedItemsPerSecond }, format: { grouped(Int($0.rounded())) })
            }
            row("indexing seconds", { $0.indexing.seconds }, format: number)
            // CPU per item: the work, whatever the cores; cores: how much of the machine it kept busy.
            row("  indexing CPU µs/item", { run in run.indexing.cpuSeconds.map { $0 * 1e6 / Double(max(run.indexing.items, 1)) } },
                format: number)
            row("  cores busy while indexing", { run in run.indexing.cpuSeconds.map { $0 / max(run.indexing.seconds, 1e-9) } },
                format: { String(format: "%.2f", $0) }, ratio: false)
            row("store size MB", { Double($0.indexing.storeBytes) / 1_048_576 }, format: number)
            row("text index MB", { Double($0.indexing.textIndexBytes) / 1_048_576 }, format: number)
            row("  text index ÷ raw text", { Double($0.indexing.textIndexBytes) / Double(max($0.indexing.rawTextBytes, 1)) },
                format: { String(format: "%.2f×", $0) })
            row("indexing peak RSS MB (streamed)", { $0.indexing.peakRSSMB }, format: number)
            row("  (before indexing MB)", { $0.indexing.corpusRSSMB }, format: number, ratio: false)
            row("query peak RSS MB", { $0.queryPeakRSSMB }, format: number)
            row("open + first query ms", { $0.openAndFirstQueryMs }, format: number)
            for kind in QueryKind.allCases {
                let mine = engine?.latency(kind)
                rows.append(["\(kind.rawValue) p50 / p99 ms"]
                            + columns.map { run in run.latency(kind).map { "\(number($0.p50)) / \(number($0.p99))" } ?? "n/a" }
                            + peers.map { peer in
                                let theirs = peer.latency(kind)
                                return "\(quotient(mine?.p50, theirs?.p50)) / \(quotient(mine?.p99, theirs?.p99))"
                            })
                rows.append(["  \(kind.rawValue) queries with results"]
                            + columns.map { run in run.latency(kind).map { "\($0.nonEmpty)/\($0.count)" } ?? "n/a" }
                            + peers.map { _ in "" })
            }

            out += "\nScale \(grouped(scale)) items (\(results.settings.rounds) timed rounds of \(results.settings.queries) queries, "
                + "top \(results.settings.limit); latency ratios p50 / p99)\n"
            out += layout(rows)
            if let querylang = engine?.querylang {
                out += "\nScale \(grouped(scale)) items, query language (engine only; \(results.settings.rounds) timed rounds, "
                    + "batches of \(QueryLanguagePhase.batchSize); first batch and complete are the same run)\n"
                out += layout(querylangRows(querylang), leftAligned: 2)
            }
        }
        return out
    }

    /// `a ÷ b` to two decimals; n/a when either is missing or b is 0.
    static func quotient(_ a: Double?, _ b: Double?) -> String {
        guard let a, let b, b > 0 else { return "n/a" }
        return String(format: "%.2f", a / b)
    }

    /// One row per query-language workload.
    static func querylangRows(_ report: QueryLangReport) -> [[String]] {
        var rows = [["workload", "query", "queries", "with results", "mean matches",
                     "first batch p50/p95/p99 ms", "first results p50/p95/p99 ms", "complete p50/p95/p99 ms"]]
        for workload in QueryLangWorkload.allCases {
            guard let stats = report.stats(workload) else { continue }
            rows.append([workload.rawValue, stats.query, String(stats.count), "\(stats.nonEmpty)/\(stats.count)",
                         number(stats.meanMatches), percentiles(stats.firstBatch),
                         stats.firstResults.map(percentiles) ?? "n/a", percentiles(stats.complete)])
        }
        return rows
    }

    static func percentiles(_ stats: LatencyStats) -> String {
        "\(number(stats.p50)) / \(number(stats.p95)) / \(number(stats.p99))"
    }

    /// Right-aligned columns after `leftAligned` left-aligned ones.
    static func layout(_ rows: [[String]], leftAligned: Int = 1) -> String {
        let width = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: width)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        var out = ""
        for (number, row) in rows.enumerated() {
            var line = ""
            for (index, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                let separator = index == 0 ? "" : "  "
                line += index < leftAligned ? separator + cell + padding : separator + padding + cell
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
            if number == 0 { out += String(repeating: "-", count: widths.reduce(0, +) + 2 * (width - 1)) + "\n" }
        }
        return out
    }

    /// Three significant figures or so.
    static func number(_ value: Double) -> String { formatted(value) }
}
