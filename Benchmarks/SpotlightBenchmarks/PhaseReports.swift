/// What an `index` child measured, sent to the parent as one JSON line.
struct IndexPhaseReport: Codable, Sendable {
    var engine: EngineKind
    var scale: Int
    /// Items given to the store.
    var items: Int
    /// Items the store refused (expected 0).
    var refused: Int
    /// Wall time of opening the store and every batch: building the
    /// engine's items, tokenizing and writing; not reading the corpus.
    var seconds: Double
    var itemsPerSecond: Double
    /// CPU time of the whole process, every thread, within the same timed
    /// windows as `seconds` (Tantivy: its driver's, `time.process_time()`):
    /// over `seconds`, the cores the indexing kept busy. Background work
    /// that runs while the next batch is read (the engine's merges,
    /// Tantivy's indexing thread) is in neither. Nil in older reports.
    var cpuSeconds: Double?
    /// Peak RSS of the whole child, corpus included (Tantivy: of its
    /// Python driver, which reads the items a batch at a time).
    var peakRSSMB: Double
    /// Peak RSS once the corpus was read, before the store was opened
    /// (Tantivy: Python with tantivy imported, before the index was opened).
    var corpusRSSMB: Double
    /// Size on disk after indexing (engine: `fileSize()` after reopening;
    /// fts5: file + WAL after `wal_checkpoint(TRUNCATE)`; tantivy: its
    /// directory's files after the commit and the merges).
    var storeBytes: Int64
    /// The structures that answer text queries: the engine's ranked index
    /// (segments inline and in files); fts5's whole store (it is one table);
    /// Tantivy's files but the stored ids and the `installedSize` fast field.
    var textIndexBytes: Int64
    /// UTF-8 bytes of the text both index: title, summary, description, keywords.
    var rawTextBytes: Int64
}

/// What a `query` child measured, sent to the parent as one JSON line.
struct QueryPhaseReport: Codable, Sendable {
    var engine: EngineKind
    var scale: Int
    /// Opening the existing store in a fresh process.
    var openMs: Double
    /// Opening it and answering the first query.
    var openAndFirstQueryMs: Double
    /// Peak RSS of the child once the query set ran (before the
    /// query-language workloads).
    var peakRSSMB: Double
    /// Latencies by kind (`QueryKind` raw values); null where the engine
    /// has no query for the kind ("n/a").
    var queries: [String: LatencyStats?]
    /// The query-language workloads; engine only, nil for fts5 and tantivy.
    var querylang: QueryLangReport?
}

/// The child's line on stdout starts with this, so that nothing else a
/// library might print there can be mistaken for it.
enum ChildProtocol {
    static let resultPrefix = "SPOTLIGHT-BENCH-RESULT "
}
