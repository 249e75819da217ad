import Foundation
import GRDB
import Logging

extension SpotlightStore {
    /// Searches what a user types: every word must match some text
    /// attribute, the last word as a prefix while it is typed (a space or
    /// punctuation after it says it is whole: `gtk ` does not find
    /// `gtkmm`); case, diacritics and width
    /// do not matter; Chinese and Japanese match by one or two characters,
    /// Korean words without their particles. Results are ranked by text
    /// relevance (title and display name first, then keywords, then the
    /// description, then other text), the app's `rankingHint`, engagement
    /// and recency; each explains its score.
    ///
    /// Answered by the store's ranked index (<doc:RankedIndex>), which
    /// reads only what can make the top `limit`; if the index is damaged it
    /// is rebuilt from the items first.
    ///
    /// ```swift
    /// let results = try store.search("zoe mar", limit: 5)   // finds "Zoë Martin"
    /// ```
    /// - Parameter text: what the user typed.
    /// - Parameter limit: at most this many results, best first (≥ 0).
    /// - Returns: nothing for text without a word in it.
    /// - Parameter statistics: IDF and average length from these (every
    ///   store a system search reads, summed: ``searchStatistics(_:)``)
    ///   rather than from this store alone, so that scores compare across
    ///   stores.
    /// - Parameter fetching: the attributes results carry, by name or by
    ///   the part before a dot (Core Spotlight's `fetchAttributes`); nil for
    ///   all. The others are not decoded, and with none the stored
    ///   attributes are not read: a search that shows identifiers only is
    ///   faster.
    ///
    /// ```swift
    /// let ids = try store.search("zoe", fetching: []).map(\.item.uniqueIdentifier)
    /// ```
    public func search(_ text: String, limit: Int = 20, statistics: SearchStatistics? = nil,
                       fetching: Set<String>? = nil) throws -> [SearchResult] {
        let terms = try searchedTerms(text, limit: limit)
        guard !terms.isEmpty else { return [] }
        return try withRankedIndex { try searchRanked(terms, limit: limit, statistics: statistics, fetching: fetching) }
    }

    /// The terms a search for `text` looks for, none when it has no word
    /// or `limit` is 0; a negative `limit` is refused.
    private func searchedTerms(_ text: String, limit: Int) throws -> [TextTokenizer.QueryTerm] {
        guard limit >= 0 else { throw SpotlightIndexError(.invalidArgument, "limit must not be negative (got \(limit))") }
        return limit > 0 ? TextTokenizer.queryTerms(text) : []
    }

    /// ``search(_:limit:statistics:fetching:)`` answering the matches'
    /// identifiers only, the same ones in the same order, read from the
    /// ranked index's segments, which keep each item's identifier: no
    /// item's row is read. For a list that shows identifiers, or fetches
    /// what it shows later (GNOME Shell's `GetInitialResultSet`, then
    /// `GetResultMetas`). At 63,666 items reading the 20 rows was about a
    /// third of a word query's instructions.
    ///
    /// ```swift
    /// let ids = try store.searchIdentifiers("zoe mar").map(\.identifier)   // ["zoe"]
    /// ```
    public func searchIdentifiers(_ text: String, limit: Int = 20, statistics: SearchStatistics? = nil) throws -> [IdentifiedResult] {
        let terms = try searchedTerms(text, limit: limit)
        guard !terms.isEmpty else { return [] }
        return try withRankedIndex {
            try memoizedRead { db, memo in
                let read = try ranked.readerSnapshot(db, memo: memo)
                let hits = try rankedHits(terms, limit: limit, statistics: statistics, segments: read, db)
                return try hits.map { hit in
                    guard let identifier = try RankedLookups.identifier(of: hit, in: read.segments) else {
                        throw SegmentError.corrupt("the index found item \(hit.rowid) in no live document")
                    }
                    return IdentifiedResult(identifier: identifier, score: hit.score)
                }
            }
        }
    }

