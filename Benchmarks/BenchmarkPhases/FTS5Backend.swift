package import Foundation
package import GRDB

/// The baseline: one plain SQLite FTS5 table (default `unicode61`
/// tokenizer, no prefix index), in WAL mode with `synchronous = NORMAL`
/// as the engine's stores are.
package enum FTS5Store {
    package static func fileURL(directory: URL, scale: Int) -> URL {
        directory.appendingPathComponent("fts5-scale-\(scale).sqlite")
    }

    package static func open(_ file: URL) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.label = "fts5"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return try DatabasePool(path: file.path, configuration: configuration) // DatabasePool is WAL
    }

    package static let schema = """
        CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, title, summary, description, keywords,
                                             section UNINDEXED, installedSize UNINDEXED)
        """

    package static let insert = """
        INSERT INTO docs(id, title, summary, description, keywords, section, installedSize)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """

    /// A token as an FTS5 string: `"word"`.
    package static func quoted(_ word: String) -> String {
        "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

package final class FTS5Indexer: BenchIndexer {
    private let file: URL
    private var pool: DatabasePool?

    package init(directory: URL, scale: Int) throws {
        file = FTS5Store.fileURL(directory: directory, scale: scale)
        let pool = try FTS5Store.open(file)
        try pool.write { db in try db.execute(sql: FTS5Store.schema) }
        self.pool = pool
    }

    /// One transaction per batch, through one prepared statement.
    package func index(_ packages: ArraySlice<DebianPackage>) throws -> Int {
        guard let pool else { throw BenchError.failed("the FTS5 store is closed") }
        try pool.write { db in
            let statement = try db.cachedStatement(sql: FTS5Store.insert)
            for package in packages {
                try statement.execute(arguments: [
                    package.id, package.title, package.summary, package.description,
                    package.keywords?.joined(separator: " "), package.section, package.installedSize,
                ])
            }
        }
        return 0
    }

    /// Checkpoints the WAL into the file, then measures file + WAL.
    /// The whole store is the text index: one FTS5 table with its content.
    package func finish() throws -> (store: Int64, textIndex: Int64) {
        if let pool {
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        let bytes = Backends.bytes(ofFiles: [file.path, file.path + "-wal"])
        try pool?.close()
        pool = nil
        return (bytes, bytes)
    }
}

package final class FTS5Searcher: BenchSearcher {
    private let pool: DatabasePool

    package init(directory: URL, scale: Int) throws {
        let file = FTS5Store.fileURL(directory: directory, scale: scale)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw BenchError.failed("no FTS5 store at \(file.path)")
        }
        pool = try FTS5Store.open(file)
    }

    package func supports(_ kind: QueryKind) -> Bool { true }

    package func search(_ query: BenchQuery) throws -> [String] {
        let (sql, arguments) = Self.statement(for: query)
        return try pool.read { db in
            try String.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
        }
    }

    /// The SQL of each kind. Free text ranks by BM25; `multi` has the
    /// engine's semantics: every word, the last as a prefix.
    package static func statement(for query: BenchQuery) -> (String, StatementArguments) {
        let limit = Backends.limit
        let match = "SELECT id FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT \(limit)"
        switch query.kind {
        case .word:
            return (match, [query.words.map(FTS5Store.quoted).joined(separator: " ")])
        case .prefix:
            return (match, [query.words.map { FTS5Store.quoted($0) + "*" }.joined(separator: " ")])
        case .multi:
            let words = query.words
            let terms = words.enumerated().map { index, word in
                FTS5Store.quoted(word) + (index == words.count - 1 ? "*" : "")
            }
            return (match, [terms.joined(separator: " ")])
        case .substring:
            let pattern = "%" + query.infix + "%"
            return ("SELECT id FROM docs WHERE title LIKE ? OR summary LIKE ? LIMIT \(limit)", [pattern, pattern])
        case .attribute:
            switch query.attribute {
            case .sectionEquals(let section):
                return ("SELECT id FROM docs WHERE section = ? LIMIT \(limit)", [section])
            case .installedSizeAbove(let size):
                return ("SELECT id FROM docs WHERE installedSize > ? LIMIT \(limit)", [size])
            case nil:
                return ("SELECT id FROM docs WHERE 0", [])
            }
        }
    }
}
