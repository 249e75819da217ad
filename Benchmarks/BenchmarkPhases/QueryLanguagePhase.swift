import Foundation
package import SpotlightIndex

/// The query-language workloads, engine only (plain FTS5 has no
/// equivalent), with parameters drawn deterministically from `queries.tsv`.
package enum QueryLangWorkload: String, CaseIterable, Codable, Sendable {
    /// `title == "WORD"wc` for each `word` query.
    case titleWord
    /// `** == "*INFIX*"cd` for each `substring` query: every attribute and
    /// the content, so no index helps.
    case infix
    /// `section == "S" && installedSize > N` for each section of the
    /// `attribute` queries, N the smallest `installedSize` threshold there
    /// (the corpus's 50th percentile, as `make-queries.py` draws it).
    case sectionAndSize
    /// `InRange(contentModificationDate, …)` over 30 one-month windows
    /// spread over the 20 years of ``EngineStore/modificationDate(of:)``.
    case dateRange

    /// The query's shape, for the table.
    package var template: String {
        switch self {
        case .titleWord: #"title == "WORD"wc"#
        case .infix: #"** == "*INFIX*"cd"#
        case .sectionAndSize: #"section == "S" && installedSize > N"#
        case .dateRange: "InRange(contentModificationDate, month)"
        }
    }

    /// The environment variable through which the parent tells `query`
    /// children which workloads to run (comma-separated; all when unset).
    package static let environmentKey = "SPOTLIGHT_BENCH_QL_WORKLOADS"

    /// The workloads this process runs.
    package static var selected: [QueryLangWorkload] {
        guard let names = ProcessInfo.processInfo.environment[environmentKey], !names.isEmpty else { return allCases }
        return names.split(separator: ",").compactMap { QueryLangWorkload(rawValue: String($0)) }
    }

    /// Months in the `dateRange` workload.
    package static let dateWindows = 30

    /// The workload's query strings.
    package func queries(from set: [BenchQuery]) throws -> [String] {
        typealias QL = EngineQueryLanguage
        switch self {
        case .titleWord:
            return set.filter { $0.kind == .word }.map { "title == \(QL.quoted(QL.escaped($0.text)))wc" }
        case .infix:
            return set.filter { $0.kind == .substring }.map { "** == \(QL.quoted("*" + QL.escaped($0.infix) + "*"))cd" }
        case .sectionAndSize:
            var sections: [String] = []
            var sizes: [Int64] = []
            for query in set where query.kind == .attribute {
                switch query.attribute {
                case .sectionEquals(let section): if !sections.contains(section) { sections.append(section) }
                case .installedSizeAbove(let size): sizes.append(size)
                case nil: break
                }
            }
            guard let size = sizes.min() else {
                throw BenchError.failed("\(QuerySet.fileName) has no installedSize query to draw the sectionAndSize threshold from")
            }
            return sections.map { "section == \(QL.quoted(QL.escaped($0))) && installedSize > \(size)" }
        case .dateRange:
            // Month m = 8·i mod 240 of the 240 months from 2001-01: 30 distinct
            // months, eight apart, over all 20 years.
            return (0..<Self.dateWindows).map { index in
                let month = (index * 8) % 240
                let year = 2001 + month / 12
                let monthOfYear = month % 12 + 1
                let last = Self.daysInMonth(year: year, month: monthOfYear)
                let start = String(format: "%04d-%02d-01T00:00:00Z", year, monthOfYear)
                let end = String(format: "%04d-%02d-%02dT23:59:59Z", year, monthOfYear, last)
                return "InRange(contentModificationDate, $time.iso(\(start)), $time.iso(\(end)))"
            }
        }
    }

    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// What one workload measured. `firstBatch` is the time to the first
/// batch of ``QueryLanguagePhase/batchSize`` matches (to the end of the
/// query when it has fewer); `complete` the time to the last match, both of
/// the same run. Their `meanResults` are the first batch's mean size and
/// the mean match count.
package struct QueryLangStats: Codable, Sendable {
    /// The query's shape.
    package var query: String
    /// The first query of the workload, as run.
    package var example: String
    /// Queries in the workload.
    package var count: Int
    package var batchSize: Int
    /// Queries with at least one match (warm-up round).
    package var nonEmpty: Int
    /// Mean matches per query, run to completion.
    package var meanMatches: Double
    /// Mean items the evaluator checked per query (the candidates the indexes gave).
    package var meanCandidatesChecked: Double
    package var firstBatch: LatencyStats
    /// The first batch of the runs that delivered one (queries with
    /// results): how long a user waits to see something. `firstBatch` also
    /// counts queries without results, whose wait is their completion.
    package var firstResults: LatencyStats?
    package var complete: LatencyStats
}

/// `"querylang"` of an engine run: one entry per ``QueryLangWorkload``.
package struct QueryLangReport: Codable, Sendable {
    /// Each workload's figures; nil for one not run (`--ql-workloads`).
    package var titleWord: QueryLangStats?
    package var infix: QueryLangStats?
    package var sectionAndSize: QueryLangStats?
    package var dateRange: QueryLangStats?

    package func stats(_ workload: QueryLangWorkload) -> QueryLangStats? {
        switch workload {
        case .titleWord: titleWord
        case .infix: infix
        case .sectionAndSize: sectionAndSize
        case .dateRange: dateRange
        }
    }
}

/// Runs the workloads in the `query` child of the engine, after the query
/// set: per workload, one warm-up round run to completion (match counts),
/// then `rounds` timed rounds (fewer past ``roundsBudgetSeconds``); each
/// timed run goes to completion and notes when its first batch arrived.
package enum QueryLanguagePhase {
    package static let batchSize = Backends.limit
    /// A workload starts no further timed round once its timed rounds took
    /// this long (a full scan per query at 1M items takes tens of seconds);
    /// `samples` in its stats tell how many runs were timed.
    package static let roundsBudgetSeconds = 300.0

    package static func run(store: SpotlightStore, queries set: [BenchQuery], rounds: Int, tag: String) throws -> QueryLangReport {
        var results: [QueryLangWorkload: QueryLangStats] = [:]
        for workload in QueryLangWorkload.selected {
            let queries = try workload.queries(from: set)
            guard let example = queries.first else {
                throw BenchError.failed("\(QuerySet.fileName) gives no query for the \(workload.rawValue) workload")
            }
            var stopwatch = Stopwatch()
            var matches = 0
            var checked = 0
            var nonEmpty = 0
            var firstBatchResults = 0
            for query in queries {
                let run = try measure(store, query)
                matches += run.outcome.matchCount
                checked += run.outcome.candidatesChecked
                firstBatchResults += run.firstBatchCount
                if run.outcome.matchCount > 0 { nonEmpty += 1 }
            }
            log("\(tag) querylang \(workload.rawValue): \(queries.count) queries, warm-up in "
                + "\(formatted(stopwatch.elapsedMilliseconds)) ms, \(grouped(matches)) matches")

            var firstBatch: [Double] = []
            var firstResults: [Double] = []
            var complete: [Double] = []
            let timed = Stopwatch()
            for round in 1...rounds {
                if round > 1 && timed.elapsedSeconds >= roundsBudgetSeconds {
                    log("\(tag) querylang \(workload.rawValue): \(round - 1) timed round(s) took over "
                        + "\(Int(roundsBudgetSeconds)) s; the others are skipped")
                    break
                }
                stopwatch.restart()
                for query in queries {
                    let run = try measure(store, query)
                    firstBatch.append(run.firstBatchMs)
                    if run.firstBatchCount > 0 { firstResults.append(run.firstBatchMs) }
                    complete.append(run.completeMs)
                }
                log("\(tag) querylang \(workload.rawValue): timed round \(round)/\(rounds) in "
                    + "\(formatted(stopwatch.elapsedMilliseconds)) ms")
            }
            let count = queries.count
            results[workload] = QueryLangStats(
                query: workload.template, example: example, count: count, batchSize: batchSize, nonEmpty: nonEmpty,
                meanMatches: Double(matches) / Double(count), meanCandidatesChecked: Double(checked) / Double(count),
                firstBatch: LatencyStats(samples: firstBatch, count: count, nonEmpty: nonEmpty,
                                         meanResults: Double(firstBatchResults) / Double(count)),
                firstResults: firstResults.isEmpty ? nil : LatencyStats(samples: firstResults, count: nonEmpty, nonEmpty: nonEmpty,
                                                                        meanResults: Double(firstBatchResults) / Double(max(1, nonEmpty))),
                complete: LatencyStats(samples: complete, count: count, nonEmpty: nonEmpty,
                                       meanResults: Double(matches) / Double(count)))
        }
        return QueryLangReport(titleWord: results[.titleWord], infix: results[.infix],
                               sectionAndSize: results[.sectionAndSize], dateRange: results[.dateRange])
    }

    package struct Run {
        var outcome: QueryOutcome
        var firstBatchMs: Double
        var firstBatchCount: Int
        var completeMs: Double
    }

    /// One run to completion in batches of ``batchSize``; the first batch's
    /// time is taken when it is delivered (the end when nothing matched).
    package static func measure(_ store: SpotlightStore, _ query: String) throws -> Run {
        var firstBatchMs: Double?
        var firstBatchCount = 0
        let stopwatch = Stopwatch()
        let outcome = try store.query(query, batchSize: batchSize) { batch in
            if firstBatchMs == nil {
                firstBatchMs = stopwatch.elapsedMilliseconds
                firstBatchCount = batch.count
            }
        }
        let completeMs = stopwatch.elapsedMilliseconds
        return Run(outcome: outcome, firstBatchMs: firstBatchMs ?? completeMs, firstBatchCount: firstBatchCount,
                   completeMs: completeMs)
    }
}
