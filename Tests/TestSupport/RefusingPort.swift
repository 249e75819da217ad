#if canImport(Glibc)
    import Glibc
    private let closeDescriptor = Glibc.close
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
    import Darwin
    private let closeDescriptor = Darwin.close
    private let streamSocket = SOCK_STREAM
#endif

/// A loopback TCP port that refuses connections for as long as the value
/// lives: a socket bound to it that never listens. A server stopped to
/// free its port does not do: tests run in parallel, and another test's
/// server may be given the same port at once (then a connection meant to
/// be refused reached that server and waited on it).
///
/// ```swift
/// let port = try RefusingPort()
/// defer { port.close() }
/// let url = URL(string: "http://127.0.0.1:\(port.number)/")!   // connections refused
/// ```
public final class RefusingPort: @unchecked Sendable {  // `descriptor` is set once, closed once
    /// The port's number.
    public let number: Int
    private var descriptor: Int32

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Binds a socket to a free loopback port, without listening.
    public init() throws {
        let descriptor = socket(AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            let code = errno
            _ = closeDescriptor(descriptor)
            throw Failure(description: "binding a loopback port failed: errno \(code)")
        }
        self.descriptor = descriptor
        number = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Frees the port.
    public func close() {
        guard descriptor >= 0 else { return }
        _ = closeDescriptor(descriptor)
        descriptor = -1
    }

    deinit { close() }
}
