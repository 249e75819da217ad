import Foundation
import SpotlightIndex
import SpotlightSystem
import Testing
import TestSupport
@testable import SpotlightCrawler

/// The crawler's and the validator's manners against a website in a table
/// (``TableFetcher``): in process, no loopback server. `CrawlerTests` runs the
/// same manners over HTTP.
@Suite struct CrawlerTableTests {
    static let origin = "https://shop.example"
    static let appID = "ABCDE12345.org.example.shop"

    static func page(_ title: String, description: String, links: [String] = []) -> FetchResponse {
        TableFetcher.html("""
            <!doctype html><html><head><title>\(title)</title><meta name="description" content="\(description)"></head>
            <body>\(links.map { #"<a href="\#($0)">\#($0)</a>"# }.joined(separator: " "))</body></html>
            """)
    }

    /// robots.txt for Applebot, a sitemap, an association file giving /fruit/* to the shop's app.
    static func shop(robots: FetchResponse? = nil) -> TableFetcher {
        TableFetcher([
            origin + "/robots.txt": robots ?? TableFetcher.text("""
                User-agent: Applebot
                Disallow: /private/

                Sitemap: \(origin)/sitemap.xml
                """),
            origin + "/sitemap.xml": TableFetcher.text("""
                <?xml version="1.0" encoding="UTF-8"?>
                <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>\(origin)/fruit/cherry</loc></url></urlset>
                """, type: "application/xml"),
            origin + "/.well-known/apple-app-site-association": TableFetcher.text("""
                {"applinks": {"details": [{"appIDs": ["\(appID)"], "components": [{"/": "/fruit/*"}]}]}}
                """, type: "application/json"),
            origin + "/": page("Green Grocer", description: "Fresh fruit", links: ["/fruit/pear", "/private/ledger", "/moved"]),
            origin + "/fruit/pear": page("Pear", description: "Juicy conference pears"),
            origin + "/fruit/cherry": page("Cherry", description: "Dark cherries"),
            origin + "/private/ledger": page("Ledger", description: "Private"),
            origin + "/moved": TableFetcher.redirect("/private/moved-here"),
            origin + "/private/moved-here": page("Moved", description: "Private too"),
        ])
    }

    static func configuration() -> CrawlConfiguration {
        var configuration = CrawlConfiguration()
        configuration.minimumDelay = 0
        return configuration
    }

    @Test func robotsTxtComesFirstAndIsObeyedAndTheSitemapIsFollowed() async throws {
        let scratch = try ScratchDirectory("crawler-table")
        defer { scratch.cleanUp() }
        let store = try WebStore(location: .directory(scratch.url))
        let fetcher = Self.shop()
        let report = try await Crawler(configuration: Self.configuration(), store: store, fetcher: fetcher).crawl(from: [URL(string: Self.origin + "/")!])

        #expect(fetcher.requests.first == Self.origin + "/robots.txt")
        #expect(fetcher.requests.filter { $0.hasSuffix("/robots.txt") }.count == 1)
        #expect(!fetcher.requests.contains { $0.contains("/private/") }, "\(fetcher.requests)")
        func kind(_ path: String) -> CrawlReport.PageOutcome.Kind? {
            report.pages.first { $0.url.absoluteString == Self.origin + path }?.kind
        }
        #expect(kind("/private/ledger") == .blockedByRobots)
        #expect(kind("/moved") == .blockedByRobots, "a redirect into a disallowed path is not followed")
        #expect(kind("/fruit/cherry") == .indexed, "only in the sitemap")
        #expect(try store.pages().map(\.url.absoluteString) == ["/fruit/cherry", "/fruit/pear"].map { Self.origin + $0 })
    }

    @Test(arguments: [503, 429])
    func aRobotsTxtThatDoesNotAnswerStopsTheSite(status: Int) async throws {
        let fetcher = Self.shop(robots: TableFetcher.status(status))
        let report = try await Crawler(configuration: Self.configuration(), store: nil, fetcher: fetcher).crawl(from: [URL(string: Self.origin + "/")!])
        #expect(fetcher.requests == [Self.origin + "/robots.txt"])
        #expect(report.pages.map(\.kind) == [.blockedByRobots])
    }

    @Test func theValidatorReadsRobotsThePageAndTheAssociationFile() async throws {
        let fetcher = Self.shop()
        let report = await SiteValidator(client: fetcher).validate(URL(string: Self.origin + "/fruit/pear")!)
        #expect(fetcher.requests.first == Self.origin + "/robots.txt")
        #expect(fetcher.requests.contains(Self.origin + "/.well-known/apple-app-site-association"))
        #expect(report.statusCode == 200)
        #expect(report.universalLinkApps == [Self.appID])
        #expect(!report.findings.contains { $0.code == "no_deep_link" }, "\(report.findings.map(\.code))")

        let blocked = await SiteValidator(client: fetcher).validate(URL(string: Self.origin + "/private/ledger")!)
        #expect(blocked.findings.contains { $0.code == "robots_blocked" })
    }
}
