import BenchmarkPhases
import Corpora
import Foundation
import GRDB
import SpotlightIndex
import Synchronization

/// `spotlight-bench quality`: how often each engine puts the package a
/// query is about in its top results, by kind of query (``QualitySets``):
/// success@1, success@3 and MRR@10, for the engine, plain SQLite FTS5
/// (bm25, every word, the last as a prefix) and Tantivy (through
/// `Benchmarks/tantivy/tantivy.sh`, which makes its own virtual
/// environment with tantivy from PyPI), in one run over the whole corpus.
struct QualityBenchmark {
    static let usage = """
        usage: spotlight-bench quality [--engines engine,fts5,tantivy] [--corpus-dir DIR]
                                       [--scripts-dir Benchmarks/tantivy] [--work-dir DIR] [--json FILE] [--misses FILE]
                                       [--queries prefix=500,typo=1000,summary=1000,history=100]

          --engines     which engines to measure (default: all three)
          --queries     queries per kind (history: trials, two queries each)
          --json        also write every figure as JSON
          --misses      write each query whose target is not in an engine's top 3 to this file
        """

    var engines: Set<String> = ["engine", "fts5", "tantivy"]
    var corpusDirectory = Corpora.directory()
    var scriptsDirectory = URL(fileURLWithPath: "Benchmarks/tantivy", isDirectory: true)
    var workDirectory: URL?
    var jsonFile: URL?
    /// Where to list each engine's misses (no target in the top 3) with its top 3.
    var missesFile: URL?
    var counts: [QualityKind: Int] = [.prefix: 500, .typo: 1_000, .summary: 1_000, .history: 100]

    static let limit = 10

    static func parse(_ arguments: [String]) throws -> QualityBenchmark {
        var options = QualityBenchmark()
        var remaining = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = remaining.popFirst(), !next.hasPrefix("--") else { throw BenchError.usage("\(flag) needs a value") }
            return next
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--engines":
                options.engines = Set(try value(argument).split(separator: ",").map(String.init))
                guard options.engines.isSubset(of: ["engine", "fts5", "tantivy"]), !options.engines.isEmpty else {
                    throw BenchError.usage("--engines takes engine, fts5 and tantivy")
                }
            case "--corpus-dir": options.corpusDirectory = URL(fileURLWithPath: try value(argument), isDirectory: true)
            case "--scripts-dir": options.scriptsDirectory = URL(fileURLWithPath: try value(argument), isDirectory: true)
            case "--work-dir": options.workDirectory = URL(fileURLWithPath: try value(argument), isDirectory: true)
            case "--json": options.jsonFile = URL(fileURLWithPath: try value(argument))
            case "--misses": options.missesFile = URL(fileURLWithPath: try value(argument))
            case "--queries":
                for pair in try value(argument).split(separator: ",") {
                    let parts = pair.split(separator: "=")
                    guard parts.count == 2, let kind = QualityKind(rawValue: String(parts[0])), let count = Int(parts[1]), count >= 0 else {
                        throw BenchError.usage("--queries takes kind=count pairs (kinds: \(QualityKind.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                    options.counts[kind] = count
                }
            case "--help", "-h": throw BenchError.usage(usage)
            default: throw BenchError.usage("unknown argument \"\(argument)\"\n\n\(usage)")
            }
        }
        return options
    }

    /// Success@1, success@3 and MRR@10 of one engine on one kind.
    struct Score: Codable {
        var queries = 0
        var top1 = 0
        var top3 = 0
        var reciprocalRanks = 0.0
        var success1: Double { queries == 0 ? 0 : Double(top1) / Double(queries) }
        var success3: Double { queries == 0 ? 0 : Double(top3) / Double(queries) }
        var mrr10: Double { queries == 0 ? 0 : reciprocalRanks / Double(queries) }

        mutating func add(_ ids: [String], target: String) {
            queries += 1
            guard let rank = ids.prefix(QualityBenchmark.limit).firstIndex(of: target) else { return }
            if rank == 0 { top1 += 1 }
            if rank < 3 { top3 += 1 }
            reciprocalRanks += 1 / Double(rank + 1)
        }
    }

