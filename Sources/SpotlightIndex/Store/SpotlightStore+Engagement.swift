public import Foundation
import GRDB
import GRDBSQLite

extension SpotlightStore {
    /// Records that the user viewed or selected an item; engagement lifts
    /// its rank, halving in weight every
    /// ``/RankedSearch/RankingWeights/engagementHalfLife``. It survives re-indexing the
    /// item and goes when the item is deleted.
    ///
    /// ```swift
    /// try store.recordEngagement(.selection, itemIdentifier: "recipe-7")
    /// ```
    /// - Throws: `.itemNotFound` when no live item has the identifier.
    public func recordEngagement(_ kind: EngagementKind, itemIdentifier: String, at date: Date? = nil) throws {
        let at = (date ?? now).timeIntervalSince1970
        let weights = options.ranking
        let weight = kind == .view ? weights.viewWeight : weights.selectionWeight
        let storeNow = now.timeIntervalSince1970
        try write { db in
            guard let rowid = try fetchStoredRowid(uid: itemIdentifier, db),
                  let row = try Row.fetchOne(db, sql: "SELECT rowid, eng, imp, eng_at FROM items WHERE rowid = ? AND expires > ?",
                                             arguments: [rowid, storeNow]) else {
                throw SpotlightIndexError(.itemNotFound, "no item \(StoreName.quoted(itemIdentifier)) in this store; index it before recording engagement", subject: itemIdentifier)
            }
            let signals = Self.accumulate(EngagementSignals(engagement: row["eng"], impressions: row["imp"], at: row["eng_at"]),
                                          adding: EngagementSignals(engagement: weight, impressions: 0, at: at),
                                          halfLife: weights.engagementHalfLife)
            try db.execute(sql: "UPDATE items SET eng = ?, imp = ?, eng_at = ? WHERE rowid = ?",
                           arguments: [signals.engagement, signals.impressions, signals.at, row["rowid"] as Int64])
            ranked.changed(rowid: row["rowid"])
            try db.execute(sql: """
                INSERT INTO engagement(uid, views, selections, score, at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(uid) DO UPDATE SET views = views + excluded.views, selections = selections + excluded.selections,
                    score = excluded.score, at = excluded.at
                """, arguments: [itemIdentifier, kind == .view ? 1 : 0, kind == .selection ? 1 : 0, signals.engagement, signals.at])
            try addToTotals(EngagementSignals(engagement: weight, impressions: 0, at: at), db)
        }
    }

