import Foundation
import Testing
import TestSupport
import WebTestSupport

/// `spotlight markup`, `links match`, `validate`, `crawl` and web results in `search`, run as a user runs them.
@Suite(.serialized, .timeLimit(.minutes(10))) struct WebCommandsTests {
    static let page = """
        <html><head><title>Pear — Green Grocer</title><base href="/shop/">
        <meta name="description" content="Juicy conference pears"><meta property="og:image" content="img/pear.jpg">
        <link rel="canonical" href="pear"><meta property="og:url" content="https://grocer.example/fruit/pear">
        <meta name="apple-itunes-app" content="app-id=123456789, app-argument=https://grocer.example/shop/pear, affiliate-data=ct=a&amp;pt=b">
        <meta property="al:ios:url" content="grocer://pear"><meta property="al:ios:app_store_id" content="123456789">
        <meta name="robots" content="nofollow">
        <script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Conference pear",
          "offers":[{"@type":"Offer","price":"2.50"},{"@type":"Offer","price":"2.20"}]}</script>
        <script type="application/ld+json">{"broken": </script>
        </head><body><div itemscope itemtype="https://schema.org/Organization"><span itemprop="name">Green Grocer</span>
        <a itemprop="url" href="/about">About</a></div></body></html>
        """

    func write(_ text: String, in cli: CLI, name: String) throws -> String {
        let url = cli.home.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func markupPrintsTheExactJSONShape() throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let file = try write(Self.page, in: cli, name: "pear.html")
        let result = try cli.run("markup", file, "--url", "https://grocer.example/fruit/pear", "--json")
        #expect(result.status == 0, "\(result.error)")
        let expected: [String: Any] = [
            "title": "Pear — Green Grocer", "description": "Juicy conference pears",
            "image": "https://grocer.example/shop/img/pear.jpg", "canonical": "https://grocer.example/shop/pear",
            "og_url": "https://grocer.example/fruit/pear",
            "app_banner": ["app_id": "123456789", "app_argument": "https://grocer.example/shop/pear", "affiliate_data": "ct=a&pt=b",
                           "app_clip_bundle_id": NSNull(), "app_clip_display": NSNull()] as [String: Any],
            "deep_links": [
                ["source": "apple-itunes-app", "url": "https://grocer.example/shop/pear", "app_store_id": "123456789"],
                ["source": "al:ios", "url": "grocer://pear", "app_store_id": "123456789"],
            ],
            "entities": [
                ["type": "Product", "syntax": "json-ld", "properties": [
                    "name": "Conference pear", "offers.0.@type": "Offer", "offers.0.price": "2.50", "offers.1.@type": "Offer", "offers.1.price": "2.20",
                ]] as [String: Any],
                ["type": "Organization", "syntax": "microdata", "properties": ["name": "Green Grocer", "url": "https://grocer.example/about"]],
            ],
            "robots": ["noindex": false, "nofollow": true, "nosnippet": false],
            "indexable": true,
        ]
        let actual = try result.json()
        #expect(NSDictionary(dictionary: actual).isEqual(to: expected), "\(result.output)")

        let text = try cli.run("markup", file)
        #expect(text.status == 0)
        #expect(text.output.contains("title        Pear — Green Grocer  (title)"))
        #expect(text.output.contains("JSON-LD block 2 is not valid JSON"))

        let missing = try cli.run("markup", cli.home.appendingPathComponent("nope.html").path)
        #expect(missing.status == 1 && missing.error.contains("no file at"))
        let badBase = try cli.run("markup", file, "--url", "not a url")
        #expect(badBase.status != 0 && badBase.error.contains("--url"))
    }

    @Test func linksMatchFollowsFirstMatchRules() throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let aasa = try write("""
            {"applinks": {"details": [
              {"appIDs": ["ABCDE12345.org.example.grocer"], "components": [{"/": "/shop/secret*", "exclude": true}, {"/": "/shop/*"}]},
              {"appID": "FGHIJ67890.org.example.other", "paths": ["*"]}]}}
            """, in: cli, name: "apple-app-site-association")
        for (url, app) in [("https://grocer.example/shop/pear", "ABCDE12345.org.example.grocer" as String?),
                           ("https://grocer.example/shop/secret-menu", "FGHIJ67890.org.example.other"),
                           ("https://grocer.example/about", "FGHIJ67890.org.example.other")] {
            let result = try cli.run("links", "match", "--aasa", aasa, url, "--json")
            #expect(result.status == 0, "\(result.error)")
            #expect(try result.json()["app"] as? String == app, "\(url)")
        }
        let none = try write(#"{"applinks": {"details": [{"appID": "ABCDE12345.a.b", "paths": ["/only"]}]}}"#, in: cli, name: "none.json")
        #expect(try cli.run("links", "match", "--aasa", none, "https://x.example/other", "--json").json()["app"] is NSNull)
        let broken = try write("{not json", in: cli, name: "broken.json")
        let failed = try cli.run("links", "match", "--aasa", broken, "https://x.example/")
        #expect(failed.status == 1 && failed.error.contains("broken.json"))
    }

    @Test func crawlThenSearchShowsWebResultsAndValidateReports() async throws {
        let server = try await TestWebServer()
        defer { Task { await server.stop() } }
        server.set("/robots.txt", .text("User-agent: *\nDisallow: /private/\n"))
        server.set("/.well-known/apple-app-site-association", .text(
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.org.example.grocer"], "components": [{"/": "/fruit/*"}]}]}}"#,
            type: "application/json"))
        server.set("/", .html(#"<title>Grocer</title><meta name="description" content="Fresh"><a href="/fruit/pear">p</a><a href="/private/x">x</a><a href="/bare">b</a>"#))
        server.set("/fruit/pear", .html(#"<title>Pear</title><meta name="description" content="Juicy conference pears"><meta property="og:image" content="/p.jpg">"#))
        server.set("/bare", .html("<p>no title, no description"))

        let cli = try CLI()
        defer { cli.cleanUp() }
        let crawl = try cli.run("crawl", server.url("/").absoluteString, "--max-pages", "10", "--delay", "0")
        #expect(crawl.status == 0, "\(crawl.error)")
        #expect(crawl.output.contains("+ indexed         \(server.base)/fruit/pear"), "\(crawl.output)")
        #expect(crawl.output.contains("- blockedByRobots \(server.base)/private/x"))
        #expect(crawl.output.contains("1 indexed, 0 duplicates, 2 not indexable, 1 blocked by robots.txt, 0 failed"))
        #expect(!server.requests.contains("/private/x"))

        let found = try cli.run("search", "pear", "--json").json()
        let web = try #require(found["web"] as? [[String: Any]])
        #expect(web.map { $0["title"] as? String } == ["Pear"])
        #expect(web.first?["associatedApps"] as? [String] == ["ABCDE12345.org.example.grocer"])
        #expect(try cli.run("search", "pear").output.contains("opens in ABCDE12345.org.example.grocer when it is installed"))

        let good = try cli.run("validate", server.url("/fruit/pear").absoluteString)
        #expect(good.status == 0, "\(good.output)")
        #expect(good.output.contains("7 of 7 checks passed"))
        let bad = try cli.run("validate", server.url("/bare").absoluteString, "--json")
        #expect(bad.status == 2)
        let report = try bad.json()
        let codes = (report["checks"] as? [[String: Any]])?.flatMap { ($0["findings"] as? [[String: Any]]) ?? [] }.compactMap { $0["code"] as? String }
        #expect(Set(codes ?? []).isSuperset(of: ["missing_title", "missing_description", "aasa_no_app_for_url"]), "\(codes ?? [])")
        let blocked = try cli.run("validate", server.url("/private/x").absoluteString)
        #expect(blocked.status == 2 && blocked.output.contains("robots_blocked"))
        let listed = try cli.run("web", "pages", "--host", "127.0.0.1", "--json").json()["pages"] as? [[String: Any]]
        #expect(listed?.compactMap { $0["title"] as? String } == ["Pear"])
        #expect(try cli.run("web", "pages").output.contains("Pear  \(server.base)/fruit/pear"))
        #expect(try cli.run("web", "forget", "127.0.0.1").output.contains("forgot 1 pages"))
        #expect((try cli.run("search", "pear", "--json").json()["web"] as? [Any])?.isEmpty == true)
        _ = try cli.run("crawl", server.url("/").absoluteString, "--delay", "0")

        // markup and links match read http(s) addresses too; association files never through a redirect.
        let fetched = try cli.run("markup", server.url("/fruit/pear").absoluteString, "--json").json()
        #expect(fetched["title"] as? String == "Pear" && fetched["image"] as? String == server.base + "/p.jpg")
        let aasaURL = server.url("/.well-known/apple-app-site-association").absoluteString
        #expect(try cli.run("links", "match", "--aasa", aasaURL, server.base + "/fruit/fig", "--json").json()["app"] as? String
                == "ABCDE12345.org.example.grocer")
        server.set("/moved-aasa", .redirect("/.well-known/apple-app-site-association"))
        let redirected = try cli.run("links", "match", "--aasa", server.base + "/moved-aasa", server.base + "/fruit/fig")
        #expect(redirected.status == 1 && redirected.error.contains("no redirect is allowed"), "\(redirected.error)")
        let notHTTP = try cli.run("crawl", "ftp://example.com/")
        #expect(notHTTP.status != 0 && notHTTP.error.contains("not an http(s) address"))
    }
}
