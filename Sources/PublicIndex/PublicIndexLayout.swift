/// Where the public index's partitions live.
///
/// Every table is partitioned by a hash of `site` (a page's host, an
/// activity's app) into ``partitions`` partitions, the same column Citus
/// would distribute on. With no shards they are all on the coordinator;
/// with shards, partition `i` lives on shard `i % shards.count` and the
/// coordinator reaches it through `postgres_fdw` (a foreign table that is a
/// partition of the coordinator's table). The service talks to the
/// coordinator only.
///
/// ```swift
/// let layout = PublicIndexLayout(partitions: 8, shards: [
///     .init(name: "shard_1", url: try PostgresURL("postgres://spotlight:pw@10.0.0.2/public_index")),
///     .init(name: "shard_2", url: try PostgresURL("postgres://spotlight:pw@10.0.0.3/public_index")),
/// ])
/// layout.shard(ofPartition: 3)?.name   // "shard_2"
/// ```
///
/// The layout is recorded on the coordinator when the index is created and
/// is fixed from then on (moving partitions is a data migration).
public struct PublicIndexLayout: Sendable, Hashable {
    /// A PostgreSQL server holding some partitions.
    public struct Shard: Sendable, Hashable {
        /// Its foreign server's name on the coordinator (`[a-z0-9_]`).
        public var name: String
        /// How the coordinator (and the service, for migrations) reaches it.
        public var url: PostgresURL

        public init(name: String, url: PostgresURL) {
            self.name = name
            self.url = url
        }
    }

    /// Hash partitions per table (Citus's default shard count is 32; 8 serves up to 8 nodes).
    public var partitions: Int
    public var shards: [Shard]

    public init(partitions: Int = 8, shards: [Shard] = []) {
        self.partitions = partitions
        self.shards = shards
    }

    /// Shards named `shard_1`, `shard_2`… for these URLs.
    public init(partitions: Int = 8, shardURLs: [PostgresURL]) {
        self.init(partitions: partitions, shards: shardURLs.enumerated().map { Shard(name: "shard_\($0.offset + 1)", url: $0.element) })
    }

    /// The shard holding partition `index`, or nil when it is on the coordinator.
    public func shard(ofPartition index: Int) -> Shard? {
        shards.isEmpty ? nil : shards[index % shards.count]
    }

    /// The partitions a shard holds.
    public func partitions(of shard: Shard) -> [Int] {
        guard let position = shards.firstIndex(of: shard) else { return [] }
        return (0..<partitions).filter { $0 % shards.count == position }
    }

    /// What the coordinator records per partition: the node's name and address (no password).
    func record(ofPartition index: Int) -> (node: String, address: String) {
        guard let shard = shard(ofPartition: index) else { return ("coordinator", "local") }
        return (shard.name, shard.url.address)
    }

    func validate() throws {
        guard (1...1_024).contains(partitions) else {
            throw PublicIndexError(.configuration, "partitions must be 1 to 1,024, not \(partitions)")
        }
        if shards.count > partitions {
            throw PublicIndexError(.configuration, "\(shards.count) shards need at least as many partitions (\(partitions) given)")
        }
        for shard in shards where shard.name.isEmpty || !shard.name.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5f }) {
            throw PublicIndexError(.configuration, "a shard name is lowercase letters, digits and _, not \(shard.name.debugDescription)")
        }
        if Set(shards.map(\.name)).count != shards.count {
            throw PublicIndexError(.configuration, "two shards have the same name")
        }
    }
}
