import Foundation
import Testing
import TestSupport
@testable import WebMarkup

@Suite struct SitemapTests {
    static func parse(_ text: String, maximumURLs: Int = 50_000) throws -> Sitemap {
        try Sitemap.parse(Data(text.utf8), maximumURLs: maximumURLs)
    }

    static func pages(_ sitemap: Sitemap) -> [SitemapURL] {
        if case .urlSet(let pages) = sitemap { return pages }
        Issue.record("expected a urlset, got \(sitemap)")
        return []
    }

    static func date(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }

    static let sample = """
        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
                xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
          <url>
            <loc>https://example.com/</loc>
            <lastmod>2024-05-01</lastmod>
            <changefreq>Weekly</changefreq>
            <priority>0.8</priority>
          </url>
          <url>
            <loc>
               https://example.com/recipes/pie?a=1&amp;b=2
            </loc>
            <lastmod>2024-05-01T10:30:00+02:00</lastmod>
            <image:image><image:loc>https://example.com/pie.jpg</image:loc></image:image>
          </url>
        </urlset>
        """

    @Test func readsAURLSet() throws {
        let pages = Self.pages(try Self.parse(Self.sample))
        #expect(pages == [
            SitemapURL(location: URL(string: "https://example.com/")!, lastModified: Self.date(1_714_521_600),
                       changeFrequency: "weekly", priority: 0.8),
            SitemapURL(location: URL(string: "https://example.com/recipes/pie?a=1&b=2")!,
                       lastModified: Self.date(1_714_552_200)),
        ])
    }

    @Test func readsASitemapWithoutTheNamespace() throws {
        let sitemap = try Self.parse("<urlset><url><loc>https://example.com/a</loc></url></urlset>")
        #expect(sitemap == .urlSet([SitemapURL(location: URL(string: "https://example.com/a")!)]))
    }

    @Test func readsAPrefixedNamespace() throws {
        let sitemap = try Self.parse("""
            <sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
              <sm:url><sm:loc>https://example.com/a</sm:loc></sm:url>
            </sm:urlset>
            """)
        #expect(Self.pages(sitemap).map(\.location.absoluteString) == ["https://example.com/a"])
    }

    @Test func readsASitemapIndex() throws {
        let sitemap = try Self.parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
              <sitemap><loc>https://example.com/sitemap1.xml.gz</loc><lastmod>2024-01-01</lastmod></sitemap>
              <sitemap><loc> https://example.com/sitemap2.xml </loc></sitemap>
              <sitemap><loc>sitemap3.xml</loc></sitemap>
              <sitemap></sitemap>
            </sitemapindex>
            """)
        #expect(sitemap == .index([
            URL(string: "https://example.com/sitemap1.xml.gz")!, URL(string: "https://example.com/sitemap2.xml")!,
        ]))
    }

    @Test func skipsEntriesWithoutAValidLocation() throws {
        let long = "https://example.com/" + String(repeating: "a", count: 2_100)
        let sitemap = try Self.parse("""
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
              <url><loc>/relative</loc></url>
              <url><loc>ftp://example.com/file</loc></url>
              <url><loc></loc></url>
              <url><lastmod>2024-01-01</lastmod></url>
              <url><loc>https://</loc></url>
              <url><loc>\(long)</loc></url>
              <url><loc><![CDATA[https://example.com/cdata?x=<1>]]></loc></url>
              <url><loc>HTTP://Example.com/upper</loc></url>
            </urlset>
            """)
        #expect(Self.pages(sitemap).map(\.location.absoluteString) == [
            "https://example.com/cdata?x=%3C1%3E", "HTTP://Example.com/upper",
        ] || Self.pages(sitemap).map(\.location.absoluteString) == [
            "https://example.com/cdata?x=<1>", "HTTP://Example.com/upper",
        ])
        #expect(Self.pages(sitemap).count == 2)
    }

    @Test func ignoresElementsFromOtherNamespaces() throws {
        let sitemap = try Self.parse("""
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:x="urn:example">
              <url><x:loc>https://evil.example/</x:loc><loc>https://example.com/good</loc><x:priority>1</x:priority></url>
              <x:url><loc>https://evil.example/other</loc></x:url>
            </urlset>
            """)
        #expect(Self.pages(sitemap) == [SitemapURL(location: URL(string: "https://example.com/good")!)])
    }

    @Test(arguments: [
        ("<changefreq>daily</changefreq><priority>1.0</priority>", "daily", 1.0),
        ("<changefreq> NEVER </changefreq><priority>0</priority>", "never", 0.0),
        ("<changefreq>sometimes</changefreq><priority>1.5</priority>", nil, nil),
        ("<changefreq></changefreq><priority>high</priority>", nil, nil),
        ("<priority>-0.1</priority>", nil, nil),
    ] as [(String, String?, Double?)])
    func readsOptionalFields(fields: String, frequency: String?, priority: Double?) throws {
        let page = try #require(Self.pages(try Self.parse("<urlset><url><loc>https://e.com/</loc>\(fields)</url></urlset>")).first)
        #expect(page.changeFrequency == frequency)
        #expect(page.priority == priority)
    }

    @Test(arguments: [
        ("2024", 1_704_067_200),
        ("2024-05", 1_714_521_600),
        ("2024-05-01", 1_714_521_600),
        ("2024-05-01T10:30Z", 1_714_559_400),
        ("2024-05-01T10:30:15Z", 1_714_559_415),
        ("2024-05-01T10:30:15.5Z", 1_714_559_415.5),
        ("2024-05-01T10:30:15+02:00", 1_714_552_215),
        ("2024-05-01T10:30:15-05:30", 1_714_579_215),
        ("2024-05-01T10:30:15+0200", 1_714_552_215),
        ("2024-05-01 10:30:15", 1_714_559_415),
        ("2024-02-29", 1_709_164_800),
        ("1969-12-31T23:59:59Z", -1),
        ("  2024-05-01  ", 1_714_521_600),
        ("2023-02-29", nil),
        ("2024-13-01", nil),
        ("2024-05-01T25:00Z", nil),
        ("2024-05-01T10", nil),
        ("May 1, 2024", nil),
        ("2024-05-01Tjunk", nil),
        ("", nil),
    ] as [(String, Double?)])
    func readsW3CDatetimes(text: String, expected: Double?) throws {
        let page = try #require(Self.pages(try Self.parse(
            "<urlset><url><loc>https://e.com/</loc><lastmod>\(text)</lastmod></url></urlset>")).first)
        #expect(page.lastModified == expected.map(Self.date))
    }

    @Test func readsPlainTextSitemaps() throws {
        let sitemap = try Self.parse("\u{FEFF}https://example.com/a\r\n\r\n  https://example.com/b  \nnot a url\n/relative\nhttps://example.com/c")
        #expect(Self.pages(sitemap).map(\.location.absoluteString) == [
            "https://example.com/a", "https://example.com/b", "https://example.com/c",
        ])
        #expect(try Self.parse("") == .urlSet([]))
        #expect(try Self.parse(" \n\n") == .urlSet([]))
    }

    @Test func textWithNoURLsIsNotASitemap() {
        let error = #expect(throws: WebMarkupError.self) { try Self.parse("hello\nworld") }
        #expect(error?.code == .invalidFormat)
    }

    @Test func readsGzippedSitemaps() throws {
        let data = TestGzip.stored(Self.sample)
        #expect(try Sitemap.parse(data) == Self.parse(Self.sample))
        let text = TestGzip.stored("https://example.com/a\n")
        #expect(try Sitemap.parse(text) == .urlSet([SitemapURL(location: URL(string: "https://example.com/a")!)]))
    }

    @Test func readsUTF16() throws {
        let text = #"<?xml version="1.0" encoding="UTF-16"?><urlset><url><loc>https://example.com/é</loc></url></urlset>"#
        var data = Data([0xFF, 0xFE])
        for unit in text.utf16 { data.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
        let pages = Self.pages(try Sitemap.parse(data))
        #expect(pages.count == 1)
        #expect(pages.first?.location.host() == "example.com")
    }

    @Test func keepsTheFirstMaximumURLs() throws {
        let entries = (1...10).map { "<url><loc>https://example.com/\($0)</loc></url>" }.joined()
        let sitemap = try Self.parse("<urlset><url><loc>bad</loc></url>\(entries)</urlset>", maximumURLs: 3)
        #expect(Self.pages(sitemap).map(\.location.path) == ["/1", "/2", "/3"])
        let index = (1...10).map { "<sitemap><loc>https://example.com/\($0).xml</loc></sitemap>" }.joined()
        #expect(try Self.parse("<sitemapindex>\(index)</sitemapindex>", maximumURLs: 2)
            == .index([URL(string: "https://example.com/1.xml")!, URL(string: "https://example.com/2.xml")!]))
        let text = (1...10).map { "https://example.com/\($0)" }.joined(separator: "\n")
        #expect(Self.pages(try Self.parse(text, maximumURLs: 4)).count == 4)
    }

    @Test func refusesDocumentsOverTheLimit() {
        let data = Data(Self.sample.utf8)
        let error = #expect(throws: WebMarkupError.self) { try Sitemap.parse(data, maximumBytes: 100) }
        #expect(error?.code == .pageTooLarge)
        let bomb = #expect(throws: WebMarkupError.self) { try Sitemap.parse(TestGzip.megabyteOfZeros, maximumBytes: 64 << 10) }
        #expect(bomb?.code == .pageTooLarge)
    }

    @Test func corruptGzipIsInvalidCompression() {
        let error = #expect(throws: WebMarkupError.self) { try Sitemap.parse(TestGzip.stored(Self.sample).prefix(200)) }
        #expect(error?.code == .invalidCompression)
    }

    @Test(arguments: [
        "<urlset><url><loc>https://example.com/</loc></url>",
        "<urlset><url><loc>https://example.com/</url></loc></urlset>",
        "<urlset><url><loc>a & b</loc></url></urlset>",
        "<urlset></urlset><urlset></urlset>",
        "<",
    ])
    func malformedXMLIsInvalidXML(text: String) {
        let error = #expect(throws: WebMarkupError.self) { try Self.parse(text) }
        #expect(error?.code == .invalidXML)
        #expect(error?.message.hasPrefix("the sitemap is not well-formed XML: ") == true)
    }

    @Test func malformedXMLNamesTheLine() {
        let error = #expect(throws: WebMarkupError.self) { try Self.parse("<urlset>\n<url>\n<loc>x</lo>\n</url></urlset>") }
        #expect(error?.message.contains("line 3") == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        "<rss version=\"2.0\"><channel><item><link>https://example.com/</link></item></channel></rss>",
        "<html><body>Not found</body></html>",
    ])
    func otherXMLIsInvalidFormat(text: String) {
        let error = #expect(throws: WebMarkupError.self) { try Self.parse(text) }
        #expect(error?.code == .invalidFormat)
    }

    // MARK: Hostile XML

    @Test func billionLaughsIsBounded() {
        var entities = #"<!ENTITY lol "lol">"#
        entities += #"<!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">"#
        for level in 2...9 {
            let previous = "&lol\(level - 1);"
            entities += "<!ENTITY lol\(level) \"\(String(repeating: previous, count: 10))\">"
        }
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE urlset [\(entities)]>
            <urlset><url><loc>https://example.com/&lol9;</loc></url><url><loc>&lol9;</loc></url></urlset>
            """
        let clock = ContinuousClock()
        var result: Sitemap?
        let elapsed = clock.measure { result = try? Self.parse(document) }
        #expect(elapsed < .seconds(2))
        if let result {
            // Entities are never expanded: the text around the reference is all there is.
            #expect(Self.pages(result).allSatisfy { $0.location.absoluteString.count < 100 })
        }
    }

    @Test func externalEntitiesAreNeverLoaded() throws {
        let scratch = try ScratchDirectory("sitemap-xxe")
        defer { scratch.cleanUp() }
        let secret = scratch.appendingPathComponent("secret.txt")
        try Data("https://secret.example/leaked".utf8).write(to: secret)
        let documents = [
            """
            <?xml version="1.0"?>
            <!DOCTYPE urlset [<!ENTITY xxe SYSTEM "\(secret.absoluteString)">]>
            <urlset><url><loc>&xxe;</loc></url><url><loc>https://example.com/ok</loc></url></urlset>
            """,
            """
            <?xml version="1.0"?>
            <!DOCTYPE urlset [<!ENTITY % remote SYSTEM "\(secret.absoluteString)"> %remote;]>
            <urlset><url><loc>https://example.com/ok</loc></url></urlset>
            """,
            """
            <?xml version="1.0"?>
            <!DOCTYPE urlset SYSTEM "\(secret.absoluteString)">
            <urlset><url><loc>https://example.com/ok</loc></url></urlset>
            """,
            """
            <?xml version="1.0"?>
            <!DOCTYPE urlset [<!ENTITY net SYSTEM "http://127.0.0.1:9/x">]>
            <urlset><url><loc>&net;</loc></url><url><loc>https://example.com/ok</loc></url></urlset>
            """,
        ]
        for document in documents {
            let sitemap = try? Self.parse(document)
            if let sitemap {
                #expect(Self.pages(sitemap).map(\.location.absoluteString) == ["https://example.com/ok"])
            }
            #expect(!String(describing: sitemap).contains("secret"))
        }
    }

    @Test func deepNestingIsHarmless() throws {
        let depth = 5_000
        let text = "<urlset><url><loc>https://example.com/</loc>" + String(repeating: "<x>", count: depth)
            + String(repeating: "</x>", count: depth) + "</url></urlset>"
        // libxml2 refuses nesting deeper than 256 without XML_PARSE_HUGE; either way nothing recurses.
        let result = try? Self.parse(text)
        if let result { #expect(Self.pages(result).count == 1) }
    }
}
