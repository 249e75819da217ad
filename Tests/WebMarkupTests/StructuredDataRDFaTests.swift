import Foundation
import Testing
@testable import WebMarkup

@Suite struct StructuredDataRDFaTests {
    static let cases: [(String, String, [ExpectedEntity])] = [
        (
            "vocab product with nested offer, content override, href and src",
            """
            <base href="/shop/">
            <div vocab="http://schema.org/" typeof="Product">
              <span property="name">  Pear
                 Phone </span>
              <img property="image" src="pear.jpg" alt="a pear">
              <a property="url" href="/p/pear">link text</a>
              <div property="aggregateRating" typeof="AggregateRating">
                <span property="ratingValue" content="4.4">four point four</span>
                <meta property="reviewCount" content="89">
              </div>
              <div property="offers" typeof="Offer">
                <span property="price" content="19.99">$19.99</span>
                <link property="availability" href="https://schema.org/InStock">
                <time property="priceValidUntil" datetime="2030-01-01">New Year</time>
              </div>
            </div>
            """,
            [
                ExpectedEntity(["Product"], [
                    "name": "Pear Phone", "image": "https://example.com/shop/pear.jpg", "url": "https://example.com/p/pear",
                    "aggregateRating.@type": "AggregateRating", "aggregateRating.ratingValue": "4.4", "aggregateRating.reviewCount": "89",
                    "offers.@type": "Offer", "offers.price": "19.99", "offers.availability": "https://schema.org/InStock",
                    "offers.priceValidUntil": "2030-01-01",
                ])
            ]
        ),
        (
            "https vocab, several types, repeated and multiple properties",
            """
            <div vocab="https://schema.org/" typeof="Restaurant LocalBusiness">
              <span property="name alternateName">Chez Nous</span>
              <span property="servesCuisine">French</span> <span property="servesCuisine">Wine</span>
              <span property="priceRange">$$</span>
            </div>
            """,
            [
                ExpectedEntity(["Restaurant", "LocalBusiness"], [
                    "name": "Chez Nous", "alternateName": "Chez Nous", "servesCuisine.0": "French", "servesCuisine.1": "Wine",
                    "priceRange": "$$",
                ])
            ]
        ),
        (
            "prefix declarations and CURIEs",
            """
            <div prefix="s: https://schema.org/ ex: http://example.org/ns#" typeof="s:Person">
              <span property="s:name">Ann</span><span property="ex:shoeSize">42</span><span property="SCHEMA:jobTitle">Cook</span>
            </div>
            <div typeof="schema:Organization"><span property="schema:name">Org (initial-context prefix)</span></div>
            """,
            [
                ExpectedEntity(["Person"], ["name": "Ann", "http://example.org/ns#shoeSize": "42", "jobTitle": "Cook"]),
                ExpectedEntity(["Organization"], ["name": "Org (initial-context prefix)"]),
            ]
        ),
        (
            "other vocabularies keep full IRIs; no vocabulary keeps terms",
            """
            <div vocab="http://xmlns.com/foaf/0.1/" typeof="Person"><span property="nick">ann</span></div>
            <div typeof="Thing"><span property="name">bare</span></div>
            """,
            [
                ExpectedEntity(["http://xmlns.com/foaf/0.1/Person"], ["http://xmlns.com/foaf/0.1/nick": "ann"]),
                ExpectedEntity(["Thing"], ["name": "bare"]),
            ]
        ),
        (
            "resource: identifier of a typed node, value of a property",
            """
            <div vocab="http://schema.org/" typeof="Book" resource="#book">
              <span property="author" resource="/people/ann">Ann</span>
              <a property="sameAs" href="https://example.org/a" resource="https://example.org/b">both</a>
              <div property="publisher" typeof="Organization" resource="https://pub.example/"><span property="name">Pub</span></div>
            </div>
            """,
            [
                ExpectedEntity(["Book"], [
                    "@id": "https://example.com/p/page.html#book", "author": "https://example.com/people/ann",
                    "sameAs": "https://example.org/b",
                    "publisher.@type": "Organization", "publisher.@id": "https://pub.example/", "publisher.name": "Pub",
                ])
            ]
        ),
        (
            "a property without a subject is ignored; a typed one becomes top-level",
            """
            <head prefix="og: http://ogp.me/ns#"><meta property="og:title" content="Title"><meta property="og:type" content="website"></head>
            <body vocab="http://schema.org/">
              <span property="name">no subject</span>
              <main property="mainEntity" typeof="Article"><h1 property="headline">Hi</h1></main>
            </body>
            """,
            [ExpectedEntity(["Article"], ["headline": "Hi"])]
        ),
        (
            "vocab changes are scoped",
            """
            <div vocab="http://schema.org/" typeof="Event">
              <span property="name">Gig</span>
              <div vocab="http://example.org/"><span property="note">inner</span></div>
              <span property="location">Hall</span>
            </div>
            """,
            [ExpectedEntity(["Event"], ["name": "Gig", "http://example.org/note": "inner", "location": "Hall"])]
        ),
    ]

    @Test(arguments: cases)
    func extractsEntities(name: String, html: String, expected: [ExpectedEntity]) throws {
        let (entities, problems) = try StructuredDataFixture.extract(html)
        #expect(problems == [])
        #expect(entities.map(\.types) == expected.map(\.types))
        #expect(entities.map(\.properties) == expected.map(\.properties))
        #expect(entities.allSatisfy { $0.syntax == .rdfa })
    }

    @Test(arguments: [
        (#"<span property="v" content="c">text</span>"#, "c"),
        (#"<a property="v" href="x.html" content="c">text</a>"#, "c"),
        (#"<a property="v" href="x.html">text</a>"#, "https://example.com/p/x.html"),
        (#"<img property="v" src="i.png">"#, "https://example.com/p/i.png"),
        (#"<span property="v" resource="r">text</span>"#, "https://example.com/p/r"),
        (#"<time property="v" datetime="2020-02-02">Feb</time>"#, "2020-02-02"),
        ("<span property=\"v\"> a <i>b</i>\n\t c </span>", "a b c"),
        (#"<meta property="v" content="">"#, ""),
    ])
    func valueRules(markup: String, expected: String) throws {
        let (entities, _) = try StructuredDataFixture.extract(#"<div typeof="Thing">\#(markup)</div>"#)
        #expect(entities.map(\.properties) == [["v": expected]])
    }
}
