import Foundation
import Hummingbird
import NIOCore

/// Who is on the other end of a loopback connection: the user owning the
/// client's socket, read from the kernel's socket tables (`/proc/net/tcp`,
/// `/proc/net/tcp6`), as `identd` does.
///
/// On 127.0.0.1 any local user can connect, and the page at `/` carries the
/// token that POSTs need; so the loopback listener answers only connections
/// whose client socket belongs to the service's own user.
///
/// ```swift
/// LoopbackPeer.owner(clientPort: 51_234, serverPort: 7780)   // 1000, the uid of the browser's socket
/// ```
enum LoopbackPeer {
    /// The uid owning the socket whose local port is `clientPort` and whose
    /// remote port is `serverPort`; nil when no table has it.
    static func owner(clientPort: Int, serverPort: Int,
                      tables: [String] = ["/proc/net/tcp", "/proc/net/tcp6"]) -> UInt32? {
        for path in tables {
            guard let table = readProcFile(path) else { continue }
            if let uid = owner(in: table, clientPort: clientPort, serverPort: serverPort) { return uid }
        }
        return nil
    }

    /// The same, in one table's text: lines of `sl local_address rem_address
    /// st queues timer retransmits uid …`, addresses as `HEXADDR:HEXPORT`.
    static func owner(in table: String, clientPort: Int, serverPort: Int) -> UInt32? {
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 7, port(of: fields[1]) == clientPort, port(of: fields[2]) == serverPort else { continue }
            return UInt32(fields[7])
        }
        return nil
    }

    /// A file of /proc read to its end (their size says 0, so Foundation's
    /// whole-file readers see nothing).
    static func readProcFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
            if bytes.count > 64 << 20 { return nil }   // not a socket table
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func port(of address: Substring) -> Int? {
        address.split(separator: ":").last.flatMap { Int($0, radix: 16) }
    }

    /// Why a connection from `remote` to the loopback listener on `port` is
    /// refused, or nil when its client socket is the service's own user's.
    /// (Without an address, as in the router's in-process tests, nothing is checked.)
    static func refusal(remote: SocketAddress?, port: Int, ownUser: UInt32 = getuid()) -> APIError? {
        guard let clientPort = remote?.port else { return nil }
        guard let owner = owner(clientPort: clientPort, serverPort: port) else {
            return APIError(.forbiddenOrigin, "the connection's owner could not be found in /proc/net/tcp: only the service's own user is answered")
        }
        guard owner == ownUser else {
            return APIError(.forbiddenOrigin, "the connection belongs to another user (uid \(owner)): only the service's own user is answered")
        }
        return nil
    }
}

/// A request's context with the client's address, for ``LoopbackPeer``.
struct ServiceRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
