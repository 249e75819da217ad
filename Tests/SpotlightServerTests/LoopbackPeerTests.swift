import Foundation
import NIOCore
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
    @Test func aRealConnectionIsThisUsersAndRefusedToAnother() throws {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0), client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(server); close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let connected = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(server, pointer, length) == 0 && listen(server, 1) == 0 && getsockname(server, pointer, &length) == 0
                    && connect(client, pointer, length) == 0
            }
        }
        #expect(connected)
        let serverPort = Int(UInt16(bigEndian: address.sin_port))
        var local = sockaddr_in()
        var localLength = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(client, $0, &localLength) }
        }
        let clientPort = Int(UInt16(bigEndian: local.sin_port))
        #expect(LoopbackPeer.owner(clientPort: clientPort, serverPort: serverPort) == getuid())
        let remote = try SocketAddress(ipAddress: "127.0.0.1", port: clientPort)
        #expect(LoopbackPeer.refusal(remote: remote, port: serverPort) == nil)
        let other = try #require(LoopbackPeer.refusal(remote: remote, port: serverPort, ownUser: getuid() &+ 1))
        #expect(other.code == .forbiddenOrigin && other.message.contains("another user (uid \(getuid()))"))
        #expect(LoopbackPeer.refusal(remote: nil, port: serverPort) == nil, "no address: the in-process router tests")
    }
}
