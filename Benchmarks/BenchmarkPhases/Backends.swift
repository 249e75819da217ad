package import Foundation

/// Writes a scale's packages into one engine's store.
package protocol BenchIndexer: AnyObject {
    /// Indexes one batch (the benchmark gives 1,000 packages a call), or
    /// the one given before while this one is prepared; returns how many
    /// packages the store refused in what it wrote.
    func index(_ packages: ArraySlice<DebianPackage>) throws -> Int
    /// Writes what ``index(_:)`` left to write, and waits for work the
    /// store goes on with after its last write (the engine's background
    /// merges); timed as indexing. Returns how many packages the store
    /// refused in what it wrote.
    func waitForBackgroundWork() throws -> Int
    /// Closes the store; returns its size on disk in bytes, and the bytes
    /// of the structures that answer text queries.
    func finish() throws -> (store: Int64, textIndex: Int64)
}

/// Answers the query set from a store built by a ``BenchIndexer``.
package protocol BenchSearcher: AnyObject {
    /// False for the kinds this engine has no query for (reported "n/a", never faked).
    func supports(_ kind: QueryKind) -> Bool
    /// The identifiers of the top 20 results.
    func search(_ query: BenchQuery) throws -> [String]
}

/// Where each engine keeps a scale's store under the run's directory, and how to open it.
package enum Backends {
    /// Results asked for per query.
    package static let limit = 20

    package static func indexer(_ kind: EngineKind, directory: URL, scale: Int) throws -> any BenchIndexer {
        switch kind {
        case .engine: try EngineIndexer(directory: directory, scale: scale)
        case .engineBatch: try EngineIndexer(directory: directory, scale: scale, inOneBatch: true)
        case .fts5: try FTS5Indexer(directory: directory, scale: scale)
        case .tantivy, .tantivyCommits: throw BenchError.failed("Tantivy indexes in its own driver (TantivyIndexPhase)")
        }
    }

    package static func searcher(_ kind: EngineKind, directory: URL, scale: Int) throws -> any BenchSearcher {
        switch kind {
        case .engine, .engineBatch: try EngineSearcher(directory: directory, scale: scale, engine: kind)
        case .fts5: try FTS5Searcher(directory: directory, scale: scale)
        case .tantivy, .tantivyCommits: throw BenchError.failed("Tantivy searches in its own driver (TantivyQueryPhase)")
        }
    }

    /// Sum of the sizes of these files (missing ones count 0).
    package static func bytes(ofFiles paths: [String]) -> Int64 {
        paths.reduce(Int64(0)) { total, path in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            return total + ((attributes?[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }
}

extension BenchIndexer {
    package func waitForBackgroundWork() throws -> Int { 0 }
}
