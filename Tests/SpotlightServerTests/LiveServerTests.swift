import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOCore
import NIOHTTP1
import Synchronization
import Testing
@testable import SpotlightServer

/// The service over its real listeners: the Unix socket, 127.0.0.1, the WebSocket.
@Suite(.timeLimit(.minutes(10))) struct LiveServerTests {
    @Test func theSocketAndTokenArePrivateAndTheSocketGoesWithTheService() async throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let running = try await RunningServer.start(fixture, port: nil)
        func mode(_ url: URL) throws -> Int { try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1 }
        #expect(try mode(fixture.runtime) == 0o700)
        #expect(try mode(running.endpoints.socket) == 0o600)
        #expect(try mode(running.endpoints.tokenFile) == 0o600)
        #expect(running.endpoints.page == nil)

        let found = try await running.search("pear")
        #expect(found.groups.first?.results.first?.reference == "com.example.grocer/default/p-pear")
        let opened = try await running.request("POST", "/v1/open", json: try JSONEncoder().encode(API.OpenRequest(reference: "com.example.grocer/default/p-pear")))
            .decode(API.OpenResponse.self)
        #expect(opened.recordedSelection && fixture.lines(fixture.appLog).count == 1)

        // A second service on the same socket is refused while the first answers.
        let second = SpotlightServer({ var c = SpotlightServer.Configuration(paths: fixture.paths); c.registry = fixture.registry; return c }())
        await #expect(throws: ServiceError.self) { try await second.run() }
        #expect(running.client.isRunning())

        await running.stop()
        #expect(!FileManager.default.fileExists(atPath: running.endpoints.socket.path), "a graceful stop removes the socket")
        #expect(throws: ServiceError.self) { try running.client.search("pear") }
    }

    @Test func loopbackServesThePageAndTheAPIToItsOwnOriginOnly() async throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let running = try await RunningServer.start(fixture)
        defer { Task { await running.stop() } }
        let base = "http://127.0.0.1:\(running.port)"
        #expect(try String(contentsOf: fixture.paths.portFile, encoding: .utf8) == "\(running.port)\n")

        func get(_ path: String, _ headers: [(String, String)] = []) async throws -> (Int, String, HTTPClientResponse) {
            var request = HTTPClientRequest(url: base + path)
            for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 1 << 20)
            return (Int(response.status.code), String(buffer: body), response)
        }
        let (status, page, response) = try await get("/")
        #expect(status == 200 && response.headers.first(name: "Content-Type") == "text/html; charset=utf-8")
        #expect(page.contains(#"<meta name="openspotlight-token" content="\#(try #require(try ServiceToken.load(from: fixture.paths.tokenFile)).value)">"#))
        let policy = try #require(response.headers.first(name: "Content-Security-Policy"))
        #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'nonce-") && policy.contains("ws://127.0.0.1:\(running.port)"))
        #expect(!page.contains("http://") || !page.contains("src=\"http"), "no external assets")

        let (searched, body, _) = try await get("/v1/search?q=pear")
        #expect(searched == 200 && body.contains("\"reference\":\"com.example.grocer/default/p-pear\""))
        let (rebound, refusal, _) = try await get("/v1/search?q=pear", [("Host", "evil.example:\(running.port)")])
        #expect(rebound == 403 && refusal.contains("forbiddenOrigin"), "DNS rebinding: a foreign Host is refused")
        let (foreign, _, _) = try await get("/v1/search?q=pear", [("Origin", "https://evil.example")])
        #expect(foreign == 403)
        let (own, _, _) = try await get("/v1/search?q=pear", [("Origin", base)])
        #expect(own == 200)
    }

    /// One live connection: every keystroke's answer or none, in order, the last one always.
    @Test func liveSearchAnswersTheLatestKeystroke() async throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let running = try await RunningServer.start(fixture)
        defer { Task { await running.stop() } }
        let logger = RunningServer.quietLogger
        let answers = Mutex<[String]>([])
        try await WebSocketClient.connect(url: "ws://127.0.0.1:\(running.port)/v1/search/live", logger: logger) { inbound, outbound, _ in
            for (id, text) in ["p", "pe", "pea", "pear"].enumerated() {
                try await outbound.write(.text(#"{"id": \#(id + 1), "q": "\#(text)"}"#))
            }
            try await outbound.write(.text("not json"))
            var sawLast = false, sawError = false
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case .text(let text) = message else { continue }
                answers.withLock { $0.append(text) }
                sawLast = sawLast || text.contains(#""id":4,"#)
                sawError = sawError || text.contains(#""type":"error""#)
                if sawLast && sawError { break }
            }
        }
        let received = try answers.withLock { $0 }.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let results = received.filter { $0["type"] as? String == "results" }
        let ids = results.compactMap { $0["id"] as? Int }
        #expect(ids == ids.sorted() && ids.last == 4, "\(ids)")
        let last = try #require(results.last?["results"] as? [String: Any])
        #expect(last["query"] as? String == "pear")
        let groups = try #require(last["groups"] as? [[String: Any]])
        #expect(((groups.first?["results"] as? [[String: Any]])?.first?["reference"] as? String) == "com.example.grocer/default/p-pear")
        let error = try #require(received.first { $0["type"] as? String == "error" }?["error"] as? [String: Any])
        #expect(error["code"] as? String == "invalidRequest")
    }

    @Test func aForeignPageCannotOpenTheLiveSocket() async throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let running = try await RunningServer.start(fixture)
        defer { Task { await running.stop() } }
        let logger = RunningServer.quietLogger
        await #expect(throws: (any Error).self) {
            try await WebSocketClient.connect(url: "ws://127.0.0.1:\(running.port)/v1/search/live",
                                              configuration: .init(additionalHeaders: [.origin: "https://evil.example"]), logger: logger) { _, outbound, _ in
                try await outbound.write(.text(#"{"id": 1, "q": "pear"}"#))
            }
        }
    }

    @Test func aClientThatLeavesMidStreamCostsNothing() async throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let running = try await RunningServer.start(fixture)
        defer { Task { await running.stop() } }
        let logger = RunningServer.quietLogger
        let url = "ws://127.0.0.1:\(running.port)/v1/search/live"
        for round in 0..<20 {
            // Ask, and go away without reading the answer.
            try await WebSocketClient.connect(url: url, logger: logger) { _, outbound, _ in
                try await outbound.write(.text(#"{"id": \#(round), "q": "pe"}"#))
            }
        }
        // The service still answers, and holds no connection for the clients that left.
        #expect(try await running.search("pear").groups.count == 2)
        var open = -1.0
        for _ in 0..<50 {
            let metrics = String(decoding: try await running.request("GET", "/v1/metrics").body, as: UTF8.self)
            open = metrics.split(separator: "\n").first { $0.hasPrefix("openspotlight_live_connections ") }
                .flatMap { Double($0.split(separator: " ").last ?? "") } ?? -1
            if open == 0 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(open == 0, "every connection was closed and counted out")
    }

    @Test func aMessageOverTheBoundClosesThatConnectionOnly() async throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let running = try await RunningServer.start(fixture)
        defer { Task { await running.stop() } }
        let answered = Mutex<Int>(0)
        let huge = String(repeating: "a", count: 10_000)
        do {
            try await WebSocketClient.connect(url: "ws://127.0.0.1:\(running.port)/v1/search/live", logger: RunningServer.quietLogger) { inbound, outbound, _ in
                try await outbound.write(.text(#"{"id": 1, "q": "\#(huge)"}"#))
                for try await _ in inbound.messages(maxSize: 1 << 20) { answered.withLock { $0 += 1 } }
            }
        } catch {
            // The service closing the connection is what is expected.
        }
        #expect(answered.withLock { $0 } == 0, "a message over 4 KiB gets no search")
        #expect(try await running.search("pear").groups.count == 2, "the service goes on")
    }
}
