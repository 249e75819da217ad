import Foundation

/// Tantivy beside the engine: `tantivy.sh bench …` runs `tantivy_bench.py`
/// in the venv `tantivy.sh` makes (tantivy 0.27.0 from PyPI). Each phase's
/// Swift child writes the driver's input, runs it, and turns what it
/// prints (one JSON object) into the phase's report.
struct TantivyPeer {
    var scriptsDirectory: URL

    var script: URL { scriptsDirectory.appendingPathComponent("tantivy.sh") }

    /// Where a scale's index goes (a directory of Tantivy's files), one per engine.
    static func indexDirectory(_ directory: URL, engine: EngineKind, scale: Int) -> URL {
        directory.appendingPathComponent("\(engine.rawValue)-scale-\(scale)", isDirectory: true)
    }

    /// What the driver's `index` is told beyond its files: ``EngineKind/tantivyCommits``
    /// commits every ``IndexPhase/batchSize`` items and stores every field.
    static func indexOptions(_ engine: EngineKind) -> [String] {
        engine == .tantivyCommits ? ["--commit-every", String(IndexPhase.batchSize), "--store"] : []
    }

    /// Makes the venv when it is missing (`tantivy.sh --prepare`); nil when
    /// Tantivy can run, else why not, in one line.
    func unavailableReason() -> String? {
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            return "no \(script.path) (run from the repository's root or pass --scripts-dir)"
        }
        let process = Process()
        process.executableURL = script
        process.arguments = ["--prepare"]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do { try process.run() } catch { return "\(script.path) did not start: \(error)" }
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            return "\(script.lastPathComponent) --prepare could not make its venv: \(said.last ?? "status \(process.terminationStatus)")"
        }
        for line in said { log(line) }
        return nil
    }

    /// Runs `tantivy.sh bench ARGS` and decodes the JSON object it prints.
    func run<Report: Decodable>(_ arguments: [String], as type: Report.Type) throws -> Report {
        let data = try ChildCommand.output(of: script, ["bench"] + arguments, what: "\(script.path) bench \(arguments.joined(separator: " "))")
        return try JSONDecoder().decode(Report.self, from: data)
    }
}

/// What `tantivy_bench.py index` prints.
struct TantivyIndexFigures: Decodable {
    var items: Int
    /// Opening the index, making and adding the documents, the commit and the merges.
    var seconds: Double
    /// The driver process's CPU time (Python's and Tantivy's threads) in the same windows.
    var cpuSeconds: Double?
    /// The Python process's peak RSS (VmHWM, its own since exec), and that
    /// peak before the index was opened.
    var peakRSSMB: Double
    var baseRSSMB: Double
    /// Every file of the index; those that answer text queries (not the
    /// stored ids, not the fast field of `installedSize`).
    var storeBytes: Int64
    var textIndexBytes: Int64
}

/// What `tantivy_bench.py query` prints: milliseconds by kind, each kind's
/// queries in order, round after round.
struct TantivyQueryFigures: Decodable {
    var openMs: Double
    var openAndFirstQueryMs: Double
    var peakRSSMB: Double
    var samples: [String: [Double]]
    var nonEmpty: [String: Int]
    var results: [String: Int]
}
