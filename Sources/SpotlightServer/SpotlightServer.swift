public import Foundation
import Hummingbird
import HummingbirdWebSocket
public import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import UnixSignals
import SpotlightIndex
public import SpotlightSystem
public import SpotlightService
import SpotlightDBus
import Synchronization

/// `spotlight serve`: the resident service. One process keeps every app's
/// stores open (each query still sees every committed write: kept handles
/// follow their files), answers the HTTP API and the search page on a Unix
/// socket (and, when asked, on 127.0.0.1), search as you type over a
/// WebSocket, the GNOME Shell search provider on the session bus, and runs
/// index maintenance on a schedule.
///
/// ```swift
/// var configuration = SpotlightServer.Configuration(paths: try ServicePaths())
/// configuration.port = 7780                       // the page at http://127.0.0.1:7780/
/// try await SpotlightServer(configuration).run()  // until SIGTERM/SIGINT or cancellation
/// ```
///
/// swift-service-lifecycle runs the listeners, the maintenance schedule and
/// the D-Bus provider as one group: SIGTERM or SIGINT (or the task being
/// cancelled) stops them gracefully, the socket file is removed. A socket
/// left by a killed service is found dead and replaced; a live one is refused.
public struct SpotlightServer: Sendable {
    /// How the service runs.
    public struct Configuration: Sendable {
        /// The runtime directory: socket, token, port file.
        public var paths: ServicePaths
        /// Where apps and stores are: `$OPENSPOTLIGHT_HOME` or the default root, resolved
        /// once (an `.automatic` location reads the environment at every use).
        public var registry = AppRegistry(location: .directory(StoreLocation.automaticRoot()))
        /// Also listen on 127.0.0.1 at this port (0: any free port); nil: the socket only.
        public var port: Int?
        public var limits = ServiceLimits()
        /// The opener of actions (`xdg-open`, or `$OPENSPOTLIGHT_OPEN_COMMAND`).
        public var runner = ActionRunner()
        /// First maintenance pass after this long, then every ``maintenanceInterval``; nil: no maintenance.
        public var maintenanceFirstDelay: Duration? = .seconds(60)
        public var maintenanceInterval: Duration = .seconds(30 * 60)
        /// How often the impressions clients reported are written.
        public var impressionInterval: Duration = .seconds(2)
        /// Answer a repeated question from memory while no store it came from
        /// changed. Off by default: checking every store before reusing cost
        /// more than the repeats saved (BENCHMARKS.md, service).
        public var reusesAnswers = false
        /// Open every registered store as the service starts (``SystemSearch/prepareStores()``),
        /// rather than on the first search.
        public var preparesStores = true
        /// Serve `org.gnome.Shell.SearchProvider2` on the session bus (when there is one).
        public var gnomeSearchProvider = false
        /// Stop on these signals (the command line); tests cancel the task instead.
        public var handlesSignals = false
        public var logger = Logger(label: "openspotlight.serve")

        public init(paths: ServicePaths) {
            self.paths = paths
        }
    }

    /// Where a running service can be reached; given to ``run(ready:)``'s callback.
    public struct Endpoints: Sendable {
        public var socket: URL
        /// `http://127.0.0.1:<port>/` when listening there.
        public var page: URL?
        public var tokenFile: URL
    }

