import Foundation
import GRDB

extension SpotlightStore {
    /// Searches what a user types: every word must match some text
    /// attribute, the last word as a prefix; case, diacritics and width
    /// do not matter; Chinese and Japanese match by one or two characters,
    /// Korean words without their particles. Results are ranked by text
    /// relevance (title and display name first, then keywords, then the
    /// description, then other text), the app's `rankingHint`, engagement
    /// and recency; each explains its score.
    ///
    /// ```swift
    /// let results = try store.search("zoe mar", limit: 5)   // finds "Zoë Martin"
    /// ```
    /// - Parameter limit: at most this many results, best first (≥ 0).
    /// - Returns: nothing for text without a word in it.
    public func search(_ text: String, limit: Int = 20) throws -> [SearchResult] {
        guard limit >= 0 else { throw SpotlightIndexError(.invalidArgument, "limit must not be negative (got \(limit))") }
        let terms = TextTokenizer.queryTerms(text)
        guard !terms.isEmpty, limit > 0 else { return [] }
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

/// The ranking formula of ``RankingWeights`` in SQL, and the same formula
/// in Swift for the breakdown, so the two cannot drift apart.
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
        let hintFactor = 1 + weights.rankingHint * hint / 100
        let engagementFactor = 1 + weights.engagement * log(1 + engagement)
        let age = recency.map { max(0, now - $0) }
        let recencyFactor = 1 + (age.map { weights.recency * exp2(-$0 / weights.recencyHalfLife) } ?? 0)
        return ScoreBreakdown(text: text, rankingHint: hint, hintFactor: hintFactor, engagement: engagement,
                              engagementFactor: engagementFactor, age: age, recencyFactor: recencyFactor,
                              total: text * hintFactor * engagementFactor * recencyFactor)
    }
}
