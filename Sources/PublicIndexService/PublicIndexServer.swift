import Foundation
public import Hummingbird
public import Logging
public import PublicIndex
import PublicIndexProtocol
import ServiceLifecycle

/// `spotlight public serve`: the public index's HTTP API on Hummingbird 2.
///
/// ```swift
/// let server = PublicIndexServer(index: index, secret: secret, port: 8780)
/// try await server.run()      // until SIGINT/SIGTERM
/// ```
///
/// | route | body | answer |
/// | --- | --- | --- |
/// | `POST /v1/donations` | ``DonationBatch`` | ``DonationBatchResponse`` (503 when every donation was deferred) |
/// | `PUT /v1/activities/<hash>` | ``ContentSubmission`` | ``ContentResponse``: 201 stored, 200 already; 409 below the threshold, 422 not matching its hash |
/// | `GET /v1/search?q=…&limit=…` | | ``PublicSearchResponse`` |
/// | `POST /v1/opens` | ``OpenReport`` | 202 |
/// | `GET /v1/status` | | ``PublicIndexStatus`` |
///
/// Bad input gets a 4xx with an ``ErrorResponse`` and changes nothing: a
/// body over ``Limits/maximumBodyBytes`` 413, malformed JSON or a bad hash
/// 400, a token over its budget 429 with `Retry-After`. A shard that does
/// not answer gives 503 with `Retry-After` for what needs it.
public struct PublicIndexServer: Sendable {
    /// Bounds on what one request and one token may cost.
    public struct Limits: Sendable, Hashable {
        /// Largest request body (64 KiB: a full batch of donations is ~12 KiB).
        public var maximumBodyBytes: Int
        /// Donations plus content submissions one token may make at once…
        public var tokenBurst: Int
        /// …and per second after that.
        public var tokenRefillPerSecond: Double

        public init(maximumBodyBytes: Int = 64 << 10, tokenBurst: Int = 300, tokenRefillPerSecond: Double = 1) {
            self.maximumBodyBytes = maximumBodyBytes
            self.tokenBurst = tokenBurst
            self.tokenRefillPerSecond = tokenRefillPerSecond
        }
    }

    public let index: PublicIndex
    public let host: String
    public let port: Int
    public let limits: Limits
    let secret: ServerSecret
    let limiter: FloodLimiter
    let logger: Logger

    public init(index: PublicIndex, secret: ServerSecret, host: String = "127.0.0.1", port: Int = 8780, limits: Limits = Limits(),
                logger: Logger = Logger(label: "openspotlight.public-serve")) {
        self.index = index
        self.secret = secret
        self.host = host
        self.port = port
        self.limits = limits
        self.logger = logger
        limiter = FloodLimiter(capacity: limits.tokenBurst, refillPerSecond: limits.tokenRefillPerSecond)
    }

    /// The application: the routes, the index's connection pool and the
    /// engagement flush as services. `onRunning` gets the port bound.
    public func application(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> Application<RouterResponder<BasicRequestContext>> {
        let router = Router(context: BasicRequestContext.self)
        let api = PublicIndexRoutes(server: self)
        api.add(to: router)
        return Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "openspotlight-public"),
            services: [IndexPool(index: index), Maintenance(index: index, logger: logger)],
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }

    /// Prepares the index (migrations) and serves until SIGINT or SIGTERM
    /// (or, with `handlingSignals` false, until the task is cancelled).
    public func run(handlingSignals: Bool = true, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        var app = application(onRunning: onRunning)
        let index = self.index
        app.beforeServerStarts { try await index.prepare() }
        if handlingSignals { try await app.runService() } else { try await app.run() }
    }
}

/// The index's connection pool as a service of the application.
struct IndexPool: Service {
    let index: PublicIndex
    func run() async throws {
        await index.run()
    }
}

/// The index's chores: noted impressions and opens added every 3 s, the
/// planner's statistics refreshed every 10 minutes, donation ids older than
/// 30 days forgotten once a day.
struct Maintenance: Service {
    let index: PublicIndex
    let logger: Logger

    func run() async throws {
        var tick = 0
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(3)) }
            } catch {
                break
            }
            tick += 1
            do { try await index.flushEngagement() } catch {
                logger.warning("engagement counts kept for later: \(error)")
            }
            if tick % 200 == 1 {
                do { try await index.refreshStatistics() } catch { logger.warning("statistics not refreshed: \(error)") }
            }
            if tick % 28_800 == 0 {
                do { try await index.purgeDonationIDs() } catch { logger.warning("old donation ids not purged: \(error)") }
            }
        }
        try? await index.flushEngagement()
    }
}
