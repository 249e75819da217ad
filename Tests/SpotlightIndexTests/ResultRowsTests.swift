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
