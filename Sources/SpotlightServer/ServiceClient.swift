public import Foundation
import SpotlightIndex
public import SpotlightService

/// A small HTTP/1.1 client of the service over its Unix socket, for the
/// `spotlight` command: plain POSIX calls, no event loop to start, so asking a
/// running service costs a connection and a request (well under a millisecond).
///
/// ```swift
/// let client = ServiceClient(paths: try ServicePaths())
/// if let found = try? client.search("pear") { print(found.groups.count) }
/// ```
public struct ServiceClient: Sendable {
    public let paths: ServicePaths
    /// How long to wait for an answer, in seconds.
    public var timeout: TimeInterval

    public init(paths: ServicePaths, timeout: TimeInterval = 5) {
        self.paths = paths
        self.timeout = timeout
    }

    /// An answer: status and body.
    public struct Answer: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data

        /// The body as `T`, or the API's error as a ``ServiceError``.
        public func decode<T: Decodable>(_ type: T.Type) throws -> T {
            guard (200..<300).contains(status) else {
                if let problem = try? JSONDecoder().decode(APIError.Body.self, from: body) {
                    throw ServiceError(.badResponse, problem.error.message)
                }
                throw ServiceError(.badResponse, "the service answered \(status)")
            }
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            do { return try decoder.decode(type, from: body) } catch {
                throw ServiceError(.badResponse, "the service's answer is not the expected JSON: \(error)")
            }
        }
    }

    /// `GET /v1/search`.
    public func search(_ text: String, resultsPerApp: Int = 3, webResults: Int = 3, near area: SearchArea? = nil) throws -> API.SearchResponse {
        var path = "/v1/search?q=\(API.Result.queryEscaped(text))&perApp=\(resultsPerApp)&web=\(webResults)"
        if let area {
            path += "&near=\(area.center.latitude),\(area.center.longitude)"
            if let radius = area.radius { path += "&within=\(radius / 1_000)" }
        }
        return try request("GET", path).decode(API.SearchResponse.self)
    }

    /// One request; the token is sent with POSTs.
    public func request(_ method: String, _ path: String, json body: Data? = nil) throws -> Answer {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nUser-Agent: spotlight\r\n"
        if method == "POST" {
            guard let token = try ServiceToken.load(from: paths.tokenFile) else {
                throw ServiceError(.tokenUnavailable, "no token at \(paths.tokenFile.path): is the service running?")
            }
            head += "Authorization: Bearer \(token.value)\r\nContent-Type: application/json\r\n"
        }
        let payload = body ?? Data()
        head += "Content-Length: \(payload.count)\r\n\r\n"
        let descriptor = try connect()
        defer { close(descriptor) }
        try send(descriptor, Data(head.utf8) + payload)
        return try Self.parse(try receive(descriptor))
    }

    /// Whether a service answers on the socket (a left-over socket of a killed one does not).
    public func isRunning() -> Bool {
        guard let descriptor = try? connect() else { return false }
        close(descriptor)
        return true
    }

    /// A connected socket to the service (the caller closes it).
    package func connect() throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ServiceError(.notRunning, "cannot make a socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(paths.socket.path.utf8)
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw ServiceError(.notRunning, "the socket path \(paths.socket.path) is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path)
            raw[path.count] = 0
        }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ServiceError(.notRunning, "no service at \(paths.socket.path) (\(reason)); start one with `spotlight serve`")
        }
        return descriptor
    }

    /// Sends all of `data`.
    package func send(_ descriptor: Int32, _ data: Data) throws {
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { throw ServiceError(.notRunning, "the service closed the connection: \(String(cString: strerror(errno)))") }
                offset += sent
            }
        }
    }

    private func receive(_ descriptor: Int32) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return data }
            guard count > 0 else {
                if errno == EINTR { continue }
                throw ServiceError(.notRunning, "no answer from the service within \(timeout) s: \(String(cString: strerror(errno)))")
            }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// Status line, headers, and the body (by Content-Length, chunks, or to the end).
    static func parse(_ data: Data) throws -> Answer {
        guard let end = data.firstRange(of: Data("\r\n\r\n".utf8)) else { throw ServiceError(.badResponse, "the service's answer has no header") }
        let lines = String(decoding: data[data.startIndex..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = lines.first?.split(separator: " ") ?? []
        guard statusWords.count >= 2, statusWords[0].hasPrefix("HTTP/1."), let status = Int(statusWords[1]) else {
            throw ServiceError(.badResponse, "the service's answer does not start with an HTTP status line")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(data[end.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            body = try dechunk(body)
        } else if let length = headers["content-length"].flatMap(Int.init), length <= body.count {
            body = body.prefix(length)
        }
        return Answer(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ data: Data) throws -> Data {
        var output = Data()
        var index = data.startIndex
        while let lineEnd = data[index...].firstRange(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: data[index..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw ServiceError(.badResponse, "a chunk of the service's answer is malformed")
            }
            if size == 0 { return output }
            let start = lineEnd.upperBound
            guard data.distance(from: start, to: data.endIndex) >= size + 2 else { throw ServiceError(.badResponse, "the service's answer was cut short") }
            output.append(data[start..<data.index(start, offsetBy: size)])
            index = data.index(start, offsetBy: size + 2)
        }
        throw ServiceError(.badResponse, "the service's answer was cut short")
    }
}
