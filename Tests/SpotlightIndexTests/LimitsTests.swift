import Foundation
import Testing
@testable import SpotlightIndex

@Suite struct LimitsTests {
    static func small(_ options: inout StoreOptions) {
        options.limits.maxIdentifierBytes = 16
        options.limits.maxAttributeNameBytes = 16
        options.limits.maxAttributesPerItem = 3
        options.limits.maxAttributeBytes = 100
        options.limits.maxArrayElements = 4
        options.limits.maxItemBytes = 200
        options.limits.maxItemsPerStore = 5
    }

    /// Each bad item, the error code, and words its message must contain.
    static let refusals: [(SearchableItem, SpotlightIndexError.Code, String)] = [
        (item(""), .invalidItem, "unique identifier is empty"),
        (item(String(repeating: "x", count: 17)), .limitExceeded, "maxIdentifierBytes"),
        (item("nul\u{0}id"), .invalidItem, "NUL"),
        (item("d", domain: String(repeating: "d", count: 17)), .limitExceeded, "domain identifier is 17 bytes"),
        (item("n", ["averyveryverylongname": .string("x")]), .limitExceeded, "maxAttributeNameBytes"),
        (item("m", ["a": .string("1"), "b": .string("2"), "c": .string("3"), "d": .string("4")]), .limitExceeded, "maxAttributesPerItem"),
        (item("s", ["comment": .string(String(repeating: "é", count: 51))]), .limitExceeded, "attribute comment is 102 bytes"),
        (item("k", ["keywords": .strings(["a", "b", "c", "d", "e"])]), .limitExceeded, "maxArrayElements"),
        (item("t", ["thumbnailData": .data(Data(count: 101))]), .limitExceeded, "maxAttributeBytes"),
        (item("w", ["title": .strings(["not", "a string"])]), .invalidItem, "title must be a string value, not a strings"),
        (item("u", ["url": .string("https://x")]), .invalidItem, "url must be a url value"),
        (item("h", ["rankingHint": .number(101)]), .invalidItem, "between 0 and 100"),
        (item("f", ["rating": .number(.double(.nan))]), .invalidItem, "not finite"),
        (item("bad-name", ["my-key": .string("x")]), .invalidItem, "custom key may only use"),
        (item("kmd", ["kMDItemTitle": .string("x")]), .invalidItem, "reserved"),
        (SearchableItem(uniqueIdentifier: "ct", contentType: "public item"), .invalidItem, "content type"),
        (item("big", ["comment": .string(String(repeating: "a", count: 90)), "subject": .string(String(repeating: "a", count: 90)),
                      "title": .string(String(repeating: "a", count: 90))]), .limitExceeded, "maxItemBytes"),
    ]

    @Test(arguments: 0..<refusals.count)
    func badItemsAreRefusedAloneWithAReason(index: Int) throws {
        let (bad, code, words) = Self.refusals[index]
        let store = try memoryStore(Self.small)
        try store.index([item("keep", title: "kept")])
        let report = try store.index([item("before", title: "fine"), bad, item("after", title: "fine")])
        #expect(report.accepted == 2)
        let refusal = try #require(report.refused.first)
        #expect(report.refused.count == 1)
        #expect(refusal.itemIdentifier == bad.uniqueIdentifier)
        #expect(refusal.error.code == code)
        #expect(refusal.error.message.contains(words), "\(refusal.error.message)")
        #expect(refusal.error.subject == bad.uniqueIdentifier)
        #expect(refusal.error.message.hasPrefix("item \""), "the message names the item")
        #expect(try store.identifiers() == ["after", "before", "keep"])
    }

    @Test func theStoreRefusesItemsPastItsItemLimitAndKeepsTheRest() throws {
        let store = try memoryStore(Self.small)
        let report = try store.index((1...7).map { item("i\($0)", title: "t") })
        #expect(report.accepted == 5)
        #expect(report.refused.map(\.itemIdentifier) == ["i6", "i7"])
        #expect(report.refused.first?.error.message.contains("maxItemsPerStore") == true)
        // Replacing an item at the limit still works; deleting makes room.
        #expect(try store.index([item("i1", title: "again")]).accepted == 1)
        try store.deleteItems(withIdentifiers: ["i2"])
        #expect(try store.index([item("i6", title: "t")]).accepted == 1)
        #expect(try store.itemCount() == 5)
    }

    @Test func hugeButAllowedValuesAndOddTextAreStored() throws {
        let store = try memoryStore()
        let text = String(repeating: "lorem ipsum ", count: 200_000) // 2.4 MB
        let odd = "\u{0}\u{FEFF}\u{202E}tab\there\u{7}\u{10FFFF}"
        try store.index([item("big", title: "big one", ["textContent": .string(text), "comment": .string(odd)])])
        let stored = try #require(try store.item(withIdentifier: "big"))
        #expect(stored.item.attributes["textContent"] == .string(text))
        #expect(stored.item.attributes["comment"] == .string(odd))
        #expect(try store.ids("ipsum") == ["big"])
        #expect(try store.ids("tab here") == ["big"])
    }
}
