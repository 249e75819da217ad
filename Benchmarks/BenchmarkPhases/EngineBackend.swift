package import Foundation
package import SpotlightIndex

/// OpenSpotlight's engine: one `SpotlightStore` per scale, under the run's directory.
package enum EngineStore {
    package static let bundleIdentifier = "org.openspotlight.bench"

    /// The store of `engine` (`engine` or `engine-batch`, each its own) at `scale`.
    package static func open(directory: URL, scale: Int, engine: EngineKind = .engine) throws -> SpotlightStore {
        var options = StoreOptions()
        options.checksIntegrityOnOpen = false
        let name = engine == .engineBatch ? "batch-scale-\(scale)" : "scale-\(scale)"
        return try SpotlightStore(bundleIdentifier: bundleIdentifier, indexName: name,
                                  location: .directory(directory), options: options)
    }

    /// A package as an app would give it to Core Spotlight.
    package static func item(_ package: DebianPackage) -> SearchableItem {
        // Sized for its eight attributes at once: growing the table twice
        // was ~2% of the timed indexing CPU (the harness's, not the engine's).
        var attributes: [String: AttributeValue] = Dictionary(minimumCapacity: 8)
        if let title = package.title { attributes["title"] = .string(title) }
        if let summary = package.summary { attributes["contentDescription"] = .string(summary) }
        if let description = package.description { attributes["textContent"] = .string(description) }
        if let keywords = package.keywords { attributes["keywords"] = .strings(keywords) }
        if let section = package.section { attributes["section"] = .string(section) }
        if let size = package.installedSize { attributes["installedSize"] = .number(.int(size)) }
        if let version = package.version { attributes["version"] = .string(version) }
        attributes["contentModificationDate"] = .date(modificationDate(of: package.id))
        return SearchableItem(uniqueIdentifier: package.id, contentType: "public.item",
                              expirationDate: Date.distantFuture, attributes: attributes)
    }

    /// Span of the benchmark's `contentModificationDate`s: 20 years of
    /// 365.25 days from 2001-01-01T00:00:00Z (2001-01-01 to 2020-12-31).
    package static let dateSpanSeconds: UInt64 = 20 * 36_525 * 864

    /// The `contentModificationDate` the benchmark gives a package:
    /// 2001-01-01T00:00:00Z + (FNV-1a 64 of its original id mod 20 years)
    /// seconds. The same in every run and every process (no seeded
    /// `Hasher`), and the same for the copies `ScaledCorpus` makes of a
    /// package (`id~k`; Debian names hold no `~`), as their titles are.
    package static func modificationDate(of id: String) -> Date {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        // The original id: the bytes before the first `~` (no split: it
        // allocated, in the timed indexing, for every item).
        for byte in id.utf8 {
            if byte == UInt8(ascii: "~") { break }
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return Date(timeIntervalSinceReferenceDate: Double(hash % dateSpanSeconds))
    }
}

package final class EngineIndexer: BenchIndexer {
    private let directory: URL
    private let scale: Int
    private var store: SpotlightStore?
    /// Whether every call goes to one batch, committed at the end (`engine-batch`).
    private let inOneBatch: Bool

    package init(directory: URL, scale: Int, inOneBatch: Bool = false) throws {
        self.directory = directory
        self.scale = scale
        self.inOneBatch = inOneBatch
        let store = try EngineStore.open(directory: directory, scale: scale, engine: inOneBatch ? .engineBatch : .engine)
        if inOneBatch { try store.beginBatch() }
        self.store = store
    }

    /// The batch given last, being made and prepared while the one before is written.
    private var next: NextBatch?

    /// Starts making and preparing `packages` and writes the batch given
    /// before (`SpotlightStore.prepare(_:)`): as an app with its next batch
    /// at hand, or `CSSearchableIndex` with its next request queued, the
    /// engine tokenizes one batch while it writes and commits the other.
    /// Each batch is still its own durable transaction; the last is
    /// written by ``waitForBackgroundWork()``.
    ///
    /// The packages become `SearchableItem`s on a thread of their own, as
    /// the app's side: Tantivy's driver builds its documents on Python's
    /// thread while Tantivy's indexing thread works. Made on the thread
    /// that then writes, they were ~9% of the writer's time, the critical
    /// path (perf, 63,666 items).
    package func index(_ packages: ArraySlice<DebianPackage>) throws -> Int {
        guard let store else { throw BenchError.failed("the engine's store is closed") }
        let current = next
        next = NextBatch(packages, store: store, prepares: !inOneBatch)
        guard let current else { return 0 }
        return try write(current, store)
    }

    /// One batch made into items in the background, and handed to
    /// `SpotlightStore.prepare(_:)` there unless the store keeps them in
    /// its open batch (which checks them only, and prepares them at its end).
    private final class NextBatch: @unchecked Sendable {
        // Unchecked: `made` is set once, before `done` is signalled, and read after waiting for it.
        private var made: (items: [SearchableItem], prepared: PreparedItems?)?
        private let done = DispatchSemaphore(value: 0)

        init(_ packages: ArraySlice<DebianPackage>, store: SpotlightStore, prepares: Bool) {
            DispatchQueue.global().async {
                let items = packages.map(EngineStore.item)
                self.made = (items, prepares ? store.prepare(items) : nil)
                self.done.signal()
            }
        }

        /// The batch's items, and their preparation if it was started.
        func value() -> (items: [SearchableItem], prepared: PreparedItems?) {
            done.wait()
            return made!
        }
    }

    private func write(_ batch: NextBatch, _ store: SpotlightStore) throws -> Int {
        let made = batch.value()
        let report = try made.prepared.map { try store.index(prepared: $0) } ?? store.index(made.items)
        for refusal in report.refused.prefix(3) {
            log("engine refused \(refusal.itemIdentifier): \(refusal.error)")
        }
        return report.refused.count
    }

    /// Writes the last batch, then waits for the ranked index's background
    /// merges (counted as indexing time: the phase calls this inside its timing).
    package func waitForBackgroundWork() throws -> Int {
        var refused = 0
        if let store, let last = next {
            next = nil
            refused = try write(last, store)
        }
        if let store, inOneBatch {
            let report = try store.endBatch(clientState: Data("\(scale)".utf8))
            for refusal in report.refused.prefix(3) {
                log("engine refused \(refusal.itemIdentifier): \(refusal.error)")
            }
            refused += report.refused.count
        }
        try store?.finishMerging()
        return refused
    }

    /// Closes the store, opens it again and asks its size: the database's
    /// pages as committed (SQLite's page count, whether or not the WAL was
    /// checkpointed into the file yet: a store object a background closure
    /// still held kept the last 64 MB of WAL out of the file in one run of
    /// three) and the ranked index's segment files. The text index is the
    /// ranked index.
    package func finish() throws -> (store: Int64, textIndex: Int64) {
        store = nil
        let reopened = try EngineStore.open(directory: directory, scale: scale, engine: inOneBatch ? .engineBatch : .engine)
        let usage = try reopened.pageUsage()
        var files = reopened.fileSize()
        if let file = reopened.fileURL {
            for path in [file.path, file.path + "-wal"] {
                files -= ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
            }
        }
        return (usage.pages * usage.pageSize + files, try reopened.rankedIndexStatistics().bytes)
    }
}

package final class EngineSearcher: BenchSearcher {
    package let store: SpotlightStore

    package init(directory: URL, scale: Int, engine: EngineKind = .engine) throws {
        store = try EngineStore.open(directory: directory, scale: scale, engine: engine)
    }

    package func supports(_ kind: QueryKind) -> Bool { true }

    /// Free text (`word`, `prefix`, `multi`) as a user types it: every word
    /// must match, the last as a prefix, ranked; a `word` query's word is
    /// typed whole, a space after it (``/RankedSearch/TextTokenizer/queryTerms(_:)``),
    /// as FTS5's and Tantivy's term queries take it. `substring` and
    /// `attribute` through the query language (``EngineQueryLanguage``),
    /// stopped after the first 20 matches in index order, as the fts5
    /// side's `LIMIT 20` without `ORDER BY` is.
    package func search(_ query: BenchQuery) throws -> [String] {
        switch query.kind {
        case .word, .prefix, .multi:
            let typed = query.kind == .word ? query.text + " " : query.text
            // Identifiers only, from the index (no row read), as Tantivy's driver reads one stored field.
            return try store.searchIdentifiers(typed, limit: Backends.limit).map(\.identifier)
        case .substring, .attribute:
            guard let text = EngineQueryLanguage.text(for: query) else { return [] }
            return try firstMatches(text, limit: Backends.limit)
        }
    }

    /// The identifiers of the first `limit` items a query-language string
    /// matches, in index order (``SpotlightStore/queryIdentifiers(_:limit:)``:
    /// from the index when it decides the whole query, as Tantivy's driver
    /// reads one stored field; otherwise the candidates' rows, checked).
    package func firstMatches(_ text: String, limit: Int) throws -> [String] {
        try store.queryIdentifiers(text, limit: limit)
    }
}

/// The query-language strings the engine runs for the kinds of
/// `queries.tsv` that are not free text. They match what the fts5 side's
/// SQL matches: `LIKE` is case-insensitive for ASCII (hence `c`), and the
/// fts5 `summary` column is the engine's `contentDescription`.
package enum EngineQueryLanguage {
    /// `*xyz*` → `title == "*xyz*"c || contentDescription == "*xyz*"c`;
    /// `section == X` → `section == "X"`; `installedSize > N` → `installedSize > N`;
    /// nil for free text (`SpotlightStore.search` answers it) and unknown attribute tests.
    package static func text(for query: BenchQuery) -> String? {
        switch query.kind {
        case .word, .prefix, .multi:
            return nil
        case .substring:
            let pattern = quoted("*" + escaped(query.infix) + "*")
            return "title == \(pattern)c || contentDescription == \(pattern)c"
        case .attribute:
            switch query.attribute {
            case .sectionEquals(let section): return "section == \(quoted(escaped(section)))"
            case .installedSizeAbove(let size): return "installedSize > \(size)"
            case nil: return nil
            }
        }
    }

    /// A string value of the query language: `"text"` (the text already escaped).
    package static func quoted(_ text: String) -> String { "\"" + text + "\"" }

    /// Escapes what is special in a quoted value: `\`, `"`, and the
    /// wildcards `*` and `?` (the query set's words are `[a-z]+`, so this
    /// is only a guard).
    package static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "\\" || character == "\"" || character == "*" || character == "?" { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
