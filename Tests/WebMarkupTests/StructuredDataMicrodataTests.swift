import Foundation
import Testing
@testable import WebMarkup

@Suite struct StructuredDataMicrodataTests {
    static let cases: [(String, String, [ExpectedEntity])] = [
        (
            "Apple's organization with a postal address",
            """
            <div itemscope itemtype="http://schema.org/Organization">
              <span itemprop="name">Apple
                 Inc.</span>
              <div itemprop="address" itemscope itemtype="http://schema.org/PostalAddress">
                <span itemprop="streetAddress">1 Infinite Loop</span>
                <span itemprop="addressLocality">Cupertino</span>, <span itemprop="addressRegion">CA</span>
                <span itemprop="postalCode">95014</span>
              </div>
              <span itemprop="telephone"> (408) 996–1010 </span>
            </div>
            """,
            [
                ExpectedEntity(["Organization"], [
                    "name": "Apple Inc.", "telephone": "(408) 996–1010",
                    "address.@type": "PostalAddress", "address.streetAddress": "1 Infinite Loop",
                    "address.addressLocality": "Cupertino", "address.addressRegion": "CA", "address.postalCode": "95014",
                ])
            ]
        ),
        (
            "product with rating and offers",
            """
            <div itemscope itemtype="https://schema.org/Product">
              <h1 itemprop="name">Pear</h1>
              <div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating">
                <span itemprop="ratingValue">4.4</span>/<meta itemprop="bestRating" content="10"> (<span itemprop="reviewCount">89</span>)
              </div>
              <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
                <meta itemprop="priceCurrency" content="USD"><span itemprop="price" content="19.99">$19.99</span>
                <link itemprop="availability" href="https://schema.org/InStock">
              </div>
              <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">25</span></div>
            </div>
            """,
            [
                ExpectedEntity(["Product"], [
                    "name": "Pear",
                    "aggregateRating.@type": "AggregateRating", "aggregateRating.ratingValue": "4.4",
                    "aggregateRating.bestRating": "10", "aggregateRating.reviewCount": "89",
                    "offers.0.@type": "Offer", "offers.0.priceCurrency": "USD", "offers.0.price": "$19.99",
                    "offers.0.availability": "https://schema.org/InStock",
                    "offers.1.@type": "Offer", "offers.1.price": "25",
                ])
            ]
        ),
        (
            "several types, several names, repeated names, itemid",
            """
            <div itemscope itemtype="https://schema.org/Restaurant  https://schema.org/LocalBusiness" itemid="/places/1">
              <span itemprop="name alternateName name">Chez Nous</span>
              <span itemprop="servesCuisine">French</span><span itemprop="servesCuisine">Wine</span>
              <span itemprop="">ignored</span>
            </div>
            """,
            [
                ExpectedEntity(["Restaurant", "LocalBusiness"], [
                    "@id": "https://example.com/places/1", "name": "Chez Nous", "alternateName": "Chez Nous",
                    "servesCuisine.0": "French", "servesCuisine.1": "Wine",
                ])
            ]
        ),
        (
            "nested items stay nested; descendants of a nested item do not leak",
            """
            <div itemscope itemtype="https://schema.org/Recipe">
              <span itemprop="name">Soup</span>
              <div itemprop="author" itemscope itemtype="https://schema.org/Person">
                <span itemprop="name">Ann</span>
                <div><div><span itemprop="jobTitle">Cook</span></div></div>
              </div>
              <div itemscope itemtype="https://schema.org/Comment"><span itemprop="text">separate item</span></div>
            </div>
            <span itemprop="orphan" itemscope itemtype="https://schema.org/Thing"><span itemprop="name">nobody's</span></span>
            """,
            [
                ExpectedEntity(["Recipe"], [
                    "name": "Soup", "author.@type": "Person", "author.name": "Ann", "author.jobTitle": "Cook",
                ]),
                ExpectedEntity(["Comment"], ["text": "separate item"]),
            ]
        ),
        (
            "itemref pulls properties from elsewhere, once each",
            """
            <div itemscope itemtype="https://schema.org/Movie" itemref="director extra director"><span itemprop="name">Film</span></div>
            <p id="director" itemprop="director">Jane Doe</p>
            <div id="extra"><span itemprop="genre">Drama</span><span itemprop="genre">Comedy</span></div>
            """,
            [
                ExpectedEntity(["Movie"], [
                    "name": "Film", "director": "Jane Doe", "genre.0": "Drama", "genre.1": "Comedy",
                ])
            ]
        ),
        (
            "itemref loops are cut",
            """
            <div id="a" itemscope itemtype="https://schema.org/Person" itemref="a pa"><span itemprop="name">A</span></div>
            <div id="pa"><div itemprop="knows" itemscope itemtype="https://schema.org/Person" itemref="pb"><span itemprop="name">B</span></div></div>
            <div id="pb">
              <span itemprop="colleague">C</span>
              <div itemprop="sibling" itemscope itemtype="https://schema.org/Person" itemref="pa"></div>
            </div>
            """,
            [
                ExpectedEntity(["Person"], [
                    "name": "A", "knows.@type": "Person", "knows.name": "B", "knows.colleague": "C",
                    "knows.sibling.@type": "Person",
                ])
            ]
        ),
        (
            "other vocabularies keep full IRIs; untyped items",
            """
            <div itemscope itemtype="http://data-vocabulary.org/Product"><span itemprop="http://schema.org/brand">Acme</span></div>
            <div itemscope><span itemprop="x">y</span></div>
            <div itemscope></div>
            """,
            [
                ExpectedEntity(["http://data-vocabulary.org/Product"], ["brand": "Acme"]),
                ExpectedEntity([], ["x": "y"]),
            ]
        ),
    ]

