import Foundation
import HummingbirdWebSocket
import Synchronization

/// Search as you type over one WebSocket (`/v1/search/live`): the client sends
/// each keystroke's text, the service answers the latest one. A keystroke
/// cancels the search still running for the previous one (its answer is never
/// sent); a client that goes away cancels whatever it had asked.
///
/// Client → service, one JSON text message per keystroke:
/// `{"id": 7, "q": "pea", "perApp": 3, "web": 3}` (`perApp`, `web` optional).
/// Service → client: `{"id": 7, "type": "results", "results": <SearchResponse>}`
/// or `{"id": 7, "type": "error", "error": {"code": …, "message": …}}`.
struct LiveSearch: Sendable {
    let api: SpotlightAPI

    struct Keystroke: Decodable, Sendable {
        var id: Int
        var q: String
        var perApp: Int?
        var web: Int?
    }

    /// An error answer (a results answer is written by ``SearchResponseJSON/encodeLiveResults(id:_:)``).
    struct Answer: Encodable, Sendable {
        var id: Int
        var type: String
        var error: APIError.Body.Detail?

        /// The answer to keystroke `id` (0: a message that is not one) that it failed with `problem`.
        init(id: Int, _ problem: APIError) {
            self.id = id
            type = "error"
            error = .init(code: problem.code.rawValue, message: problem.message)
        }

        func json() throws -> [UInt8] { Array(try JSONBody.encoder.encode(self)) }
    }

    /// Serves one connection until the client closes it.
    func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        api.metrics.liveConnections(1)
        let current = Mutex<Task<Void, Never>?>(nil)
        defer {
            current.withLock { $0?.cancel() }
            api.metrics.liveConnections(-1)
        }
        for try await message in inbound.messages(maxSize: api.limits.maximumMessageBytes) {
            guard case .text(let text) = message else {
                try await send(try Answer(id: 0, APIError(.invalidRequest, "send JSON text messages")).json(), outbound)
                continue
            }
            let keystroke: Keystroke
            do {
                keystroke = try JSONBody.decode(Keystroke.self, Data(text.utf8))
            } catch {
                try await send(try Answer(id: 0, APIError(error)).json(), outbound)
                continue
            }
            let api = self.api
            let task = Task {
                let answer: [UInt8]
                do {
                    let found = try api.search(keystroke.q, resultsPerApp: keystroke.perApp ?? 3, webResults: keystroke.web ?? 3, via: "live")
                    answer = try SearchResponseJSON.encodeLiveResults(id: keystroke.id, found)
                } catch is CancellationError {
                    api.metrics.searchCancelled()
                    return
                } catch {
                    guard let encoded = try? Answer(id: keystroke.id, APIError(error)).json() else { return }
                    answer = encoded
                }
                guard !Task.isCancelled else {
                    api.metrics.searchCancelled()
                    return
                }
                try? await send(answer, outbound)
            }
            let previous = current.withLock { kept in
                defer { kept = task }
                return kept
            }
            previous?.cancel()
        }
    }

    /// Sends an answer's JSON as a text message.
    private func send(_ json: [UInt8], _ outbound: WebSocketOutboundWriter) async throws {
        try await outbound.write(.text(String(decoding: json, as: UTF8.self)))
    }
}
