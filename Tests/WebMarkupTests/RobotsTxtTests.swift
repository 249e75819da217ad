import Foundation
import Testing
@testable import WebMarkup

@Suite struct RobotsTxtTests {
    static func url(_ path: String) -> URL { URL(string: "https://example.com" + path)! }

    // MARK: Group selection

    static let allThree = """
        User-agent: Applebot
        Disallow: /a

        User-agent: Googlebot
        Disallow: /g

        User-agent: *
        Disallow: /s
        """

    @Test(arguments: [
        (allThree, "Applebot", "applebot"),
        (allThree, "applebot", "applebot"),
        (allThree, "Applebot/0.1", "applebot"),
        (allThree, "Googlebot", "googlebot"),
        (allThree, "Bingbot", "*"),
        ("User-agent: Googlebot\nDisallow: /g\nUser-agent: *\nDisallow: /s", "Applebot", "googlebot"),
        ("User-agent: Googlebot\nDisallow: /g", "Applebot", "googlebot"),
        ("User-agent: Googlebot\nDisallow: /g", "Bingbot", nil),
        ("User-agent: *\nDisallow: /s", "Applebot", "*"),
        ("User-agent: Applebot-Extended\nDisallow: /\nUser-agent: *\nAllow: /", "Applebot", "*"),
        ("User-agent: Applebot-Extended\nDisallow: /", "Applebot", nil),
        ("User-agent: Applebot-Extended\nDisallow: /", "Applebot-Extended", "applebot-extended"),
        ("User-agent: APPLEBOT/0.1 (comment)\nDisallow: /", "Applebot", "applebot"),
        ("User-agent: googlebot-news\nDisallow: /", "Applebot", nil),
        ("User-agent: Applebot\nDisallow: /", "Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", "applebot"),
        ("User-agent: Applebot\nDisallow: /", "Mozilla/5.0 (compatible; NotApplebot/1.0)", nil),
        ("", "Applebot", nil),
    ] as [(String, String, String?)])
    func selectsTheGroup(robots: String, userAgent: String, expected: String?) {
        #expect(RobotsTxt(robots).selectedGroup(userAgent: userAgent) == expected)
    }

    @Test func applebotFollowsGooglebotRulesWhenNotNamed() {
        let robots = RobotsTxt("User-agent: Googlebot\nDisallow: /private/\n\nUser-agent: *\nDisallow: /")
        #expect(!robots.isAllowed(Self.url("/private/x")))
        #expect(robots.isAllowed(Self.url("/public")))
        #expect(!robots.isAllowed(Self.url("/public"), userAgent: "Bingbot"))
    }

    @Test func applebotExtendedDoesNotAffectCrawling() {
        let robots = RobotsTxt("User-agent: Applebot-Extended\nDisallow: /\n")
        #expect(robots.isAllowed(Self.url("/page")))
        #expect(!robots.isAllowed(Self.url("/page"), userAgent: "Applebot-Extended"))
    }

    // MARK: Group structure

    @Test func consecutiveUserAgentLinesShareAGroup() {
        let robots = RobotsTxt("User-agent: Bingbot\nUser-agent: Applebot\nDisallow: /x\n")
        #expect(!robots.isAllowed(Self.url("/x")))
        #expect(!robots.isAllowed(Self.url("/x"), userAgent: "bingbot"))
    }

    @Test func groupsNamingTheSameAgentMerge() {
        let robots = RobotsTxt("""
            User-agent: applebot
            Disallow: /a
            User-agent: *
            Disallow: /star
            User-agent: Applebot
            Disallow: /b
            """)
        #expect(!robots.isAllowed(Self.url("/a")))
        #expect(!robots.isAllowed(Self.url("/b")))
        #expect(robots.isAllowed(Self.url("/star")))
    }