    /// This store's share of the statistics a search for `text` scores
    /// with; sum them over stores (``/RankedSearch/SearchStatistics/add(_:)``) and pass
    /// the sum to each store's ``search(_:limit:statistics:fetching:)``.
    ///
    /// ```swift
    /// var all = store.searchStatistics("kiwi")
    /// all.add(try other.searchStatistics("kiwi"))
    /// ```
    public func searchStatistics(_ text: String) throws -> SearchStatistics {
        try searchStatistics(terms: TextTokenizer.queryTerms(text))
    }

    /// ``searchStatistics(_:)`` of text already split into words: a system
    /// search splits what was typed once for all its stores.
    package func searchStatistics(terms: [TextTokenizer.QueryTerm]) throws -> SearchStatistics {
        guard !terms.isEmpty else { return SearchStatistics() }
        return try withRankedIndex {
            try read { db in
                try RankedSearcher(segments: try ranked.snapshot(db), scoring: ranked.scoring, now: now.timeIntervalSince1970)
                    .statistics(of: RankedQuery(terms))
            }
        }
    }

    /// ``searchStatistics(terms:)`` from the segments this store's last
    /// search read (``systemSearchPart(_:limit:rows:statistics:typos:)``), without a
    /// transaction of its own (in one when nothing has searched the store
    /// yet), with the stamp of those segments.
    ///
    /// A system search asks every store for its statistics, then every store
    /// for its matches: two read transactions per store and keystroke, the
    /// first only to scale scores. With this one, the search compares the
    /// stamp with the one its matches were read under
    /// (``systemSearchPart(_:limit:rows:statistics:typos:)``) and, when a commit came
    /// between, scores again with statistics of what it read.
    ///
    /// ```swift
    /// let (statistics, stamp) = try store.recentSearchStatistics(terms: TextTokenizer.queryTerms("kiwi"))
    /// ```
    package func recentSearchStatistics(terms: [TextTokenizer.QueryTerm]) throws -> (statistics: SearchStatistics, stamp: RankedSnapshotStamp) {
        let read: (segments: [SegmentSnapshot], stamp: RankedSnapshotStamp)
        if let recent = ranked.recentSnapshot {
            read = recent
        } else {
            read = try withRankedIndex { try self.read { db in try ranked.readerSnapshot(db) } }
        }
        guard !terms.isEmpty else { return (SearchStatistics(), read.stamp) }
        let searcher = RankedSearcher(segments: read.segments, scoring: ranked.scoring, now: now.timeIntervalSince1970)
        let resolution = try ranked.resolutions.resolution(of: terms, stamp: read.stamp) { try searcher.resolution(of: RankedQuery(terms)) }
        return (searcher.statistics(of: resolution), read.stamp)
    }

    /// What a system search needs of this store, in one read transaction:
    /// the best `limit` matches for `terms` (as ``search(_:limit:statistics:fetching:)``),
    /// the store's engagement totals (``engagementTotals()``), from which
    /// its app's factor is made, and the stamp of the index it read.
    ///
    /// ```swift
    /// let part = try store.systemSearchPart(TextTokenizer.queryTerms("kiwi"), limit: 4, statistics: nil)
    /// print(part.results.count, part.totals.impressions)
    /// ```
    /// - Parameter typos: whether matches with typos are added when the
    ///   exact ones are fewer than `limit` (``rankedHits(_:limit:typos:statistics:segments:_:)``).
    /// - Parameter rows: the matches whose items are read (``shownCount(_:rows:)``);
    ///   `matches` counts them all: an app showing three results asks for
    ///   four to know whether it has more, and reads three.
    /// - Parameter fetching: the attributes the items hold (as ``search(_:limit:statistics:fetching:)``):
    ///   a system search's rows show a few, and making each item's other
    ///   attributes (strings, a dictionary entry each) was ~60% of reading it.
    package func systemSearchPart(_ terms: [TextTokenizer.QueryTerm], limit: Int, rows: Int = .max, statistics: SearchStatistics?,
                                  typos: Bool = true, fetching: FetchedAttributes? = nil) throws
        -> (results: [SearchResult], matches: Int, totals: (engagement: Double, impressions: Double), stamp: RankedSnapshotStamp)
    {
        try withRankedIndex {
            try memoizedRead({ db, memo in
                let totals = try decayedTotals(db, memo: memo)
                let (segments, stamp) = try ranked.readerSnapshot(db, memo: memo)
                guard !terms.isEmpty, limit > 0 else { return ([], 0, totals, stamp) }
                let hits = try rankedHits(terms, limit: limit, typos: typos, statistics: statistics, segments: (segments, stamp), db)
                return (try Self.results(of: Array(hits.prefix(Self.shownCount(hits, rows: rows))), keeping: fetching?.names, db), hits.count,
                        totals, stamp)
            })
        }
    }

