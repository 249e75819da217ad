/// What an `index` child measured, sent to the parent as one JSON line.
package struct IndexPhaseReport: Codable, Sendable {
    package var engine: EngineKind
    package var scale: Int
    /// Items given to the store.
    package var items: Int
    /// Items the store refused (expected 0).
    package var refused: Int
    /// Wall time of opening the store, every batch (building the engine's
    /// items, tokenizing and writing) and waiting for the merges. Preloaded
    /// (``mode``), one unbroken window; streamed, the windows between reads
    /// of the corpus, so that background work done while the next batch is
    /// read (the engine's merges, Tantivy's indexing thread) is not in it.
    package var seconds: Double
    package var itemsPerSecond: Double
    /// CPU time of the whole process, every thread, within the same timed
    /// windows as `seconds` (Tantivy: its driver's, `time.process_time()`):
    /// over `seconds`, the cores the indexing kept busy. Nil in older reports.
    package var cpuSeconds: Double?
    /// Peak RSS of the whole child, corpus included (Tantivy: of its
    /// Python driver); streamed, the corpus is one batch of it.
    package var peakRSSMB: Double
    /// Peak RSS once the corpus was read, before the store was opened
    /// (Tantivy: Python with tantivy imported and, preloaded, the items
    /// decoded, before the index was opened).
    package var corpusRSSMB: Double
    /// Size on disk after indexing (engine: `fileSize()` after reopening;
    /// fts5: file + WAL after `wal_checkpoint(TRUNCATE)`; tantivy: its
    /// directory's files after the commit and the merges).
    package var storeBytes: Int64
    /// The structures that answer text queries: the engine's ranked index
    /// (segments inline and in files); fts5's whole store (it is one table);
    /// Tantivy's files but the stored ids and the `installedSize` fast field.
    package var textIndexBytes: Int64
    /// UTF-8 bytes of the text both index: title, summary, description, keywords.
    package var rawTextBytes: Int64
    /// How the items were read, and so which figures this run is for
    /// (``IndexMode``); nil in older reports, which were streamed.
    package var mode: IndexMode?
}

/// What a `query` child measured, sent to the parent as one JSON line.
package struct QueryPhaseReport: Codable, Sendable {
    package var engine: EngineKind
    package var scale: Int
    /// Opening the existing store in a fresh process.
    package var openMs: Double
    /// Opening it and answering the first query.
    package var openAndFirstQueryMs: Double
    /// Peak RSS of the child once the query set ran (before the
    /// query-language workloads).
    package var peakRSSMB: Double
    /// Latencies by kind (`QueryKind` raw values); null where the engine
    /// has no query for the kind ("n/a").
    package var queries: [String: LatencyStats?]
    /// The query-language workloads; engine only, nil for fts5 and tantivy.
    package var querylang: QueryLangReport?
}

/// The child's line on stdout starts with this, so that nothing else a
/// library might print there can be mistaken for it.
package enum ChildProtocol {
    package static let resultPrefix = "SPOTLIGHT-BENCH-RESULT "
}
