package import Foundation

/// The `index` child: reads the corpus at a scale and indexes it into one
/// engine's new store, in calls of ``batchSize`` items (unless given
/// another size), in one of two ways
/// (``IndexMode``): every item read before the clock starts (the speed
/// run), or read a batch at a time between timed batches (the memory run).
package enum IndexPhase {
    package static let batchSize = 1_000

    package static func run(engine: EngineKind, scale: Int, directory: URL, corpusDirectory: URL,
                            mode: IndexMode = .streamed, batchSize: Int = IndexPhase.batchSize) throws -> IndexPhaseReport {
        let tag = "[\(engine.rawValue) \(grouped(scale))]"
        let corpus = try ScaledCorpus.Stream(directory: corpusDirectory, count: scale)
        // Preloaded, every batch is in memory before the clock starts, so
        // that no work the engine does in the background escapes it; streamed,
        // the corpus is not part of the engine's memory.
        let preloaded = mode == .preloaded ? try corpus.next(scale) : []
        let corpusRSS = ResourceUsage.peakRSSMB()
        log("\(tag) indexing \(grouped(scale)) items (\(mode == .preloaded ? "all read before the clock starts" : "read from the corpus as they go"), RSS \(Int(corpusRSS)) MB)")

        let whole = Stopwatch(), wholeCPUStart = ResourceUsage.cpuSeconds()
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
            // A slice of the preloaded items, not a copy (a copy retained
            // and released every string of every package on the main thread).
            let batch = mode == .preloaded ? preloaded[start..<min(start + batchSize, scale)] : try corpus.next(batchSize)[...]
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
        // Preloaded, the clock never stopped: the few microseconds between
        // batches count too, as does background work running through them.
        if mode == .preloaded {
            indexing = whole.elapsed
            cpuSeconds = ResourceUsage.cpuSeconds() - wholeCPUStart
        }
        // The peak of indexing, before the store is closed and opened again
        // to measure it (Tantivy's driver reads its peak there too).
        let peakRSSMB = ResourceUsage.peakRSSMB()
        // The preloaded items are freed once the clock has stopped (as
        // Tantivy's driver's list is): ended at their last use, freeing
        // 63,666 packages ran on the main thread beside the last merges.
        withExtendedLifetime(preloaded) {}
        let (storeBytes, textIndexBytes) = try indexer.finish()
        let seconds = indexing.seconds
        if refused > 0 { log("\(tag) warning: \(grouped(refused)) items refused") }
        return IndexPhaseReport(engine: engine, scale: scale, items: scale, refused: refused, seconds: seconds,
                                itemsPerSecond: Double(scale) / max(seconds, 1e-9), cpuSeconds: cpuSeconds,
                                peakRSSMB: peakRSSMB, corpusRSSMB: corpusRSS, storeBytes: storeBytes,
                                textIndexBytes: textIndexBytes, rawTextBytes: rawTextBytes, mode: mode)
    }
}

/// How an `index` child reads its items (`--mode`), and so what it measures.
///
/// Tantivy indexes on a thread of its own, so a driver that reads each
/// batch between timed ones lets it work unclocked while the next batch is
/// decoded: at 63,666 items that was a third of its time (102k items/s
/// streamed, 68k with the items in memory first, three runs each). The
/// speed figures therefore come from a preloaded run, and the memory
/// figures from a streamed one, where the corpus is not in the peak.
package enum IndexMode: String, Codable, Sendable {
    /// Every item decoded before the clock starts; the clock then runs
    /// from opening the store to the end of its merges, without a pause.
    case preloaded
    /// Each batch read between timed windows, the corpus never whole in memory.
    case streamed
}
