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
    /// evaluator checks each. Candidates are found a window of each
    /// segment's documents at a time, in rowid order, so a query cancelled
    /// after its first matches reads only the start of its posting lists
    /// (at 1M items, the first 20 items of `section == "libs"` 2.4 →
    /// 0.46 ms at p50). `$time` values are resolved once, from the
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
        try query(expression, batchSize: batchSize, cancellation: cancellation, fetching: fetching, firstWindow: Self.firstQueryWindow, onBatch: onBatch)
    }

    /// Documents in a segment's first window of candidates; each next
    /// window is four times the last (``windowedSegments(_:)``).
    static let firstQueryWindow = 1_024

    /// ``query(_:batchSize:cancellation:fetching:onBatch:)-(QueryExpression,_,_,_,_)`` with the first window's size (tests make it small).
    func query(_ expression: QueryExpression, batchSize: Int, cancellation: QueryCancellation?, fetching: Set<String>?, firstWindow: Int,
               onBatch: ([SearchableItem]) throws -> Void) throws -> QueryOutcome {
        try matches(expression, batchSize: batchSize, cancellation: cancellation, fetching: fetching, firstWindow: firstWindow,
                    fromIndex: nil, item: { $0 }, onBatch: onBatch)
    }

    /// The identifiers of the first `limit` items a query string matches,
    /// in the order ``query(_:batchSize:cancellation:fetching:onBatch:)-(String,_,_,_,_)``
    /// delivers them (index order), the same ones. Where the index alone
    /// decides the whole query (a number or date compared with an
    /// attribute, a short string an attribute equals, `&&` and `||` of
    /// those: see `QueryPlanner`), identifiers are read from the index and
    /// no item's row is; otherwise candidates' rows are read and checked.
    /// For a list that shows identifiers, or fetches what it shows later.
    ///
    /// ```swift
    /// let ids = try store.queryIdentifiers(#"section == "libs" && installedSize > 1000"#, limit: 20)
    /// ```
    /// - Throws: as ``query(_:batchSize:cancellation:fetching:onBatch:)-(String,_,_,_,_)``;
    ///   `.invalidArgument` for a `limit` below 1.
    public func queryIdentifiers(_ text: String, limit: Int = 20) throws -> [String] {
        guard limit > 0 else { throw SpotlightIndexError(.invalidArgument, "limit must be positive (got \(limit))") }
        let expression: QueryExpression
        do {
            expression = try QueryParser.parse(text)
        } catch {
            throw SpotlightIndexError(.invalidQuery, "invalid query: \(error.description)", underlying: error)
        }
        return try queryIdentifiers(expression, limit: limit, firstWindow: Self.firstQueryWindow).identifiers
    }

    /// ``queryIdentifiers(_:limit:)`` of a parsed query, with the first window's size, and how it ended (tests).
    func queryIdentifiers(_ expression: QueryExpression, limit: Int, firstWindow: Int) throws -> (identifiers: [String], outcome: QueryOutcome) {
        let cancellation = QueryCancellation()
        var identifiers: [String] = []
        identifiers.reserveCapacity(limit)
        let outcome = try matches(expression, batchSize: limit, cancellation: cancellation, fetching: [], firstWindow: firstWindow,
                                  fromIndex: { $0 }, item: \.uniqueIdentifier, onBatch: { batch in
                                      identifiers += batch.prefix(limit - identifiers.count)
                                      if identifiers.count >= limit { cancellation.cancel() }
                                  })
        return (identifiers, outcome)
    }

    /// Runs a query, delivering each match as `item` makes it of the row
    /// read, or, with `fromIndex`, as it makes it of the identifier the
    /// index holds when the planner's candidates are exact (no row read).
    func matches<Match>(_ expression: QueryExpression, batchSize: Int, cancellation: QueryCancellation?, fetching: Set<String>?,
                        firstWindow: Int, fromIndex: ((String) -> Match)?, item makeMatch: (SearchableItem) -> Match,
                        onBatch: ([Match]) throws -> Void) throws -> QueryOutcome {
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
            // Where the index is read: every segment, or one segment's doc
            // window (``windowedSegments(_:)``), each window's candidates
            // read and checked before the next window's are found.
            var scope: (segment: Int, docs: Range<Int>)?
            /// The segments the scope reads: its one, or all.
            func scoped(_ segments: [SegmentSnapshot]) -> [SegmentSnapshot] { scope.map { [segments[$0.segment]] } ?? segments }
            /// Each segment's documents with a typed value in a range, built once per query.
            var rangeDocuments: [RangeKey: SegmentDocuments?] = [:]
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
            }, rowidsMatching: { terms, columns, certainColumns in
                if budget.isExhausted { throw tooExpensive() }
                guard let segments = try snapshot() else { return nil }
                // Certain candidates matter only where they are answered from the index.
                let certainColumns = fromIndex == nil ? 0 : certainColumns
                do {
                    guard let scope else {
                        return try RankedDictionary.rowids(matching: terms, columns: columns, certainColumns: certainColumns, in: segments)
                    }
                    return try RankedDictionary.rowids(matching: terms, columns: columns, certainColumns: certainColumns,
                                                       in: segments[scope.segment], docs: scope.docs)
                } catch is SegmentError { return nil }
            }, rowidsWithIdentifier: { identifier in
                guard let segments = try snapshot() else { return nil }
                do {
                    guard let scope else { return try RankedLookups.rowids(identifier: identifier, in: segments) }
                    return try RankedLookups.rowids(identifier: identifier, in: [segments[scope.segment]], docs: scope.docs)
                } catch is SegmentError { return nil }
            }, listsExactValues: { attribute in
                guard let segments = try snapshot() else { return false }
                do {
                    for snapshot in scoped(segments) {
                        guard try ExactValues.lists(attribute: attribute, in: snapshot.segment) else { return false }
                    }
                    return true
                } catch is SegmentError { return false }
            }, rowidsInRange: { name, range in
                guard let segments = try snapshot() else { return nil }
                do {
                    guard let scope else { return try RankedLookups.rowids(named: name, in: range, segments: segments) }
                    let key = RangeKey(name: name, range: range, segment: scope.segment)
                    let snapshot = segments[scope.segment]
                    if rangeDocuments[key] == nil { rangeDocuments[key] = .some(try RankedLookups.documents(named: name, in: range, snapshot: snapshot)) }
                    var out: [Int64] = []
                    if case .some(.some(let documents)) = rangeDocuments[key] { snapshot.appendLiveRowids(of: documents, docs: scope.docs, to: &out) }
                    return out
                } catch is SegmentError { return nil }
            })
            var outcome = QueryOutcome(matchCount: 0, wasCancelled: false, candidatesChecked: 0)
            var batch: [Match] = []
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
                    return try deliver(makeMatch(delivered))
                }
                return try deliver(makeMatch(item))
            }
            /// Adds a match to the batch, delivering it when full; false once the query must stop.
            func deliver(_ match: Match) throws -> Bool {
                batch.append(match)
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
            /// Reads and checks candidates, ascending; false once the query
            /// must stop. Exact candidates, when answering identifiers, are
            /// answered from the index (the expired left out): no row is read.
            /// Certain ones among others are too, in their place: the rows
            /// before each are read and checked first.
            func read(_ plan: QueryPlanner.Candidates) throws -> Bool {
                if !plan.exact, !plan.certain.isEmpty, fromIndex != nil {
                    var start = 0
                    for rowid in plan.certain {
                        guard let end = plan.rowids[start...].firstIndex(of: rowid) else { continue }
                        guard try read(QueryPlanner.Candidates(Array(plan.rowids[start..<end]))),
                              try read(QueryPlanner.Candidates([rowid], exact: true)) else { return false }
                        start = end + 1
                    }
                    return try read(QueryPlanner.Candidates(Array(plan.rowids[start...])))
                }
                var candidates = plan.rowids
                if plan.exact, let fromIndex, let segments = try snapshot() {
                    let holders = scoped(segments)
                    var position = 0
                    do {
                        while position < candidates.count {
                            if cancellation?.isCancelled == true { outcome.wasCancelled = true; return false }
                            if let identifier = try RankedLookups.identifier(of: candidates[position], in: holders, unexpiredAt: expires) {
                                guard try deliver(fromIndex(identifier)) else { return false }
                            }
                            position += 1
                        }
                        return true
                    } catch is SegmentError {
                        candidates.removeFirst(position)  // a damaged segment: the rows answer the rest
                    }
                }
                // Candidates are read up to `itemsPerStatement` to a statement
                // (`rowid IN (…)`, which SQLite walks in rowid order without a
                // sort), each row read in place through SQLite's C API
                // (`StoredRow.eachItem`): one statement per candidate cost
                // more than its B-tree seek. A statement left early reads no
                // further row.
                var start = 0
                while start < candidates.count {
                    if cancellation?.isCancelled == true { outcome.wasCancelled = true; return false }
                    let chunk = candidates[start..<min(start + Self.itemsPerStatement, candidates.count)]
                    start = chunk.endIndex
                    let rowids = Self.padded(chunk)
                    let statement = try db.cachedStatement(sql: Self.rowsSQL(count: rowids.count))
                    var goesOn = true
                    try StoredRow.eachItem(statement, rowids: rowids, then: [expires], fetching: decoded, db) { _, stored in
                        goesOn = try check(stored)
                        return goesOn
                    }
                    guard goesOn else { return false }
                }
                return true
            }
            /// Checks every item past rowid `after`, a page at a time: no index applies.
            func scan(after first: Int64) throws {
                let statement = try db.cachedStatement(sql: """
                    SELECT \(StoredRow.columns) FROM \(StoredRow.tables)
                    WHERE i.rowid > ? AND i.expires > ? ORDER BY i.rowid LIMIT \(page)
                    """)
                var after = first
                while true {
                    if cancellation?.isCancelled == true { outcome.wasCancelled = true; return }
                    let rows = try Row.fetchAll(statement, arguments: [after, expires])
                    for row in rows {
                        guard try check(try StoredRow.item(row)) else { return }
                    }
                    guard rows.count == page, let last = rows.last else { return }
                    after = last["rowid"]
                }
            }
            if let segments = try snapshot(), let order = Self.windowedSegments(segments) {
                // Window by window, segment by segment, in rowid order: a
                // query cancelled after its first matches found only the
                // candidates of the windows it read.
                var windowsRead = false
                windows: for index in order {
                    let segment = segments[index].segment
                    var low = 0, width = firstWindow
                    while low < segment.documentCount {
                        scope = (index, low..<min(low + width, segment.documentCount))
                        guard let candidates = try planner.candidates(expression) else {
                            // No index answers (or a damaged segment): every
                            // item from here on, checked in order.
                            try scan(after: windowsRead ? segment.rowid(low) - 1 : 0)
                            break windows
                        }
                        windowsRead = true
                        guard try read(candidates) else { break windows }
                        low += width
                        width *= 4
                    }
                }
            } else if let candidates = try planner.candidates(expression) {
                _ = try read(candidates)
            } else {
                try scan(after: 0)
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

    /// The segments' indexes in rowid order when candidates can be read a
    /// doc window at a time: every segment's doc ids follow its rowids
    /// (``/RankedSearch/Segment/isInRowidOrder``, true unless a merge took
    /// in replaced items) and no two segments' rowids interleave. Then a
    /// window's candidates come before every later window's. Nil
    /// otherwise: the whole candidate list is found first, as for a store
    /// whose segments do interleave.
    static func windowedSegments(_ segments: [SegmentSnapshot]) -> [Int]? {
        var ranges: [(index: Int, rowids: ClosedRange<Int64>)] = []
        for (index, snapshot) in segments.enumerated() where snapshot.segment.documentCount > 0 {
            guard let rowids = snapshot.segment.rowidRange, snapshot.segment.isInRowidOrder else { return nil }
            ranges.append((index, rowids))
        }
        ranges.sort { $0.rowids.lowerBound < $1.rowids.lowerBound }
        for (before, after) in zip(ranges, ranges.dropFirst()) where before.rowids.upperBound >= after.rowids.lowerBound { return nil }
        return ranges.isEmpty ? nil : ranges.map(\.index)
    }

    /// The statement reading `count` candidates' rows (`rowid IN (?, …)`), its text made once per count.
    static func rowsSQL(count: Int) -> String { rowsSQLByCount[count] }

    /// `rowids` (at most ``itemsPerStatement``, ascending) made a power of
    /// two long by repeating the last, which `IN` reads once: the reads
    /// use seven statements per connection, not one per count. A statement
    /// prepared anew (its 64 parameters and join parsed) costs ~270,000
    /// instructions, more than reading its rows, and windows of growing
    /// width make every count.
    ///
    /// ```swift
    /// SpotlightStore.padded([3, 7, 9][...])  // [3, 7, 9, 9]
    /// ```
    static func padded(_ rowids: ArraySlice<Int64>) -> [Int64] {
        guard let last = rowids.last else { return [] }
        var size = 1
        while size < rowids.count { size <<= 1 }
        var out = Array(rowids)
        out.append(contentsOf: repeatElement(last, count: min(size, itemsPerStatement) - rowids.count))
        return out
    }

    private static let rowsSQLByCount: [String] = (0...itemsPerStatement).map { count in
        """
        SELECT \(StoredRow.columns) FROM \(StoredRow.tables)
        WHERE i.rowid IN (\(Array(repeating: "?", count: count).joined(separator: ","))) AND i.expires > ? ORDER BY i.rowid
        """
    }

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

/// A typed-value lookup of one segment, as a query's windows share it.
private struct RangeKey: Hashable {
    var name: String
    var range: NumberRange
    var segment: Int
}
