import Foundation
@testable import PublicIndex
import PublicIndexProtocol
import SpotlightIndex
import SpotlightService
import Testing
import TestSupport

/// A coordinator with two shard nodes (postgres_fdw), on loopback.
@Suite(.timeLimit(.minutes(10)))
struct ShardedIndexTests {
    static func content(app: Int, item: Int = 0) -> PublicActivityContent {
        PublicActivityContent(activityType: "com.example.app\(app).view", app: "com.example.app\(app)",
                              title: "Recipe \(item) of kitchen \(app)", webpageURL: URL(string: "https://kitchen\(app).example.com/r\(item)"),
                              keywords: ["recipe"])
    }

    /// Which shard holds an app (site), asked of the coordinator's partition bounds.
    static func shard(of site: String, _ coordinator: LocalCluster) throws -> String {
        try TestClusters.psql(coordinator, """
            SELECT p.node FROM public_index_partitions p
            WHERE satisfies_hash_partition('items'::regclass, (SELECT count(*)::int FROM public_index_partitions), p.partition, '\(site)'::text)
            """)
    }

    static func makePublic(_ index: PublicIndex, apps: Range<Int>) async throws {
        for app in apps {
            let content = Self.content(app: app)
            for _ in 0..<index.configuration.threshold {
                _ = try await index.donate(DonationBatch(token: .random(), donations: [Donation(app: content.app, hash: ActivityHash(of: content))]))
            }
            #expect(try await index.submitContent(content, for: ActivityHash(of: content), token: .random()) == .stored)
        }
    }

    @Test func partitionsLiveOnTheShardsAndSearchesReachThemAllAtOnce() async throws {
        try await TestClusters.withIndex(shards: 2, threshold: 2, partitions: 4) { index, clusters in
            try await Self.makePublic(index, apps: 0..<12)
            // Rows are on the shards, none on the coordinator; both shards hold some.
            // 4 partitions on 2 shards: shard_1 holds p0 and p2, shard_2 p1 and p3.
            let onShards = try [1, 2].map { shard in
                Int(try TestClusters.psql(clusters[shard], "SELECT (SELECT count(*) FROM items_p\(shard - 1)) + (SELECT count(*) FROM items_p\(shard + 1))")) ?? -1
            }
            #expect(onShards.reduce(0, +) == 12)
            #expect(onShards.allSatisfy { $0 > 0 })
            #expect(try TestClusters.psql(clusters[0], "SELECT count(*) FROM pg_foreign_table") == "16")
            #expect(try TestClusters.psql(clusters[0], "SELECT count(*) FROM items") == "12")

            let found = try await index.search("kitchen recipe", limit: 50)
            #expect(found.results.count == 12)
            #expect(!found.partial)
            // Each partition's branch is an asynchronous foreign scan with its ORDER BY and LIMIT done on the shard
            // (once the coordinator's statistics say the partitions hold more than a page of matches).
            try await index.savePages((0..<400).map {
                PublicPage(url: URL(string: "https://site\($0 % 40).example.com/p\($0)")!, title: "Kitchen page \($0)")
            })
            try await index.refreshStatistics()
            let plan = try TestClusters.psql(clusters[0], "EXPLAIN (VERBOSE, COSTS OFF) " + index.rankedSQL(partitions: [0, 1, 2, 3])
                .replacingOccurrences(of: "$1::tsquery", with: "'''kitchen'''::tsquery").replacingOccurrences(of: "$2", with: "10"))
            #expect(plan.components(separatedBy: "Async Foreign Scan").count - 1 == 4, "\(plan)")
            #expect(plan.components(separatedBy: "LIMIT 10").count - 1 == 4)
            // Typos reach the shards too, through the coordinator's lexicon.
            #expect(try await index.search("kitchn recipe", limit: 50).results.count == 12)
        }
    }

    /// A shard dies while devices deliver; they keep what it did not take and deliver it when it is back.
    @Test func aShardKilledMidLoadLosesNothingAndCountsNothingTwice() async throws {
        try await TestClusters.withIndex(shards: 2, threshold: 3, partitions: 4) { index, clusters in
            try await Self.makePublic(index, apps: 100..<104)
            let apps = 0..<8
            let deadShard = clusters[1]
            let deadName = "shard_1"
            let appsOnDead = try apps.filter { try Self.shard(of: "com.example.app\($0)", clusters[0]) == deadName }
            #expect(!appsOnDead.isEmpty && appsOnDead.count < apps.count)

            try await TestClusters.withServer(index) { base in
                // 24 devices; device d donates each app's activity (d % 3 + 1) times.
                var devices: [ScratchDirectory] = []
                defer { for scratch in devices { scratch.cleanUp() } }
                var expectedViews = 0
                for device in 0..<24 {
                    let scratch = try TestClusters.directory("device\(device)")
                    devices.append(scratch)
                    let root = scratch.url
                    var settings = PublicIndexSettings()
                    settings.enable(serviceURL: base)
                    try settings.save(location: .directory(root))
                    for app in apps {
                        let content = Self.content(app: app)
                        let store = try UserActivityStore(bundleIdentifier: content.app, location: .directory(root))
                        for _ in 0...(device % 3) {
                            try store.queuePublicDonation(hash: ActivityHash(of: content).hex, content: try PublicIndexJSON.encoder().encode(content))
                            expectedViews += 1
                        }
                    }
                }
                let now = Date()
                var waiting = 0
                for (number, root) in devices.map(\.url).enumerated() {
                    if number == 8 { try deadShard.kill() }
                    let report = try await PublicIndexSender(location: .directory(root)).deliver(now: now)
                    waiting += report.waiting
                    if number >= 8 { #expect(report.waiting > 0) }
                }
                // While it is down: searches answer from the live shard and say so; status too.
                let partial = try await index.search("kitchen", limit: 50)
                #expect(partial.partial)
                #expect(partial.missingShards == [deadName])
                #expect(!partial.results.isEmpty)
                #expect(try partial.results.allSatisfy { hit in try Self.shard(of: hit.site, clusters[0]) != deadName })
                let status = try await index.status()
                #expect(!status.complete)
                #expect(status.shards.map(\.reachable) == [false, true])
                #expect(waiting >= 16 * appsOnDead.count)   // the 16 devices after the kill keep their donations to it

                try deadShard.start()
                try await Task.sleep(for: .seconds(ShardHealth.retryInterval + 0.5))
                var left = 0
                for root in devices.map(\.url) {
                    let report = try await PublicIndexSender(location: .directory(root)).deliver(now: now.addingTimeInterval(3_600))
                    left += report.waiting
                }
                #expect(left == 0)
                // Exactly one donor per device per activity, one view per donation: nothing lost, nothing twice.
                let tallies = try TestClusters.psql(clusters[0], "SELECT site, users, views FROM tallies WHERE site NOT LIKE 'com.example.app10%' ORDER BY site")
                let expected = apps.map { "com.example.app\($0)|24|48" }.sorted().joined(separator: "\n")
                #expect(tallies == expected)
                #expect(expectedViews == 8 * 48)
                let complete = try await index.search("kitchen", limit: 50)
                #expect(!complete.partial)
                #expect(Set(complete.results.map(\.site)).count == 4 + 8)
            }
        }
    }
}