    @Test func rulesBeforeAnyUserAgentAreIgnored() {
        let robots = RobotsTxt("Disallow: /\nUser-agent: Applebot\nDisallow: /x\n")
        #expect(robots.isAllowed(Self.url("/y")))
        #expect(!robots.isAllowed(Self.url("/x")))
    }

    @Test func aUserAgentLineAfterRulesStartsANewGroupEvenIfItNamesNobody() {
        let robots = RobotsTxt("User-agent: Applebot\nAllow: /\nUser-agent:\nDisallow: /\n")
        #expect(robots.isAllowed(Self.url("/y")))
    }

    @Test func sitemapAndUnknownLinesDoNotBreakAGroup() {
        let robots = RobotsTxt("User-agent: Bingbot\nSitemap: https://example.com/s.xml\nHost: example.com\nUser-agent: Applebot\nDisallow: /x\n")
        #expect(!robots.isAllowed(Self.url("/x")))
        #expect(!robots.isAllowed(Self.url("/x"), userAgent: "Bingbot"))
    }

    // MARK: Matching

    @Test(arguments: [
        // Longest match wins; Allow wins ties (RFC 9309 §2.2.2).
        ("Allow: /p\nDisallow: /", "/page", true),
        ("Allow: /p\nDisallow: /", "/other", false),
        ("Allow: /folder\nDisallow: /folder", "/folder/page", true),
        ("Disallow: /folder\nAllow: /folder", "/folder/page", true),
        ("Allow: /page\nDisallow: /*.html", "/page.html", false),
        ("Allow: /$\nDisallow: /", "/", true),
        ("Allow: /$\nDisallow: /", "/page.htm", false),
        // Prefixes, case, `*` and `$`.
        ("Disallow: /fish", "/fish", false),
        ("Disallow: /fish", "/fish.html", false),
        ("Disallow: /fish", "/fish/salmon.html", false),
        ("Disallow: /fish", "/Fish.asp", true),
        ("Disallow: /fish", "/catfish", true),
        ("Disallow: /fish*", "/fishheads", false),
        ("Disallow: /fish/", "/fish", true),
        ("Disallow: /fish/", "/fish/?id=1", false),
        ("Disallow: /*.php", "/folder/filename.php?parameters", false),
        ("Disallow: /*.php$", "/filename.php", false),
        ("Disallow: /*.php$", "/filename.php?parameters", true),
        ("Disallow: /*.php$", "/filename.php/", true),
        ("Disallow: /*.php$", "/windows.PHP", true),
        ("Disallow: /fish*.php", "/fishheads/catfish.php?parameters", false),
        ("Disallow: /fish*.php", "/Fish.PHP", true),
        ("Disallow: /*/secret/*.pdf$", "/x/secret/y.pdf", false),
        ("Disallow: /*/secret/*.pdf$", "/x/secret/y.pdfx", true),
        ("Disallow: /*/secret/*.pdf$", "/secret/y.pdf", true),
        ("Disallow: /a$b", "/a$b", false),
        ("Disallow: /a$b", "/a", true),
        ("Disallow: *", "/anything", false),
        ("Disallow: /*$", "/anything", false),
        // Queries count.
        ("Disallow: /*?", "/a?b=1", false),
        ("Disallow: /*?", "/a", true),
        ("Disallow: /search?q=", "/search?q=pie", false),
        // An empty Disallow allows everything; `/robots.txt` is always allowed.
        ("Disallow:", "/anything", true),
        ("Disallow: /", "/robots.txt", true),
        ("Disallow: /", "/robots.txt?x=1", true),
        ("Disallow: /", "", false),
        // A pattern without its leading slash.
        ("Disallow: private", "/private/x", false),
        // Percent-encoding (RFC 9309 §2.2.2).
        ("Disallow: /foo/bar/%62%61%7A", "/foo/bar/baz", false),
        ("Disallow: /foo/bar/baz", "/foo/bar/%62%61%7a", false),
        ("Disallow: /foo/bar/ツ", "/foo/bar/%E3%83%84", false),
        ("Disallow: /foo/bar/ツ", "/foo/bar/%e3%83%84", false),
        ("Disallow: /foo/bar/%E3%83%84", "/foo/bar/%e3%83%84", false),
        ("Disallow: /a%2fb", "/a%2Fb", false),
        ("Disallow: /a%2fb", "/a/b", true),
        ("Disallow: /a/b", "/a%2Fb", true),
        ("Disallow: /a b", "/a%20b", false),
    ] as [(String, String, Bool)])
    func matchesPaths(rules: String, path: String, allowed: Bool) {
        let robots = RobotsTxt("User-agent: *\n" + rules)
        #expect(robots.isAllowed(Self.url(path)) == allowed)
    }

