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

/// Reads the conformance table, the repository's copy of `shared/spec/query-language.md` §9.4
/// (`Spec/query-conformance.tsv`, written by `Scripts/import-spec.py`), at test time.
enum SpecFile {
    /// `…/Tests/SpotlightQueryTests/SpecFile.swift` → `…/Spec/query-conformance.tsv`.
    static let url: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // SpotlightQueryTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Spec/query-conformance.tsv")

    static let text: String = (try? String(contentsOf: url, encoding: .utf8)) ?? ""

    /// One row per line (the empty query is the line that begins with a TAB); empty when the file is missing.
    static let conformanceRows: [ConformanceRow] = {
        guard !text.isEmpty else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0)
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
