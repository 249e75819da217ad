import Foundation
import PostgresNIO
public import PublicIndexProtocol

extension PublicIndex {
    /// Counts a device's donations, in order: on one node in one transaction
    /// (one commit), else — or when that fails — each in a transaction of its own.
    ///
    /// ```swift
    /// let outcomes = try await index.donate(DonationBatch(token: token, donations: [Donation(app: "com.example.recipes", hash: hash)]))
    /// if outcomes[0].status == .wanted { /* send the content */ }
    /// ```
    /// - Returns: one outcome per donation; ``DonationStatus/deferred`` for
    ///   those whose shard did not answer (nothing was counted for them).
    /// - Throws: ``PublicIndexProtocolError`` for a batch that breaks a rule
    ///   (nothing is counted then); ``PublicIndexError`` `.database`.
    public func donate(_ batch: DonationBatch) async throws -> [DonationOutcome] {
        try batch.validate()
        // With shards, each shard runs its part in repeatable read: two batches holding one popular
        // tally would fail each other and fall back anyway (measured: 0.7× the donations per second).
        if layout.shards.isEmpty, batch.donations.count > 1, let together = await donateTogether(batch) {
            return try await answeringRepeats(together, of: batch)
        }
        var outcomes: [DonationOutcome] = []
        outcomes.reserveCapacity(batch.donations.count)
        for donation in batch.donations {
            outcomes.append(DonationOutcome(id: donation.id, status: try await donate(donation, token: batch.token)))
        }
        return try await answeringRepeats(outcomes, of: batch)
    }

    /// A repeated donation (its id counted before) is answered `wanted`
    /// while its hash is over the threshold without content, as it was the
    /// first time: that answer may have been lost with the rest of its
    /// batch (with shards each donation commits alone; a later one failed,
    /// and the device sent the batch again), and the content would then
    /// never be asked for. Left `duplicate` when the shard does not answer.
    func answeringRepeats(_ outcomes: [DonationOutcome], of batch: DonationBatch) async throws -> [DonationOutcome] {
        var outcomes = outcomes
        for (place, outcome) in outcomes.enumerated() where outcome.status == .duplicate {
            guard let donation = batch.donations.first(where: { $0.id == outcome.id }) else { continue }
            let query = try Self.query("SELECT users >= $3 AND NOT has_content FROM tallies WHERE site = $1 AND hash = $2",
                                       [donation.app, Data(donation.hash.bytes), configuration.threshold])
            do {
                if try await rows(query).first?.decode(Bool.self) == true { outcomes[place].status = .wanted }
            } catch let error as PublicIndexError where error.code == .shardUnavailable {
                continue
            }
        }
        return outcomes
    }

    /// The whole batch in one transaction: one commit (one WAL flush) instead
    /// of one per donation. Nil when anything fails — a shard down, a
    /// serialization failure — and the caller counts them one by one: a
    /// donation this transaction did commit on some shard is recognised by
    /// its id then, so nothing counts twice.
    ///
    /// The donations run in (site, hash) order, the same in every
    /// transaction, so that two batches never wait on each other's tallies
    /// in a cycle (which no shard alone could detect).
    func donateTogether(_ batch: DonationBatch) async -> [DonationOutcome]? {
        do {
            let ordered = batch.donations.sorted { ($0.app, $0.hash.hex) < ($1.app, $1.hash.hex) }
            let queries = try ordered.map { try donateQuery($0, token: batch.token) }
            let logger = self.logger
            let statuses: [String] = try await client.withTransaction(logger: logger) { connection in
                var statuses: [String] = []
                for query in queries {
                    for try await status in try await connection.query(query, logger: logger).decode(String.self) { statuses.append(status) }
                }
                return statuses
            }
            var byID: [UUID: DonationStatus] = [:]
            for (donation, status) in zip(ordered, statuses) { byID[donation.id] = DonationStatus(rawValue: status) }
            let outcomes = batch.donations.compactMap { donation in byID[donation.id].map { DonationOutcome(id: donation.id, status: $0) } }
            return outcomes.count == batch.donations.count ? outcomes : nil
        } catch {
            return nil
        }
    }

