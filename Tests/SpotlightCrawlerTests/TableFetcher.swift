import Foundation
import Synchronization
@testable import SpotlightCrawler

/// A website in a table for in-process tests: each address's answer, every GET
/// recorded, no server and no socket. An address not in the table is a 404;
/// redirects, robots.txt and limits are the crawler's own (``WebFetching``'s
/// `fetch` follows the table's 3xx answers as it follows a server's).
final class TableFetcher: WebFetching {
    let configuration: WebFetcher.Configuration
    private let pages: [String: FetchResponse]
    private let log = Mutex<[String]>([])

    /// - Parameter pages: answers by address (`https://shop.example/robots.txt`).
    init(_ pages: [String: FetchResponse], configuration: WebFetcher.Configuration = WebFetcher.Configuration()) {
        self.pages = pages
        self.configuration = configuration
    }

    /// Every address asked for, in order.
    var requests: [String] { log.withLock { $0 } }

    func get(_ url: URL, maximumBytes: Int) async throws -> FetchResponse {
        log.withLock { $0.append(url.absoluteString) }
        guard var answer = pages[url.absoluteString] else { return FetchResponse(url: url, statusCode: 404) }
        guard answer.body.count <= maximumBytes else {
            throw CrawlError(.tooLarge, "\(url.absoluteString) is \(answer.body.count) bytes; at most \(maximumBytes) are read")
        }
        answer.url = url
        return answer
    }

    static func html(_ text: String) -> FetchResponse {
        FetchResponse(url: URL(fileURLWithPath: "/"), statusCode: 200, contentType: "text/html; charset=utf-8", body: Data(text.utf8))
    }

    static func text(_ text: String, type: String = "text/plain") -> FetchResponse {
        FetchResponse(url: URL(fileURLWithPath: "/"), statusCode: 200, contentType: type, body: Data(text.utf8))
    }

    static func redirect(_ location: String) -> FetchResponse {
        FetchResponse(url: URL(fileURLWithPath: "/"), statusCode: 301, location: location)
    }

    static func status(_ status: Int) -> FetchResponse {
        FetchResponse(url: URL(fileURLWithPath: "/"), statusCode: status)
    }
}
