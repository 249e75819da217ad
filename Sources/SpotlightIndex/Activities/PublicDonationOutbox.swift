public import Foundation
import GRDB

/// A donation to the public index waiting on the device: the hash of an
/// activity's public form and that public form, queued when the activity
/// became current, removed once the public index has answered for it.
///
/// The engine keeps them opaque (it knows nothing of the protocol):
/// ``hash`` is what is donated, ``content`` what is sent if the index asks.
public struct PendingPublicDonation: Sendable, Hashable {
    /// Random per donation: the index counts each id once, so a delivery
    /// retried after a lost answer counts nothing twice.
    public var id: UUID
    /// The SHA-256 of the activity's canonical public form, hex.
    public var hash: String
    /// The public fields as JSON, sent only when the index asks for them.
    public var content: Data
    public var queuedAt: Date
    /// Deliveries tried and not answered.
    public var attempts: Int
    /// Not tried again before this.
    public var notBefore: Date
    /// True once the index counted it and asked for the content, which is
    /// still to be sent.
    public var contentWanted: Bool
}

/// The app's outbox of public donations: a table of its activity store
/// (`public_outbox`), so a donation is durable as soon as the activity is
/// and survives the process; the system's sender delivers it later.
///
/// ```swift
/// try activities.queuePublicDonation(hash: hash.hex, content: json)
/// for donation in try activities.pendingPublicDonations(limit: 100) { … }
/// try activities.removePublicDonations([donation.id])
/// ```
///
/// At most ``maximumPending`` wait: past that the oldest are dropped (a
/// device that has not reached the index for that long has nothing to lose
/// but popularity counts).
extension UserActivityStore {
    /// The most donations one app's outbox keeps.
    public static let maximumPending = 10_000

    /// Queues a donation.
    @discardableResult
    public func queuePublicDonation(id: UUID = UUID(), hash: String, content: Data, at date: Date? = nil) throws -> PendingPublicDonation {
        let now = date ?? Date()
        try store.write { db in
            try Self.createOutbox(db)
            try db.execute(sql: "INSERT INTO public_outbox(id, hash, content, queued_at, attempts, not_before, content_wanted) VALUES (?, ?, ?, ?, 0, ?, 0)",
                           arguments: [id.uuidString, hash, content, now.timeIntervalSince1970, now.timeIntervalSince1970])
            try db.execute(sql: """
                DELETE FROM public_outbox WHERE rowid IN (
                    SELECT rowid FROM public_outbox ORDER BY queued_at DESC, rowid DESC LIMIT -1 OFFSET ?)
                """, arguments: [Self.maximumPending])
        }
        return PendingPublicDonation(id: id, hash: hash, content: content, queuedAt: now, attempts: 0, notBefore: now, contentWanted: false)
    }

    /// Donations due for delivery at `date`, oldest first.
    public func pendingPublicDonations(dueAt date: Date = Date(), limit: Int = 100) throws -> [PendingPublicDonation] {
        try store.read { db in
            guard try db.tableExists("public_outbox") else { return [] }
            return try Row.fetchAll(db, sql: """
                SELECT id, hash, content, queued_at, attempts, not_before, content_wanted FROM public_outbox
                WHERE not_before <= ? ORDER BY queued_at, rowid LIMIT ?
                """, arguments: [date.timeIntervalSince1970, max(0, limit)]).compactMap { row in
                guard let id = UUID(uuidString: row["id"]) else { return nil }
                return PendingPublicDonation(id: id, hash: row["hash"], content: row["content"],
                                             queuedAt: Date(timeIntervalSince1970: row["queued_at"]), attempts: row["attempts"],
                                             notBefore: Date(timeIntervalSince1970: row["not_before"]), contentWanted: row["content_wanted"])
            }
        }
    }

    /// How many donations wait, due or not.
    public func publicDonationCount() throws -> Int {
        try store.read { db in
            guard try db.tableExists("public_outbox") else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM public_outbox") ?? 0
        }
    }

    /// Forgets donations the index answered for.
    public func removePublicDonations(_ ids: [UUID]) throws {
        guard !ids.isEmpty else { return }
        try store.write { db in
            guard try db.tableExists("public_outbox") else { return }
            for id in ids { try db.execute(sql: "DELETE FROM public_outbox WHERE id = ?", arguments: [id.uuidString]) }
        }
    }

    /// Keeps donations for a later try: not before `date`, one more attempt counted.
    public func deferPublicDonations(_ ids: [UUID], until date: Date) throws {
        guard !ids.isEmpty else { return }
        try store.write { db in
            guard try db.tableExists("public_outbox") else { return }
            for id in ids {
                try db.execute(sql: "UPDATE public_outbox SET attempts = attempts + 1, not_before = ? WHERE id = ?",
                               arguments: [date.timeIntervalSince1970, id.uuidString])
            }
        }
    }

    /// Marks a donation as counted with its content asked for: only the content is still to send.
    public func markPublicContentWanted(_ id: UUID) throws {
        try store.write { db in
            guard try db.tableExists("public_outbox") else { return }
            try db.execute(sql: "UPDATE public_outbox SET content_wanted = 1 WHERE id = ?", arguments: [id.uuidString])
        }
    }

    /// Forgets every waiting donation (the user turned public indexing off).
    public func removeAllPublicDonations() throws {
        try store.write { db in
            guard try db.tableExists("public_outbox") else { return }
            try db.execute(sql: "DELETE FROM public_outbox")
        }
    }

    static func createOutbox(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS public_outbox(
                id TEXT PRIMARY KEY,
                hash TEXT NOT NULL,
                content BLOB NOT NULL,
                queued_at REAL NOT NULL,
                attempts INTEGER NOT NULL,
                not_before REAL NOT NULL,
                content_wanted INTEGER NOT NULL
            )
            """)
    }
}
