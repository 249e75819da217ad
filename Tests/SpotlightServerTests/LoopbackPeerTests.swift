import Foundation
import NIOCore
import NIOPosix
import Testing
@testable import SpotlightServer

/// The loopback listener answers its own user only: the client socket's owner from /proc/net/tcp.
@Suite struct LoopbackPeerTests {
    static let table = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:1E64 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0000000000000000 100 0 0 10 0
           1: 0100007F:C822 0100007F:1E64 01 00000000:00000000 00:00000000 00000000  1000        0 2 1 0000000000000000 20 4 30 10 -1
           2: 0100007F:1E64 0100007F:C822 01 00000000:00000000 00:00000000 00000000     0        0 3 1 0000000000000000 20 4 30 10 -1
        """

    /// Client port, server port, owner (-1: none).
    @Test(arguments: [
        (51_234, 7_780, 1000),   // the browser's socket: C822 → 1E64, uid 1000
        (7_780, 51_234, 0),      // the server's own end of it
        (51_235, 7_780, -1),     // no such connection
    ])
    func theClientSocketsOwnerIsRead(client: Int, server: Int, owner: Int) {
        #expect(LoopbackPeer.owner(in: Self.table, clientPort: client, serverPort: server).map(Int.init) ?? -1 == owner)
    }

    /// A real loopback connection in this process: its owner is this user; to anyone else it is refused.
    @Test func aRealConnectionIsThisUsersAndRefusedToAnother() async throws {
        let group = MultiThreadedEventLoopGroup.singleton
        let server = try await ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).get()
        let serverPort = try #require(server.localAddress?.port)
        let client = try await ClientBootstrap(group: group).connect(host: "127.0.0.1", port: serverPort).get()
        let clientPort = try #require(client.localAddress?.port)
        defer { client.close(promise: nil); server.close(promise: nil) }
        #expect(LoopbackPeer.owner(clientPort: clientPort, serverPort: serverPort) == getuid())
        let remote = try SocketAddress(ipAddress: "127.0.0.1", port: clientPort)
        #expect(LoopbackPeer.refusal(remote: remote, port: serverPort) == nil)
        let other = try #require(LoopbackPeer.refusal(remote: remote, port: serverPort, ownUser: getuid() &+ 1))
        #expect(other.code == .forbiddenOrigin && other.message.contains("another user (uid \(getuid()))"))
        let stranger = try SocketAddress(ipAddress: "127.0.0.1", port: clientPort == 65_535 ? 1 : clientPort + 1)
        #expect(LoopbackPeer.refusal(remote: stranger, port: serverPort)?.message.contains("could not be found") == true)
        #expect(LoopbackPeer.refusal(remote: nil, port: serverPort) == nil, "no address: the in-process router tests")
    }

    /// End to end: the page (which carries the token) is refused to another
    /// local user, `nobody` through `runuser` (so only where the tests run as
    /// root, as CI does), and served to this one.
    @Test(.enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser")))
    func anotherLocalUserIsRefusedThePage() async throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let running = try await RunningServer.start(fixture)
        let url = "http://127.0.0.1:\(running.port)/"
        @Sendable func status(as user: String?) throws -> String {
            let fetch = "import urllib.request, urllib.error\ntry:\n print(urllib.request.urlopen('\(url)', timeout=30).status)\nexcept urllib.error.HTTPError as e:\n print(e.code, e.read().decode())"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: user == nil ? "/usr/bin/env" : "/usr/sbin/runuser")
            process.arguments = (user.map { ["-u", $0, "--", "/usr/bin/env"] } ?? []) + ["python3", "-c", fetch]
            process.environment = ["PATH": "/usr/local/bin:/usr/bin:/bin"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // Off the concurrency pool: the clients block, and the server in this process needs the pool to answer.
        let other = try await SpotlightAPI.offThread { try status(as: "nobody") }
        let own = try await SpotlightAPI.offThread { try status(as: nil) }
        await running.stop()
        #expect(other.hasPrefix("403") && other.contains("another user"), "\(other)")
        #expect(own == "200")
    }
}
