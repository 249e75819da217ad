package import Foundation

/// Tantivy's `query` child: writes the query set to a JSON Lines file, has
/// the driver open the index and time it (one warm-up pass, then `rounds`),
/// and computes the latencies as the engine's are (``QueryPhase``).
package enum TantivyQueryPhase {
    package static func run(peer: TantivyPeer, engine: EngineKind, scale: Int, directory: URL, corpusDirectory: URL, rounds: Int) throws -> QueryPhaseReport {
        let tag = "[\(engine.rawValue) \(grouped(scale))]"
        let queries = try QuerySet.load(from: corpusDirectory)
        let answered = QueryPhase.selected(queries, supports: { _ in true })
        guard !answered.isEmpty else { throw BenchError.failed("\(tag) no queries to answer") }
        let file = directory.appendingPathComponent("tantivy-queries.jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let encoder = JSONEncoder()
        var lines = Data()
        for query in answered {
            lines.append(try encoder.encode(TantivyQuery(query)))
            lines.append(0x0A)
        }
        try lines.write(to: file)
        log("\(tag) \(answered.count) queries in Python: one warm-up pass, \(rounds) timed rounds")
        let figures = try peer.run(["query", TantivyPeer.indexDirectory(directory, engine: engine, scale: scale).path, file.path, String(rounds)],
                                   as: TantivyQueryFigures.self)
        log("\(tag) index opened and first query answered in \(String(format: "%.1f", figures.openAndFirstQueryMs)) ms")
        func byKind<Value>(_ values: [String: Value]) -> [QueryKind: Value] {
            Dictionary(uniqueKeysWithValues: values.compactMap { key, value in QueryKind(rawValue: key).map { ($0, value) } })
        }
        let stats = QueryPhase.stats(of: queries, answered: answered, supports: { _ in true },
                                     samples: byKind(figures.samples), nonEmpty: byKind(figures.nonEmpty),
                                     results: byKind(figures.results))
        return QueryPhaseReport(engine: engine, scale: scale, openMs: figures.openMs,
                                openAndFirstQueryMs: figures.openAndFirstQueryMs, peakRSSMB: figures.peakRSSMB,
                                queries: stats, querylang: nil)
    }
}

/// A query as the driver reads it: its kind and words, and what the kind needs.
package struct TantivyQuery: Encodable {
    package var kind: String
    package var words: [String]
    /// `substring`: the text between the stars.
    package var infix: String?
    /// `attribute`: `section == X` or `installedSize > N`.
    package var section: String?
    package var installedSizeAbove: Int64?

    package init(_ query: BenchQuery) {
        kind = query.kind.rawValue
        words = query.words
        if query.kind == .substring { infix = query.infix }
        switch query.attribute {
        case .sectionEquals(let value) where query.kind == .attribute: section = value
        case .installedSizeAbove(let value) where query.kind == .attribute: installedSizeAbove = value
        default: break
        }
    }
}
