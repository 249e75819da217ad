package import Foundation
import Synchronization

/// The hidden subcommand the parent runs once per phase, so that each
/// phase has its own process and its own peak RSS:
/// `--child index|query --engine E --scale N --dir DIR --corpus-dir DIR [--rounds R] [--scripts-dir DIR] [--mode preloaded|streamed] [--batch-size N]`
/// (`--mode`: the index phase's ``IndexMode``, streamed by default;
/// `--batch-size`: items an engine's indexing call is given,
/// ``IndexPhase/batchSize`` by default, run by hand to measure larger calls).
/// Tantivy's child runs its Python driver (``TantivyPeer``) for the phase.
/// The children are `spotlight-bench-child` (``childExecutable()``).
/// It prints one result line on stdout (``ChildProtocol/resultPrefix`` + JSON).
package enum ChildCommand {
    package enum Phase: String { case index, query }

    package static func arguments(phase: Phase, engine: EngineKind, scale: Int, directory: URL,
                          corpusDirectory: URL, rounds: Int, scriptsDirectory: URL, mode: IndexMode = .streamed) -> [String] {
        ["--child", phase.rawValue, "--engine", engine.rawValue, "--scale", String(scale),
         "--dir", directory.path, "--corpus-dir", corpusDirectory.path, "--rounds", String(rounds),
         "--scripts-dir", scriptsDirectory.path, "--mode", mode.rawValue]
    }

    package static func run(_ arguments: [String]) throws {
        var values: [String: String] = [:]
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            guard flag.hasPrefix("--"), let value = remaining.popFirst() else {
                throw BenchError.usage("bad child arguments: \(arguments.joined(separator: " "))")
            }
            values[String(flag.dropFirst(2))] = value
        }
        guard let phase = values["child"].flatMap(Phase.init(rawValue:)),
              let engine = values["engine"].flatMap(EngineKind.init(rawValue:)),
              let scale = values["scale"].flatMap({ Int($0) }), scale > 0,
              let directory = values["dir"].map({ URL(fileURLWithPath: $0, isDirectory: true) }),
              let corpus = values["corpus-dir"].map({ URL(fileURLWithPath: $0, isDirectory: true) })
        else {
            throw BenchError.usage("bad child arguments: \(arguments.joined(separator: " "))")
        }
        let rounds = max(1, values["rounds"].flatMap { Int($0) } ?? 3)
        guard let mode = IndexMode(rawValue: values["mode"] ?? IndexMode.streamed.rawValue) else {
            throw BenchError.usage("bad child arguments: --mode is preloaded or streamed")
        }
        guard let batchSize = values["batch-size"].map({ Int($0) }) ?? IndexPhase.batchSize, batchSize > 0 else {
            throw BenchError.usage("bad child arguments: --batch-size is a count of items")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let peer = TantivyPeer(scriptsDirectory: URL(fileURLWithPath: values["scripts-dir"] ?? "Benchmarks/tantivy", isDirectory: true))
        let json: Data
        switch (phase, engine) {
        case (.index, .tantivy), (.index, .tantivyCommits):
            json = try encoder.encode(TantivyIndexPhase.run(peer: peer, engine: engine, scale: scale, directory: directory,
                                                            corpusDirectory: corpus, mode: mode))
        case (.query, .tantivy), (.query, .tantivyCommits):
            json = try encoder.encode(TantivyQueryPhase.run(peer: peer, engine: engine, scale: scale, directory: directory,
                                                            corpusDirectory: corpus, rounds: rounds))
        case (.index, _):
            json = try encoder.encode(IndexPhase.run(engine: engine, scale: scale, directory: directory, corpusDirectory: corpus, mode: mode,
                                                     batchSize: batchSize))
        case (.query, _):
            json = try encoder.encode(QueryPhase.run(engine: engine, scale: scale, directory: directory,
                                                     corpusDirectory: corpus, rounds: rounds))
        }
        FileHandle.standardOutput.write(Data((ChildProtocol.resultPrefix + String(decoding: json, as: UTF8.self) + "\n").utf8))
    }

    /// Runs `executable` to its end, its standard error passed through, and
    /// returns its standard output; a failure names it as `what`.
    package static func output(of executable: URL, _ arguments: [String], what: String) throws -> Data {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw BenchError.failed("\(what) failed (status \(process.terminationStatus))")
        }
        return data
    }

    /// Runs a phase's child (``childExecutable()``) and decodes its result line.
    package static func spawn<Report: Decodable>(_ arguments: [String], as type: Report.Type) throws -> Report {
        let data = try output(of: childExecutable(), arguments, what: "child \(arguments.joined(separator: " "))")
        let text = String(decoding: data, as: UTF8.self)
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix(ChildProtocol.resultPrefix) }) else {
            throw BenchError.failed("child \(arguments.joined(separator: " ")) printed no result")
        }
        return try JSONDecoder().decode(Report.self, from: Data(line.dropFirst(ChildProtocol.resultPrefix.count).utf8))
    }

    /// What runs the measured phases: `spotlight-bench-child` beside this
    /// executable, which links only the engine and GRDB (as an app that
    /// embeds the engine does; the parent also links the service, its HTTP
    /// server and PostgreSQL's client, ~12 MB more of resident pages at
    /// start), else this executable, with a note.
    package static func childExecutable() -> URL {
        let own = selfExecutable()
        let child = own.deletingLastPathComponent().appendingPathComponent("spotlight-bench-child")
        if FileManager.default.isExecutableFile(atPath: child.path) { return child }
        noteMissingChild.withLock { noted in
            if !noted { log("note: no spotlight-bench-child beside \(own.path): phases run in this executable, its memory counted (swift build --product spotlight-bench-child)") }
            noted = true
        }
        return own
    }

    private static let noteMissingChild = Mutex(false)

    /// This executable: `CommandLine.arguments[0]` resolved, else `/proc/self/exe`.
    package static func selfExecutable() -> URL {
        let first = CommandLine.arguments.first ?? ""
        if first.contains("/") {
            let url = URL(fileURLWithPath: first).standardizedFileURL.resolvingSymlinksInPath()
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }
}
