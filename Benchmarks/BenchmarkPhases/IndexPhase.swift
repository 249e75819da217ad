package import Foundation

/// The `index` child: reads the corpus at a scale and indexes it into one
/// engine's new store, in batches of 1,000.
package enum IndexPhase {
    package static let batchSize = 1_000

    package static func run(engine: EngineKind, scale: Int, directory: URL, corpusDirectory: URL) throws -> IndexPhaseReport {
        let tag = "[\(engine.rawValue) \(grouped(scale))]"
        // Read as it goes, a batch at a time (as Tantivy's driver reads its
        // items): the corpus is not part of the engine's memory.
        let corpus = try ScaledCorpus.Stream(directory: corpusDirectory, count: scale)
        let corpusRSS = ResourceUsage.peakRSSMB()
        log("\(tag) indexing \(grouped(scale)) items (read from the corpus as they go, RSS \(Int(corpusRSS)) MB)")

        var stopwatch = Stopwatch()
        let indexer = try Backends.indexer(engine, directory: directory, scale: scale)
        var indexing = stopwatch.elapsed
        var refused = 0
        // The process's CPU time (every thread: preparing, writing, merging)
        // within the timed windows, as `indexing` is their wall time.
        var cpuSeconds = 0.0
        var rawTextBytes: Int64 = 0
        let reportEvery = max(batchSize, scale / 10)
        var nextReport = reportEvery
        for start in stride(from: 0, to: scale, by: batchSize) {
            let batch = try corpus.next(batchSize)
            rawTextBytes += batch.reduce(0) { $0 + $1.rawTextBytes }
            stopwatch.restart()
            let cpuStart = ResourceUsage.cpuSeconds()
            refused += try indexer.index(batch)
            indexing += stopwatch.elapsed
            cpuSeconds += ResourceUsage.cpuSeconds() - cpuStart
            let done = start + batch.count
            if done >= nextReport || done == scale {
                let rate = Double(done) / max(indexing.seconds, 1e-9)
                log("\(tag)   \(grouped(done))/\(grouped(scale)) (\(done * 100 / scale)%), \(grouped(Int(rate))) items/s")
                while nextReport <= done { nextReport += reportEvery }
            }
        }
        stopwatch.restart()
        let cpuStart = ResourceUsage.cpuSeconds()
        refused += try indexer.waitForBackgroundWork()
        indexing += stopwatch.elapsed
        cpuSeconds += ResourceUsage.cpuSeconds() - cpuStart
        // The peak of indexing, before the store is closed and opened again
        // to measure it (Tantivy's driver reads its peak there too).
        let peakRSSMB = ResourceUsage.peakRSSMB()
        let (storeBytes, textIndexBytes) = try indexer.finish()
        let seconds = indexing.seconds
        if refused > 0 { log("\(tag) warning: \(grouped(refused)) items refused") }
        return IndexPhaseReport(engine: engine, scale: scale, items: scale, refused: refused, seconds: seconds,
                                itemsPerSecond: Double(scale) / max(seconds, 1e-9), cpuSeconds: cpuSeconds,
                                peakRSSMB: peakRSSMB, corpusRSSMB: corpusRSS, storeBytes: storeBytes,
                                textIndexBytes: textIndexBytes, rawTextBytes: rawTextBytes)
    }
}
