import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PublicIndex
import PublicIndexProtocol
import PublicIndexService
import SpotlightIndex
import SpotlightService
import Testing
import TestSupport

/// The HTTP API on loopback, with the device's real client and sender.
@Suite(.timeLimit(.minutes(10)))
struct PublicIndexServiceTests {
    static let content = PublicActivityContent(
        activityType: "com.example.recipes.view", app: "com.example.recipes", title: "Tarte Tatin",
        webpageURL: URL(string: "https://recipes.example.com/tarte-tatin"), contentDescription: "Caramelised apples", keywords: ["dessert"])
    static let hash = ActivityHash(of: content)

    /// A raw request: status, error code and Retry-After.
    static func request(_ base: URL, _ method: HTTPMethod, _ path: String, body: Data? = nil) async throws -> (Int, String?, String?) {
        var request = HTTPClientRequest(url: base.absoluteString + path)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let data = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
        let error = try? PublicIndexJSON.decoder().decode(ErrorResponse.self, from: data)
        return (Int(response.status.code), error?.error, response.headers.first(name: "Retry-After"))
    }

    static func batchJSON(token: String = DeviceToken.random().text, hash: String = hash.hex, app: String = "com.example.recipes", count: Int = 1) -> Data {
        let donations = (0..<count).map { _ in #"{"id":"\#(UUID().uuidString)","app":"\#(app)","hash":"\#(hash)"}"# }
        return Data(#"{"token":"\#(token)","donations":[\#(donations.joined(separator: ","))]}"#.utf8)
    }

    @Test func badInputGetsAClear4xxAndChangesNothing() async throws {
        try await TestClusters.withIndex(threshold: 2) { index, clusters in
            let limits = PublicIndexServer.Limits(maximumBodyBytes: 16 << 10, tokenBurst: 5, tokenRefillPerSecond: 0.001)
            try await TestClusters.withServer(index, limits: limits) { base in
                let forged = try PublicIndexJSON.encoder().encode(ContentSubmission(token: .random(), content: {
                    var forged = Self.content
                    forged.title = "Cheap watches"
                    return forged
                }()))
                let honest = try PublicIndexJSON.encoder().encode(ContentSubmission(token: .random(), content: Self.content))
                let cases: [(HTTPMethod, String, Data?, Int, String?)] = [
                    (.POST, "/v1/donations", Data(repeating: 0x20, count: 20 << 10), 413, "tooLarge"),
                    (.POST, "/v1/donations", Data("{\"token\": ".utf8), 400, "badJSON"),
                    (.POST, "/v1/donations", Self.batchJSON(hash: "not-a-hash"), 400, "badJSON"),
                    (.POST, "/v1/donations", Self.batchJSON(token: "me@example.com"), 400, "badJSON"),
                    (.POST, "/v1/donations", Self.batchJSON(app: "com example"), 400, "invalidApp"),
                    (.POST, "/v1/donations", Self.batchJSON(count: 101), 400, "invalidBatch"),
                    (.PUT, "/v1/activities/xyz", honest, 400, "invalidHash"),
                    (.PUT, "/v1/activities/\(Self.hash.hex)", forged, 422, "hashMismatch"),
                    (.PUT, "/v1/activities/\(Self.hash.hex)", honest, 409, "notWanted"),
                    (.GET, "/v1/search", nil, 400, "missing"),
                    (.GET, "/v1/search?q=tarte&limit=0", nil, 400, "badLimit"),
                    (.GET, "/v1/search?q=" + String(repeating: "a", count: 600), nil, 400, "tooLong"),
                ]
                for (method, path, body, status, code) in cases {
                    let (got, error, _) = try await Self.request(base, method, path, body: body)
                    #expect(got == status && error == code, "\(method) \(path.prefix(40)): \(got) \(error ?? "-")")
                }
                #expect(try TestClusters.psql(clusters[0], "SELECT (SELECT count(*) FROM tallies) + (SELECT count(*) FROM donations) + (SELECT count(*) FROM items)") == "0")

                // A flood from one token: over its budget, 429 and nothing counted.
                let token = DeviceToken.random().text
                let (over, overCode, retry) = try await Self.request(base, .POST, "/v1/donations", body: Self.batchJSON(token: token, count: 6))
                #expect((over, overCode) == (429, "tooManyRequests"))
                #expect(retry != nil)
                #expect(try TestClusters.psql(clusters[0], "SELECT count(*) FROM donations") == "0")
                #expect(try await Self.request(base, .POST, "/v1/donations", body: Self.batchJSON(token: token, count: 5)).0 == 200)
                #expect(try await Self.request(base, .POST, "/v1/donations", body: Self.batchJSON(token: token, count: 1)).0 == 429)
                #expect(try TestClusters.psql(clusters[0], "SELECT users, views FROM tallies") == "1|5")
            }
        }
    }

    /// Devices with their own stores and tokens deliver their outboxes; the third makes the activity public.
    @Test func devicesDeliverTheirOutboxesAndTheActivityBecomesSearchable() async throws {
        try await TestClusters.withIndex(threshold: 3) { index, _ in
            try await TestClusters.withServer(index) { base in
                let scratches = try (0..<3).map { _ in try TestClusters.directory("device") }
                defer { for scratch in scratches { scratch.cleanUp() } }
                let roots = scratches.map(\.url)
                let json = try PublicIndexJSON.encoder().encode(Self.content)
                var reports: [PublicIndexSender.Report] = []
                for root in roots {
                    var settings = PublicIndexSettings()
                    settings.enable(serviceURL: base)
                    try settings.save(location: .directory(root))
                    let activities = try UserActivityStore(bundleIdentifier: Self.content.app, location: .directory(root))
                    try activities.queuePublicDonation(hash: Self.hash.hex, content: json)
                    try activities.queuePublicDonation(hash: Self.hash.hex, content: json)
                    reports.append(try await PublicIndexSender(location: .directory(root)).deliver())
                    #expect(try activities.publicDonationCount() == 0)
                }
                #expect(reports.map(\.counted) == [2, 2, 2])
                #expect(reports.map(\.contentSent) == [0, 0, 1])
                let client = PublicIndexClient(serviceURL: base)
                let found = try await client.search("tatin")
                #expect(found.results.map(\.title) == ["Tarte Tatin"])
                #expect(found.results.first?.app == "com.example.recipes")
                #expect(found.results.first?.users == 3)
                #expect(found.results.first?.url == URL(string: "https://recipes.example.com/tarte-tatin"))
                let status = try await client.status()
                #expect((status.countedHashes, status.activities, status.wantedHashes) == (1, 1, 0))
            }
        }
    }

    /// The service is down: the outbox keeps everything and delivers it, once, when it is back.
    @Test func anUnreachableServiceLosesNothing() async throws {
        try await TestClusters.withIndex(threshold: 3) { index, clusters in
            let scratch = try TestClusters.directory("device")
            defer { scratch.cleanUp() }
            let root = scratch.url
            let activities = try UserActivityStore(bundleIdentifier: Self.content.app, location: .directory(root))
            try activities.queuePublicDonation(hash: Self.hash.hex, content: try PublicIndexJSON.encoder().encode(Self.content))
            var settings = PublicIndexSettings()
            settings.enable(serviceURL: URL(string: "http://127.0.0.1:\(try LocalCluster.freeLoopbackPort())")!)
            try settings.save(location: .directory(root))
            let now = Date()
            let unreachable = PublicIndexClient(serviceURL: try #require(settings.serviceURL), timeout: .seconds(1))
            let offline = try await PublicIndexSender(location: .directory(root)).deliver(client: unreachable, now: now)
            #expect((offline.counted, offline.deferred, offline.waiting) == (0, 1, 1))
            // Not retried before its back-off…
            #expect(try activities.pendingPublicDonations(dueAt: now.addingTimeInterval(10)).isEmpty)
            let offlineSettings = settings
            try await TestClusters.withServer(index) { base in
                var online = offlineSettings
                online.serviceURL = base
                try online.save(location: .directory(root))
                let report = try await PublicIndexSender(location: .directory(root)).deliver(now: now.addingTimeInterval(31))
                #expect((report.counted, report.deferred, report.waiting) == (1, 0, 0))
            }
            #expect(try TestClusters.psql(clusters[0], "SELECT users, views FROM tallies") == "1|1")
        }
    }
}
