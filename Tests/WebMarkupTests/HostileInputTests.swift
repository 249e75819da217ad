import Foundation
import Testing
@testable import WebMarkup

/// Hostile and mangled input: every reader gives a clear error or a bounded
/// result, never a crash or a hang. Mutations come from a fixed seed, so a
/// failure reproduces.
@Suite(.timeLimit(.minutes(10))) struct HostileInputTests {
    static let page = """
        <html><head><title>Pear</title><base href="/shop/"><meta name="description" content="Juicy">
        <meta name="apple-itunes-app" content="app-id=1, app-argument=https://e.com/p">
        <meta property="al:ios:url" content="x://p"><meta name="robots" content="noindex">
        <script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@id":"#a","@type":"Product","offers":{"@id":"#b"}},
        {"@id":"#b","@type":"Offer","price":"2","seller":{"@id":"#a"}}]}</script></head>
        <body><div itemscope itemtype="https://schema.org/Thing" itemref="r"><span itemprop="name">n</span>
        <div itemprop="x" itemscope><time itemprop="d" datetime="2020">t</time></div></div><p id="r" itemprop="p">r</p>
        <div vocab="https://schema.org/" typeof="Event"><span property="name" content="c">t</span></div></body></html>
        """
    static let association = """
        {"applinks": {"defaults": {"caseSensitive": false}, "substitutionVariables": {"f": ["a*", "b?"]},
          "details": [{"appIDs": ["ABCDE12345.a.b"], "components": [{"/": "/$(f)/$(lang)_$(region)/*", "?": {"q": "?*"}}, {"#": "x", "exclude": true}]},
                      {"appID": "ABCDE12345.c.d", "paths": ["NOT /x/*", "/y/?"]}]}}
        """
    static let robots = "User-agent: Applebot\nDisallow: /a*b$\nAllow: /a\nCrawl-delay: 2\nUser-agent: *\nDisallow: /\nSitemap: https://e.com/s.xml\n"
    static let sitemap = #"<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://e.com/a</loc><lastmod>2020-01-02</lastmod><priority>0.5</priority></url></urlset>"#

    /// Deterministic mutations: bytes flipped, dropped, duplicated, and markup characters spliced in.
    static func mutations(of seed: String, count: Int, salt: UInt64) -> [Data] {
        var state = salt
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(1, bound)))
        }
        let base = Array(seed.utf8)
        let splices: [[UInt8]] = ["<", ">", "\"", "{", "}", "[", "]", "$(", "*", "\u{0}", "\u{FFFD}", "<div>", "</", "&#", "\\u", "%"].map { Array($0.utf8) }
        return (0..<count).map { _ in
            var bytes = base
            for _ in 0..<(1 + next(8)) where !bytes.isEmpty {
                let at = next(bytes.count)
                switch next(4) {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: next(256))
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + next(40))], at: at)
                default: bytes.insert(contentsOf: splices[next(splices.count)], at: at)
                }
            }
            return Data(bytes)
        }
    }

    static let summaryKeys: Set<String> = ["title", "description", "image", "canonical", "og_url", "app_banner", "deep_links",
                                            "entities", "robots", "indexable"]

    @Test func mangledPagesNeverCrash() throws {
        var titled = 0
        for data in Self.mutations(of: Self.page, count: 1_500, salt: 1) {
            let metadata = PageMetadata(try HTMLDocument.parse(data, url: URL(string: "https://e.com/a")))
            if metadata.title != nil { titled += 1 }
            // Whatever the damage, the summary keeps its shape.
            let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(metadata.summary)) as? [String: Any]
            #expect(object.map { Set($0.keys) } == Self.summaryKeys)
        }
        #expect(titled > 0 && titled < 1_500)
    }

    @Test func mangledAssociationFilesNeverCrash() {
        let url = URL(string: "https://e.com/a*/en_GB/x?q=1#y")!
        var parsed = 0, refused = 0
        for data in Self.mutations(of: Self.association, count: 1_500, salt: 2) {
            do {
                let association = try AppSiteAssociation(data: data)
                parsed += 1
                if let app = association.handler(for: url) { #expect(association.applicationIdentifiers.contains(app)) }
            } catch let error as WebMarkupError {
                refused += 1
                #expect(!error.message.isEmpty)
                // A file that does not parse is never silently valid.
                #expect(AssociationValidator.validate(data: data, fetch: nil, sampleURLs: [url]).contains { $0.severity == .error })
            } catch {
                Issue.record("an association file failed with \(error), not a WebMarkupError")
            }
        }
        #expect(parsed > 0 && refused > 0)
    }

    @Test func mangledRobotsAndSitemapsNeverCrash() {
        let url = URL(string: "https://e.com/a/b")!
        let robotsFile = URL(string: "https://e.com/robots.txt")!
        var blocked = 0
        for data in Self.mutations(of: Self.robots, count: 1_500, salt: 3) {
            let robots = RobotsTxt(data: data)
            #expect(robots.isAllowed(robotsFile))  // /robots.txt itself is always allowed
            if !robots.isAllowed(url) { blocked += 1 }
        }
        #expect(blocked > 0)
        var read = 0
        for data in Self.mutations(of: Self.sitemap, count: 1_500, salt: 4) {
            do {
                _ = try Sitemap.parse(data)
                read += 1
            } catch let error as WebMarkupError {
                #expect(!error.message.isEmpty)
            } catch {
                Issue.record("a sitemap failed with \(error), not a WebMarkupError")
            }
        }
        #expect(read > 0 && read < 1_500)
    }

    @Test func pathologicalShapesAreBounded() throws {
        // A megabyte of unclosed tags, 20,000 nested microdata items, deeply nested JSON-LD.
        _ = PageMetadata(try HTMLDocument.parse(String(repeating: "<a href=x", count: 100_000)))
        let nested = String(repeating: #"<div itemprop="x" itemscope>"#, count: 20_000)
        let items = StructuredData.extract(from: try HTMLDocument.parse(#"<div itemscope itemtype="https://schema.org/Thing">"# + nested))
        #expect(items.entities.count == 1)
        let json = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let deep = StructuredData.extract(from: try HTMLDocument.parse(#"<script type="application/ld+json">\#(json)</script>"#))
        #expect(deep.entities.isEmpty && deep.problems.count == 1)

        // 50,000 links, each resolved against the base (found once per document, not per link).
        let links = try HTMLDocument.parse(#"<base href="/shop/">"# + String(repeating: #"<a href="p">x</a>"#, count: 50_000),
                                           url: URL(string: "https://e.com/"))
        let resolved = links.root.all(named: "a").compactMap { $0.attribute("href").flatMap(links.resolve) }
        #expect(resolved.count == 50_000 && resolved.allSatisfy { $0.absoluteString == "https://e.com/shop/p" })

        // A pattern of many stars against a long path, and a long robots.txt.
        let stars = String(repeating: "*a", count: 2_000) + "b"
        let association = try AppSiteAssociation(json: #"{"applinks": {"details": [{"appID": "ABCDE12345.a.b", "components": [{"/": "\#(stars)"}]}]}}"#)
        let longPath = URL(string: "https://e.com/" + String(repeating: "a", count: 20_000))!
        #expect(association.handler(for: longPath) == nil)
        let robots = RobotsTxt(String(repeating: "User-agent: Applebot\nDisallow: /*a*a*a*a*a*a*a*a*b\n", count: 5_000))
        #expect(robots.isAllowed(longPath))
    }
}