    /// How many of `hits` (best first) a caller showing `rows` of them must
    /// read: the first `rows`, and those tied with the last of them (its
    /// caller breaks ties by identifier, which the hits do not know).
    static func shownCount(_ hits: [RankedHit], rows: Int) -> Int {
        guard rows > 0 else { return 0 }
        guard rows < hits.count else { return hits.count }
        let last = hits[rows - 1].score
        var count = rows
        while count < hits.count, hits[count].score.total == last.total, hits[count].score.typos == last.typos { count += 1 }
        return count
    }

    /// Runs `body` over the ranked index: once more when a segment file
    /// went missing (a writer may have merged it away after this reader's
    /// snapshot named it), and after rebuilding the index from the items
    /// when it is damaged.
    func withRankedIndex<T>(_ body: () throws -> T) throws -> T {
        do {
            do {
                return try body()
            } catch is SegmentError {
                return try body()
            }
        } catch let error as SegmentError {
            logger.warning("ranked index unusable (\(error)); rebuilding it from the store")
            try write { db in try ranked.rebuild(db) }
            return try body()
        }
    }

    /// The ranked index's answer (``RankedSearcher``), in one read transaction.
    func searchRanked(_ terms: [TextTokenizer.QueryTerm], limit: Int, typos: Bool = true,
                      statistics: SearchStatistics? = nil, fetching: Set<String>? = nil) throws -> [SearchResult] {
        try memoizedRead { db, memo in
            // On a reader slot, the segments it kept while the store is unchanged (``ReadMemo``).
            let segments = try memo.map { try ranked.readerSnapshot(db, memo: $0) }
            let hits = try rankedHits(terms, limit: limit, typos: typos, statistics: statistics, segments: segments, db)
            return try Self.results(of: hits, fetching: fetching, db)
        }
    }

    /// The items of `hits`, in their order, each read by one cached
    /// statement (`rowid = ?`) stepped through SQLite's C API
    /// (``StoredRow/eachItem(_:rowids:then:fetching:_:_:)``): a statement, a
    /// cursor and a row object per item through GRDB cost more than the
    /// B-tree seek, and one statement for them all (`rowid IN (…)`) first
    /// builds an ephemeral table of the rowids, whose first page (16 KB, as
    /// the store's) SQLite zeroes: ~35,000 instructions, more than reading
    /// the three rows a system search shows of a store.
    /// With `fetching`, items hold only the attributes it names (``StoredRow/eachItem(_:rowids:then:fetching:_:_:)``).
    static func results(of hits: [RankedHit], fetching: Set<String>? = nil, _ db: Database) throws -> [SearchResult] {
        try results(of: hits, keeping: fetching.map(AttributeCodec.FetchedNames.init), fetchesNone: fetching?.isEmpty == true, db)
    }

    /// ``results(of:fetching:_:)`` with the names to keep made already.
    static func results(of hits: [RankedHit], keeping: AttributeCodec.FetchedNames?, fetchesNone: Bool = false, _ db: Database) throws -> [SearchResult] {
        let columns = fetchesNone ? StoredRow.columnsWithoutAttributes : StoredRow.columns
        let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM \(StoredRow.tables) WHERE i.rowid = ?")
        return try hits.map { hit in
            var found: SearchableItem?
            try StoredRow.eachItem(statement, rowids: CollectionOfOne(hit.rowid), keeping: keeping, fetchesNone: fetchesNone, db) { _, stored in
                found = stored.item
                return false
            }
            guard let item = found else {
                throw SegmentError.corrupt("the index names item \(hit.rowid), which the store does not hold")
            }
            return SearchResult(item: item, score: hit.score)
        }
    }

