import Foundation

/// The engines the benchmark runs side by side.
package enum EngineKind: String, CaseIterable, Codable, Sendable {
    /// OpenSpotlight's `SpotlightStore`.
    case engine
    /// The same store given the whole load in one batch (`beginBatch()` …
    /// `endBatch(clientState:)`, Apple's `beginIndexBatch` …
    /// `endIndexBatch`): one commit at the end, as Tantivy's, instead of
    /// one a call.
    case engineBatch = "engine-batch"
    /// Plain SQLite FTS5 through GRDB, the baseline.
    case fts5
    /// Tantivy 0.27 (PyPI) through its Python driver (``TantivyPeer``):
    /// one commit at the end, the ids stored.
    case tantivy
    /// The same Tantivy doing the engine's job: a commit every 1,000 items
    /// (each of the engine's `index` calls is durable when it returns) and
    /// every field stored (the engine keeps its items whole to return them).
    case tantivyCommits = "tantivy-commits"

    /// Whether Tantivy's driver indexes and searches for this engine.
    package var isTantivy: Bool { self == .tantivy || self == .tantivyCommits }
}
