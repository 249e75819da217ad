import Foundation
import Testing

/// One row of the conformance table (spec §9.4).
struct ConformanceRow: Sendable, CustomTestStringConvertible {
    enum Expected: Sendable, Equatable {
        case ids([String])
        case error
    }

    /// 1-based row number, as in §9.3.
    let number: Int
    let query: String
    let expected: Expected

    var testDescription: String { "#\(number) \(query.isEmpty ? "(empty)" : query)" }
}

/// Reads `shared/spec/query-language.md` next to the package at test time.
enum SpecFile {
    /// `/work/main/Tests/SpotlightQueryTests/SpecFile.swift` → `/work/shared/spec/query-language.md`.
    static let url: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // SpotlightQueryTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .deletingLastPathComponent()
        .appendingPathComponent("shared/spec/query-language.md")

    static let text: String = (try? String(contentsOf: url, encoding: .utf8)) ?? ""

    /// The ```tsv block after "### 9.4", one row per line; empty when the file is missing.
    static let conformanceRows: [ConformanceRow] = {
        guard let section = text.range(of: "### 9.4") else { return [] }
        let rest = text[section.upperBound...]
        guard let open = rest.range(of: "```tsv\n") else { return [] }
        let body = rest[open.upperBound...]
        guard let close = body.range(of: "\n```") else { return [] }
        return body[..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated().map { index, line in
                let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
                let query = String(fields[0])
                let result = fields.count > 1 ? String(fields[1]) : ""
                let expected: ConformanceRow.Expected =
                    switch result {
                    case "ERROR": .error
                    case "-": .ids([])
                    default: .ids(result.split(separator: ",").map(String.init))
                    }
                return ConformanceRow(number: index + 1, query: query, expected: expected)
            }
    }()

    /// The queries of the table that are valid.
    static var validQueries: [String] {
        conformanceRows.filter { $0.expected != .error }.map(\.query)
    }
}
