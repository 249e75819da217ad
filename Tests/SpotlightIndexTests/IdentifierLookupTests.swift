import Foundation
import GRDB
import Testing
import TestSupport
@_spi(Inspection) import RankedSearch
@testable import SpotlightIndex

/// Which row holds an identifier, and which rows hold a typed value in a
/// range, come from the ranked index's segments (format 7), not from
/// SQLite indexes: they must follow every write, merge and rebuild, and
/// a damaged index must neither lose an item nor let one identifier take
/// two rows.
@Suite(.serialized) struct IdentifierLookupTests {
    /// Rows per identifier, straight from `items`.
    static func rowsPerIdentifier(_ store: SpotlightStore) throws -> [String: Int] {
        try store.read { db in
            var counts: [String: Int] = [:]
            for uid in try String.fetchAll(db, sql: "SELECT uid FROM items") { counts[uid, default: 0] += 1 }
            return counts
        }
    }

    @Test func identifiersAreFoundThroughWritesAndMerges() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir) { $0.rankedInlineLimit = 8 << 10 }
        // Twenty writes: segments are merged on the way, some into files.
        for start in stride(from: 0, to: 2_000, by: 100) {
            try store.index((start..<start + 100).map { item("n\($0)", title: "note \($0)") })
        }
        try store.index(stride(from: 0, to: 2_000, by: 7).map { item("n\($0)", title: "replaced \($0)") })
        try store.deleteItems(withIdentifiers: stride(from: 0, to: 2_000, by: 11).map { "n\($0)" })
        try store.index([item("n11", title: "back again")])
        #expect(try store.rankedIndexStatistics().fileSegments > 0)
        for index in 0..<2_000 {
            let stored = try store.item(withIdentifier: "n\(index)")?.item.displayTitle
            let expected: String? = index == 11 ? "back again"
                : index % 11 == 0 ? nil : index % 7 == 0 ? "replaced \(index)" : "note \(index)"
            #expect(stored == expected, "n\(index)")
            #expect(try store.containsItem(withIdentifier: "n\(index)") == (expected != nil))
        }
        let rows = try Self.rowsPerIdentifier(store)
        #expect(rows.values.allSatisfy { $0 == 1 })
        #expect(rows.count == 2_000 - 182 + 1)
        #expect(try store.itemCount() == rows.count)
        #expect(try store.item(withIdentifier: "nobody") == nil)
    }

    @Test func damagedSegmentsNeitherHideItemsNorDuplicateThem() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        do {
            let store = try fileStore(dir) { $0.rankedInlineLimit = 4 << 10 }
            try store.index((0..<400).map { item("n\($0)", title: "note \($0)") })
        }
        let directory = dir.url.appendingPathComponent("org.openspotlight.tests/shared.ranked")
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        let store = try fileStore(dir)
        // A reader finds the item without the index.
        #expect(try store.item(withIdentifier: "n123")?.item.displayTitle == "note 123")
        // A writer rebuilds the index before it looks the identifier up: a replacement, not a second row.
        try store.index([item("n123", title: "changed")])
        #expect(try Self.rowsPerIdentifier(store)["n123"] == 1)
        #expect(try store.item(withIdentifier: "n123")?.item.displayTitle == "changed")
        #expect(try store.itemCount() == 400)
        #expect(try store.search("changed").map(\.item.uniqueIdentifier) == ["n123"])
    }

    @Test func aRebuildSettlesTwoRowsOfOneIdentifierOnTheLaterOne() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        do {
            let store = try fileStore(dir)
            try store.index([item("a", title: "first"), item("b", title: "other")])
            // What a lost lookup could have written: a second row for "a".
            try store.write { db in
                var later = item("a", title: "second")
                later.attributes["title"] = .string("second")
                let blob = BlobCompression.pack(AttributeCodec.encode(later.attributes))
                try db.execute(sql: """
                    INSERT INTO items(uid, domain, content_type, expiration, expires, indexed_at, hint, recency, attributes)
                        SELECT uid, domain, content_type, expiration, expires, indexed_at, hint, recency, ? FROM items WHERE uid = 'a';
                    """, arguments: [Data(blob)])
                try db.execute(sql: "UPDATE meta SET value = value + 1 WHERE key = 'item_count'")
                try db.execute(sql: "UPDATE meta SET value = 'old' WHERE key = 'ranked_format'")
            }
        }
        let store = try fileStore(dir)
        #expect(try Self.rowsPerIdentifier(store) == ["a": 1, "b": 1])
        #expect(try store.item(withIdentifier: "a")?.item.displayTitle == "second")
        #expect(try store.itemCount() == 2)
        #expect(try store.search("first").isEmpty)
    }

    /// Items whose values, over several segments with deletions, exercise
    /// both ways a segment answers a range (a sorted list, a bitmap).
    static let valueStore: (store: SpotlightStore, values: [String: [Double]]) = {
        let store = try! memoryStore()
        var values: [String: [Double]] = [:]
        for batch in 0..<6 {
            var items: [SearchableItem] = []
            for index in (batch * 300)..<(batch * 300 + 300) {
                let numbers: [Double] = index % 5 == 0 ? [Double(index % 97), Double(index % 13) - 6.5] : [Double(index % 97)]
                items.append(item("v\(index)", title: "value", ["measure": .numbers(numbers.map { .double($0) }), "flag": .bool(index % 3 == 0)]))
                values["v\(index)"] = numbers
            }
            try! store.index(items)
        }
        try! store.deleteItems(withIdentifiers: stride(from: 0, to: 1_800, by: 17).map { "v\($0)" })
        for index in stride(from: 0, to: 1_800, by: 17) { values["v\(index)"] = nil }
        // Replaced items: a later segment holds rowids inside the earlier
        // segments' ranges, so the segments' runs overlap.
        let replaced: [(String, [Double])] = [("v5", [12, -7]), ("v600", [96.5]), ("v1205", [0, 15])]
        try! store.index(replaced.map { uid, numbers in item(uid, title: "value", ["measure": .numbers(numbers.map { .double($0) })]) })
        for (uid, numbers) in replaced { values[uid] = numbers }
        return (store, values)
    }()

    static let ranges: [NumberRange] = [
        NumberRange(lower: 10, upper: 20),
        NumberRange(lower: 10, lowerInclusive: false, upper: 20, upperInclusive: false),
        NumberRange(lower: 96),
        NumberRange(upper: -6.5),
        NumberRange(upper: -6.5, upperInclusive: false),
        NumberRange(lower: -100),                       // every value: the bitmap path everywhere
        NumberRange.equal(0),
        NumberRange.equal(0.5),                         // no value
        NumberRange(lower: 50, upper: 40),              // empty
        NumberRange(),
    ]

    @Test(arguments: ranges)
    func typedValueRangesHoldExactlyTheMatchingItems(range: NumberRange) throws {
        let (store, values) = Self.valueStore
        let rowids = try store.read { db in try RankedLookups.rowids(named: "measure", in: range, segments: try store.ranked.snapshot(db)) }
        #expect(rowids == rowids.sorted() && Set(rowids).count == rowids.count, "ascending and distinct")
        let found = try store.read { db in
            try rowids.map { try String.fetchOne(db, sql: "SELECT uid FROM items WHERE rowid = ?", arguments: [$0])! }
        }
        let expected = values.filter { $0.value.contains(where: range.contains) }.keys.sorted()
        #expect(found.sorted() == expected)
    }

    @Test func queriesOnTypedValuesAgreeWithTheEvaluator() throws {
        let (store, values) = Self.valueStore
        let cases: [(String, (Double) -> Bool)] = [
            ("measure > 90", { $0 > 90 }), ("measure <= 1", { $0 <= 1 }), ("measure == 42", { $0 == 42 }),
            ("InRange(measure, 3, 4)", { $0 >= 3 && $0 <= 4 }),
        ]
        for (query, test) in cases {
            let found = try store.items(matching: query).map(\.uniqueIdentifier).sorted()
            #expect(found == values.filter { $0.value.contains(where: test) }.keys.sorted(), "\(query)")
        }
        #expect(try store.items(matching: "flag == 1 && measure == 0").map(\.uniqueIdentifier).sorted()
                == values.filter { $0.value.contains(0) && Int($0.key.dropFirst())! % 3 == 0 }.keys.sorted())
    }

    @Test func aStoreFromBeforeVersion8KeepsEveryItem() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        do {
            let store = try fileStore(dir)
            try store.index([item("a", title: "apple", ["rating": .number(4)]), item("b", title: "banana", ["rating": .number(2)])])
            // Back to the v7 layout: a UNIQUE identifier column, the attributes
            // in a table of their own, and the typed-value table.
            try store.write { db in
                try db.execute(sql: """
                    CREATE TABLE items_v7(rowid INTEGER PRIMARY KEY, uid TEXT NOT NULL UNIQUE, domain TEXT, content_type TEXT,
                        expiration REAL, expires REAL NOT NULL, indexed_at REAL NOT NULL, hint REAL NOT NULL DEFAULT 0,
                        recency REAL, eng REAL NOT NULL DEFAULT 0, eng_at REAL NOT NULL DEFAULT 0);
                    INSERT INTO items_v7 SELECT rowid, uid, domain, content_type, expiration, expires, indexed_at, hint, recency, eng, eng_at
                        FROM items;
                    CREATE TABLE item_attributes(rowid INTEGER PRIMARY KEY, attributes BLOB NOT NULL);
                    INSERT INTO item_attributes SELECT rowid, attributes FROM items;
                    DROP TABLE items;
                    ALTER TABLE items_v7 RENAME TO items;
                    CREATE TABLE attr_numbers(name TEXT NOT NULL, value REAL NOT NULL, item INTEGER NOT NULL,
                        PRIMARY KEY(name, value, item)) WITHOUT ROWID;
                    DELETE FROM grdb_migrations WHERE identifier IN ('v8-lookups-in-segments', 'v9-impressions', 'v10-attributes-in-items');
                    UPDATE meta SET value = '6.4.0' WHERE key = 'ranked_format';
                    """)
            }
        }
        let store = try fileStore(dir)
        #expect(try store.read { db in try db.tableExists("attr_numbers") } == false)
        #expect(try store.item(withIdentifier: "a")?.item.displayTitle == "apple")
        #expect(try store.items(matching: "rating > 3").map(\.uniqueIdentifier) == ["a"])
        try store.index([item("a", title: "avocado")])
        #expect(try Self.rowsPerIdentifier(store) == ["a": 1, "b": 1])
        #expect(try store.search("avo").map(\.item.uniqueIdentifier) == ["a"])
    }
}

extension NumberRange: CustomTestStringConvertible {
    var testDescription: String {
        let lower = self.lower.map { (lowerInclusive ? "[" : "(") + "\($0)" } ?? "(-∞"
        let upper = self.upper.map { "\($0)" + (upperInclusive ? "]" : ")") } ?? "∞)"
        return lower + ", " + upper
    }
}
