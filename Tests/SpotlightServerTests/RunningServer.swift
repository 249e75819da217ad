import Foundation
import Logging
import Testing
@testable import SpotlightServer

/// A ``SpotlightServer`` running in this process for a test: real socket,
/// real 127.0.0.1 port; stopped (and its socket removed) by `stop()`.
struct RunningServer {
    let task: Task<Void, any Error>
    let endpoints: SpotlightServer.Endpoints
    let server: SpotlightServer

    static func start(_ fixture: ServerFixture, port: Int? = 0, configure: (inout SpotlightServer.Configuration) -> Void = { _ in }) async throws -> RunningServer {
        var configuration = SpotlightServer.Configuration(paths: fixture.paths)
        configuration.registry = fixture.registry
        configuration.port = port
        configuration.runner = fixture.runner
        configuration.maintenanceFirstDelay = nil
        configuration.preparesStores = false   // the tests' searches open what they read (PreparedStoresTests, ServeProcessTests prepare)
        configuration.logger = quietLogger
        configure(&configuration)
        let server = SpotlightServer(configuration)
        let (ready, continuation) = AsyncStream<SpotlightServer.Endpoints>.makeStream()
        let task = Task { try await server.run { continuation.yield($0) } }
        let timeout = Task {
            try await Task.sleep(for: .seconds(90))   // under the whole suite other tests can hold the pool for long
            continuation.finish()
        }
        defer { timeout.cancel() }
        var iterator = ready.makeAsyncIterator()
        guard let endpoints = await iterator.next() else {
            task.cancel()
            _ = await task.result
            throw ServiceError(.notRunning, "the server did not start")
        }
        return RunningServer(task: task, endpoints: endpoints, server: server)
    }

    /// A client with a generous timeout: under the whole suite, other tests can hold the
    /// concurrency pool this in-process server answers on for seconds.
    /// A logger that says nothing below critical.
    static var quietLogger: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }

    var client: ServiceClient { ServiceClient(paths: ServicePaths(directory: endpoints.socket.deletingLastPathComponent()), timeout: 60) }

    var port: Int { endpoints.page?.port ?? 0 }

    /// A request over the socket, made off the concurrency pool (the client
    /// blocks, and the server in this process needs the pool to answer).
    func request(_ method: String, _ path: String, json body: Data? = nil) async throws -> ServiceClient.Answer {
        let client = self.client
        return try await SpotlightAPI.offThread { try client.request(method, path, json: body) }
    }

    func search(_ text: String) async throws -> API.SearchResponse {
        let client = self.client
        return try await SpotlightAPI.offThread { try client.search(text) }
    }

    func stop() async {
        task.cancel()
        _ = await task.result
    }
}
