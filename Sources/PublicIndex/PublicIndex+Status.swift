import Foundation
import PostgresNIO
import Synchronization
public import PublicIndexProtocol

extension PublicIndex {
    /// Counts and layout: what `spotlight public status` prints. With a
    /// shard down, its partitions are left out of the counts and
    /// ``PublicIndexStatus/complete`` is false.
    public func status() async throws -> PublicIndexStatus {
        let down = layout.shards.isEmpty ? [] : await probeShards()
        let live = (0..<layout.partitions).filter { !down.contains(layout.shard(ofPartition: $0)?.name ?? "") }
        var counted = 0, wanted = 0, activities = 0, pages = 0
        if !live.isEmpty {
            let tallies = layout.shards.isEmpty ? "tallies" : "(" + live.map { "SELECT users, has_content FROM \(PublicIndexSchema.partitionName("tallies", $0))" }.joined(separator: " UNION ALL ") + ") t"
            let items = layout.shards.isEmpty ? "items" : "(" + live.map { "SELECT kind FROM \(PublicIndexSchema.partitionName("items", $0))" }.joined(separator: " UNION ALL ") + ") i"
            let sql = """
                SELECT (SELECT count(*) FROM \(tallies))::int8,
                       (SELECT count(*) FROM \(tallies) WHERE users >= $1 AND NOT has_content)::int8,
                       (SELECT count(*) FROM \(items) WHERE kind = 'activity')::int8,
                       (SELECT count(*) FROM \(items) WHERE kind = 'page')::int8
                """
            if let row = try await rows(try Self.query(sql, [configuration.threshold])).first {
                (counted, wanted, activities, pages) = try row.decode((Int, Int, Int, Int).self)
            }
        }
        var version = 0
        if let row = try await rows(PostgresQuery(unsafeSQL: "SELECT coalesce(max(version), 0)::int8 FROM public_index_schema")).first {
            version = try row.decode(Int.self)
        }
        let shards = layout.shards.map {
            PublicIndexStatus.Shard(name: $0.name, address: $0.url.address, partitions: layout.partitions(of: $0), reachable: !down.contains($0.name))
        }
        return PublicIndexStatus(schemaVersion: version, threshold: configuration.threshold, partitions: layout.partitions, shards: shards,
                                 countedHashes: counted, wantedHashes: wanted, activities: activities, pages: pages, complete: down.isEmpty)
    }

    // MARK: - Engagement

    /// Counts that these results were shown (added to the index at the next ``flushEngagement()``).
    func noteImpressions(_ hits: [PublicSearchHit]) {
        engagement.withLock { counts in
            for hit in hits { counts.impressions[.init(site: hit.site, key: hit.key), default: 0] += 1 }
        }
    }

    /// Counts that a device opened a result (its engagement ratio's numerator).
    public func noteOpen(site: String, key: String) {
        engagement.withLock { $0.opens[.init(site: site, key: key), default: 0] += 1 }
    }

    /// Adds the impressions and opens noted since the last flush to the
    /// results they concern: one statement, run every few seconds by the
    /// service. Counts for a shard that is down are kept for the next flush.
    public func flushEngagement() async throws {
        let counts = engagement.withLock { counts in
            defer { counts = EngagementCounts() }
            return counts
        }
        guard !counts.isEmpty else { return }
        let keys = Array(Set(counts.impressions.keys).union(counts.opens.keys))
        do {
            _ = try await rows(try Self.query("SELECT public_count_engagement($1, $2, $3::integer[], $4::integer[])", [
                keys.map(\.site), keys.map(\.key), keys.map { counts.impressions[$0] ?? 0 }, keys.map { counts.opens[$0] ?? 0 },
            ]))
        } catch {
            engagement.withLock { pending in
                for (key, count) in counts.impressions { pending.impressions[key, default: 0] += count }
                for (key, count) in counts.opens { pending.opens[key, default: 0] += count }
            }
            throw error
        }
    }
}
