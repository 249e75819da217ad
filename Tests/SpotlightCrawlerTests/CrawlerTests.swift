import Foundation
import SpotlightIndex
import SpotlightSystem
import SpotlightService
import Testing
import TestSupport
import WebMarkup
import WebTestSupport
@testable import SpotlightCrawler

/// A small shop website on loopback: robots.txt that names only Googlebot (so
/// Applebot follows it), an association file giving /fruit/* to the shop app, a
/// sitemap, duplicates by canonical URL, a redirect, a loop, a huge page, noindex.
@Suite(.timeLimit(.minutes(10)))
struct CrawlerTests {
    static let appID = "ABCDE12345.org.example.shop"

    static func page(_ title: String, description: String? = nil, canonical: String? = nil, head: String = "", body: String = "") -> TestWebServer.Response {
        .html("""
            <!doctype html><html><head><title>\(title)</title>
            \(description.map { #"<meta name="description" content="\#($0)">"# } ?? "")
            \(canonical.map { #"<link rel="canonical" href="\#($0)">"# } ?? "")
            \(head)</head><body>\(body)</body></html>
            """)
    }

    static func shop() async throws -> TestWebServer {
        let server = try await TestWebServer([:])
        let base = server.base
        server.set("/robots.txt", .text("""
            User-agent: Googlebot
            Disallow: /private/

            User-agent: *
            Disallow: /

            Sitemap: \(base)/sitemap.xml
            """))
        server.set("/.well-known/apple-app-site-association", .text("""
            {"applinks": {"details": [{"appIDs": ["\(appID)"], "components": [
                {"/": "/fruit/secret", "exclude": true}, {"/": "/fruit/*"}]}]}}
            """, type: "application/json"))
        server.set("/sitemap.xml", .text("""
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>\(base)/fruit/cherry</loc></url></urlset>
            """, type: "application/xml"))
        server.set("/", page("Green Grocer", description: "Fresh fruit", body: """
            <a href="/fruit/pear">Pear</a> <a href="fruit/apple#top">Apple</a> <a href="/fruit/pear?ref=home">Pear again</a>
            <a href="/private/ledger">Ledger</a> <a href="/loop">Loop</a> <a href="/moved">Moved</a> <a href="/noindex">Hidden</a>
            <a href="/big">Big</a> <a href="/news">News</a> <a href="http://elsewhere.invalid/">Elsewhere</a>
            <a href="/fruit/secret">Secret</a> <a rel="nofollow" href="/unfollowed">Unfollowed</a>
            """))
        server.set("/fruit/pear", page("Pear", description: "Juicy conference pears", canonical: "/fruit/pear", head: """
            <meta property="og:image" content="/img/pear.jpg">
            <script type="application/ld+json">{"@context": "https://schema.org", "@type": "Product", "name": "Conference pear",
              "offers": {"@type": "Offer", "price": "2.50", "priceCurrency": "EUR"}}</script>
            """))
        server.set("/fruit/pear?ref=home", page("Pear", description: "Juicy conference pears", canonical: "/fruit/pear"))
        server.set("/fruit/apple", page("Apple", description: "Crisp apples"))
        server.set("/fruit/cherry", page("Cherry", description: "Dark cherries"))
        server.set("/fruit/secret", page("Secret", description: "Not an app page"))
        server.set("/private/ledger", page("Ledger", description: "Private"))
        server.set("/loop", .redirect("/loop2"))
        server.set("/loop2", .redirect("/loop"))
        server.set("/moved", .redirect("/fruit/apple"))
        server.set("/noindex", page("Hidden", description: "Not for search", head: #"<meta name="robots" content="NOINDEX">"#))
        server.set("/big", .html("<title>Big</title>" + String(repeating: "<p>filler</p>", count: 200_000)))
        server.set("/news", page("News", description: "What is in season", head: """
            <meta name="apple-itunes-app" content="app-id=111222333, app-argument=\(base)/news">
            """))
        server.set("/unfollowed", page("Unfollowed", description: "Never fetched", head: #"<meta name="apple-itunes-app" content="app-id=1, app-argument=x://y">"#))
        return server
    }

    static func configuration() -> CrawlConfiguration {
        var configuration = CrawlConfiguration()
        configuration.minimumDelay = 0
        configuration.fetcher.maximumBodyBytes = 1 << 20
        configuration.fetcher.timeout = 5
        return configuration
    }

    @Test func crawlsTheShopPolitelyAndStoresIndexablePages() async throws {
        let server = try await Self.shop()
        defer { Task { await server.stop() } }
        let scratch = try ScratchDirectory("crawler-tests")
        defer { scratch.cleanUp() }
        let store = try WebStore(location: .directory(scratch.url))
        let report = try await Crawler(configuration: Self.configuration(), store: store).crawl(from: [server.url("/")])

        func kind(_ path: String) -> CrawlReport.PageOutcome.Kind? {
            report.pages.first { $0.url.absoluteString == server.base + path }?.kind
        }
        #expect(kind("/") == .notIndexable)  // no deep link
        #expect(kind("/fruit/pear") == .indexed)
        #expect(kind("/fruit/pear?ref=home") == .duplicate)  // canonical collapses it
        #expect(kind("/fruit/apple") == .indexed)
        #expect(kind("/fruit/cherry") == .indexed)  // only in the sitemap
        #expect(kind("/fruit/secret") == .notIndexable)  // excluded by the association file: no deep link
        #expect(kind("/private/ledger") == .blockedByRobots)  // Googlebot's group applies to Applebot
        #expect(kind("/loop") == .failed)
        #expect(kind("/noindex") == .notIndexable)
        #expect(kind("/big") == .failed)
        #expect(kind("/news") == .indexed)  // Smart App Banner deep link
        #expect(kind("/moved") == .duplicate)  // redirected to /fruit/apple, already stored
        #expect(!server.requests.contains("/private/ledger"))
        #expect(!server.requests.contains("/unfollowed"))
        #expect(server.requests.filter { $0 == "/robots.txt" }.count == 1)
        #expect(report.stopReason == .finished)

        let stored = try store.pages().map { $0.url.absoluteString }
        #expect(stored == ["/fruit/apple", "/fruit/cherry", "/fruit/pear", "/news"].map { server.base + $0 })
        let pear = try #require(try store.page(at: server.url("/fruit/pear")))
        #expect(pear.applicationIdentifiers == [Self.appID])
        #expect(pear.deepLinks.map(\.source) == ["universal-link"])
        #expect(pear.imageURL == server.url("/img/pear.jpg"))
        #expect(pear.entities.first?.types == ["Product"])
        #expect(pear.entities.first?.properties["offers.price"] == "2.50")
        let news = try #require(try store.page(at: server.url("/news")))
        #expect(news.applicationIdentifiers.isEmpty && news.appStoreIDs == ["111222333"])
        #expect(try store.search("conference").map(\.page.title) == ["Pear"])
        #expect(try store.search("juic").map(\.page.title) == ["Pear"])
    }

    @Test func aRecrawlForgetsPagesThatAreGoneOrNoLongerIndexable() async throws {
        let server = try await Self.shop()
        defer { Task { await server.stop() } }
        let scratch = try ScratchDirectory("crawler-tests")
        defer { scratch.cleanUp() }
        let store = try WebStore(location: .directory(scratch.url))
        _ = try await Crawler(configuration: Self.configuration(), store: store).crawl(from: [server.url("/")])
        #expect(try store.pageCount() == 4)

        server.set("/fruit/apple", .status(410))
        server.set("/fruit/cherry", .status(404))
        server.set("/news", Self.page("News", description: "d", head: #"<meta name="robots" content="noindex">"#))
        // The duplicate address now says noindex: its canonical page, stored in this crawl, stays.
        server.set("/fruit/pear?ref=home", Self.page("Pear", description: "d", canonical: "/fruit/pear", head: #"<meta name="robots" content="noindex">"#))
        _ = try await Crawler(configuration: Self.configuration(), store: store).crawl(from: [server.url("/")])
        #expect(try store.pages().map(\.url) == [server.url("/fruit/pear")])
    }

    @Test func webResultsShowBesideAppResultsAndOpenTheApp() async throws {
        let server = try await Self.shop()
        defer { Task { await server.stop() } }
        let scratch = try ScratchDirectory("crawler-tests")
        defer { scratch.cleanUp() }
        let root = scratch.url
        _ = try await Crawler(configuration: Self.configuration(), store: try WebStore(location: .directory(root))).crawl(from: [server.url("/")])
        let registry = AppRegistry(location: .directory(root))

        // No app registered: the App Store id is shown, nothing opens.
        var found = try SystemSearch(registry: registry).search("news")
        #expect(found.web.map(\.title) == ["News"])
        #expect(found.web[0].app == nil && found.web[0].appStoreID == "111222333")
        #expect(throws: SystemSearchError.self) { try AppLauncher(registry: registry).open(found.web[0]) }

        try registry.register(AppRegistration(
            bundleIdentifier: "org.example.shop", displayName: "Shop",
            launchCommand: ["/bin/sh", "-c", "printf '%s' \"$OPENSPOTLIGHT_ACTIVITY\""],
            applicationIdentifier: Self.appID, appStoreID: "111222333"))
        found = try SystemSearch(registry: registry).search("pear")
        let pear = try #require(found.web.first)
        #expect(pear.app?.bundleIdentifier == "org.example.shop" && pear.appMatch == "universal-link")
        let opened = try AppLauncher(registry: registry).open(pear)
        let activity = try UserActivityRecord(jsonData: Data(opened.output.utf8))
        #expect(activity.activityType == "NSUserActivityTypeBrowsingWeb")
        #expect(activity.webpageURL == server.url("/fruit/pear"))

        let news = try #require(try SystemSearch(registry: registry).search("news").web.first)
        #expect(news.app?.bundleIdentifier == "org.example.shop" && news.appMatch == "apple-itunes-app")
        #expect(try AppLauncher(registry: registry).openWebPage(server.url("/news")).activity.webpageURL == server.url("/news"))
    }

    @Test func limitsArePagesBytesAndDepth() async throws {
        let server = try await Self.shop()
        defer { Task { await server.stop() } }
        var configuration = Self.configuration()
        configuration.maximumPages = 2
        var report = try await Crawler(configuration: configuration, store: nil).crawl(from: [server.url("/")])
        #expect(report.fetchedPages == 2 && report.stopReason == .maximumPages)

        configuration = Self.configuration()
        configuration.maximumDepth = 0
        report = try await Crawler(configuration: configuration, store: nil).crawl(from: [server.url("/")])
        #expect(report.fetchedPages == 1 && report.stopReason == .finished)

        configuration = Self.configuration()
        configuration.maximumTotalBytes = 3_000
        report = try await Crawler(configuration: configuration, store: nil).crawl(from: [server.url("/")])
        #expect(report.stopReason == .maximumTotalBytes)
        #expect(report.bytesRead <= 3_000 + 1_024)
    }

    /// The time limit holds inside a page: one sent a byte every half second
    /// (each read quick, the whole 1,000 s) is cut at the limit, and the
    /// report says the crawl stopped for time, not that it finished.
    @Test func theTimeLimitHoldsInsideASlowPage() async throws {
        let server = try await TestWebServer([:])
        defer { Task { await server.stop() } }
        server.set("/robots.txt", .text("User-agent: *\nAllow: /\n"))
        let body = "<html><head><title>Slow</title></head><body>" + String(repeating: "x", count: 2_000) + "</body></html>"
        server.set("/", .trickled(body, every: 0.5))
        var configuration = Self.configuration()
        configuration.maximumDuration = 2
        let started = Date()
        let report = try await Crawler(configuration: configuration, store: nil).crawl(from: [server.url("/")])
        #expect(report.stopReason == .maximumDuration)
        // On a busy machine the limit may come before the page is even asked for; if it was, it failed for time.
        #expect(report.pages.allSatisfy { $0.kind == .failed && $0.reasons.first?.contains("time limit") == true }, "\(report.pages)")
        #expect(Date().timeIntervalSince(started) < 300, "cut at the limit, not after the page's 1,000 s (wall time counts a busy machine too)")
    }

    @Test func redirectChainsAreBoundedAndLoopsCaught() async throws {
        let server = try await TestWebServer([:])
        defer { Task { await server.stop() } }
        for hop in 1...8 { server.set("/r\(hop)", .redirect("/r\(hop + 1)", status: 302)) }
        server.set("/r9", Self.page("End", description: "d"))
        server.set("/a", .redirect("/b"))
        server.set("/b", .redirect(server.base + "/a"))
        let fetcher = WebFetcher()
        do {
            _ = try await fetcher.fetch(server.url("/r1"))
            Issue.record("an 8-hop chain was followed")
        } catch let error as CrawlError {
            #expect(error.code == .tooManyRedirects)
            #expect(error.subject == server.url("/r1").absoluteString, "the error is about the address asked for")
        }
        do {
            _ = try await fetcher.fetch(server.url("/a"))
            Issue.record("a loop was followed")
        } catch let error as CrawlError {
            #expect(error.code == .redirectLoop)
            #expect(error.subject == server.url("/a").absoluteString)
        }
        let fine = try await fetcher.fetch(server.url("/r5"))
        #expect(fine.statusCode == 200 && fine.redirects.count == 4)
        do {
            _ = try await fetcher.fetch(server.url("/r8"), maximumRedirects: 0)
            Issue.record("a redirect was followed where none is allowed")
        } catch let error as CrawlError {
            #expect(error.code == .tooManyRedirects)
        }
        // 1 + 5 hops, then 1 + 4 hops, then the one refused redirect: nothing beyond the limits was fetched.
        #expect(server.requests.filter { $0.hasPrefix("/r") }.count == 6 + 5 + 1)
        try await fetcher.shutdown()
    }

    @Test(arguments: [(500, 0), (503, 0), (404, 3), (403, 3)])
    func robotsStatusDecidesWhatMayBeCrawled(status: Int, expectedFetched: Int) async throws {
        let server = try await TestWebServer([:])
        defer { Task { await server.stop() } }
        server.set("/robots.txt", .status(status))
        server.set("/", Self.page("Home", description: "d", body: #"<a href="/a">a</a><a href="/b">b</a>"#))
        server.set("/a", Self.page("A", description: "d"))
        server.set("/b", Self.page("B", description: "d"))
        let report = try await Crawler(configuration: Self.configuration(), store: nil).crawl(from: [server.url("/")])
        #expect(report.fetchedPages == expectedFetched)
        if expectedFetched == 0 {
            #expect(report.pages.map(\.kind) == [.blockedByRobots])
            #expect(report.pages.first?.reasons == ["\(server.base)/robots.txt answered HTTP \(status): nothing may be crawled until it answers"])
            #expect(server.requests == ["/robots.txt"])
        }
    }

    @Test func anUnreachableSiteIsNotCrawledAndSaysWhy() async throws {
        // A port bound and not listening: connections are refused. (A server
        // stopped to free its port let a parallel test's server take it.)
        let port = try RefusingPort()
        defer { port.close() }
        let address = try #require(URL(string: "http://127.0.0.1:\(port.number)/"))
        // A refused connection is an answer, not retried until the timeout:
        // with a 60 s timeout, even a loaded machine answers in well under 30 s.
        var configuration = Self.configuration()
        configuration.fetcher.timeout = 60
        let started = Date()
        let report = try await Crawler(configuration: configuration, store: nil).crawl(from: [address])
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(report.fetchedPages == 0 && report.pages.map(\.kind) == [.blockedByRobots])
        #expect(report.pages.first?.reasons.first?.hasSuffix("nothing may be crawled until robots.txt answers") == true)
    }

    @Test func crawlDelayIsHonoured() async throws {
        let server = try await TestWebServer([:])
        defer { Task { await server.stop() } }
        server.set("/robots.txt", .text("User-agent: Applebot\nCrawl-delay: 0.4\n"))
        server.set("/", Self.page("Home", description: "d", body: #"<a href="/a">a</a><a href="/b">b</a>"#))
        server.set("/a", Self.page("A", description: "d"))
        server.set("/b", Self.page("B", description: "d"))
        _ = try await Crawler(configuration: Self.configuration(), store: nil).crawl(from: [server.url("/")])
        let pageTimes = zip(server.requests, server.requestTimes).filter { ["/", "/a", "/b"].contains($0.0) }.map(\.1)
        #expect(pageTimes.count == 3)
        for (earlier, later) in zip(pageTimes, pageTimes.dropFirst()) {
            #expect(later.timeIntervalSince(earlier) >= 0.35)
        }
    }

    @Test func aSilentServerTimesOutAndTheCrawlGoesOn() async throws {
        let server = try await TestWebServer([:])
        defer { Task { await server.stop() } }
        server.set("/", Self.page("Home", description: "d", body: #"<a href="/hang">h</a><a href="/a">a</a>"#))
        server.set("/hang", .silence)
        server.set("/a", Self.page("A", description: "d"))
        var configuration = Self.configuration()
        configuration.fetcher.timeout = 1
        let started = Date()
        let report = try await Crawler(configuration: configuration, store: nil).crawl(from: [server.url("/")])
        // Without the timeout the crawl would wait on /hang until its time limit (300 s) and stop there.
        // (Wall time here also counts waiting for the test runner's threads on a busy machine.)
        #expect(report.stopReason == .finished)
        #expect(Date().timeIntervalSince(started) < 250)
        let hang = try #require(report.pages.first { $0.url.path == "/hang" })
        #expect(hang.kind == .failed && hang.reasons.first?.contains("could not be fetched") == true, "\(hang.reasons)")
        #expect(report.pages.contains { $0.url.path == "/a" && $0.kind == .notIndexable })
    }

    @Test func theValidatorReportsEachProblemWithItsCode() async throws {
        let server = try await TestWebServer([:])
        defer { Task { await server.stop() } }
        server.set("/robots.txt", .status(404))
        server.set("/.well-known/apple-app-site-association", .redirect("/aasa.json"))
        server.set("/p", .html("""
            <head><title>Pear</title><meta name="robots" content="noindex">
            <link rel="canonical" href="https://other.example/p"><meta property="og:url" content="/p">
            <meta property="og:price:amount" content="3.00">
            <meta name="apple-itunes-app" content="app-id=com.example.app">
            <script type="application/ld+json">{"@context": "https://schema.org", "@type": "Product", "name": "Pear",
              "aggregateRating": {"ratingValue": "4.5"}, "offers": [{"price": "2.50", "priceCurrency": "EUR"}, {"price": "2.00"}]}</script>
            <script type="application/ld+json">{"oops"</script></head>
            """))
        let report = await SiteValidator().validate(server.url("/p"))
        let codes = Set(report.findings.map(\.code))
        #expect(codes == ["noindex", "missing_description", "missing_image", "banner_app_id_not_numeric", "banner_without_app_argument",
                          "no_deep_link", "canonical_og_url_mismatch", "canonical_other_host", "aasa_redirect",
                          "structured_data_invalid_jsonld", "price_mismatch_og_vs_structured"], "\(codes)")
        #expect(report.checks.map(\.name) == ["Fetch", "Title", "Description", "Image", "Link to application", "Universal links", "Structured data"])
        #expect(report.checks.map(\.passed) == [false, true, false, true, false, false, false])
        #expect(report.preview?.rating == "4.5" && report.preview?.price == "2.50 EUR")

        server.set("/.well-known/apple-app-site-association", .text(#"{"applinks": {"details": [{"appID": "ABCDE12345.a.b", "paths": ["*"]}]}}"#))
        let served = await SiteValidator().validate(server.url("/p"))
        let aasaCodes = Set(served.findings.map(\.code)).filter { $0.hasPrefix("aasa") }
        #expect(aasaCodes.contains("aasa_bad_content_type") && !aasaCodes.contains("aasa_redirect"), "\(aasaCodes)")
        #expect(served.universalLinkApps == ["ABCDE12345.a.b"])
    }

    @Test func theFrontierIsBounded() async throws {
        var configuration = Self.configuration()
        configuration.maximumPages = 10
        let fetcher = WebFetcher()
        var run = CrawlRun(configuration: configuration, fetcher: fetcher, store: nil, progress: nil)
        run.sites = ["example.com"]
        for index in 0..<5_000 { run.enqueue(URL(string: "https://example.com/p\(index)")!, depth: 1) }
        run.enqueue(URL(string: "https://elsewhere.example/")!, depth: 1)
        #expect(run.frontier.count == 1_000)
        try await fetcher.shutdown()
    }

    @Test func nofollowPagesAreNotFollowed() async throws {
        let server = try await TestWebServer([:])
        defer { Task { await server.stop() } }
        server.set("/", Self.page("Home", description: "d", head: #"<meta name="robots" content="nofollow">"#, body: #"<a href="/a">a</a>"#))
        server.set("/a", Self.page("A", description: "d"))
        let report = try await Crawler(configuration: Self.configuration(), store: nil).crawl(from: [server.url("/")])
        #expect(report.fetchedPages == 1)
        #expect(!server.requests.contains("/a"))
    }
}
