import Foundation
import Logging
import PostgresNIO

extension PublicIndex {
    /// Brings the coordinator and every shard to the newest schema, once:
    /// concurrent services wait on an advisory lock, a layout that differs
    /// from the recorded one is refused. Safe to call at every start.
    ///
    /// - Returns: the schema version.
    /// - Throws: ``PublicIndexError`` `.configuration` for a layout mismatch
    ///   or a schema newer than this program knows; `.shardUnavailable`
    ///   when a shard cannot be reached to be set up.
    @discardableResult
    public func prepare() async throws -> Int {
        try layout.validate()
        return try await client.withConnection { connection in
            let logger = self.logger
            try await connection.query("SELECT pg_advisory_lock(7270027)", logger: logger)
            do {
                let version = try await self.migrate(connection)
                try await connection.query("SELECT pg_advisory_unlock(7270027)", logger: logger)
                return version
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(7270027)", logger: logger)
                throw DatabaseFailure(error).error
            }
        }
    }

    private func migrate(_ connection: PostgresConnection) async throws -> Int {
        try await connection.query("CREATE TABLE IF NOT EXISTS public_index_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())", logger: logger)
        var current = 0
        for try await version in try await connection.query("SELECT coalesce(max(version), 0)::int8 FROM public_index_schema", logger: logger).decode(Int.self) {
            current = version
        }
        if current > PublicIndexSchema.version {
            throw PublicIndexError(.configuration, "the public index is at schema \(current), newer than this program's \(PublicIndexSchema.version); run a newer spotlight")
        }
        if current == PublicIndexSchema.version {
            try await checkLayout(connection)
            return current
        }
        // Version 1: the shards' tables first (each in one transaction, skipped when done), then the coordinator's.
        for shard in layout.shards {
            try await Self.withClient(shard.url, logger: logger) { client in
                try await client.withTransaction(logger: self.logger) { shardConnection in
                    try await shardConnection.query("CREATE TABLE IF NOT EXISTS public_index_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())", logger: self.logger)
                    var done = false
                    for try await version in try await shardConnection.query("SELECT coalesce(max(version), 0)::int8 FROM public_index_schema", logger: self.logger).decode(Int.self) {
                        done = version >= 1
                    }
                    if done { return }
                    for statement in PublicIndexSchema.shardStatements(partitions: self.layout.partitions(of: shard)) {
                        try await shardConnection.query(PostgresQuery(unsafeSQL: statement), logger: self.logger)
                    }
                }
            }
        }
        try await connection.withTransaction(logger: logger) { transaction in
            for statement in PublicIndexSchema.coordinatorStatements(layout: self.layout) {
                try await transaction.query(PostgresQuery(unsafeSQL: statement), logger: self.logger)
            }
            try await transaction.query("INSERT INTO public_index_schema (version) VALUES (1)", logger: self.logger)
        }
        logger.info("public index created", metadata: ["partitions": "\(layout.partitions)", "shards": "\(layout.shards.count)"])
        return PublicIndexSchema.version
    }

    /// The recorded layout must be this one: partitions do not move by themselves.
    private func checkLayout(_ connection: PostgresConnection) async throws {
        var recorded: [Int: (String, String)] = [:]
        for try await (partition, node, address) in try await connection.query("SELECT partition::int8, node, address FROM public_index_partitions", logger: logger).decode((Int, String, String).self) {
            recorded[partition] = (node, address)
        }
        let wanted = Dictionary(uniqueKeysWithValues: (0..<layout.partitions).map { ($0, layout.record(ofPartition: $0)) })
        let same = recorded.count == wanted.count && wanted.allSatisfy { recorded[$0.key]?.0 == $0.value.node && recorded[$0.key]?.1 == $0.value.address }
        if !same {
            let shards = Set(recorded.values.map(\.0)).subtracting(["coordinator"]).sorted()
            throw PublicIndexError(.configuration, "the public index was created with \(recorded.count) partitions on \(shards.isEmpty ? "the coordinator" : shards.joined(separator: ", ")); start it with the same layout (moving partitions is a migration of its own)")
        }
    }

    /// The schema version the coordinator holds (0 when the index was never created),
    /// for tools that write to an index a service created, whatever its layout.
    public func recordedSchemaVersion() async throws -> Int {
        let exists = try await rows(PostgresQuery(unsafeSQL: "SELECT to_regclass('public_index_schema') IS NOT NULL"))
        guard try exists.first?.decode(Bool.self) == true else { return 0 }
        return try await rows(PostgresQuery(unsafeSQL: "SELECT coalesce(max(version), 0)::int8 FROM public_index_schema")).first?.decode(Int.self) ?? 0
    }

    /// Runs `body` with a small client of its own (migrations on a shard).
    static func withClient<T: Sendable>(_ url: PostgresURL, logger: Logger, _ body: @Sendable (PostgresClient) async throws -> T) async throws -> T {
        let client = PostgresClient(configuration: url.clientConfiguration(maximumConnections: 1), backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            do {
                return try await body(client)
            } catch let error as PSQLError where error.code != .server {
                throw PublicIndexError(.shardUnavailable, "\(url.address) did not answer: \(error.code)")
            }
        }
    }
}