    public let configuration: Configuration
    /// The operations, with the stores they keep.
    public let api: SpotlightAPI

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        api = SpotlightAPI(registry: configuration.registry, limits: configuration.limits, runner: configuration.runner,
                          reusesAnswers: configuration.reusesAnswers)
    }

    /// Runs until a signal (with ``Configuration/handlesSignals``) or cancellation.
    /// - Parameter ready: called once every listener is bound.
    /// - Throws: ``ServiceError`` `.alreadyRunning` when another service answers on the socket.
    public func run(ready: @escaping @Sendable (Endpoints) -> Void = { _ in }) async throws {
        let paths = configuration.paths
        try ServicePaths.makePrivate(paths.directory)
        let port: Int? = switch configuration.port {
        case 0?: try await Self.freeLoopbackPort()
        case let other: other
        }
        let token = try ServiceToken.loadOrCreate(at: paths.tokenFile)
        try Self.claimSocket(paths)
        defer {
            unlink(paths.socket.path)
            if configuration.port != nil { unlink(paths.portFile.path) }
        }
        let logger = configuration.logger
        let readiness = Readiness(expected: configuration.port == nil ? 1 : 2) { page in
            ready(Endpoints(socket: paths.socket, page: page, tokenFile: paths.tokenFile))
        }
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        services.append(.init(service: application(listener: .unixSocket, address: .unixDomainSocket(path: paths.socket.path), token: token) { _ in
            chmod(paths.socket.path, 0o600)
            readiness.bound(page: nil)
        }))
        if let port {
            services.append(.init(service: application(listener: .loopback(port: port), address: .hostname("127.0.0.1", port: port), token: token) { channel in
                let bound = channel.localAddress?.port ?? port
                try? Data("\(bound)\n".utf8).write(to: paths.portFile, options: .atomic)
                readiness.bound(page: URL(string: "http://127.0.0.1:\(bound)/"))
            }))
        }
        // Every store opened and its index loaded at once, not by the first keystroke.
        if configuration.preparesStores {
            services.append(.init(service: StorePreparation(search: api.search, logger: logger), successTerminationBehavior: .ignore,
                                  failureTerminationBehavior: .ignore))
        }
        // Impressions are written every 2 s and once more when the service stops.
        services.append(.init(service: ImpressionService(batcher: api.impressions, search: api.search, interval: configuration.impressionInterval,
                                                         metrics: api.metrics, logger: logger),
                              successTerminationBehavior: .ignore))
        if let first = configuration.maintenanceFirstDelay {
            services.append(.init(service: MaintenanceService(maintenance: IndexMaintenance(registry: configuration.registry), firstDelay: first,
                                                              interval: configuration.maintenanceInterval, status: api.maintenanceStatus,
                                                              metrics: api.metrics, logger: logger),
                                  successTerminationBehavior: .ignore))
        }
        if configuration.gnomeSearchProvider {
            // Without a session bus the service goes on without the provider.
            services.append(.init(service: SearchProviderService(provider: GnomeSearchProvider(backend: ProviderBackend(api: api, paths: paths)), logger: logger),
                                  successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore))
        }
        let group = ServiceGroup(configuration: .init(services: services,
                                                      gracefulShutdownSignals: configuration.handlesSignals ? [.sigterm, .sigint] : [],
                                                      logger: logger))
        try await group.run()
    }

    /// One listener: the routes for its origin policy, and live search.
    func application(listener: Listener, address: BindAddress, token: ServiceToken,
                     onRunning: @escaping @Sendable (any Channel) async -> Void) -> some Service {
        let live = LiveSearch(api: api)
        let routes = Routes(api: api, token: token, listener: listener)
        var logger = configuration.logger
        logger.logLevel = max(logger.logLevel, .warning) // Hummingbird's per-request lines are noise here
        let maximumMessage = configuration.limits.maximumMessageBytes
        return Application(
            router: routes.router(),
            server: .http1WebSocketUpgrade(configuration: .init(http1: .init(), ws: .init(maxFrameSize: maximumMessage))) { head, channel, _ in
                guard head.path?.split(separator: "?").first == "/v1/search/live", listener.refusal(authority: head.authority, head.headerFields) == nil else { return .dontUpgrade }
                if case .loopback(let port) = listener, LoopbackPeer.refusal(remote: channel.remoteAddress, port: port) != nil { return .dontUpgrade }
                return .upgrade([:]) { inbound, outbound, _ in try await live.serve(inbound: inbound, outbound: outbound) }
            },
            configuration: .init(address: address, serverName: nil),
            onServerRunning: onRunning,
            logger: logger
        )
    }

    /// A port of 127.0.0.1 free now (for `port: 0`: the origin policy needs the number before binding).
    static func freeLoopbackPort() async throws -> Int {
        let probe: any Channel
        do {
            probe = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        } catch {
            throw ServiceError(.alreadyRunning, "no free port on 127.0.0.1: \(error)")
        }
        let port = probe.localAddress?.port
        try? await probe.close()
        guard let port else { throw ServiceError(.alreadyRunning, "no free port on 127.0.0.1: the probe socket has no port") }
        return port
    }

    /// Makes the socket path free: a dead socket (its service killed) is removed,
    /// a live one means another service runs.
    static func claimSocket(_ paths: ServicePaths) throws {
        guard let isSocket = ServicePaths.isSocket(paths.socket) else { return }
        guard isSocket else {
            throw ServiceError(.alreadyRunning, "\(paths.socket.path) exists and is not a socket; remove it")
        }
        if ServiceClient(paths: paths, timeout: 1).isRunning() {
            throw ServiceError(.alreadyRunning, "a service already answers on \(paths.socket.path); stop it first (systemctl --user stop openspotlight)")
        }
        unlink(paths.socket.path)
    }
}

/// Calls back once every listener is bound.
final class Readiness: Sendable {
    private let state: Mutex<(remaining: Int, page: URL?)>
    private let done: @Sendable (URL?) -> Void

    init(expected: Int, done: @escaping @Sendable (URL?) -> Void) {
        state = Mutex((expected, nil))
        self.done = done
    }

    func bound(page: URL?) {
        let finished: (Bool, URL?) = state.withLock { state in
            if let page { state.page = page }
            state.remaining -= 1
            return (state.remaining == 0, state.page)
        }
        if finished.0 { done(finished.1) }
    }
}
