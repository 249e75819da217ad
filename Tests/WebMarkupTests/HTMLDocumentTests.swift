import Foundation
import Testing
@testable import WebMarkup

@Suite struct HTMLDocumentTests {
    @Test func parsesBrokenMarkupIntoATree() throws {
        let page = try HTMLDocument.parse("<title>A &amp; B</title><p>one<p>two <b>bold</i> end")
        #expect(page.root.name == "html")
        #expect(page.head?.first(named: "title")?.textContent == "A & B")
        #expect(page.root.all(named: "p").map(\.textContent) == ["one", "two bold end"])
    }

    @Test func keepsScriptTextRaw() throws {
        let page = try HTMLDocument.parse(#"<script type="application/ld+json">{"name": "a &amp; b <c>"}</script>"#)
        #expect(page.root.first(named: "script")?.textContent == #"{"name": "a &amp; b <c>"}"#)
    }

    @Test func attributesAreLowerCasedAndFirstWins() throws {
        let page = try HTMLDocument.parse(#"<META NAME="Robots" Content="NoIndex" name="second">"#)
        let meta = try #require(page.root.first(named: "meta"))
        #expect(meta.attribute("name") == "Robots")
        #expect(meta.attribute("CONTENT") == "NoIndex")
    }

    @Test func deepNestingIsBounded() throws {
        let depth = 100_000
        let html = String(repeating: "<div>", count: depth) + "deep" + String(repeating: "</div>", count: depth)
        let page = try HTMLDocument.parse(html, limits: .init(maximumDepth: 64))
        #expect(page.isTruncated)
        var deepest = 0
        page.root.walk { _, ancestors in
            deepest = max(deepest, ancestors.count)
            return true
        }
        #expect(deepest < 64)
    }

    @Test func hugePagesAreRefused() throws {
        let data = Data(repeating: UInt8(ascii: "a"), count: 2_000)
        #expect(throws: WebMarkupError.self) {
            try HTMLDocument.parse(data, limits: .init(maximumBytes: 1_000))
        }
    }

    @Test func emptyAndBinaryInputGiveAnEmptyTree() throws {
        #expect(try HTMLDocument.parse("").root.name == "html")
        let binary = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        _ = try HTMLDocument.parse(binary)
    }

    @Test func encodingIsSniffed() throws {
        let latin1 = Data("<p>caf".utf8) + Data([0xE9]) + Data("</p>".utf8)
        #expect(try HTMLDocument.parse(latin1).root.first(named: "p")?.textContent == "café")
        let utf8 = Data("<p>café</p>".utf8)
        #expect(try HTMLDocument.parse(utf8).root.first(named: "p")?.textContent == "café")
        let declared = Data(#"<meta charset="iso-8859-1"><p>caf"#.utf8) + Data([0xE9])
        #expect(try HTMLDocument.parse(declared).root.first(named: "p")?.textContent == "café")
    }
}

@Suite struct HTMLDocumentBaseTests {
    static let page = URL(string: "https://example.com/a/b.html")!

    @Test(arguments: [
        ("", "pear", "https://example.com/a/pear"),
        (#"<base href="/shop/">"#, "pear", "https://example.com/shop/pear"),
        (#"<base href="https://cdn.example.org/x/">"#, "../y", "https://cdn.example.org/y"),
        (#"<base target="_blank"><base href="/first/"><base href="/second/">"#, "p", "https://example.com/first/p"),
        ("", "  //other.example/p  ", "https://other.example/p"),
        ("", "https://absolute.example/", "https://absolute.example/"),
        ("", "?q=1", "https://example.com/a/b.html?q=1"),
    ])
    func resolvesAgainstTheDocumentBase(head: String, reference: String, expected: String) throws {
        let document = try HTMLDocument.parse("<head>\(head)</head><body></body>", url: Self.page)
        #expect(document.resolve(reference)?.absoluteString == expected)
    }

    @Test func emptyReferencesDoNotResolve() throws {
        let document = try HTMLDocument.parse("<p>", url: Self.page)
        #expect(document.resolve("   ") == nil)
    }
}
