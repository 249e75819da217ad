import Foundation
import PublicIndex
import PublicIndexProtocol
import PublicIndexService
import Synchronization

/// One public index under test: its clusters (one node, or a coordinator
/// with shards), the index, and its HTTP service on a loopback port.
final class Deployment: Sendable {
    let name: String
    let clusters: [LocalCluster]
    let index: PublicIndex
    let secret = ServerSecret(bytes: (0..<32).map { UInt8($0) })
    private let port = BoundPort()
    private let task = Mutex<Task<Void, any Error>?>(nil)

    init(name: String, shards: Int, threshold: Int, directory: URL) throws {
        self.name = name
        var clusters: [LocalCluster] = []
        for node in 0...shards {
            let cluster = try LocalCluster(directory: directory.appendingPathComponent("\(name)-node\(node)"))
            try cluster.start()
            clusters.append(cluster)
        }
        self.clusters = clusters
        let layout = PublicIndexLayout(partitions: 8, shardURLs: clusters.dropFirst().map(\.url))
        index = PublicIndex(coordinator: clusters[0].url, layout: layout, secret: secret, configuration: .init(threshold: threshold))
    }

    /// Starts the service; returns its base URL once it listens.
    func start() async throws -> URL {
        let server = PublicIndexServer(index: index, secret: secret, port: 0)
        let port = self.port
        task.withLock { $0 = Task { try await server.run(handlingSignals: false) { bound in port.set(bound) } } }
        while port.value == nil { try await Task.sleep(for: .milliseconds(50)) }
        return URL(string: "http://127.0.0.1:\(port.value!)")!
    }

    func stop() async {
        let running = task.withLock { $0 }
        running?.cancel()
        _ = try? await running?.value
        for cluster in clusters { try? cluster.stop() }
    }

    /// Bytes of the index's tables (every partition, indexes and TOAST included) on every node.
    func storageBytes(tables: [String]) throws -> Int {
        let pattern = "^(" + tables.joined(separator: "|") + ")_p[0-9]+$"
        var total = 0
        for cluster in clusters {
            let text = try LocalCluster.runTool("psql", ["-X", "-qtA", "-h", "127.0.0.1", "-p", String(cluster.port), "-U", LocalCluster.role,
                                                        "-d", cluster.database, "-c",
                                                        "SELECT coalesce(sum(pg_total_relation_size(oid)), 0)::bigint FROM pg_class WHERE relkind = 'r' AND relname ~ '\(pattern)'"],
                                               cluster: cluster)
            total += Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        return total
    }

    /// One value from the coordinator.
    func scalar(_ sql: String) throws -> Int {
        let cluster = clusters[0]
        let text = try LocalCluster.runTool("psql", ["-X", "-qtA", "-h", "127.0.0.1", "-p", String(cluster.port), "-U", LocalCluster.role,
                                                    "-d", cluster.database, "-c", sql], cluster: cluster)
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// VACUUM ANALYZE on every node (the shards' GIN pending lists merged), then the coordinator's statistics.
    func settle() async throws {
        for cluster in clusters {
            _ = try LocalCluster.runTool("psql", ["-X", "-q", "-h", "127.0.0.1", "-p", String(cluster.port), "-U", LocalCluster.role,
                                                 "-d", cluster.database, "-c", "VACUUM ANALYZE"], cluster: cluster)
        }
        try await index.refreshStatistics()
    }
}

/// The port the service bound, once it did.
final class BoundPort: Sendable {
    private let storage = Mutex<Int?>(nil)
    var value: Int? { storage.withLock { $0 } }
    func set(_ port: Int) { storage.withLock { $0 = port } }
}