    @Test func hostilePatternsAreLinear() {
        let wildcards = "/" + String(repeating: "*a", count: 30) + "*b"
        let robots = RobotsTxt("""
            User-agent: *
            Disallow: \(wildcards)
            Disallow: \(wildcards)$
            Disallow: /\(String(repeating: "a", count: 5_000))b
            Allow: /x
            """)
        let path = "/" + String(repeating: "a", count: 100_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for _ in 0..<20 {
                #expect(robots.isAllowed(Self.url(path)))
            }
        }
        #expect(elapsed < .seconds(2))
        #expect(!robots.isAllowed(Self.url(path + "b")))
    }

    // MARK: Lenient parsing

    @Test(arguments: [
        "\u{FEFF}User-agent: *\r\nDisallow: /x # no\r\n",
        "User-agent: *\rDisallow: /x\r",
        "# header\nUSER-AGENT : *\n\tDISALLOW :\t/x\t# comment\n",
        "useragent: *\ndissallow: /x\n",
        "user agent: *\ndisalow: /x\n",
        "User-agent *\nDisallow /x\n",
    ])
    func acceptsSloppyFiles(text: String) {
        let robots = RobotsTxt(text)
        #expect(!robots.isAllowed(Self.url("/x")))
        #expect(robots.isAllowed(Self.url("/y")))
    }

    @Test func aMissingColonNeedsExactlyTwoWords() {
        let robots = RobotsTxt("User-agent: *\nDisallow /x /y\n")
        #expect(robots.isAllowed(Self.url("/x")))
    }

    @Test func invalidUTF8IsTolerated() {
        var data = Data("User-agent: *\nDisallow: /caf".utf8)
        data.append(contentsOf: [0xE9, 0xFF])
        data.append(contentsOf: Data("\nDisallow: /x\n".utf8))
        let robots = RobotsTxt(data: data)
        #expect(!robots.isAllowed(Self.url("/x")))
        #expect(!robots.isAllowed(Self.url("/caf%E9%FF")))
        #expect(robots.isAllowed(Self.url("/cafe")))
    }

    @Test func readsOnlyTheFirst500KiB() {
        var text = "User-agent: *\nDisallow: /early\n"
        while text.utf8.count < RobotsTxt.maximumBytes + 1_000 {
            text += "# filler filler filler filler filler filler filler filler\n"
        }
        text += "Disallow: /late\n"
        let robots = RobotsTxt(text)
        #expect(!robots.isAllowed(Self.url("/early")))
        #expect(robots.isAllowed(Self.url("/late")))
    }

    @Test func aLineCutByTheLimitIsDropped() {
        let head = "User-agent: *\n"
        let padding = String(repeating: "#", count: RobotsTxt.maximumBytes - head.utf8.count - 12) + "\n"
        let cut = "Disallow: /private/and/the/rest/of/a/long/path\n"
        let text = head + padding + cut
        #expect(text.utf8.count > RobotsTxt.maximumBytes)
        let robots = RobotsTxt(data: Data(text.utf8))
        // Read half-way, the line would be `Disallow: /`.
        #expect(robots.isAllowed(Self.url("/anything")))
        #expect(robots.selectedGroup(userAgent: "Applebot") == "*")
    }

