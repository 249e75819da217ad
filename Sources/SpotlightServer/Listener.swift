import Foundation
import HTTPTypes

/// Where a request came in, and so which hosts and origins are the service's own.
///
/// Over the Unix socket only processes of the user reach the service (the
/// socket is `0600` in a `0700` directory) and no browser can: a request
/// carrying an `Origin` is refused. On 127.0.0.1 a web page of any site can
/// make the browser send requests, so the `Host` must be the service's own
/// (no DNS rebinding) and an `Origin`, when sent, must be the service's own
/// page (or a local WebSocket client's `ws://` loopback origin); no CORS header is ever sent, so no other origin reads an answer.
/// And since any local user can connect to 127.0.0.1 (and the page carries
/// the token), only connections whose client socket is the service's own
/// user's are answered (``LoopbackPeer``).
enum Listener: Sendable, Hashable {
    case unixSocket
    case loopback(port: Int)

    /// The origins of the service's own page.
    var ownOrigins: Set<String> {
        switch self {
        case .unixSocket: []
        case .loopback(let port): ["http://127.0.0.1:\(port)", "http://localhost:\(port)", "http://[::1]:\(port)"]
        }
    }

    /// Whether an `Origin` is the service's own page, or a local WebSocket client
    /// naming the loopback host it dialled (`ws://127.0.0.1`, as non-browser
    /// clients do; a browser always sends its page's http(s) origin).
    func allows(origin: String) -> Bool {
        if ownOrigins.contains(origin) { return true }
        guard let url = URL(string: origin), let scheme = url.scheme, scheme == "ws" || scheme == "wss" else { return false }
        return ["127.0.0.1", "localhost", "::1", "[::1]"].contains(url.host ?? "")
    }

    /// Why a request with this Host (`authority`) and these headers is refused, or nil when it may go on.
    func refusal(authority: String?, _ fields: HTTPFields) -> APIError? {
        if case .loopback(let port) = self {
            let host = authority?.lowercased() ?? ""
            guard ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"].contains(host) else {
                return APIError(.forbiddenOrigin, "the Host \(host.debugDescription) is not this service's (use http://127.0.0.1:\(port)/)")
            }
        }
        for origin in fields[values: .origin] where !allows(origin: origin.lowercased()) {
            return APIError(.forbiddenOrigin, "requests from \(origin.debugDescription) are not allowed: the service answers its own page and local programs only")
        }
        if let site = fields[HTTPField.Name("Sec-Fetch-Site")!], site == "cross-site" {
            return APIError(.forbiddenOrigin, "cross-site requests are not allowed")
        }
        return nil
    }
}
