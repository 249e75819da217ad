package import Foundation

/// Tantivy's `index` child: writes the scale's items (``ScaledCorpus``, as
/// the engine is given them) to a JSON Lines file, and has the driver index
/// them in a process of its own, whose peak RSS is the phase's.
package enum TantivyIndexPhase {
    package static func run(peer: TantivyPeer, engine: EngineKind, scale: Int, directory: URL, corpusDirectory: URL,
                            mode: IndexMode = .streamed) throws -> IndexPhaseReport {
        let tag = "[\(engine.rawValue) \(grouped(scale))]"
        let corpus = ScaledCorpus(base: try DebianCorpus.load(from: corpusDirectory, limit: scale), count: scale)
        let documents = directory.appendingPathComponent("tantivy-scale-\(scale).jsonl")
        defer { try? FileManager.default.removeItem(at: documents) }
        let rawTextBytes = try write(corpus, to: documents)
        log("\(tag) \(grouped(scale)) items written to \(documents.lastPathComponent); indexing in Python")
        let figures = try peer.run(["index", documents.path, TantivyPeer.indexDirectory(directory, engine: engine, scale: scale).path]
                                       + TantivyPeer.indexOptions(engine) + (mode == .preloaded ? ["--preload"] : []),
                                   as: TantivyIndexFigures.self)
        return IndexPhaseReport(engine: engine, scale: scale, items: figures.items, refused: scale - figures.items,
                                seconds: figures.seconds, itemsPerSecond: Double(figures.items) / max(figures.seconds, 1e-9), cpuSeconds: figures.cpuSeconds,
                                peakRSSMB: figures.peakRSSMB, corpusRSSMB: figures.baseRSSMB,
                                storeBytes: figures.storeBytes, textIndexBytes: figures.textIndexBytes,
                                rawTextBytes: rawTextBytes, mode: mode)
    }

    /// One ``TantivyDocument`` a line; returns the raw text's bytes.
    package static func write(_ corpus: ScaledCorpus, to file: URL) throws -> Int64 {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw BenchError.failed("cannot create \(file.path)")
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        var rawTextBytes: Int64 = 0
        for start in stride(from: 0, to: corpus.count, by: IndexPhase.batchSize) {
            var lines = Data()
            for package in corpus.packages(start..<min(start + IndexPhase.batchSize, corpus.count)) {
                rawTextBytes += package.rawTextBytes
                lines.append(try encoder.encode(TantivyDocument(package)))
                lines.append(0x0A)
            }
            try handle.write(contentsOf: lines)
        }
        return rawTextBytes
    }
}

/// An item as the driver indexes it: the text the engine searches (keywords
/// joined by spaces) and the two attributes the query set tests.
package struct TantivyDocument: Encodable {
    package var id: String
    package var title: String?
    package var summary: String?
    package var description: String?
    package var keywords: String?
    package var section: String?
    package var installedSize: Int64?

    package init(_ package: DebianPackage) {
        id = package.id
        title = package.title
        summary = package.summary
        description = package.description
        keywords = package.keywords?.joined(separator: " ")
        section = package.section
        installedSize = package.installedSize
    }
}
