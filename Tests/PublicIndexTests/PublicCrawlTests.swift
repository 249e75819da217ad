import Foundation
import PublicIndex
import PublicIndexProtocol
import PublicIndexService
import SpotlightCrawler
import Testing
import WebTestSupport

/// The crawler writing to the public index instead of the device's web store.
@Suite(.timeLimit(.minutes(10)))
struct PublicCrawlTests {
    static func page(_ title: String, _ description: String, head: String = "", links: [String] = []) -> TestWebServer.Response {
        .html("""
            <!doctype html><html><head><title>\(title)</title><meta name="description" content="\(description)">
            <meta name="apple-itunes-app" content="app-id=111222333, app-argument=grocer://\(title.lowercased())">\(head)</head>
            <body>\(links.map { #"<a href="\#($0)">x</a>"# }.joined())</body></html>
            """)
    }

    static func configuration() -> CrawlConfiguration {
        var configuration = CrawlConfiguration()
        configuration.minimumDelay = 0
        configuration.fetcher.timeout = 5
        return configuration
    }

    @Test func pagesGoToThePublicIndexAndARecrawlRemovesThoseGone() async throws {
        let site = try await TestWebServer([:])
        defer { Task { await site.stop() } }
        site.set("/robots.txt", .text("User-agent: *\nAllow: /\n"))
        site.set("/", Self.page("Grocer", "Fresh fruit and vegetables", links: ["/pear", "/plum", "/quince", "/fig"]))
        site.set("/pear", Self.page("Pear", "Juicy conference pears"))
        site.set("/plum", Self.page("Plum", "Sweet plums from the orchard"))
        site.set("/quince", Self.page("Quince", "Quinces for jelly"))
        site.set("/fig", Self.page("Fig", "Fresh figs"))
        try await TestClusters.withIndex(shards: 0) { index, _ in
            let crawler = Crawler(configuration: Self.configuration(), destination: PublicIndexCrawlDestination(index: index))
            let first = try await crawler.crawl(from: [site.url("/")])
            #expect(first.count(.indexed) == 5)
            #expect(try await index.pageURLs(onSite: "127.0.0.1") == ["/", "/fig", "/pear", "/plum", "/quince"].map { site.base + $0 })
            let found = try await index.search("orchard plum")
            #expect(found.results.map(\.title) == ["Plum"])
            #expect(found.results.first?.kind == .page)
            #expect(found.results.first?.site == "127.0.0.1")
            #expect(found.results.first?.deepLinks.first?.appStoreID == "111222333")

            site.set("/pear", .status(404))
            site.set("/plum", .status(410))
            site.set("/quince", Self.page("Quince", "Quinces for jelly", head: #"<meta name="robots" content="noindex">"#))
            site.set("/fig", Self.page("Fig", "Fresh figs, now dried too"))
            _ = try await crawler.crawl(from: [site.url("/")])
            #expect(try await index.pageURLs(onSite: "127.0.0.1") == ["/", "/fig"].map { site.base + $0 })
            #expect(try await index.search("plum").results.isEmpty)
            #expect(try await index.search("dried").results.map(\.title) == ["Fig"])
        }
    }
}
