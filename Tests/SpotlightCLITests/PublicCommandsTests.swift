import Foundation
import PublicIndex
import Testing
import TestSupport

/// `spotlight public serve` with its own PostgreSQL, two devices running the
/// GreenGrocer example's store page (an activity eligible for public
/// indexing), sending their outboxes, and the store becoming public.
@Suite(.timeLimit(.minutes(10)))
struct PublicCommandsTests {
    /// Runs `spotlight` for one device (its own OPENSPOTLIGHT_HOME).
    static func device(_ home: URL, _ arguments: String...) throws -> CLI.Result {
        try CLI(home: home).run(arguments)
    }

    @Test func serveRunsItsOwnClusterAndDevicesMakeTheStorePublic() async throws {
        let scratch = try ScratchDirectory("public-cli", permissions: 0o755)
        let root = scratch.url
        let data = root.appendingPathComponent("service")
        let port = try LocalCluster.freeLoopbackPort()
        let log = root.appendingPathComponent("serve.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let server = Process()
        server.executableURL = CLI.executable
        server.arguments = ["public", "serve", "--data", data.path, "--port", String(port), "--threshold", "2"]
        server.standardOutput = try FileHandle(forWritingTo: log)
        server.standardError = try FileHandle(forWritingTo: log)
        try server.run()
        defer {
            if server.isRunning { server.interrupt() }
            for _ in 0..<100 where server.isRunning { usleep(100_000) }
            if server.isRunning { kill(server.processIdentifier, SIGKILL) }
            // Whatever happened, the cluster the service started is stopped.
            try? LocalCluster(directory: data.appendingPathComponent("postgres")).kill()
            scratch.cleanUp()
        }
        let deadline = Date().addingTimeInterval(90)
        while !((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("public index serving on") {
            guard Date() < deadline, server.isRunning else {
                Issue.record("the service did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
                return
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        let url = "http://127.0.0.1:\(port)"
        for number in 1...2 {
            let home = root.appendingPathComponent("device\(number)")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            #expect(try Self.device(home, "public", "device", "--enable", url).output.contains("public indexing is on"))
            var grocer = CLI(home: home)
            grocer.program = BuiltExecutable.url(named: "greengrocer")
            #expect(try grocer.run("store").status == 0)
            let sent = try Self.device(home, "public", "send", "--json").json()
            #expect(sent["counted"] as? Int == 1)
            #expect(sent["contentSent"] as? Int == (number == 2 ? 1 : 0))
            #expect(sent["waiting"] as? Int == 0)
        }
        let anyone = root.appendingPathComponent("anyone")
        try FileManager.default.createDirectory(at: anyone, withIntermediateDirectories: true)
        let found = try Self.device(anyone, "public", "search", "emporium", "--url", url, "--json").json()
        let results = try #require(found["results"] as? [[String: Any]])
        #expect(results.count == 1)
        #expect(results.first?["title"] as? String == "Ray's Fruit Emporium")
        #expect(results.first?["app"] as? String == "org.openspotlight.examples.GreenGrocer")
        #expect(results.first?["users"] as? Int == 2)
        let status = try Self.device(anyone, "public", "status", "--url", url, "--json").json()
        #expect(status["activities"] as? Int == 1)
        #expect(status["threshold"] as? Int == 2)

        // Ctrl-C: the service stops, and the cluster it started with it.
        server.interrupt()
        for _ in 0..<150 where server.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!server.isRunning)
        #expect(!(try LocalCluster(directory: data.appendingPathComponent("postgres")).isRunning))
    }
}

extension CLI {
    /// A CLI whose stores live in `home` (kept by the caller).
    init(home: URL) {
        self.home = home
    }
}