    func run() throws {
        let packages = try DebianCorpus.load(from: corpusDirectory, limit: .max)
        let (queries, histories) = QualitySets.make(packages, counts: counts)
        for kind in QualityKind.allCases {
            let examples = queries.filter { $0.kind == kind }.prefix(4).map { "\($0.text.debugDescription) → \($0.target)" }
            if !examples.isEmpty { log("quality: \(kind.rawValue), e.g. " + examples.joined(separator: ", ")) }
        }
        log("quality: \(grouped(packages.count)) packages; \(queries.count) queries (\(QualityKind.allCases.map { kind in "\(kind.rawValue) \(queries.filter { $0.kind == kind }.count)" }.joined(separator: ", ")))")
        let work = (workDirectory ?? FileManager.default.temporaryDirectory)
            .appendingPathComponent("spotlight-quality-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        var answers: [String: [[String]]] = [:]
        if engines.contains("engine") { answers["engine"] = try engineAnswers(packages, queries, histories, work) }
        if engines.contains("fts5") { answers["fts5"] = try fts5Answers(packages, queries, work) }
        if engines.contains("tantivy") { answers["tantivy"] = try tantivyAnswers(queries, work) }

        var scores: [String: [String: Score]] = [:]
        for (engine, lists) in answers {
            for (query, ids) in zip(queries, lists) { scores[engine, default: [:]][query.kind.rawValue, default: Score()].add(ids, target: query.target) }
        }
        print(Self.table(scores))
        if let missesFile {
            var lines: [String] = []
            for (engine, lists) in answers.sorted(by: { $0.key < $1.key }) {
                for (query, ids) in zip(queries, lists) where !ids.prefix(3).contains(query.target) {
                    lines.append("\(engine)\t\(query.kind.rawValue)\t\(query.text)\t\(query.target)\t\(ids.prefix(3).joined(separator: " "))")
                }
            }
            try (lines.joined(separator: "\n") + "\n").write(to: missesFile, atomically: true, encoding: .utf8)
        }
        if let jsonFile {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let rows = scores.mapValues { $0.mapValues { ["queries": Double($0.queries), "success@1": $0.success1, "success@3": $0.success3, "mrr@10": $0.mrr10] } }
            try encoder.encode(rows).write(to: jsonFile)
        }
    }

    /// A Markdown table: a row per kind, success@1 / success@3 / MRR@10 per engine.
    static func table(_ scores: [String: [String: Score]]) -> String {
        let engines = ["engine", "fts5", "tantivy"].filter { scores[$0] != nil }
        var lines = ["| kind | queries | " + engines.map { "\($0) s@1 / s@3 / MRR@10" }.joined(separator: " | ") + " |",
                     "| --- | ---: | " + engines.map { _ in "---:" }.joined(separator: " | ") + " |"]
        for kind in QualityKind.allCases {
            guard let count = engines.compactMap({ scores[$0]?[kind.rawValue]?.queries }).first else { continue }
            let cells = engines.map { engine -> String in
                guard let score = scores[engine]?[kind.rawValue] else { return "n/a" }
                return String(format: "%.3f / %.3f / %.3f", score.success1, score.success3, score.mrr10)
            }
            lines.append("| \(kind.rawValue) | \(grouped(count)) | " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// The engine, as an app's store: every package, then each query; for
    /// `history`, each trial's openings recorded as selections first, at a
    /// time 400 days after the previous trial's (14-day half-life: what an
    /// earlier trial recorded weighs 2⁻²⁸ by then).
    func engineAnswers(_ packages: [DebianPackage], _ queries: [QualityQuery], _ histories: [QualityHistory], _ work: URL) throws -> [[String]] {
        let clock = Mutex(Date(timeIntervalSinceReferenceDate: 800_000_000))
        var options = StoreOptions()
        options.checksIntegrityOnOpen = false
        options.clock = { clock.withLock { $0 } }
        let store = try SpotlightStore(bundleIdentifier: "org.openspotlight.bench", indexName: "quality", location: .directory(work), options: options)
        let started = Date()
        for start in stride(from: 0, to: packages.count, by: 1_000) {
            _ = try store.index(packages[start..<min(start + 1_000, packages.count)].map(EngineStore.item))
        }
        try store.finishMerging()
        log("quality: engine indexed in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        var answers: [[String]] = []
        var trial = -1
        for query in queries {
            if let wanted = query.trial, wanted != trial {
                trial = wanted
                let now = clock.withLock { date in
                    date = date.addingTimeInterval(400 * 86_400)
                    return date
                }
                for (id, before) in histories[wanted].openings {
                    try store.recordEngagement(.selection, itemIdentifier: id, at: now.addingTimeInterval(-before))
                }
            }
            answers.append(try store.search(query.text, limit: Self.limit).map(\.item.uniqueIdentifier))
        }
        log("quality: engine answered in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        return answers
    }

    /// Plain FTS5 as the latency benchmark builds it; every word, the last as a prefix.
    func fts5Answers(_ packages: [DebianPackage], _ queries: [QualityQuery], _ work: URL) throws -> [[String]] {
        let indexer = try FTS5Indexer(directory: work, scale: packages.count)
        for start in stride(from: 0, to: packages.count, by: 1_000) {
            _ = try indexer.index(packages[start..<min(start + 1_000, packages.count)])
        }
        _ = try indexer.finish()
        let pool = try FTS5Store.open(FTS5Store.fileURL(directory: work, scale: packages.count))
        defer { try? pool.close() }
        return try pool.read { db in
            try queries.map { query in
                let words = query.text.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
                guard !words.isEmpty else { return [] }
                let match = words.enumerated().map { FTS5Store.quoted($1) + ($0 == words.count - 1 ? "*" : "") }.joined(separator: " ")
                return try String.fetchAll(db, sql: "SELECT id FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT \(Self.limit)", arguments: [match])
            }
        }
    }

    /// Tantivy through its driver script; the queries go in a JSON Lines file.
    func tantivyAnswers(_ queries: [QualityQuery], _ work: URL) throws -> [[String]] {
        let input = work.appendingPathComponent("queries.jsonl"), output = work.appendingPathComponent("tantivy.jsonl")
        let encoder = JSONEncoder()
        var lines = Data()
        for query in queries {
            lines.append(try encoder.encode(["kind": query.kind.rawValue, "text": query.text]))
            lines.append(0x0A)
        }
        try lines.write(to: input)
        let process = Process()
        process.executableURL = scriptsDirectory.appendingPathComponent("tantivy.sh")
        process.arguments = ["quality", corpusDirectory.appendingPathComponent(DebianCorpus.fileName).path, input.path, output.path]
        let started = Date()
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError.failed("\(process.executableURL!.path) exited with status \(process.terminationStatus)") }
        log("quality: tantivy indexed and answered in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        let decoded = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map {
            try JSONDecoder().decode([String].self, from: Data($0.utf8))
        }
        guard decoded.count == queries.count else { throw BenchError.failed("tantivy answered \(decoded.count) of \(queries.count) queries") }
        return decoded
    }
}
