import BenchmarkPhases
import Foundation

/// Everything the benchmark measured, as written to `--json FILE`:
/// `{"machine": {...}, "settings": {...}, "runs": [{"scale", "engine": "engine" | "fts5" | "tantivy" | "tantivy-commits", "indexing": {...},
///   "queries": {"word": {"p50", "p95", "p99", "count", ...} | null, ...},
///   "queryPeakRSSMB", "openAndFirstQueryMs", ...,
///   "querylang": {"titleWord" | "infix" | "sectionAndSize" | "dateRange":
///                 {"query", "count", "meanMatches", "firstBatch": {...}, "complete": {...}, ...}}}]}`.
/// Latencies are milliseconds, memory MB (MiB), sizes bytes; a kind an
/// engine cannot answer is null; `querylang` is on engine runs only.
struct BenchmarkResults: Codable, Sendable {
    var machine: MachineInfo
    var settings: Settings
    var runs: [RunResult]
}

struct Settings: Codable, Sendable {
    var rounds: Int
    var limit: Int
    var batchSize: Int
    var queries: Int
    var corpus: String
    var startedAt: String
}

struct RunResult: Codable, Sendable {
    var scale: Int
    var engine: EngineKind
    var indexing: IndexingFigures
    var queries: [String: LatencyStats?]
    var queryPeakRSSMB: Double
    var openAndFirstQueryMs: Double
    var openMs: Double
    /// The query-language workloads (engine runs only).
    var querylang: QueryLangReport?

    /// `index`: the streamed run (memory, sizes; its store is the one
    /// queried); `speed`: the preloaded run, whose time and CPU are the
    /// speed figures when there is one (``IndexMode``).
    init(index: IndexPhaseReport, query: QueryPhaseReport, speed: IndexPhaseReport? = nil) {
        scale = index.scale
        engine = index.engine
        let timed = speed ?? index
        indexing = IndexingFigures(itemsPerSecond: timed.itemsPerSecond, seconds: timed.seconds, cpuSeconds: timed.cpuSeconds,
                                   speedMode: timed.mode ?? .streamed, streamedItemsPerSecond: index.itemsPerSecond,
                                   peakRSSMB: index.peakRSSMB, storeBytes: index.storeBytes,
                                   textIndexBytes: index.textIndexBytes, rawTextBytes: index.rawTextBytes,
                                   corpusRSSMB: index.corpusRSSMB, items: index.items, refused: index.refused + (speed?.refused ?? 0))
        queries = query.queries
        queryPeakRSSMB = query.peakRSSMB
        openAndFirstQueryMs = query.openAndFirstQueryMs
        openMs = query.openMs
        querylang = query.querylang
    }

    /// The stats of a kind; nil when the engine had no query for it or the set had none.
    func latency(_ kind: QueryKind) -> LatencyStats? {
        queries[kind.rawValue] ?? nil
    }
}

struct IndexingFigures: Codable, Sendable {
    var itemsPerSecond: Double
    var seconds: Double
    /// CPU time of every thread within `seconds` (``IndexPhaseReport/cpuSeconds``).
    var cpuSeconds: Double?
    /// How the run that measured `itemsPerSecond`, `seconds` and
    /// `cpuSeconds` read its items: preloaded up to 1M items, else
    /// streamed (nil in older files: streamed).
    var speedMode: IndexMode?
    /// Items/s of the streamed run, whose clock stops while each batch is
    /// read (nil in older files).
    var streamedItemsPerSecond: Double?
    /// Of the streamed run: the corpus is one batch of it.
    var peakRSSMB: Double
    var storeBytes: Int64
    var textIndexBytes: Int64
    var rawTextBytes: Int64
    /// RSS of the index child with the corpus read, before indexing (part of `peakRSSMB`).
    var corpusRSSMB: Double
    var items: Int
    var refused: Int
}

struct MachineInfo: Codable, Sendable {
    var cores: Int
    var activeCores: Int
    var memoryGB: Double
    var cpu: String
    var os: String

    static func current() -> MachineInfo {
        let info = ProcessInfo.processInfo
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("model name") })
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        return MachineInfo(cores: info.processorCount, activeCores: info.activeProcessorCount,
                           memoryGB: (Double(info.physicalMemory) / 1_073_741_824 * 10).rounded() / 10,
                           cpu: model, os: info.operatingSystemVersionString)
    }
}

extension BenchmarkResults {
    func write(to file: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: file, options: .atomic)
    }
}