    /// Rowids bound to one statement of the query language's candidate reads
    /// (``query(_:batchSize:cancellation:fetching:onBatch:)``): SQLite's limit on variables is far.
    static let itemsPerStatement = 64

    /// The best `limit` matches' rowids and scores, from the reader's
    /// snapshot: exact matches, then (when they are fewer than `limit` and
    /// `typos` allows) matches with typos in words of four letters or more,
    /// their text score scaled by ``/RankedSearch/RankingWeights/typoFactor``.
    /// `statistics` (several stores') score the exact tier; the typo tier
    /// uses this store's own, as its words are not the ones typed.
    /// `segments`: a snapshot already read, with its stamp (whose
    /// resolution of `terms` the statistics may have kept, ``ResolutionMemo``).
    func rankedHits(_ terms: [TextTokenizer.QueryTerm], limit: Int, typos: Bool = true, statistics: SearchStatistics? = nil,
                    segments: (segments: [SegmentSnapshot], stamp: RankedSnapshotStamp)? = nil, _ db: Database) throws -> [RankedHit] {
        let query = RankedQuery(terms)
        var searcher = RankedSearcher(segments: try segments?.segments ?? ranked.snapshot(db), scoring: ranked.scoring, now: now.timeIntervalSince1970)
        let verify = { (rowid: Int64) in try Self.holdsPhrases(query.phrases, rowid: rowid, db) }
        let resolution = try segments.map { read in
            try ranked.resolutions.resolution(of: terms, stamp: read.stamp) { [searcher] in try searcher.resolution(of: query) }
        }
        var hits = try searcher.search(query, limit: limit, collection: statistics, resolution: resolution, verify: verify)
        guard typos, hits.count < limit, let fuzzy = query.allowingTypos() else { return hits }
        func addTypoTier(_ fuzzy: RankedQuery) throws {
            let more = try searcher.search(fuzzy, limit: limit - hits.count, excluding: Set(hits.map(\.rowid)), verify: verify)
            hits += more.map { hit in
                var hit = hit
                hit.score = ranked.scoring.withTypos(hit.score)
                return hit
            }
        }
        try addTypoTier(fuzzy)
        // A first letter typed wrong is tried last, when the other typos
        // found fewer than a person looks at (``firstLetterTierBelow``).
        if hits.count < min(limit, Self.firstLetterTierBelow), let fuzzier = query.allowingTypos(firstLetter: true) {
            try addTypoTier(fuzzier)
        }
        return hits
    }

    /// Matches so far under which words are tried with their first letter
    /// as the typo: most typos keep the first letter, and trying every
    /// first letter costs a dictionary lookup per letter and segment.
    static let firstLetterTierBelow = 3

