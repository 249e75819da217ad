// A website served on loopback by a test itself, shared by the crawler's and
// the command line's tests (a support target, not a product).
public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A small website served on loopback by the test itself: fixed responses per
/// path (query included), every request logged, optional redirects and slow bodies.
public final class TestWebServer: Sendable {
    public struct Response: Sendable {
        public var status: Int = 200
        public var headers: [(String, String)] = [("Content-Type", "text/html; charset=utf-8")]
        public var body: Data
        /// When set, the body is sent one byte at a time with this many seconds between them (a slow page).
        public var trickle: Double?

        public init(status: Int = 200, headers: [(String, String)] = [("Content-Type", "text/html; charset=utf-8")], body: Data,
                    trickle: Double? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.trickle = trickle
        }

        public static func html(_ text: String) -> Response { Response(body: Data(text.utf8)) }
        public static func text(_ text: String, type: String = "text/plain") -> Response {
            Response(headers: [("Content-Type", type)], body: Data(text.utf8))
        }
        public static func redirect(_ location: String, status: Int = 301) -> Response {
            Response(status: status, headers: [("Location", location)], body: Data())
        }
        public static func status(_ status: Int) -> Response { Response(status: status, body: Data()) }
        /// An HTML page sent a byte every `interval` seconds: each read is quick, the whole page takes long.
        public static func trickled(_ text: String, every interval: Double) -> Response {
            Response(body: Data(text.utf8), trickle: interval)
        }
        /// Never answers: the connection stays open and silent (a server that hangs).
        public static let silence = Response(status: 0, headers: [], body: Data())
    }

    private let routes = RoutesRef()
    private let log = LogRef()
    private let channel: any Channel
    public let port: Int

    public init(_ routes: [String: Response] = [:]) async throws {
        self.routes.routes.withLock { $0 = routes }
        let (routesRef, logRef) = (self.routes, self.log)
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(routes: routesRef, log: logRef))
                }
            }
        channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    public var base: String { "http://127.0.0.1:\(port)" }
    public func url(_ path: String) -> URL { URL(string: base + path)! }

    /// Every request path (with query), in order.
    public var requests: [String] { log.entries.withLock { $0.map(\.path) } }
    /// When each request arrived.
    public var requestTimes: [Date] { log.entries.withLock { $0.map(\.date) } }

    public func set(_ path: String, _ response: Response) { routes.routes.withLock { $0[path] = response } }

    public func stop() async {
        try? await channel.close()
    }
}

final class RoutesRef: Sendable {
    let routes = Mutex<[String: TestWebServer.Response]>([:])
}

final class LogRef: Sendable {
    let entries = Mutex<[(path: String, date: Date)]>([])
}

private final class Handler: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: NIO calls a handler on its channel's event loop only.
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    let routes: RoutesRef
    let log: LogRef
    var path = ""

    init(routes: RoutesRef, log: LogRef) {
        self.routes = routes
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            path = head.uri
            log.entries.withLock { $0.append((head.uri, Date())) }
        case .body:
            break
        case .end:
            let response = routes.routes.withLock { $0[path] } ?? .init(status: 404, body: Data("not found".utf8))
            if response.status == 0 { return }  // .silence
            var headers = HTTPHeaders(response.headers)
            headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
            let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            if let interval = response.trickle {
                context.flush()
                let bytes = Array(response.body)
                let channel = context.channel
                @Sendable func send(_ index: Int) {
                    guard channel.isActive else { return }
                    guard index < bytes.count else {
                        channel.writeAndFlush(HTTPServerResponsePart.end(nil), promise: nil)
                        return
                    }
                    var buffer = channel.allocator.buffer(capacity: 1)
                    buffer.writeInteger(bytes[index])
                    channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
                    channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(interval * 1e9))) { send(index + 1) }
                }
                send(0)
                return
            }
            var buffer = context.channel.allocator.buffer(capacity: response.body.count)
            buffer.writeBytes(response.body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
