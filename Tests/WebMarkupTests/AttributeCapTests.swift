import Foundation
import Testing
@testable import WebMarkup

/// A tag with very many attributes costs linear time: past 256 they are cut
/// before libxml2 (whose check of each against all before it is quadratic),
/// and everything else in the page is left as it was.
@Suite struct AttributeCapTests {
    static func attributes(_ count: Int, from start: Int = 0) -> String {
        (start..<(start + count)).map { "a\($0)=\"v\($0)\"" }.joined(separator: " ")
    }

    @Test(arguments: [
        "<html><head><title>T</title><meta name=description content=\"x > y\"></head><body>b</body></html>",
        "<p \(attributes(256))>at the limit</p>",
        "<!-- <p \(attributes(300))> --><p>x</p>",
        "<script>var s = '<p \(attributes(300))>'</script><p>x</p>",
        "<p a=1 b='2' c d = \"4\" e=5/>text",
        "no tags at all < 3 and > 2",
        "<p \(attributes(300))",   // the page ends inside the tag
    ])
    func pagesWithinTheLimitAreUntouched(page: String) {
        #expect(HTMLAttributeCap.capped(Data(page.utf8)) == nil)
    }

    @Test func attributesPastTheLimitAreCutUpToTheTagsEnd() throws {
        let page = "<html><head><meta name=\"description\" content=\"Juicy > pears\" \(Self.attributes(400)) data-x='a > b'>"
            + "<title>Pear</title></head><body><p \(Self.attributes(300, from: 1000))>after</p></body></html>"
        let capped = try #require(HTMLAttributeCap.capped(Data(page.utf8)))
        let text = String(decoding: capped, as: UTF8.self)
        #expect(text.contains("a253=\"v253\" ><title>Pear</title>"), "name, content and 254 more: the meta tag keeps 256")
        #expect(!text.contains("a254=") && !text.contains("data-x"))
        #expect(text.contains("a1255=\"v1255\" >after</p>") && !text.contains("a1256="))
        #expect(text.hasSuffix("</body></html>"))
        let document = try HTMLDocument.parse(Data(page.utf8))
        let metadata = PageMetadata(document)
        #expect(metadata.title?.value == "Pear" && metadata.description?.value == "Juicy > pears")
    }

    @Test func aTagWithTwoHundredThousandAttributesParses() throws {
        let page = "<html><head><title>Big</title><meta name=\"description\" content=\"d\" \(Self.attributes(200_000))></head><body>x</body></html>"
        let document = try HTMLDocument.parse(Data(page.utf8))
        #expect(PageMetadata(document).description?.value == "d")
    }

    @Test func utf16PagesAreCutToo() throws {
        let page = "<html><head><title>Sixteen</title><meta name=\"description\" content=\"d\" \(Self.attributes(300))></head></html>"
        var data = Data([0xFF, 0xFE])
        data.append(page.data(using: .utf16LittleEndian)!)
        let document = try HTMLDocument.parse(data)
        #expect(PageMetadata(document).title?.value == "Sixteen")
    }
}
