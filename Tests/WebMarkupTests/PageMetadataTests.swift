import Foundation
import Testing
@testable import WebMarkup

@Suite struct SmartAppBannerTests {
    struct Case: Sendable, CustomStringConvertible {
        var content: String
        var appID: String?
        var argument: String?
        var affiliate: String? = nil
        var clip: String? = nil
        var display: String? = nil
        var problems: [String] = []
        var description: String { content }
    }

    static let cases: [Case] = [
        Case(content: "app-id=284882215, app-argument=https://example.com/p/1", appID: "284882215", argument: "https://example.com/p/1"),
        // Values split on the first `=` only: query strings and affiliate tokens keep theirs.
        Case(content: "app-id=1, affiliate-data=ct=x&pt=y, app-argument=https://e.com/s?q=a&b=c",
             appID: "1", argument: "https://e.com/s?q=a&b=c", affiliate: "ct=x&pt=y"),
        Case(content: "  APP-ID = 42 ,App-Argument=  myapp://item/7  ", appID: "42", argument: "myapp://item/7"),
        Case(content: "app-id=9, app-clip-bundle-id=com.example.app.Clip, app-clip-display=card",
             appID: "9", argument: nil, clip: "com.example.app.Clip", display: "card", problems: ["banner_without_app_argument"]),
        Case(content: "app-argument=https://e.com/x", appID: nil, argument: "https://e.com/x", problems: ["banner_without_app_id"]),
        Case(content: "app-id=com.example.app, app-argument=https://e.com/x", appID: "com.example.app", argument: "https://e.com/x",
             problems: ["banner_app_id_not_numeric"]),
        Case(content: "app-id=5, app-argument=https://e.com/a,b", appID: "5", argument: "https://e.com/a,b", problems: ["banner_comma_in_argument"]),
        Case(content: "app-id=5, app-id=6, colour=red, app-argument=x:y", appID: "5", argument: "x:y", problems: ["banner_unknown_key"]),
        Case(content: "", appID: nil, argument: nil, problems: ["banner_without_app_id", "banner_without_app_argument"]),
    ]

    @Test(arguments: cases)
    func parsesTheContentAttribute(_ c: Case) {
        let banner = SmartAppBanner(content: c.content)
        #expect(banner.appID == c.appID)
        #expect(banner.appArgument == c.argument)
        #expect(banner.affiliateData == c.affiliate)
        #expect(banner.appClipBundleID == c.clip)
        #expect(banner.appClipDisplay == c.display)
        #expect(banner.problems == c.problems)
    }

