public import Foundation
import Synchronization

/// Where the tests and the benchmarks find the corpora (`debian-packages.jsonl.gz`,
/// `cjk-manpages.jsonl.gz`, `queries.tsv`): the directory `OPENSPOTLIGHT_CORPORA`
/// names when it is set, else `../shared/corpora` beside the repository when it is
/// there, else `.build/corpora`, where `python3 Scripts/make-corpora.py` builds them
/// from Debian's package lists and manual pages.
public enum Corpora {
    public static let environmentKey = "OPENSPOTLIGHT_CORPORA"
    /// The command that builds the corpora into ``built``, from the repository's root.
    public static let buildCommand = "python3 Scripts/make-corpora.py"

    /// The repository's root: `Tests/Corpora/Corpora.swift` → `.`.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `../shared/corpora` beside the repository.
    public static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora", isDirectory: true)
    /// `.build/corpora` in the repository.
    public static let built = packageRoot.appendingPathComponent(".build/corpora", isDirectory: true)

    /// The directory to read: as the environment says, else the shared one when it holds the corpus, else the built one.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let named = environment[environmentKey], !named.isEmpty {
            return URL(fileURLWithPath: named, isDirectory: true).standardizedFileURL
        }
        if FileManager.default.isReadableFile(atPath: shared.appendingPathComponent("debian-packages.jsonl.gz").path) {
            return shared.standardizedFileURL
        }
        return built
    }

    /// A file of the corpora, or an error that says how to make it. When the
    /// built corpora are the ones read and the file is missing, they are built
    /// first (once per process: ``buildCommand``, about 20 s), so that `swift test`
    /// on a fresh clone needs nothing run before it.
    public static func file(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        let directory = directory(environment: environment)
        let url = directory.appendingPathComponent(name)
        if !FileManager.default.isReadableFile(atPath: url.path), directory == built {
            try builtOnce.withLock { outcome in
                if outcome == nil { outcome = build() }
                if let failure = outcome ?? nil { throw Missing(file: url, why: failure) }
            }
        }
        guard FileManager.default.isReadableFile(atPath: url.path) else { throw Missing(file: url) }
        return url
    }

    /// The outcome of this process's one build: nil before it, then nil inside for success or the failure's text.
    private static let builtOnce = Mutex<String??>(nil)

    /// Runs ``buildCommand`` in the repository; nil when it succeeded, else what it said.
    private static func build() -> String? {
        FileHandle.standardError.write(Data("building the test corpora into \(built.path) (once, about 20 s): \(buildCommand)\n".utf8))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", packageRoot.appendingPathComponent("Scripts/make-corpora.py").path]
        process.currentDirectoryURL = packageRoot
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            return "cannot run python3: \(error)"
        }
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : "\(buildCommand) failed (status \(process.terminationStatus)): \(said.suffix(2_000))"
    }

    /// The lines of a gzipped corpus file (`gzip -dc`).
    ///
    /// ```swift
    /// let packages = try Corpora.lines(ofGzipped: Corpora.file("debian-packages.jsonl.gz"))
    /// ```
    public static func lines(ofGzipped file: URL) throws -> [Data] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-dc", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Missing(file: file, why: "gzip -dc \(file.path) failed") }
        return data.split(separator: 0x0A)
    }

    /// A corpus file that is not there.
    public struct Missing: Error, CustomStringConvertible {
        public let file: URL
        /// Why building them failed, when it was tried.
        public var why: String?

        public init(file: URL, why: String? = nil) {
            self.file = file
            self.why = why
        }

        public var description: String {
            "\(file.path) is missing: run `\(Corpora.buildCommand)` in the repository (it builds .build/corpora), "
                + "or set \(Corpora.environmentKey) to a directory holding the corpora" + (why.map { " (\($0))" } ?? "")
        }
    }
}
