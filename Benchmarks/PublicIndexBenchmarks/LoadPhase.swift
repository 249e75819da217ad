import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PublicIndexProtocol
import Synchronization

/// Simulated devices donating through the HTTP API: each device delivers its
/// outbox (its donations, ≤ 100 a request), and sends the content when the
/// service asks for it.
struct LoadPhase {
    struct Plan {
        /// Each device's activities, in donation order.
        var byDevice: [[Int32]]
        /// Distinct devices per activity, as drawn.
        var expectedUsers: [Int32]
        var donations: Int
    }

    struct Result: Codable {
        var deployment: String
        var donations: Int
        var seconds: Double
        var donationsPerSecond: Double
        var requests: Int
        var contentsSent: Int
        var retries: Int
        var expectedCrossed: Int
        var crossed: Int
        var publicActivities: Int
        var countedHashes: Int
        var views: Int
        var bytesPerCountedActivity: Double
        var bytesPerPublicActivity: Double
    }

    let options: BenchOptions

    /// The draw: device uniform, activity Zipf; fixed seed.
    func plan() -> Plan {
        var generator = SplitMix64(state: 20_261_125)
        let zipf = ZipfSampler(count: options.activities, exponent: options.zipf)
        var byDevice = Array(repeating: [Int32](), count: options.devices)
        var pairs = Set<Int64>()
        var users = Array(repeating: Int32(0), count: options.activities)
        for _ in 0..<options.donations {
            let device = Int.random(in: 0..<options.devices, using: &generator)
            let activity = zipf.sample(&generator)
            byDevice[device].append(Int32(activity))
            if pairs.insert(Int64(device) << 32 | Int64(activity)).inserted { users[activity] += 1 }
        }
        return Plan(byDevice: byDevice, expectedUsers: users, donations: options.donations)
    }

    static func token(device: Int) -> DeviceToken {
        var generator = SplitMix64(state: UInt64(device) &* 0x2545_F491_4F6C_DD1D &+ 1)
        let hex = (0..<4).map { _ in String(generator.next(), radix: 16).leftPadded(16) }.joined()
        return try! DeviceToken(hex)
    }

    static func content(activity: Int) -> PublicActivityContent {
        let words = Vocabulary.words(for: activity, count: 3)
        return PublicActivityContent(activityType: "com.example.app\(activity % 100).view", app: "com.example.app\(activity % 100)",
                                     title: words.joined(separator: " ").capitalized + " \(activity)",
                                     webpageURL: URL(string: "https://app\(activity % 100).example.com/a/\(activity)"),
                                     contentDescription: Vocabulary.words(for: activity &* 7 &+ 3, count: 8).joined(separator: " "))
    }

    func run(_ deployment: Deployment, base: URL, plan: Plan) async throws -> Result {
        let hashes = (0..<options.activities).map { ActivityHash(of: Self.content(activity: $0)) }
        let next = Counter()
        let counters = Counters()
        let started = Date()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<options.concurrency {
                group.addTask {
                    while true {
                        let device = next.take()
                        guard device < plan.byDevice.count else { return }
                        let activities = plan.byDevice[device]
                        if activities.isEmpty { continue }
                        let token = Self.token(device: device)
                        for chunk in stride(from: 0, to: activities.count, by: DonationBatch.maximumCount) {
                            let slice = activities[chunk..<min(chunk + DonationBatch.maximumCount, activities.count)]
                            let donations = slice.map { Donation(app: "com.example.app\($0 % 100)", hash: hashes[Int($0)]) }
                            let response: DonationBatchResponse = try await Self.send(base, .POST, "v1/donations",
                                                                                     DonationBatch(token: token, donations: donations), counters: counters)
                            var asked = Set<Int32>()
                            for (donation, outcome) in zip(slice, response.outcomes) where outcome.status == .wanted && asked.insert(donation).inserted {
                                let _: ContentResponse = try await Self.send(base, .PUT, "v1/activities/\(hashes[Int(donation)].hex)",
                                                                             ContentSubmission(token: token, content: Self.content(activity: Int(donation))),
                                                                             counters: counters, accepting: [200, 201, 409])
                                counters.withLock { $0.contents += 1 }
                            }
                        }
                        let done = counters.withLock { counters in
                            counters.done += activities.count
                            return counters.done
                        }
                        if device % 500 == 0 {
                            let rate = Double(done) / Date().timeIntervalSince(started)
                            Console.progress("\(deployment.name): \(done)/\(plan.donations) donations, \(Int(rate))/s")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let seconds = Date().timeIntervalSince(started)
        Console.line("\(deployment.name): \(plan.donations) donations in \(String(format: "%.1f", seconds)) s")
        let threshold = options.threshold
        let expectedCrossed = plan.expectedUsers.filter { Int($0) >= threshold }.count
        let counted = try deployment.scalar("SELECT count(*) FROM tallies")
        let crossed = try deployment.scalar("SELECT count(*) FROM tallies WHERE users >= \(threshold)")
        let views = try deployment.scalar("SELECT coalesce(sum(views), 0)::bigint FROM tallies")
        let publicActivities = try deployment.scalar("SELECT count(*) FROM items WHERE kind = 'activity'")
        let countingBytes = try deployment.storageBytes(tables: ["donors", "tallies", "donations"])
        let itemBytes = try deployment.storageBytes(tables: ["items"])
        let snapshot = counters.withLock { $0 }
        return Result(deployment: deployment.name, donations: plan.donations, seconds: seconds,
                      donationsPerSecond: Double(plan.donations) / seconds, requests: snapshot.requests, contentsSent: snapshot.contents,
                      retries: snapshot.retries, expectedCrossed: expectedCrossed, crossed: crossed, publicActivities: publicActivities,
                      countedHashes: counted, views: views,
                      bytesPerCountedActivity: Double(countingBytes) / Double(max(1, counted)),
                      bytesPerPublicActivity: Double(itemBytes) / Double(max(1, publicActivities)))
    }

    /// One request, retried (after a pause) on 429 and 5xx.
    static func send<Body: Encodable, Answer: Decodable>(_ base: URL, _ method: HTTPMethod, _ path: String, _ body: Body,
                                                        counters: Counters,
                                                        accepting: Set<Int> = [200]) async throws -> Answer {
        var request = HTTPClientRequest(url: base.absoluteString + "/" + path)
        request.method = method
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try PublicIndexJSON.encoder().encode(body)))
        for attempt in 0..<20 {
            counters.withLock { $0.requests += 1 }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
            let data = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
            let status = Int(response.status.code)
            if accepting.contains(status) {
                if status == 409, let empty = try? PublicIndexJSON.decoder().decode(Answer.self, from: Data(#"{"status":"alreadyStored"}"#.utf8)) {
                    return empty
                }
                return try PublicIndexJSON.decoder().decode(Answer.self, from: data)
            }
            guard status == 429 || status >= 500 else {
                throw BenchError("\(method) \(path): HTTP \(status) \(String(decoding: data, as: UTF8.self))")
            }
            counters.withLock { $0.retries += 1 }
            try await Task.sleep(for: .milliseconds(100 * (attempt + 1)))
        }
        throw BenchError("\(method) \(path): no answer after 20 tries")
    }
}

/// What the load did, shared by its tasks.
final class Counters: Sendable {
    private let state = Mutex((requests: 0, contents: 0, retries: 0, done: 0))
    func withLock<T>(_ body: (inout (requests: Int, contents: Int, retries: Int, done: Int)) -> T) -> T { state.withLock { body(&$0) } }
}

/// The next device to deliver.
final class Counter: Sendable {
    private let value = Mutex(0)
    func take() -> Int {
        value.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