    @Test func onlyTheFirstBannerInHeadCountsAndTheDocTypoIsNot() throws {
        let page = try HTMLDocument.parse("""
            <html><head>
            <meta name="myApp" content="app-id=1, app-argument=https://e.com/typo">
            <meta name="Apple-iTunes-App" content="app-id=2, app-argument=https://e.com/a&amp;b">
            <meta name="apple-itunes-app" content="app-id=3">
            </head><body><meta name="apple-itunes-app" content="app-id=4"></body></html>
            """)
        let banner = try #require(PageMetadata(page).smartAppBanner)
        #expect(banner.appID == "2")
        #expect(banner.appArgument == "https://e.com/a&b")  // read after entity decoding
        let bodyOnly = try HTMLDocument.parse(#"<body><p>x</p><meta name="apple-itunes-app" content="app-id=4"></body>"#)
        #expect(PageMetadata(bodyOnly).smartAppBanner == nil)
    }
}

@Suite struct RobotsDirectivesTests {
    @Test(arguments: [
        ([#"<meta name="robots" content="noindex">"#], RobotsDirectives(noindex: true)),
        ([#"<meta NAME="ROBOTS" CONTENT="NoIndex, NoFollow">"#], RobotsDirectives(noindex: true, nofollow: true)),
        ([#"<meta name="robots" content="none">"#], RobotsDirectives(noindex: true, nofollow: true, nosnippet: true)),
        ([#"<meta name="robots" content="nosnippet">"#, #"<meta name="robots" content="nofollow">"#], RobotsDirectives(nofollow: true, nosnippet: true)),
        ([#"<meta name="robots" content="all">"#, #"<meta name="robots" content="index, follow">"#], RobotsDirectives()),
        ([#"<meta name="googlebot" content="noindex">"#], RobotsDirectives()),
        ([#"<meta name="robots" content="max-snippet:0">"#], RobotsDirectives(nosnippet: true)),
    ])
    func combinesEveryRobotsTag(tags: [String], expected: RobotsDirectives) throws {
        let page = try HTMLDocument.parse("<head>\(tags.joined())</head>")
        #expect(PageMetadata(page).robots == expected)
    }
}

@Suite struct PageMetadataTests {
    static let address = URL(string: "https://shop.example.com/fruit/pear.html")!

    func metadata(_ html: String, url: URL? = PageMetadataTests.address) throws -> PageMetadata {
        PageMetadata(try HTMLDocument.parse(html, url: url))
    }

    @Test func openGraphWinsOverTwitterOverTheTitleElement() throws {
        let all = try metadata("""
            <title> Plain  title </title><meta name="description" content="meta desc">
            <meta name="twitter:title" content="Twitter title"><meta property="og:title" content="OG title">
            <meta name="twitter:description" content="tw desc">
            """)
        #expect(all.title == .init("OG title", source: "og:title"))
        #expect(all.description == .init("tw desc", source: "twitter:description"))
        let plain = try metadata("<title>\n Plain \n title </title><meta name=description content='  meta\n desc '>")
        #expect(plain.title == .init("Plain title", source: "title"))
        #expect(plain.description == .init("meta desc", source: "meta description"))
        let empty = try metadata(#"<title>  </title><meta property="og:title" content="  ">"#)
        #expect(empty.title == nil)
    }

    @Test func imagesAndTheirStructuredProperties() throws {
        let page = try metadata("""
            <meta property="og:image" content="/img/pear.jpg"><meta property="og:image:width" content="400">
            <meta property="og:image:alt" content="A pear">
            <meta property="og:image" content="https://cdn.example.com/2.png"><meta property="og:image:secure_url" content="https://cdn.example.com/2s.png">
            <meta property="og:image:type" content="image/png">
            """)
        #expect(page.image == .init("https://shop.example.com/img/pear.jpg", source: "og:image"))
        #expect(page.openGraphImages == [
            .init(url: "https://shop.example.com/img/pear.jpg", width: "400", alt: "A pear"),
            .init(url: "https://cdn.example.com/2.png", secureURL: "https://cdn.example.com/2s.png", type: "image/png"),
        ])
        let twitter = try metadata(#"<meta name="twitter:image" content="t.png">"#)
        #expect(twitter.image == .init("https://shop.example.com/fruit/t.png", source: "twitter:image"))
    }

    @Test func canonicalAndOpenGraphURLResolveAgainstBaseHref() throws {
        let page = try metadata("""
            <head><base href="https://www.example.com/catalogue/">
            <link rel="Canonical" href="pear"><meta property="og:url" content="/fruit/pear"></head>
            """)
        #expect(page.canonical == .init("https://www.example.com/catalogue/pear", source: "link rel=canonical"))
        #expect(page.openGraphURL == .init("https://www.example.com/fruit/pear", source: "og:url"))
        #expect(page.canonicalMismatch)
        #expect(page.identity?.absoluteString == "https://www.example.com/catalogue/pear")
        let same = try metadata(#"<link rel="alternate canonical" href="/x/"><meta property="og:url" content="https://SHOP.example.com/x">"#)
        #expect(!same.canonicalMismatch)
        #expect(try metadata("<p>").identity == Self.address)
        // Without a canonical URL the identity is the fetched address, not the <base href>.
        #expect(try metadata(#"<base href="/shop/">"#).identity == Self.address)
    }

    @Test func deepLinksFromEverySourceInOrder() throws {
        let page = try metadata("""
            <head>
            <meta name="twitter:app:url:iphone" content="fruit://pear"><meta name="twitter:app:id:iphone" content="11">
            <meta name="twitter:app:name:iphone" content="Fruit">
            <meta property="al:ios:url" content="fruit://ios/pear"><meta property="al:ios:app_store_id" content="22">
            <meta property="al:ios:app_name" content="Fruit">
            <meta property="al:ios:url" content="fallback://pear"><meta property="al:ios:app_store_id" content="33">
            <meta property="al:iphone:url" content="/app/pear">
            <meta name="apple-itunes-app" content="app-id=44, app-argument=https://shop.example.com/fruit/pear.html">
            </head>
            """)
        #expect(page.deepLinks == [
            DeepLink(source: .smartAppBanner, url: "https://shop.example.com/fruit/pear.html", appStoreID: "44"),
            DeepLink(source: .appLinksIPhone, url: "https://shop.example.com/app/pear"),
            DeepLink(source: .appLinksIOS, url: "fruit://ios/pear", appStoreID: "22", appName: "Fruit"),
            DeepLink(source: .appLinksIOS, url: "fallback://pear", appStoreID: "33"),
            DeepLink(source: .twitterIPhone, url: "fruit://pear", appStoreID: "11", appName: "Fruit"),
        ])
    }

    @Test(arguments: [
        (#"<title>T</title><meta name=description content=D><meta name="apple-itunes-app" content="app-id=1, app-argument=x://y">"#, true),
        (#"<title>T</title><meta name=description content=D><meta name="apple-itunes-app" content="app-id=1">"#, false),
        (#"<title>T</title><meta property="al:ios:url" content="x://y">"#, false),
        (#"<meta name=description content=D><meta property="al:ios:url" content="x://y">"#, false),
        (#"<title>T</title><meta name=description content=D><meta property="al:ios:url" content="x://y"><meta name=robots content=NONE>"#, false),
        (#"<title>T</title><meta name=description content=D><meta property="al:ios:url" content="x://y"><meta name=robots content=nosnippet>"#, true),
    ])
    func indexableNeedsADeepLinkATitleAndADescription(head: String, indexable: Bool) throws {
        #expect(try metadata("<head>\(head)</head>").isIndexable == indexable)
    }

    @Test func brokenMarkupStillYieldsItsMetadata() throws {
        let page = try metadata("""
            <html><head><title>Pear <b>bold</title><meta property=og:description content="Ripe & juicy
            <meta name="apple-itunes-app" content='app-id=7, app-argument=https://shop.example.com/p'>
            <link rel=canonical href=/p><div><p>unclosed
            """)
        #expect(page.title == .init("Pear bold", source: "title"))
        #expect(page.canonical == .init("https://shop.example.com/p", source: "link rel=canonical"))
        // The unterminated quote runs to the next `"`, as in a browser: the banner's tag is swallowed.
        #expect(page.description == .init("Ripe & juicy <meta name=", source: "og:description"))
        #expect(page.smartAppBanner == nil && !page.isIndexable)
    }

    @Test func summaryHasTheExactShape() throws {
        let page = try metadata("""
            <head><title>Pear</title><meta name="description" content="Ripe pears">
            <meta name="apple-itunes-app" content="app-id=44, app-argument=https://shop.example.com/p">
            <meta name="robots" content="nofollow"></head>
            """)
        let data = try JSONEncoder().encode(page.summary)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["title", "description", "image", "canonical", "og_url", "app_banner", "deep_links", "entities", "robots", "indexable"])
        #expect(object["image"] is NSNull)
        #expect(object["indexable"] as? Bool == true)
        let banner = try #require(object["app_banner"] as? [String: Any])
        #expect(Set(banner.keys) == ["app_id", "app_argument", "affiliate_data", "app_clip_bundle_id", "app_clip_display"])
        #expect(banner["app_id"] as? String == "44")
        let links = try #require(object["deep_links"] as? [[String: Any]])
        #expect(links.count == 1 && links[0]["source"] as? String == "apple-itunes-app" && links[0]["app_store_id"] as? String == "44")
        #expect(object["robots"] as? [String: Bool] == ["noindex": false, "nofollow": true, "nosnippet": false])
        let none = try JSONSerialization.jsonObject(with: JSONEncoder().encode(try metadata("<p>").summary)) as? [String: Any]
        #expect(none?["app_banner"] is NSNull)
    }
}
