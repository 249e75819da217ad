import Foundation
import GRDB
import Testing
@testable import SpotlightIndex

/// A search's items are read from their rows through SQLite's C API
/// (``StoredRow/item(_:)-(OpaquePointer)``): each field as reading the item
/// by identifier gives it, and damaged attributes a clear error.
@Suite struct ResultRowsTests {
    static let items: [SearchableItem] = [
        SearchableItem(uniqueIdentifier: "plain", attributes: ["title": .string("Quince plain")]),
        SearchableItem(uniqueIdentifier: "full/ü é", domainIdentifier: "orchard", contentType: "public.image",
                       expirationDate: Date(timeIntervalSinceReferenceDate: 2_000_000_000.5),
                       attributes: ["title": .string("Quince full"), "rating": .number(.double(4.5)), "keywords": .strings(["a", "b"]),
                                    "thumbnailData": .data(Data([0, 1, 2, 0]))]),
        SearchableItem(uniqueIdentifier: "🍐" + String(repeating: "x", count: 150), attributes: ["title": .string("Quince 🍐")]),
    ]

    @Test func eachFieldIsWhatReadingTheItemGives() throws {
        let store = try memoryStore()
        try store.index(Self.items)
        let found = try store.search("quince", limit: 10)
        #expect(found.count == Self.items.count)
        for result in found {
            let stored = try #require(try store.item(withIdentifier: result.item.uniqueIdentifier))
            #expect(result.item == stored.item, "\(result.item.uniqueIdentifier)")
        }
        let full = try #require(found.first { $0.item.uniqueIdentifier == "full/ü é" }).item
        #expect(full.domainIdentifier == "orchard" && full.contentType == "public.image")
        #expect(full.expirationDate == Date(timeIntervalSinceReferenceDate: 2_000_000_000.5))
        #expect(found.contains { $0.item.uniqueIdentifier.count == 151 && $0.item.domainIdentifier == nil }, "a long identifier, no domain")
    }

    /// A search fetching some attributes gives the same results, in the
    /// same order with the same scores, holding only those (by name, or by
    /// the part before a dot); fetching none does not read the stored
    /// attributes at all, so even damaged ones do not stop it.
    static let fetches: [(fetch: Set<String>, kept: [String])] = [
        ([], []), (["title"], ["title"]), (["rating", "keywords"], ["keywords", "rating"]), (["authors"], ["authors", "authors.persons"]),
        (["authors.persons"], ["authors.persons"]), (["thumbnailData", "absent"], ["thumbnailData"]), (["contentType"], []),
    ]

    @Test(arguments: fetches)
    func fetchingGivesOnlyTheAttributesNamed(_ fetch: Set<String>, _ kept: [String]) throws {
        let store = try memoryStore()
        var items = Self.items
        items[1].attributes["authors"] = .strings(["Ann Apple"])
        items[1].attributes["authors.persons"] = .data(Data([1, 2, 3]))
        #expect(try store.index(items).refused.isEmpty)
        let all = try store.search("quince", limit: 10)
        let found = try store.search("quince", limit: 10, fetching: fetch)
        #expect(found.map(\.item.uniqueIdentifier) == all.map(\.item.uniqueIdentifier))
        #expect(found.map(\.score) == all.map(\.score))
        for (result, full) in zip(found, all) {
            #expect(result.item.attributes == full.item.attributes.filter { StoredRow.isFetched($0.key, fetch) })
            #expect(result.item.contentType == full.item.contentType && result.item.domainIdentifier == full.item.domainIdentifier)
        }
        let full = try #require(found.first { $0.item.uniqueIdentifier == "full/ü é" })
        #expect(full.item.attributes.keys.sorted() == kept, "\(fetch)")
        if fetch.isEmpty {
            try store.write { db in try db.execute(sql: "UPDATE items SET attributes = x'ff00ff'") }
            #expect(try store.search("quince", limit: 10, fetching: []).map(\.item.uniqueIdentifier) == all.map(\.item.uniqueIdentifier))
        }
    }

    @Test func damagedAttributesNameTheirItemAndLeaveTheOthersReadable() throws {
        let store = try memoryStore()
        try store.index(Self.items)
        try store.write { db in
            try db.execute(sql: "UPDATE items SET attributes = x'ff00ff' WHERE uid = 'plain'")
        }
        #expect {
            try store.search("quince", limit: 10)
        } throws: { error in
            let error = error as? SpotlightIndexError
            return error?.code == .storeCorrupt && error?.message.contains("\"plain\"") == true
        }
        #expect(try store.search("full", limit: 10).map(\.item.uniqueIdentifier) == ["full/ü é"])
    }
}
