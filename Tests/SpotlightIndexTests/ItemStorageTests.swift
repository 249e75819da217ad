import Foundation
import GRDB
import Testing
import TestSupport
@_spi(Inspection) import RankedSearch
@testable import SpotlightIndex

@Suite struct ItemStorageTests {
    static let everyKind: [String: AttributeValue] = [
        "title": .string("Zoë — “quoted” \u{1F600} 中文"),
        "keywords": .strings(["a", "", "b b", "日本"]),
        "rankingHint": .number(.int(42)),
        "rating": .number(.double(4.25)),
        "customBig": .number(.int(Int64.max)),
        "customNegative": .number(.int(Int64.min)),
        "customTiny": .number(.double(.leastNonzeroMagnitude)),
        "customNumbers": .numbers([.int(1), .double(-0.0), .double(1e300)]),
        "dueDate": .date(Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_7)),
        "importantDates": .dates([Date(timeIntervalSinceReferenceDate: -1e9), Date(timeIntervalSinceReferenceDate: 0.1)]),
        "allDay": .bool(true),
        "streamable": .number(0),
        "url": .url(URL(string: "https://example.com/a?b=c#d")!),
        "contentURL": .url(URL(fileURLWithPath: "/tmp/some file.txt")),
        "thumbnailData": .data(Data((0...255).map { UInt8($0) })),
        "my_custom_key": .string(""),
    ]

    @Test func everyAttributeKindRoundTripsExactly() throws {
        let store = try memoryStore()
        let original = SearchableItem(uniqueIdentifier: "all-kinds", domainIdentifier: "acct.inbox", contentType: "public.message",
                                      expirationDate: Date(timeIntervalSinceReferenceDate: 2_000_000_000.000_001),
                                      attributes: Self.everyKind)
        let report = try store.index([original])
        #expect(report.accepted == 1 && report.isComplete)
        let stored = try #require(try store.item(withIdentifier: "all-kinds"))
        #expect(stored.item == original)
        #expect(stored.expiresAt == Date(timeIntervalSince1970: original.expirationDate!.timeIntervalSince1970))
    }

    @Test func codecRefusesDamagedBytes() throws {
        let bytes = AttributeCodec.encode(Self.everyKind)
        #expect(try AttributeCodec.decode(bytes) == Self.everyKind)
        for cut in [1, 2, bytes.count / 2, bytes.count - 1] {
            #expect(throws: AttributeCodec.DecodingError.self) { try AttributeCodec.decode(Array(bytes.prefix(cut))) }
        }
        #expect(throws: AttributeCodec.DecodingError.self) { try AttributeCodec.decode(bytes + [0]) }
        #expect(throws: AttributeCodec.DecodingError.self) { try AttributeCodec.decode([9]) }
    }

    /// Decoding some names passes over the others' values of every kind
    /// and gives what decoding all and filtering gives; cut bytes still throw.
    @Test func codecDecodesOnlyTheNamesKept() throws {
        let bytes = AttributeCodec.encode(Self.everyKind)
        let names = Self.everyKind.keys.sorted()
        for keep in names.map({ [$0] }) + [[], names, Array(names.prefix(3)), names.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)] {
            let kept = Set(keep)
            #expect(try AttributeCodec.decode(bytes, keeping: .init(kept)) == Self.everyKind.filter { kept.contains($0.key) }, "\(keep)")
        }
        for cut in [2, bytes.count / 2, bytes.count - 1] {
            #expect(throws: AttributeCodec.DecodingError.self) { try AttributeCodec.decode(Array(bytes.prefix(cut)), keeping: .init([])) }
        }
    }

    @Test func largeCallsKeepTheOrderOfTheirItemsAndRefusals() throws {
        let store = try memoryStore()
        let items = (0..<1000).map { $0 % 97 == 5 ? item("bad\($0)", ["title": .number(1)]) : item("i\($0)", title: "item \($0)") }
        let report = try store.index(items)
        #expect(report.refused.map(\.itemIdentifier) == (0..<1000).filter { $0 % 97 == 5 }.map { "bad\($0)" })
        #expect(report.accepted == 1000 - report.refused.count)
        #expect(try store.allItems().map(\.item.uniqueIdentifier) == (0..<1000).filter { $0 % 97 != 5 }.map { "i\($0)" })
    }

    @Test func contentTypesCarryTheirConformanceTree() {
        #expect(ContentType("public.contact").conformanceTree == ["public.contact", "public.item"])
        #expect(ContentType("public.vcard").conformanceTree == ["public.vcard", "public.text", "public.contact", "public.data", "public.content", "public.item"])
        #expect(ContentType("public.jpeg").conforms(to: "public.image"))
        #expect(!ContentType("public.jpeg").conforms(to: "public.text"))
        #expect(ContentType("com.example.recipe").conformanceTree == ["com.example.recipe", "public.item"])
        #expect(SearchableItem(uniqueIdentifier: "x", contentType: "public.email-message").contentTypeTree
                == ["public.email-message", "public.message", "public.item"])
    }

    @Test func indexingAnExistingIdentifierReplacesTheItem() throws {
        let store = try memoryStore()
        try store.index([item("n1", title: "Old title", ["keywords": .strings(["stale"])])])
        try store.index([item("n1", title: "New title")])
        let stored = try #require(try store.item(withIdentifier: "n1"))
        #expect(stored.item.attributes == ["title": .string("New title")])
        #expect(try store.itemCount() == 1)
        #expect(try store.ids("stale").isEmpty)
        #expect(try store.ids("old").isEmpty)
        #expect(try store.ids("new") == ["n1"])
    }

    @Test func anUpdateMergesOnlyTheGivenAttributes() throws {
        let store = try memoryStore()
        try store.index([item("n1", title: "Meeting notes", domain: "work", ["keywords": .strings(["q3"]), "comment": .string("draft")])])
        let update = SearchableItem(uniqueIdentifier: "n1", attributes: ["keywords": .strings(["q4"]), "rating": .number(5)],
                                    isUpdate: true, removedAttributes: ["comment"])
        let report = try store.index([update])
        #expect(report.accepted == 1)
        let stored = try #require(try store.item(withIdentifier: "n1"))
        #expect(stored.item.attributes == ["title": .string("Meeting notes"), "keywords": .strings(["q4"]), "rating": .number(5)])
        #expect(stored.item.domainIdentifier == "work")
        #expect(try store.ids("q3").isEmpty)
        #expect(try store.ids("meeting q4") == ["n1"])
        #expect(try store.ids("draft").isEmpty)
    }

    @Test func theLastOfTwoItemsWithOneIdentifierInACallWins() throws {
        let store = try memoryStore()
        let report = try store.index([item("dup", title: "first"), item("other", title: "x"), item("dup", title: "second")])
        #expect(report.accepted == 3)
        #expect(try store.item(withIdentifier: "dup")?.item.displayTitle == "second")
        #expect(try store.itemCount() == 2)
        #expect(try store.ids("first").isEmpty)
    }

    /// Typed values live in the ranked index's segments: every live
    /// document's, as `rowid:name=value`, sorted.
    static func typedValues(_ store: SpotlightStore) throws -> [String] {
        try store.read { db in
            var out: [String] = []
            for snapshot in try store.ranked.snapshot(db) {
                let segment = snapshot.segment
                for name in 0..<segment.numberNameCount {
                    let text = String(decoding: try segment.numberName(name), as: UTF8.self)
                    for index in try segment.numberValues(ofName: name) where !snapshot.deleted.contains(Int(segment.numberDoc(index))) {
                        out.append("\(segment.rowid(Int(segment.numberDoc(index)))):\(text)=\(segment.numberValue(index))")
                    }
                }
            }
            return out.sorted()
        }
    }

    @Test func theTypedAttributeIndexFollowsEveryWrite() throws {
        let store = try memoryStore()
        func rows() throws -> [String] { try Self.typedValues(store) }
        let day = Date(timeIntervalSinceReferenceDate: 86_400)
        try store.index([item("a", ["rating": .number(4), "dueDate": .date(day), "allDay": .bool(true), "title": .string("x")]),
                         item("b", ["customNumbers": .numbers([1, 2, 2.5])])])
        #expect(try rows() == ["1:allDay=1.0", "1:dueDate=86400.0", "1:rating=4.0", "2:customNumbers=1.0", "2:customNumbers=2.0", "2:customNumbers=2.5"])
        try store.index([item("a", ["rating": .number(5)])])
        try store.index([SearchableItem(uniqueIdentifier: "b", attributes: ["customNumbers": .numbers([7])], isUpdate: true)])
        #expect(try rows() == ["1:rating=5.0", "2:customNumbers=7.0"])
        try store.deleteItems(withIdentifiers: ["a"])
        #expect(try rows() == ["2:customNumbers=7.0"])
        try store.deleteAllItems()
        #expect(try rows().isEmpty)
    }

    @Test func anUpdateWithoutAStoredItemIsDropped() throws {
        let store = try memoryStore()
        let report = try store.index([SearchableItem(uniqueIdentifier: "ghost", attributes: ["title": .string("x")], isUpdate: true)])
        #expect(report.accepted == 0)
        #expect(report.droppedUpdates == ["ghost"])
        #expect(try store.itemCount() == 0)
    }

    @Test func deletingByIdentifier() throws {
        let store = try memoryStore()
        try store.index(["a", "b", "c"].map { item($0, title: "word \($0)") })
        try store.deleteItems(withIdentifiers: ["b", "unknown"])
        #expect(try store.identifiers() == ["a", "c"])
        #expect(try store.ids("word") == ["a", "c"])
    }

    @Test func deletingADomainDeletesItsDottedDescendantsOnly() throws {
        let store = try memoryStore()
        let domains = ["acct1", "acct1.inbox", "acct1.inbox.sub", "acct10", "acct10.inbox", "acct1x", "acct", "acct2.acct1", "acct1-old"]
        try store.index(domains.enumerated().map { item("i\($0.offset)", title: "mail", domain: $0.element) })
        try store.index([item("none", title: "mail")])
        try store.deleteItems(inDomains: ["acct1"])
        let left = try store.allItems().map { $0.item.domainIdentifier ?? "-" }.sorted()
        #expect(left == ["-", "acct", "acct1-old", "acct10", "acct10.inbox", "acct1x", "acct2.acct1"])
        #expect(try store.ids("mail").count == 7)
        #expect(try store.allItems(inDomain: "acct10").count == 2)
    }

    @Test func deletingEverything() throws {
        let store = try memoryStore()
        try store.index(["a", "b"].map { item($0, title: "gone") })
        try store.recordEngagement(.view, itemIdentifier: "a")
        try store.deleteAllItems()
        #expect(try store.itemCount() == 0)
        #expect(try store.ids("gone").isEmpty)
        #expect(try store.engagement(ofItem: "a").views == 0)
        try store.index([item("a", title: "back")])
        #expect(try store.ids("back") == ["a"])
    }

    /// Before schema v10 an item's attributes were a row of `item_attributes`;
    /// opening such a store moves them into `items`, keeping every rowid (the
    /// ranked index names them, and is not rebuilt), item and signal.
    /// Upgraded through a pool, and through the one connection `spotlight search` opens.
    @Test(arguments: [false, true]) func aStoreFromBeforeVersion10KeepsEveryItemAndRowid(oneConnection: Bool) throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let original = SearchableItem(uniqueIdentifier: "all-kinds", domainIdentifier: "acct.inbox", contentType: "public.message",
                                      expirationDate: Date(timeIntervalSinceReferenceDate: 2_000_000_000.000_001),
                                      attributes: Self.everyKind)
        let items = [original] + (0..<40).map { item("n\($0)", title: "note \($0) pear", domain: $0.isMultiple(of: 2) ? "even" : nil) }
        let before: (rows: [Row], ranked: [Row], pears: [SearchResult])
        let clock = TestClock()   // engagement decays: the same instant for both searches
        do {
            let store = try fileStore(dir, clock: clock)
            try store.index(items)
            try store.deleteItems(withIdentifiers: ["n3"])
            try store.recordEngagement(.selection, itemIdentifier: "n7")
            before = (try Self.signalRows(store), try store.read { try Row.fetchAll($0, sql: "SELECT * FROM ranked_segments ORDER BY id") },
                      try store.search("pear", limit: 50))
            // Back to the v9 layout: the attributes in a table of their own.
            try store.write { db in
                try db.execute(sql: """
                    CREATE TABLE item_attributes(rowid INTEGER PRIMARY KEY, attributes BLOB NOT NULL);
                    INSERT INTO item_attributes SELECT rowid, attributes FROM items;
                    CREATE TABLE items_v9(rowid INTEGER PRIMARY KEY, uid TEXT NOT NULL, domain TEXT, content_type TEXT,
                        expiration REAL, expires REAL NOT NULL, indexed_at REAL NOT NULL, hint REAL NOT NULL DEFAULT 0,
                        recency REAL, eng REAL NOT NULL DEFAULT 0, eng_at REAL NOT NULL DEFAULT 0, imp REAL NOT NULL DEFAULT 0);
                    INSERT INTO items_v9 SELECT rowid, uid, domain, content_type, expiration, expires, indexed_at, hint, recency,
                        eng, eng_at, imp FROM items;
                    DROP TABLE items;
                    ALTER TABLE items_v9 RENAME TO items;
                    CREATE INDEX items_domain ON items(domain) WHERE domain IS NOT NULL;
                    CREATE INDEX items_expires ON items(expires);
                    DELETE FROM grdb_migrations WHERE identifier = 'v10-attributes-in-items';
                    """)
            }
            #expect(try store.read { try $0.columns(in: "items").contains { $0.name == "attributes" } } == false)
        }
        let store = try fileStore(dir, clock: clock) { $0.opensOneConnection = oneConnection }
        #expect((store.writer is DatabaseQueue) == oneConnection)
        #expect(try store.read { try $0.tableExists("item_attributes") } == false)
        #expect(try store.read { try $0.columns(in: "items").map(\.name).last } == "attributes")
        #expect(try Self.signalRows(store) == before.rows)
        #expect(try store.read { try Row.fetchAll($0, sql: "SELECT * FROM ranked_segments ORDER BY id") } == before.ranked, "not rebuilt")
        #expect(try store.item(withIdentifier: "all-kinds")?.item == original)
        let pears = try store.search("pear", limit: 50)
        #expect(pears.map(\.item) == before.pears.map(\.item) && pears.count == 39)
        #expect(pears.map(\.score.total) == before.pears.map(\.score.total))
        #expect(try store.allItems(inDomain: "even").count == 20)
        // Written as before: a new item, a replaced one, a deleted one.
        try store.index([item("fresh", title: "pear tart"), item("n5", title: "quince")])
        try store.deleteItems(withIdentifiers: ["n6"])
        #expect(try store.ids("quince") == ["n5"])
        #expect(try store.ids("tart") == ["fresh"])
        #expect(try store.itemCount() == 40)
    }

    /// Every `items` column but the attributes, by rowid.
    static func signalRows(_ store: SpotlightStore) throws -> [Row] {
        try store.read { db in
            try Row.fetchAll(db, sql: """
                SELECT rowid, uid, domain, content_type, expiration, expires, indexed_at, hint, recency, eng, eng_at, imp
                FROM items ORDER BY rowid
                """)
        }
    }
}