    @Test func aLineEndingExactlyAtTheLimitIsKept() {
        let head = "User-agent: *\n"
        let rule = "Disallow: /x"
        let padding = String(repeating: "#", count: RobotsTxt.maximumBytes - head.utf8.count - rule.utf8.count - 1) + "\n"
        let text = head + padding + rule + "\nDisallow: /y\n"
        let robots = RobotsTxt(text)
        #expect(!robots.isAllowed(Self.url("/x")))
        #expect(robots.isAllowed(Self.url("/y")))
    }

    // MARK: Fetch status

    @Test(arguments: [
        (200, nil), (204, nil),
        (301, true), (400, true), (401, true), (403, true), (404, true), (410, true),
        (429, false), (500, false), (503, false), (0, false), (-1, false), (600, false),
    ] as [(Int, Bool?)])
    func statusCodes(status: Int, allowed: Bool?) {
        let robots = RobotsTxt.forStatus(status)
        #expect(robots?.isAllowed(Self.url("/page")) == allowed)
        #expect(robots?.isAllowed(Self.url("/robots.txt")) ?? true)
    }

    @Test func blanketValues() {
        #expect(RobotsTxt.allowAll.isAllowed(Self.url("/a")))
        #expect(!RobotsTxt.disallowAll.isAllowed(Self.url("/a")))
        #expect(!RobotsTxt.unreachable.isAllowed(Self.url("/a")))
        #expect(RobotsTxt.disallowAll.selectedGroup(userAgent: "Applebot") == "*")
        #expect(RobotsTxt.allowAll.selectedGroup(userAgent: "Applebot") == nil)
    }

    // MARK: Crawl-delay and sitemaps

    @Test(arguments: [
        ("User-agent: Applebot\nCrawl-delay: 2.5\n", "Applebot", 2.5),
        ("User-agent: Googlebot\nCrawl-delay: 3\nUser-agent: *\nCrawl-delay: 9", "Applebot", 3),
        ("User-agent: Googlebot\nCrawl-delay: 3\nUser-agent: *\nCrawl-delay: 9", "Bingbot", 9),
        ("User-agent: *\nCrawl-delay: soon\nCrawl-delay: 4", "Applebot", 4),
        ("User-agent: *\nCrawl-delay: -1", "Applebot", nil),
        ("User-agent: *\nDisallow: /", "Applebot", nil),
        ("Crawl-delay: 5\nUser-agent: *\nDisallow: /", "Applebot", nil),
    ] as [(String, String, Double?)])
    func crawlDelay(robots: String, userAgent: String, expected: Double?) {
        #expect(RobotsTxt(robots).crawlDelay(userAgent: userAgent) == expected)
    }

    @Test func aCrawlDelayEndsTheUserAgentRun() {
        let robots = RobotsTxt("User-agent: Applebot\nCrawl-delay: 1\nUser-agent: Bingbot\nDisallow: /\n")
        #expect(robots.isAllowed(Self.url("/a")))
        #expect(robots.crawlDelay() == 1)
    }

    @Test func readsSitemapsAnywhere() {
        let robots = RobotsTxt("""
            Sitemap: https://example.com/first.xml
            User-agent: *
            Disallow: /x
            sitemap:https://cdn.example.org/second.xml.gz
            Sitemap: /relative.xml
            Sitemap: ftp://example.com/not-http.xml
            Sitemap: https://example.com/first.xml
            """)
        #expect(robots.sitemaps.map(\.absoluteString) == [
            "https://example.com/first.xml", "https://cdn.example.org/second.xml.gz",
        ])
    }

    @Test func isSendable() async {
        let robots = RobotsTxt("User-agent: *\nDisallow: /x")
        let allowed = await Task.detached { robots.isAllowed(Self.url("/x")) }.value
        #expect(!allowed)
    }
}
