package import Foundation

/// Tantivy beside the engine: `tantivy.sh bench …` runs `tantivy_bench.py`
/// in the venv `tantivy.sh` makes (tantivy 0.27.0 from PyPI). Each phase's
/// Swift child writes the driver's input, runs it, and turns what it
/// prints (one JSON object) into the phase's report.
package struct TantivyPeer {
    package var scriptsDirectory: URL

    package init(scriptsDirectory: URL) {
        self.scriptsDirectory = scriptsDirectory
    }

    package var script: URL { scriptsDirectory.appendingPathComponent("tantivy.sh") }

    /// Where a scale's index goes (a directory of Tantivy's files), one per engine.
    package static func indexDirectory(_ directory: URL, engine: EngineKind, scale: Int) -> URL {
        directory.appendingPathComponent("\(engine.rawValue)-scale-\(scale)", isDirectory: true)
    }

    /// What the driver's `index` is told beyond its files: ``EngineKind/tantivyCommits``
    /// commits every ``IndexPhase/batchSize`` items and stores every field.
    package static func indexOptions(_ engine: EngineKind) -> [String] {
        engine == .tantivyCommits ? ["--commit-every", String(IndexPhase.batchSize), "--store"] : []
    }

    /// Makes the venv when it is missing (`tantivy.sh --prepare`); nil when
    /// Tantivy can run, else why not, in one line.
    package func unavailableReason() -> String? {
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
    package func run<Report: Decodable>(_ arguments: [String], as type: Report.Type) throws -> Report {
        let data = try ChildCommand.output(of: script, ["bench"] + arguments, what: "\(script.path) bench \(arguments.joined(separator: " "))")
        return try JSONDecoder().decode(Report.self, from: data)
    }
}

/// What `tantivy_bench.py index` prints.
package struct TantivyIndexFigures: Decodable {
    package var items: Int
    /// Opening the index, making and adding the documents, the commit and the merges.
    package var seconds: Double
    /// The driver process's CPU time (Python's and Tantivy's threads) in the same windows.
    package var cpuSeconds: Double?
    /// The Python process's peak RSS (VmHWM, its own since exec), and that
    /// peak before the index was opened.
    package var peakRSSMB: Double
    package var baseRSSMB: Double
    /// Every file of the index; those that answer text queries (not the
    /// stored ids, not the fast field of `installedSize`).
    package var storeBytes: Int64
    package var textIndexBytes: Int64
}

/// What `tantivy_bench.py query` prints: milliseconds by kind, each kind's
/// queries in order, round after round.
package struct TantivyQueryFigures: Decodable {
    package var openMs: Double
    package var openAndFirstQueryMs: Double
    package var peakRSSMB: Double
    package var samples: [String: [Double]]
    package var nonEmpty: [String: Int]
    package var results: [String: Int]
}
