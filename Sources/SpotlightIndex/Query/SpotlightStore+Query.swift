import Foundation
import GRDB
public import SpotlightQuery
import Synchronization

/// Stops a running ``SpotlightStore/query(_:batchSize:cancellation:fetching:onBatch:)-(String,_,_,_,_)``
/// between two batches; safe to call from any thread.
///
/// ```swift
/// let cancellation = QueryCancellation()
/// DispatchQueue.global().asyncAfter(deadline: .now() + 1) { cancellation.cancel() }
/// let outcome = try store.query("** == \"*x*\"c", cancellation: cancellation) { batch in … }
/// ```
public final class QueryCancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    /// Asks the query to stop; it does before its next batch.
    public func cancel() { flag.store(true, ordering: .relaxed) }
    /// True once ``cancel()`` was called.
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}

/// How a query ended.
public struct QueryOutcome: Sendable, Hashable {
    /// Items that matched and were delivered.
    public var matchCount: Int
    /// True when it was cancelled before the end; ``matchCount`` counts what was delivered.
    public var wasCancelled: Bool
    /// Items the evaluator checked (the candidates the indexes gave).
    public var candidatesChecked: Int
}

extension SpotlightStore {
    /// Runs a query string of the Spotlight query language on this store,
    /// delivering matching items in batches, in the order they were first
    /// indexed (expired items excluded).
    ///
    /// ```swift
    /// let outcome = try store.query(#"title == "apple*"cd && rating >= 4"#) { batch in
    ///     for item in batch { print(item.uniqueIdentifier) }
    /// }
    /// print(outcome.matchCount)
    /// ```
    ///
    /// Results are exactly those of SpotlightQuery's `QueryEvaluator` on every
    /// item: the store's indexes pick candidates (see `QueryPlanner`), the
    /// evaluator checks each. `$time` values are resolved once, from the
    /// store's clock in ``StoreOptions/timeZone``. Unknown attributes
    /// match nothing.
    /// - Throws: `.invalidQuery` (with the column) for a malformed query,
    ///   before any batch; `.queryTooExpensive` when it runs past
    ///   ``StoreOptions/queryTimeBudget`` (batches delivered before stand);
    ///   errors thrown by `onBatch` stop the query.
    /// - Parameters:
    ///   - text: a query string of the Spotlight query language.
    ///   - batchSize: matches delivered per call of `onBatch`.
    ///   - cancellation: stops the query between two batches.
    ///   - fetching: the attributes the delivered items hold, as Core
    ///     Spotlight's `fetchAttributes` (a name, or the part before its
    ///     first dot); nil: all. Only these and the ones the query tests
    ///     are decoded, and with neither (`fetching: []` and a query of
    ///     item fields only) the stored attributes are not read.
    ///   - onBatch: called with each batch of matching items, in index order.
    @discardableResult
    public func query(_ text: String, batchSize: Int = 256, cancellation: QueryCancellation? = nil, fetching: Set<String>? = nil,
                      onBatch: ([SearchableItem]) throws -> Void) throws -> QueryOutcome {
        let expression: QueryExpression
        do {
            expression = try QueryParser.parse(text)
        } catch {
            throw SpotlightIndexError(.invalidQuery, "invalid query: \(error.description)", underlying: error)
        }
        return try query(expression, batchSize: batchSize, cancellation: cancellation, fetching: fetching, onBatch: onBatch)
    }

