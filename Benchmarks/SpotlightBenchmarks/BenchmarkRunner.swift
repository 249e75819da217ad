import BenchmarkPhases
import Corpora
import Foundation

/// The parent process: for each scale and engine, two `index` children
/// (the speed run, every item in memory first, up to ``preloadLimit``
/// items; the memory run, read as it goes) then a `query` child; then the
/// table on stdout and the JSON file.
struct BenchmarkRunner {
    var options: BenchOptions

    /// The largest scale with a speed run: above it, the items held in
    /// memory at once (~1 KB each in the child, more in Python) would not
    /// fit beside the engine, and the streamed run's figures are reported.
    static let preloadLimit = 1_000_000

    func run() throws {
        let manager = FileManager.default
        let corpusDirectory = options.corpusDirectory.standardizedFileURL
        for name in [DebianCorpus.fileName, QuerySet.fileName] where !manager.isReadableFile(atPath: corpusDirectory.appendingPathComponent(name).path) {
            throw BenchError.failed("cannot read \(corpusDirectory.appendingPathComponent(name).path); pass --corpus-dir or run \(Corpora.buildCommand)")
        }
        let queries = try QuerySet.load(from: corpusDirectory)
        let scriptsDirectory = options.scriptsDirectory.standardizedFileURL
        let engines = try available(options.engines, peer: TantivyPeer(scriptsDirectory: scriptsDirectory))

        let workRoot = (options.workDirectory ?? manager.temporaryDirectory).standardizedFileURL
        let runDirectory = workRoot.appendingPathComponent("spotlight-bench-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
        try manager.createDirectory(at: runDirectory, withIntermediateDirectories: true)
        defer {
            if options.keep {
                log("stores kept in \(runDirectory.path)")
            } else {
                try? manager.removeItem(at: runDirectory)
            }
        }

        let startedAt = ISO8601DateFormatter().string(from: Date())
        var results = BenchmarkResults(
            machine: MachineInfo.current(),
            settings: Settings(rounds: options.rounds, limit: Backends.limit, batchSize: IndexPhase.batchSize,
                               queries: queries.count, corpus: corpusDirectory.path, startedAt: startedAt),
            runs: [])
        let jsonFile = options.jsonFile.standardizedFileURL
        log("spotlight-bench: scales \(options.scales.map(grouped).joined(separator: ", ")); engines \(engines.map(\.rawValue).joined(separator: ", ")); \(results.machine.activeCores) cores; stores in \(runDirectory.path)")

        for scale in options.scales {
            let directory = runDirectory.appendingPathComponent("scale-\(scale)", isDirectory: true)
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            for engine in engines {
                // The speed run (every item in memory first, in a store of
                // its own, removed), then the memory run, whose store the
                // queries read (``IndexMode``).
                var speed: IndexPhaseReport?
                if scale <= Self.preloadLimit {
                    log("== \(engine.rawValue), \(grouped(scale)) items: indexing, every item in memory first (speed)")
                    let speedDirectory = directory.appendingPathComponent("speed-\(engine.rawValue)", isDirectory: true)
                    try manager.createDirectory(at: speedDirectory, withIntermediateDirectories: true)
                    defer { try? manager.removeItem(at: speedDirectory) }
                    speed = try ChildCommand.spawn(
                        ChildCommand.arguments(phase: .index, engine: engine, scale: scale, directory: speedDirectory,
                                               corpusDirectory: corpusDirectory, rounds: options.rounds,
                                               scriptsDirectory: scriptsDirectory, mode: .preloaded),
                        as: IndexPhaseReport.self)
                }
                log("== \(engine.rawValue), \(grouped(scale)) items: indexing, read as it goes (memory)")
                let index = try ChildCommand.spawn(
                    ChildCommand.arguments(phase: .index, engine: engine, scale: scale, directory: directory,
                                           corpusDirectory: corpusDirectory, rounds: options.rounds,
                                           scriptsDirectory: scriptsDirectory, mode: .streamed),
                    as: IndexPhaseReport.self)
                log("== \(engine.rawValue), \(grouped(scale)) items: \(grouped(Int((speed ?? index).itemsPerSecond))) items/s, "
                    + "\(ResultsTable.number(Double(index.storeBytes) / 1_048_576)) MB on disk; querying")
                let query = try ChildCommand.spawn(
                    ChildCommand.arguments(phase: .query, engine: engine, scale: scale, directory: directory,
                                           corpusDirectory: corpusDirectory, rounds: options.rounds,
                                           scriptsDirectory: scriptsDirectory),
                    as: QueryPhaseReport.self)
                results.runs.append(RunResult(index: index, query: query, speed: speed))
                try results.write(to: jsonFile) // after every run, so a failure later keeps what was measured
            }
            if !options.keep { try? manager.removeItem(at: directory) }
        }

        print(ResultsTable.render(results), terminator: "")
        log("results written to \(jsonFile.path)")
    }

    /// The engines asked for, without Tantivy when its venv cannot be made
    /// (offline, no python3): a one-line note, or an error when `--engines`
    /// named it.
    func available(_ engines: [EngineKind], peer: TantivyPeer) throws -> [EngineKind] {
        guard engines.contains(where: \.isTantivy), let reason = peer.unavailableReason() else { return engines }
        if options.enginesGiven { throw BenchError.failed("tantivy cannot run: \(reason)") }
        log("spotlight-bench: tantivy left out: \(reason)")
        return engines.filter { !$0.isTantivy }
    }
}
