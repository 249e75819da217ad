import Foundation
import PostgresNIO
import PublicIndex
import PublicIndexProtocol
import PublicIndexService
import Synchronization
import TestSupport

/// Throwaway PostgreSQL clusters for the tests: each on a free loopback port
/// under a temporary directory, always stopped and deleted afterwards.
enum TestClusters {
    /// A temporary directory the cluster's system user can reach.
    static func directory(_ label: String) throws -> ScratchDirectory {
        try ScratchDirectory("public-\(label)", permissions: 0o755)
    }

    /// Runs `body` with `count` started clusters, then stops and deletes them whatever happened.
    static func with<T: Sendable>(_ count: Int, _ body: @Sendable ([LocalCluster]) async throws -> T) async throws -> T {
        let scratch = try directory("clusters")
        let root = scratch.url
        var clusters: [LocalCluster] = []
        defer {
            for cluster in clusters { cluster.destroy() }
            scratch.cleanUp()
        }
        for index in 0..<count {
            let cluster = try LocalCluster(directory: root.appendingPathComponent("node\(index)"), throwaway: true)
            clusters.append(cluster)
            try cluster.start()
        }
        return try await body(clusters)
    }

    static let secret = ServerSecret(bytes: Array(repeating: 7, count: 32))

    /// A prepared index on one node (`shards` 0) or on a coordinator with that many shards.
    static func withIndex<T: Sendable>(shards: Int = 0, threshold: Int = 3, partitions: Int = 4,
                                       _ body: @Sendable (PublicIndex, [LocalCluster]) async throws -> T) async throws -> T {
        try await with(1 + shards) { clusters in
            let layout = PublicIndexLayout(partitions: partitions, shardURLs: clusters.dropFirst().map(\.url))
            let index = PublicIndex(coordinator: clusters[0].url, layout: layout, secret: secret,
                                    configuration: .init(threshold: threshold, maximumConnections: 4))
            return try await index.withRunning {
                try await index.prepare()
                return try await body(index, clusters)
            }
        }
    }

    /// Runs `body` with the index's HTTP service on a free loopback port.
    static func withServer<T: Sendable>(_ index: PublicIndex, limits: PublicIndexServer.Limits = .init(),
                                        _ body: @Sendable (URL) async throws -> T) async throws -> T {
        let server = PublicIndexServer(index: index, secret: secret, port: 0, limits: limits)
        let port = Box<Int?>(nil)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await server.run(handlingSignals: false) { bound in port.set(bound) }
            }
            defer { group.cancelAll() }
            let deadline = Date().addingTimeInterval(30)
            while port.value == nil {
                guard Date() < deadline else { throw PublicIndexError(.cluster, "the service did not start") }
                try await Task.sleep(for: .milliseconds(20))
            }
            return try await body(URL(string: "http://127.0.0.1:\(port.value!)")!)
        }
    }

    /// Rows of a statement on a cluster, through psql (as a person would look).
    static func psql(_ cluster: LocalCluster, _ sql: String) throws -> String {
        try LocalCluster.runTool("psql", ["-X", "-q", "-tA", "-h", "127.0.0.1", "-p", String(cluster.port), "-U", LocalCluster.role,
                                          "-d", cluster.database, "-v", "ON_ERROR_STOP=1", "-c", sql], cluster: cluster)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A value shared with tasks.
final class Box<T: Sendable>: Sendable {
    private let storage: Mutex<T>
    init(_ value: T) { storage = Mutex(value) }
    var value: T { storage.withLock { $0 } }
    func set(_ value: T) { storage.withLock { $0 = value } }
}