    /// Runs a parsed query; see ``query(_:batchSize:cancellation:fetching:onBatch:)-(String,_,_,_,_)``.
    @discardableResult
    public func query(_ expression: QueryExpression, batchSize: Int = 256, cancellation: QueryCancellation? = nil, fetching: Set<String>? = nil,
                      onBatch: ([SearchableItem]) throws -> Void) throws -> QueryOutcome {
        guard batchSize > 0 else { throw SpotlightIndexError(.invalidArgument, "batchSize must be positive (got \(batchSize))") }
        let now = self.now
        let evaluator = QueryEvaluator(now: now, timeZone: options.timeZone, firstWeekday: options.firstWeekday)
        let page = 512
        let budget = QueryBudget(seconds: options.queryTimeBudget)
        var checked = 0
        func tooExpensive() -> SpotlightIndexError {
            SpotlightIndexError(.queryTooExpensive, """
                the query ran past its time budget of \(Self.seconds(budget.seconds)) after checking \(checked) items; \
                make it more specific (fewer wildcards, a word instead of *fragment*, a named attribute instead of **) \
                or allow it more time (spotlight query --time-limit, StoreOptions.queryTimeBudget)
                """)
        }
        /// Words the infix fragments expanded to, in bytes: past a few MB the
        /// rest of the fragments are left to the evaluator.
        var wordBytes = 0
        /// The words of each fragment, found once per query.
        var wordsOfFragment: [String: [String]?] = [:]
        // What is decoded of each candidate: what the query tests and what
        // is fetched (everything for `*`, `**`, or no fetch set).
        let decoded = fetching.flatMap { fetch in expression.attributeNames.map { $0.union(fetch) } }
        // Delivered items drop what was decoded only to be tested.
        let strips = fetching != nil && decoded != fetching
        return try read { db in
            // The ranked index, read once per query; damaged, it only costs
            // speed here: no words or rowids → every item is a candidate.
            var segments: [SegmentSnapshot]?
            func snapshot() throws -> [SegmentSnapshot]? {
                if segments == nil { segments = try? self.ranked.snapshot(db) }
                return segments
            }
            let planner = QueryPlanner(evaluator: evaluator, wordsContaining: { fragment in
                if budget.isExhausted { throw tooExpensive() }
                if let known = wordsOfFragment[fragment] { return known }
                guard wordBytes < Self.maxInfixWordBytes, let segments = try snapshot() else { return nil }
                do {
                    let words = try RankedDictionary.words(containing: fragment, limit: QueryPlanner.maxInfixWords, in: segments)
                    wordBytes += words?.reduce(0) { $0 + $1.utf8.count } ?? 0
                    wordsOfFragment[fragment] = .some(words)
                    return words
                } catch is SegmentError { return nil }
            }, rowidsMatching: { terms, columns in
                if budget.isExhausted { throw tooExpensive() }
                guard let segments = try snapshot() else { return nil }
                do { return try RankedDictionary.rowids(matching: terms, columns: columns, in: segments) }
                catch is SegmentError { return nil }
            }, rowidsInRange: { name, range in
                guard let segments = try snapshot() else { return nil }
                do { return try RankedLookups.rowids(named: name, in: range, segments: segments) }
                catch is SegmentError { return nil }
            })
            let candidates = try planner.candidates(expression)
            var outcome = QueryOutcome(matchCount: 0, wasCancelled: false, candidatesChecked: 0)
            var batch: [SearchableItem] = []
            let expires = now.timeIntervalSince1970
            var matcher = evaluator.matcher(for: expression, budget: budget)
            /// Checks one stored row; false once the query must stop.
            func check(_ stored: StoredItem) throws -> Bool {
                let item = stored.item
                outcome.candidatesChecked += 1
                let matches = matcher.matches(QueryItem(item: item))
                checked = outcome.candidatesChecked
                // A match the budget cut short answered "no": nothing more is trusted.
                if budget.isExhausted { throw tooExpensive() }
                guard matches else { return true }
                if strips, let fetching {
                    var delivered = item
                    delivered.attributes = item.attributes.filter { StoredRow.isFetched($0.key, fetching) }
                    batch.append(delivered)
                } else {
                    batch.append(item)
                }
                guard batch.count == batchSize else { return true }
                if cancellation?.isCancelled == true { outcome.wasCancelled = true; return false }
                try onBatch(batch)
                outcome.matchCount += batch.count
                batch.removeAll(keepingCapacity: true)
                // A caller that has what it wants cancels from `onBatch`:
                // stop now, not after reading and checking another batch.
                if cancellation?.isCancelled == true { outcome.wasCancelled = true; return false }
                return true
            }
            if let candidates {
                // Candidates are read up to `itemsPerStatement` to a statement
                // (`rowid IN (…)`, which SQLite walks in rowid order without a
                // sort), each row read in place through SQLite's C API
                // (`StoredRow.eachItem`): one statement per candidate cost
                // more than its B-tree seek. A statement left early reads no
                // further row.
                var start = 0
                while start < candidates.count {
                    if cancellation?.isCancelled == true { outcome.wasCancelled = true; break }
                    let chunk = candidates[start..<min(start + Self.itemsPerStatement, candidates.count)]
                    start = chunk.endIndex
                    let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                    let statement = try db.cachedStatement(sql: """
                        SELECT \(StoredRow.columns) FROM \(StoredRow.tables)
                        WHERE i.rowid IN (\(placeholders)) AND i.expires > ? ORDER BY i.rowid
                        """)
                    var goesOn = true
                    try StoredRow.eachItem(statement, rowids: chunk, then: [expires], fetching: decoded, db) { _, stored in
                        goesOn = try check(stored)
                        return goesOn
                    }
                    guard goesOn else { break }
                }
            } else {
                // No index applies: every item, a page at a time.
                let statement = try db.makeStatement(sql: """
                    SELECT \(StoredRow.columns) FROM \(StoredRow.tables)
                    WHERE i.rowid > ? AND i.expires > ? ORDER BY i.rowid LIMIT \(page)
                    """)
                var after: Int64 = 0
                scan: while true {
                    if cancellation?.isCancelled == true { outcome.wasCancelled = true; break }
                    let rows = try Row.fetchAll(statement, arguments: [after, expires])
                    for row in rows {
                        guard try check(try StoredRow.item(row)) else { return outcome }
                    }
                    guard rows.count == page, let last = rows.last else { break scan }
                    after = last["rowid"]
                }
            }
            if !batch.isEmpty && !outcome.wasCancelled {
                try onBatch(batch)
                outcome.matchCount += batch.count
            }
            return outcome
        }
    }

    /// Most bytes of indexed words a query's infix fragments expand to (4 MB).
    static let maxInfixWordBytes = 4 << 20

    /// "10 s", "0.5 s".
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// Every item a query matches, in index order.
    ///
    /// ```swift
    /// let paris = try store.items(matching: #"title == "paris"cd"#)
    /// ```
    public func items(matching query: String) throws -> [SearchableItem] {
        var items: [SearchableItem] = []
        try self.query(query) { items += $0 }
        return items
    }
}
