public import Foundation
import GRDB

extension SpotlightStore {
    /// Records that the user viewed or selected an item; engagement lifts
    /// its rank, halving in weight every
    /// ``RankingWeights/engagementHalfLife``. It survives re-indexing the
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
                  let row = try Row.fetchOne(db, sql: "SELECT rowid, eng, eng_at FROM items WHERE rowid = ? AND expires > ?",
                                             arguments: [rowid, storeNow]) else {
                throw SpotlightIndexError(.itemNotFound, "no item \(StoreName.quoted(itemIdentifier)) in this store; index it before recording engagement", itemIdentifier: itemIdentifier)
            }
            let (score, scoreAt) = Self.accumulate(score: row["eng"], at: row["eng_at"], adding: weight, at: at,
                                                   halfLife: weights.engagementHalfLife)
            try db.execute(sql: "UPDATE items SET eng = ?, eng_at = ? WHERE rowid = ?", arguments: [score, scoreAt, row["rowid"] as Int64])
            ranked.changed(rowid: row["rowid"])
            try db.execute(sql: """
                INSERT INTO engagement(uid, views, selections, score, at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(uid) DO UPDATE SET views = views + excluded.views, selections = selections + excluded.selections,
                    score = excluded.score, at = excluded.at
                """, arguments: [itemIdentifier, kind == .view ? 1 : 0, kind == .selection ? 1 : 0, score, scoreAt])
        }
    }

    /// The engagement counts of an item (zero when it has none).
    public func engagement(ofItem identifier: String) throws -> EngagementSummary {
        let weights = options.ranking
        let now = self.now.timeIntervalSince1970
        return try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT views, selections, score, at FROM engagement WHERE uid = ?", arguments: [identifier]) else {
                return EngagementSummary(views: 0, selections: 0, lastEngagedAt: nil, score: 0)
            }
            let at: Double = row["at"]
            return EngagementSummary(views: row["views"], selections: row["selections"],
                                     lastEngagedAt: Date(timeIntervalSince1970: at),
                                     score: Self.decay(row["score"], age: now - at, halfLife: weights.engagementHalfLife))
        }
    }

    /// Adds `weight` at time `at` to a score last brought up to date at `scoreAt`.
    static func accumulate(score: Double, at scoreAt: Double, adding weight: Double, at: Double, halfLife: Double) -> (Double, Double) {
        if score == 0 { return (weight, at) }
        if at >= scoreAt { return (decay(score, age: at - scoreAt, halfLife: halfLife) + weight, at) }
        return (score + decay(weight, age: scoreAt - at, halfLife: halfLife), scoreAt)
    }

    static func decay(_ value: Double, age: Double, halfLife: Double) -> Double {
        value * exp2(-max(0, age) / halfLife)
    }
}