    /// True when some searched text attribute of the item holds each CJK
    /// run as one piece (what the phrase of its bigrams matches in FTS5).
    static func holdsPhrases(_ phrases: [String], rowid: Int64, _ db: Database) throws -> Bool {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(StoredRow.columns) FROM \(StoredRow.tables) WHERE i.rowid = ?"),
                                         arguments: [rowid]) else { return false }
        let texts = try StoredRow.attributes(row).compactMap { name, value -> [String]? in
            guard FullTextIndex.isSearched(name) else { return nil }
            switch value {
            case .string(let text): return [TextFolding.fold(text)]
            case .strings(let values): return values.map(TextFolding.fold)
            case .url(let url): return [TextFolding.fold(url.absoluteString)]
            default: return nil
            }
        }.joined()
        return phrases.allSatisfy { phrase in texts.contains { $0.contains(phrase) } }
    }

    /// The same search through the reference FTS5 table, every match scored
    /// by `bm25()`: what the ranked index is tested against. The table is
    /// built on demand (``FullTextIndex/buildReference(_:)``); stores keep none.
    func searchFullText(_ terms: [TextTokenizer.QueryTerm], limit: Int) throws -> [SearchResult] {
        let match = Self.ftsQuery(terms)
        let w = options.ranking
        let now = self.now.timeIntervalSince1970
        let scoring = ScoringSQL(weights: w)
        return try read { db in
            let ranked = try Row.fetchAll(db, sql: """
                SELECT i.rowid AS rowid, \(scoring.text) AS text, i.hint AS hint, \(scoring.engagement) AS eng,
                       i.recency AS recency
                FROM fts JOIN items i ON i.rowid = fts.rowid
                WHERE fts MATCH :match AND i.expires > :now
                ORDER BY \(scoring.total) DESC, i.rowid
                LIMIT :limit
                """, arguments: ["match": match, "now": now, "limit": limit])
            return try ranked.map { row in
                let stored = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(StoredRow.columns) FROM \(StoredRow.tables) WHERE i.rowid = ?"),
                                              arguments: [row["rowid"] as Int64])!
                return SearchResult(item: try StoredRow.item(stored).item,
                                    score: scoring.breakdown(text: row["text"], hint: row["hint"], engagement: row["eng"],
                                                             recency: row["recency"], now: now))
            }
        }
    }

    /// Builds the ranked index if the store has none, or one built by
    /// other code or with other weights; run when the store opens.
    func prepareRankedIndex() throws {
        if try read({ try ranked.isCurrent($0) }) { return }
        try write { db in
            if try !ranked.isCurrent(db) { try ranked.rebuild(db) }
        }
    }

    /// The FTS5 expression for the terms: each a quoted token (a prefix
    /// with `*`) or a quoted phrase of CJK bigrams, or'ed with its
    /// alternatives, all joined by AND. Tokens never contain quotes.
    static func ftsQuery(_ terms: [TextTokenizer.QueryTerm]) -> String {
        terms.map { term in
            let main = "\"" + term.tokens.joined(separator: " ") + "\"" + (term.isPrefix ? "*" : "")
            if term.alternatives.isEmpty { return main }
            return "(" + ([main] + term.alternatives.map { "\"" + $0 + "\"" }).joined(separator: " OR ") + ")"
        }.joined(separator: " AND ")
    }
}

/// The ranking formula of ``/RankedSearch/RankingWeights`` in SQL, for the reference
/// FTS5 search; the breakdown is the Swift formula the ranked index uses
/// (``/RankedSearch/RankingWeights/breakdown(text:hint:engagement:recency:now:matchQuality:quality:impressions:)``).
struct ScoringSQL {
    var weights: RankingWeights

    /// BM25 is negative in FTS5 (lower is better); negated here.
    var text: String {
        "-bm25(fts, \(weights.titleWeight), \(weights.keywordsWeight), \(weights.descriptionWeight), \(weights.otherTextWeight))"
    }

    /// Most items have no engagement and no dates: the CASEs spare them the math.
    var engagement: String {
        "CASE WHEN i.eng = 0 THEN 0 ELSE i.eng * pow(2.0, -max(0, :now - i.eng_at) / \(weights.engagementHalfLife)) END"
    }

    var total: String {
        """
        text * (1 + \(weights.rankingHint) * hint / 100.0)
        * CASE WHEN eng = 0 THEN 1 ELSE 1 + \(weights.engagement) * ln(1 + eng) END
        * CASE WHEN recency IS NULL THEN 1 ELSE 1 + \(weights.recency) * pow(2.0, -max(0, :now - recency) / \(weights.recencyHalfLife)) END
        """
    }

    func breakdown(text: Double, hint: Double, engagement: Double, recency: Double?, now: Double) -> ScoreBreakdown {
        weights.breakdown(text: text, hint: hint, engagement: engagement, recency: recency, now: now)
    }
}
