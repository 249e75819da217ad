public import Foundation

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

    /// A file of the corpora, or an error that says how to make it.
    public static func file(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        let url = directory(environment: environment).appendingPathComponent(name)
        guard FileManager.default.isReadableFile(atPath: url.path) else { throw Missing(file: url) }
        return url
    }

    /// A corpus file that is not there.
    public struct Missing: Error, CustomStringConvertible {
        public let file: URL
        public var description: String {
            "\(file.path) is missing: run `\(Corpora.buildCommand)` in the repository (it builds .build/corpora), "
                + "or set \(Corpora.environmentKey) to a directory holding the corpora"
        }
    }
}