    /// Records that items were shown to the user in results (impressions),
    /// all in one transaction; identifiers of no live item are ignored, and
    /// an identifier given twice counts once. An item shown often and
    /// rarely chosen sinks (``/RankedSearch/RankingWeights/passedOverFactor(engagement:impressions:)``),
    /// gradually, and rises again as impressions decay (they halve with
    /// engagement, every ``/RankedSearch/RankingWeights/engagementHalfLife``) or when it
    /// is chosen; the store's totals weigh its app in system search.
    ///
    /// ```swift
    /// let shown = try store.search("pear", limit: 3)
    /// try store.recordImpressions(itemIdentifiers: shown.map(\.item.uniqueIdentifier))
    /// ```
    /// - Parameter itemIdentifiers: the items shown.
    /// - Parameter date: when they were shown (now by default).
    public func recordImpressions(itemIdentifiers: [String], at date: Date? = nil) throws {
        var seen = Set<String>()
        let identifiers = itemIdentifiers.filter { seen.insert($0).inserted }
        guard !identifiers.isEmpty else { return }
        let at = (date ?? now).timeIntervalSince1970
        let halfLife = options.ranking.engagementHalfLife
        let storeNow = now.timeIntervalSince1970
        try write { db in
            var shown = 0.0
            for identifier in identifiers {
                guard let rowid = try fetchStoredRowid(uid: identifier, db),
                      let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT eng, imp, eng_at FROM items WHERE rowid = ? AND expires > ?"),
                                                 arguments: [rowid, storeNow]) else { continue }
                let signals = Self.accumulate(EngagementSignals(engagement: row["eng"], impressions: row["imp"], at: row["eng_at"]),
                                              adding: EngagementSignals(engagement: 0, impressions: 1, at: at), halfLife: halfLife)
                try db.cachedStatement(sql: "UPDATE items SET eng = ?, imp = ?, eng_at = ? WHERE rowid = ?")
                    .execute(arguments: [signals.engagement, signals.impressions, signals.at, rowid])
                ranked.changed(rowid: rowid)
                try db.cachedStatement(sql: """
                    INSERT INTO engagement(uid, impressions) VALUES (?, 1)
                    ON CONFLICT(uid) DO UPDATE SET impressions = impressions + 1
                    """).execute(arguments: [identifier])
                shown += 1
            }
            if shown > 0 { try addToTotals(EngagementSignals(engagement: 0, impressions: shown, at: at), db) }
        }
    }

    /// The store's engagement and impressions over all its items, decayed
    /// to now: what its app's factor in system search is made of
    /// (``/RankedSearch/RankingWeights/appPassedOverFactor(engagement:impressions:)``).
    public func engagementTotals() throws -> (engagement: Double, impressions: Double) {
        try read { db in try decayedTotals(db) }
    }

    /// ``engagementTotals()`` within a transaction the caller holds.
    /// - Parameter memo: where the totals read are kept while the store is unchanged (``ReadMemo``).
    func decayedTotals(_ db: Database, memo: ReadMemo? = nil) throws -> (engagement: Double, impressions: Double) {
        let totals = try memo?.totals ?? Self.totals(db)
        memo?.totals = totals
        let decay = exp2(-max(0, now.timeIntervalSince1970 - totals.at) / options.ranking.engagementHalfLife)
        return (totals.engagement * decay, totals.impressions * decay)
    }

    /// `meta`'s running totals of engagement and impressions, in one
    /// statement: a system search reads them from every store per
    /// keystroke, and three lookups of a key each were 3.6% of its CPU.
    static func totals(_ db: Database) throws -> EngagementSignals {
        var totals = EngagementSignals(engagement: 0, impressions: 0, at: 0)
        try db.cachedStatement(sql: totalsSQL).eachRow(db) { row in
            // (A NULL value reads as 0, as before.)
            let value = sqlite3_column_double(row, 1)
            switch sqlite3_column_int64(row, 0) {
            case 0: totals.engagement = value
            case 1: totals.impressions = value
            default: totals.at = value
            }
            return true
        }
        return totals
    }

    /// The three totals' rows, each with its place in ``EngagementSignals``:
    /// three lookups of a key joined by `UNION ALL` (with `key IN (…)`,
    /// SQLite first built an ephemeral table of the three keys and zeroed
    /// its 16 KB page, ~35,000 instructions a store and keystroke).
    static let totalsSQL = """
        SELECT 0, value FROM meta WHERE key = 'chosen_total'
        UNION ALL SELECT 1, value FROM meta WHERE key = 'shown_total'
        UNION ALL SELECT 2, value FROM meta WHERE key = 'totals_at'
        """

    private func addToTotals(_ added: EngagementSignals, _ db: Database) throws {
        let totals = Self.accumulate(try Self.totals(db), adding: added, halfLife: options.ranking.engagementHalfLife)
        try db.setMeta("chosen_total", totals.engagement)
        try db.setMeta("shown_total", totals.impressions)
        try db.setMeta("totals_at", totals.at)
    }

    /// The engagement counts of an item (zero when it has none).
    public func engagement(ofItem identifier: String) throws -> EngagementSummary {
        let weights = options.ranking
        let now = self.now.timeIntervalSince1970
        return try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT views, selections, score, at, impressions FROM engagement WHERE uid = ?",
                                             arguments: [identifier]) else {
                return EngagementSummary(views: 0, selections: 0, lastEngagedAt: nil, score: 0)
            }
            let at: Double = row["at"]
            let engaged = (row["views"] as Int) + (row["selections"] as Int) > 0
            return EngagementSummary(views: row["views"], selections: row["selections"],
                                     lastEngagedAt: engaged ? Date(timeIntervalSince1970: at) : nil,
                                     score: Self.decay(row["score"], age: now - at, halfLife: weights.engagementHalfLife),
                                     impressions: row["impressions"])
        }
    }

    /// Engagement and impressions as of a time (both decay alike).
    struct EngagementSignals {
        var engagement: Double
        var impressions: Double
        var at: Double
    }

    /// `added` (at its time) added to `signals` (as of theirs): both are
    /// brought to the later time, the earlier one decayed.
    static func accumulate(_ signals: EngagementSignals, adding added: EngagementSignals, halfLife: Double) -> EngagementSignals {
        if signals.engagement == 0 && signals.impressions == 0 { return added }
        if added.at >= signals.at {
            let decay = exp2(-(added.at - signals.at) / halfLife)
            return EngagementSignals(engagement: signals.engagement * decay + added.engagement,
                                     impressions: signals.impressions * decay + added.impressions, at: added.at)
        }
        let decay = exp2(-(signals.at - added.at) / halfLife)
        return EngagementSignals(engagement: signals.engagement + added.engagement * decay,
                                 impressions: signals.impressions + added.impressions * decay, at: signals.at)
    }

    static func decay(_ value: Double, age: Double, halfLife: Double) -> Double {
        value * exp2(-max(0, age) / halfLife)
    }
}
