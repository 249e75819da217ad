import Foundation
public import Logging
import PostgresNIO
import PublicIndexProtocol
import Synchronization

/// The public index: activities that enough distinct devices donated, and
/// crawled pages, searchable by everyone; on PostgreSQL through postgres-nio,
/// one coordinator with its partitions local or on shards.
///
/// ```swift
/// let index = PublicIndex(coordinator: cluster.url, secret: try ServerSecret(loadingOrCreatingAt: secretFile))
/// try await index.withRunning {
///     try await index.prepare()                                   // migrations, once
///     let outcomes = try await index.donate(batch)                // counted / wanted / …
///     let found = try await index.search("tarte tatin")
/// }
/// ```
///
/// The rules (``donate(_:)``, ``submitContent(_:for:token:)``):
/// - a device is known by its token only through ``ServerSecret/donor(of:token:)``;
/// - one token counts once per hash, however often it donates;
/// - a donation id counts once, so a retried delivery changes nothing;
/// - at ``Configuration/threshold`` distinct donors a hash is *wanted*: the
///   donation that reaches it and every later one are answered
///   ``DonationStatus/wanted`` until a device sends the content;
/// - content is stored only for a wanted hash, and only when its canonical
///   form hashes to that hash; below the threshold nothing readable is stored.
public final class PublicIndex: Sendable {
    /// Settings of the index.
    public struct Configuration: Sendable, Hashable {
        /// Distinct devices before an activity's content is asked for (Apple publishes no number).
        public var threshold: Int
        /// The connection pool's size: PostgreSQL's rule of thumb, two per core plus one
        /// (5 on the 2-core machines this runs on).
        public var maximumConnections: Int

        public init(threshold: Int = 10, maximumConnections: Int? = nil) {
            self.threshold = threshold
            self.maximumConnections = maximumConnections ?? ProcessInfo.processInfo.activeProcessorCount * 2 + 1
        }
    }

    public let coordinator: PostgresURL
    public let layout: PublicIndexLayout
    public let configuration: Configuration
    let secret: ServerSecret
    let client: PostgresClient
    let logger: Logger
    let health = ShardHealth()
    let engagement = Mutex(EngagementCounts())
    let running = Mutex(false)

    public init(coordinator: PostgresURL, layout: PublicIndexLayout = PublicIndexLayout(), secret: ServerSecret,
                configuration: Configuration = Configuration(), logger: Logger = Logger(label: "openspotlight.public-index")) {
        self.coordinator = coordinator
        self.layout = layout
        self.configuration = configuration
        self.secret = secret
        self.logger = logger
        client = PostgresClient(configuration: coordinator.clientConfiguration(maximumConnections: max(1, configuration.maximumConnections)),
                                backgroundLogger: logger)
    }

    /// Runs the connection pool until the calling task is cancelled. A
    /// second call while it runs (the service's, when a caller runs it
    /// already) just waits for its cancellation.
    public func run() async {
        let first = running.withLock { running in
            defer { running = true }
            return !running
        }
        guard first else {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3_600)) }
            return
        }
        await client.run()
    }

    /// Runs `body` while the connection pool runs (for commands and tests).
    public func withRunning<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await self.run() }
            defer { group.cancelAll() }
            return try await body()
        }
    }

    // MARK: - Statements

    /// Runs one statement and collects its rows, retrying a serialization
    /// failure (a shard's repeatable-read transaction meeting a concurrent
    /// write) up to five times.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        var attempt = 0
        while true {
            do {
                // The lease is scoped to the closure, so it goes back to the pool however the
                // query ends: error, cancellation of the request's task, or rows read. (With
                // `client.query` the lease follows the row stream, and a request cancelled
                // mid-stream under load could keep it: the pool ran dry and every request waited.)
                let logger = self.logger
                return try await client.withConnection { connection in
                    var collected: [PostgresRow] = []
                    for try await row in try await connection.query(query, logger: logger) { collected.append(row) }
                    return collected
                }
            } catch {
                let failure = DatabaseFailure(error)
                if failure.isRetryable, attempt < 5 {
                    attempt += 1
                    try await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 << attempt))))
                    continue
                }
                throw failure.error
            }
        }
    }

    /// A statement with its values bound in order (nil binds NULL).
    static func query(_ sql: String, _ values: [(any PostgresEncodable & Sendable)?]) throws -> PostgresQuery {
        var binds = PostgresBindings(capacity: values.count)
        for value in values {
            if let value { try binds.append(value) } else { binds.appendNull() }
        }
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }
}

/// What a database error means for the caller.
struct DatabaseFailure {
    let error: PublicIndexError
    let isRetryable: Bool

    init(_ error: any Error) {
        if let known = error as? PublicIndexError {
            self.error = known
            isRetryable = false
            return
        }
        guard let psql = error as? PSQLError else {
            self.error = PublicIndexError(.database, "\(error)")
            isRetryable = false
            return
        }
        if psql.code == .server {
            let state = psql.serverInfo?[.sqlState] ?? ""
            let message = psql.serverInfo?[.message] ?? "\(psql)"
            isRetryable = state == "40001" || state == "40P01"
            // Class 08: postgres_fdw could not reach (or lost) a shard; 57P0x: a server shutting down;
            // 57014: the statement timed out (a shard that accepts connections but does not answer).
            if state.hasPrefix("08") || state.hasPrefix("57P") || state == "57014" {
                self.error = PublicIndexError(.shardUnavailable, "a shard did not answer: \(message)")
            } else {
                self.error = PublicIndexError(.database, "PostgreSQL (\(state)): \(message)")
            }
            return
        }
        isRetryable = false
        self.error = PublicIndexError(.shardUnavailable, "the coordinator did not answer: \(psql.code)")
    }
}
