import BenchmarkPhases
import Foundation
import SpotlightServer

/// A client of `/v1/search/live` over the service's Unix socket, as the
/// search page types: one WebSocket (RFC 6455) kept open, a masked text frame
/// a keystroke, each answer read whole. Plain POSIX calls, no event loop, so
/// what a typist times is the service's answer, not a client's machinery.
///
/// ```swift
/// let live = try LiveSocket(client)
/// try live.send(#"{"id":1,"q":"pea","perApp":3,"web":0}"#)
/// let answer = try live.receive()   // {"id":1,"results":{…},"type":"results"}
/// ```
final class LiveSocket: @unchecked Sendable { // @unchecked: each is used by one typist's thread only
    private let client: ServiceClient
    private let descriptor: Int32
    /// Bytes read and not yet taken by ``receive()``.
    private var pending: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    /// Connects and upgrades to a WebSocket.
    init(_ client: ServiceClient) throws {
        self.client = client
        descriptor = try client.connect()
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let head = "GET /v1/search/live HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\nUser-Agent: spotlight-bench\r\n\r\n"
        do {
            try client.send(descriptor, Data(head.utf8))
            let end = Array("\r\n\r\n".utf8)
            while pending.firstRange(of: end) == nil { try read() }
            let range = pending.firstRange(of: end)!
            let status = String(decoding: pending[..<range.lowerBound], as: UTF8.self).prefix { $0 != "\r" }
            guard status.split(separator: " ").dropFirst().first == "101" else {
                throw BenchError.failed("the service refused the live socket: \(status)")
            }
            pending.removeSubrange(..<range.upperBound)
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit { close(descriptor) }

    /// Sends `text` as one masked text frame.
    func send(_ text: String) throws { try send(Array(text.utf8), opcode: 0x1) }

    /// Sends one masked frame (FIN set) of `payload`.
    private func send(_ payload: [UInt8], opcode: UInt8) throws {
        var frame: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case ..<126: frame.append(0x80 | UInt8(payload.count))
        case ..<65_536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: frame.append(0x80 | 127); frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $1 ^ mask[$0 & 3] }
        try client.send(descriptor, Data(frame))
    }

    /// The next data message's payload (its frames joined); a ping is
    /// answered (the service closes a socket that leaves its pings unanswered).
    func receive() throws -> [UInt8] {
        var message: [UInt8] = []
        while true {
            while pending.count < 2 { try read() }
            let opcode = pending[0] & 0x0F, final = pending[0] & 0x80 != 0
            var length = Int(pending[1] & 0x7F), offset = 2
            if length == 126 {
                while pending.count < 4 { try read() }
                length = Int(pending[2]) << 8 | Int(pending[3])
                offset = 4
            } else if length == 127 {
                while pending.count < 10 { try read() }
                length = pending[2..<10].reduce(0) { $0 << 8 | Int($1) }
                offset = 10
            }
            let masked = pending[1] & 0x80 != 0
            if masked { offset += 4 }
            while pending.count < offset + length { try read() }
            guard opcode != 0x8 else { throw BenchError.failed("the service closed the live socket") }
            var payload = Array(pending[offset..<(offset + length)])
            if masked {
                let mask = Array(pending[(offset - 4)..<offset])
                for index in payload.indices { payload[index] ^= mask[index & 3] }
            }
            if opcode < 0x8 { message += payload }
            if opcode == 0x9 { try send(payload, opcode: 0xA) }
            pending.removeSubrange(..<(offset + length))
            if opcode < 0x8 && final { return message }
        }
    }

    private func read() throws {
        let count = recv(descriptor, &chunk, chunk.count, 0)
        guard count > 0 else {
            if count < 0 && errno == EINTR { return }
            throw BenchError.failed(count == 0 ? "the service closed the live socket" : "no answer on the live socket: \(String(cString: strerror(errno)))")
        }
        pending += chunk[0..<count]
    }
}