    func donateQuery(_ donation: Donation, token: DeviceToken) throws -> PostgresQuery {
        try Self.query("SELECT public_donate($1, $2, $3, $4, $5::integer)",
                       [donation.app, Data(donation.hash.bytes), secret.donor(of: donation.hash, token: token), donation.id, configuration.threshold])
    }

    func donate(_ donation: Donation, token: DeviceToken) async throws -> DonationStatus {
        let query = try donateQuery(donation, token: token)
        do {
            guard let status = try await rows(query).first.flatMap({ try? $0.decode(String.self) }).flatMap(DonationStatus.init(rawValue:)) else {
                throw PublicIndexError(.database, "public_donate gave no status")
            }
            return status
        } catch let error as PublicIndexError where error.code == .shardUnavailable {
            logger.warning("donation deferred: \(error.message)")
            return .deferred
        }
    }

    /// Stores an activity's public content, if its hash is wanted and the
    /// content hashes to it.
    ///
    /// ```swift
    /// let status = try await index.submitContent(content, for: hash, token: token)   // .stored
    /// ```
    /// - Throws: ``PublicIndexProtocolError`` `.invalidContent`/`.invalidApp`
    ///   or `.hashMismatch`; ``PublicIndexError`` `.notWanted` below the
    ///   threshold (nothing is stored), `.shardUnavailable`.
    public func submitContent(_ content: PublicActivityContent, for hash: ActivityHash, token: DeviceToken) async throws -> ContentStatus {
        try content.validate()
        let actual = ActivityHash(of: content)
        guard actual == hash else {
            throw PublicIndexProtocolError(.hashMismatch, "the content's canonical form hashes to \(actual.hex), not \(hash.hex); send the activity type, locator and title that were hashed")
        }
        let keywords = content.keywords
        let query = try Self.query("SELECT public_store_activity($1, $2, $3::integer, $4, $5, $6, $7, $8, $9, $10)", [
            content.app, Data(hash.bytes), configuration.threshold, content.normalizedTitle, content.contentDescription,
            keywords, content.webpageURL.map { PublicActivityContent.normalizedURL($0) }, content.thumbnailURL?.absoluteString,
            content.activityType, content.publicIdentifier,
        ])
        let answer = try await rows(query).first.flatMap { try? $0.decode(String.self) }
        switch answer {
        case "stored": return .stored
        case "already-stored": return .alreadyStored
        case "not-wanted":
            throw PublicIndexError(.notWanted, "\(hash.hex) has not been donated by \(configuration.threshold) devices; its content is not accepted")
        default:
            throw PublicIndexError(.database, "public_store_activity gave \(answer ?? "nothing")")
        }
    }

    /// Gathers the planner's statistics of every partition, the shards'
    /// too (autovacuum does not analyze foreign tables). Without them the
    /// coordinator does not know a shard's partition is large, and sorts
    /// its matches itself instead of having the shard return only its best:
    /// the service runs this every few minutes.
    /// Maintenance, not a request: it may run past the 15 s a statement may
    /// (sampling a million rows on the shards through the coordinator does).
    public func refreshStatistics() async throws {
        do {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SET LOCAL statement_timeout = '10min'", logger: self.logger)
                try await connection.query("ANALYZE items, tallies", logger: self.logger)
            }
        } catch {
            throw DatabaseFailure(error).error
        }
    }

    /// Forgets donation ids older than `days` days: retries come within
    /// hours, and ids are all a donation leaves besides the counts.
    @discardableResult
    public func purgeDonationIDs(olderThan days: Int = 30) async throws -> Int {
        let rows = try await rows(try Self.query("WITH gone AS (DELETE FROM donations WHERE day < current_date - $1::integer RETURNING 1) SELECT count(*)::int8 FROM gone", [days]))
        return try rows.first?.decode(Int.self) ?? 0
    }
}
