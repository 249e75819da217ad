import Corpora
package import Foundation

/// The kinds of `queries.tsv`, in the order the report lists them.
package enum QueryKind: String, CaseIterable, Codable, Sendable {
    case word, prefix, multi, substring, attribute
}

/// A query of an attribute (`section == libs`, `installedSize > 17298`).
package enum AttributeQuery: Sendable, Hashable {
    case sectionEquals(String)
    case installedSizeAbove(Int64)
}

/// One line of `queries.tsv`.
package struct BenchQuery: Sendable, Hashable {
    package var kind: QueryKind
    package var text: String

    /// The lower-case words of the query (`[a-z]+` in the query set).
    package var words: [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    }

    /// `*brar*` → `brar`.
    package var infix: String {
        String(text.trimmingCharacters(in: .whitespaces).drop(while: { $0 == "*" }).reversed().drop(while: { $0 == "*" }).reversed())
    }

    /// The attribute test of an `attribute` query, nil when it is not one we know.
    package var attribute: AttributeQuery? {
        let parts = words
        guard parts.count == 3 else { return nil }
        switch (parts[0], parts[1]) {
        case ("section", "=="): return .sectionEquals(parts[2])
        case ("installedSize", ">"): return Int64(parts[2]).map(AttributeQuery.installedSizeAbove)
        default: return nil
        }
    }
}

/// Reads `queries.tsv`: `kind<TAB>query`, one a line.
package enum QuerySet {
    package static let fileName = "queries.tsv"

    package static func load(from directory: URL) throws -> [BenchQuery] {
        let file = directory.appendingPathComponent(fileName)
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw BenchError.failed("cannot read \(file.path) (\(error)); pass --corpus-dir or run \(Corpora.buildCommand)")
        }
        var queries: [BenchQuery] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let fields = line.split(separator: "\t", maxSplits: 1)
            guard fields.count == 2, let kind = QueryKind(rawValue: String(fields[0])) else {
                throw BenchError.failed("\(file.path) line \(number + 1) is not kind<TAB>query: \(line)")
            }
            let query = BenchQuery(kind: kind, text: String(fields[1]))
            if kind == .attribute && query.attribute == nil {
                throw BenchError.failed("\(file.path) line \(number + 1): unknown attribute query \(query.text)")
            }
            queries.append(query)
        }
        if queries.isEmpty { throw BenchError.failed("\(file.path) holds no queries") }
        return queries
    }
}