    @Test(arguments: cases)
    func extractsItems(name: String, html: String, expected: [ExpectedEntity]) throws {
        let (entities, problems) = try StructuredDataFixture.extract(html)
        #expect(problems == [])
        #expect(entities.map(\.types) == expected.map(\.types))
        #expect(entities.map(\.properties) == expected.map(\.properties))
        #expect(entities.allSatisfy { $0.syntax == .microdata })
    }

    /// Page `https://example.com/p/page.html` with `<base href="/shop/">`: URLs resolve against the base.
    @Test(arguments: [
        (#"<meta itemprop="v" content=" 4.4 ">"#, " 4.4 "),
        (#"<meta itemprop="v">"#, ""),
        (#"<a itemprop="v" href="pear">Pear</a>"#, "https://example.com/shop/pear"),
        (#"<a itemprop="v">no href</a>"#, ""),
        (#"<area itemprop="v" href="/map">"#, "https://example.com/map"),
        (#"<link itemprop="v" href="https://schema.org/InStock">"#, "https://schema.org/InStock"),
        (#"<img itemprop="v" src="i.png" alt="alt text">"#, "https://example.com/shop/i.png"),
        (#"<audio itemprop="v" src="a.mp3">fallback</audio>"#, "https://example.com/shop/a.mp3"),
        (#"<video itemprop="v" src="//cdn.example.net/v.mp4"></video>"#, "https://cdn.example.net/v.mp4"),
        (#"<embed itemprop="v" src="e.swf">"#, "https://example.com/shop/e.swf"),
        (#"<iframe itemprop="v" src="../f.html"></iframe>"#, "https://example.com/f.html"),
        (#"<source itemprop="v" src="s.webm"></source>"#, "https://example.com/shop/s.webm"),
        (#"<track itemprop="v" src="t.vtt"></track>"#, "https://example.com/shop/t.vtt"),
        (#"<object itemprop="v" data="o.pdf">fallback</object>"#, "https://example.com/shop/o.pdf"),
        (#"<data itemprop="v" value="42">forty-two</data>"#, "42"),
        (#"<meter itemprop="v" value="0.5">half</meter>"#, "0.5"),
        (#"<time itemprop="v" datetime="2024-01-02T10:00">Jan 2</time>"#, "2024-01-02T10:00"),
        (#"<time itemprop="v">Jan   2</time>"#, "Jan 2"),
        (#"<span itemprop="v" content="not used">shown text</span>"#, "shown text"),
        (#"<div itemprop="v">  one&amp;two <b>three</b>&nbsp;four  </div>"#, "one&two three\u{A0}four"),
        (#"<p itemprop="v" href="ignored.html">text</p>"#, "text"),
    ])
    func valueRules(markup: String, expected: String) throws {
        let html = #"<html><head><base href="/shop/"></head><body><div itemscope>\#(markup)</div></body></html>"#
        let (entities, _) = try StructuredDataFixture.extract(html)
        #expect(entities.map(\.properties) == [["v": expected]])
    }

    @Test func unresolvedItemrefIsReported() throws {
        let (entities, problems) = try StructuredDataFixture.extract(
            #"<div itemscope itemtype="https://schema.org/Thing" itemref="missing"><span itemprop="name">x</span></div>"#)
        #expect(entities.map(\.properties) == [["name": "x"]])
        #expect(problems == [
            StructuredDataProblem(
                code: "structured_data_unresolved_itemref", message: #"microdata: itemref "missing" names no element id; it was ignored"#)
        ])
    }

    @Test func withoutAPageURLRelativeURLsStayRelative() throws {
        let page = try HTMLDocument.parse(#"<div itemscope><a itemprop="url" href="/x">x</a></div>"#)
        #expect(StructuredData.extract(from: page).entities.map(\.properties) == [["url": "/x"]])
    }

    @Test func deepItemNestingIsBounded() throws {
        let depth = 300
        let html = #"<div itemscope itemtype="https://schema.org/Thing">"#
            + String(repeating: #"<div itemprop="part" itemscope>"#, count: depth) + #"<span itemprop="name">x</span>"#
            + String(repeating: "</div>", count: depth + 1)
        let (entities, problems) = try StructuredDataFixture.extract(html)
        #expect(entities.count == 1)
        #expect(entities.first?.properties == [:])
        #expect(problems.map(\.code) == ["structured_data_truncated"])
    }
}
