import Foundation
import SpotlightQuery
import Testing
@testable import SpotlightIndex

/// The exact-value index (``ExactValues``): `attribute == "value"` from
/// the segments, exactly what the evaluator matches, and
/// ``SpotlightStore/queryIdentifiers(_:limit:)`` reading no row when the
/// index decides the whole query.
@Suite struct ExactValueTests {
    static let sections: [(id: String, attributes: [String: AttributeValue])] = [
        ("a", ["section": .string("libs"), "installedSize": .number(.int(10))]),
        ("b", ["section": .string("contrib/libs"), "installedSize": .number(.int(20))]),
        ("c", ["section": .string("Libs"), "installedSize": .number(.int(30))]),
        ("d", ["section": .string("libs "), "installedSize": .number(.int(40))]),
        ("e", ["section": .strings(["games", "libs"]), "installedSize": .numbers([.int(5), .int(50)])]),
        ("f", ["section": .string("\u{212A}elvin")]),
        ("g", ["section": .string("café")]),
        ("h", ["section": .string(String(repeating: "x", count: 65))]),
        ("i", ["section": .string("a\r\nb"), "homepage": .url(URL(string: "https://example.com/libs")!)]),
        ("j", ["installedSize": .string("libs"), "title": .string("libs")]),
    ]

    static func store() throws -> SpotlightStore {
        let store = try memoryStore()
        try store.index(sections.map { item($0.id, $0.attributes) })
        return store
    }

    static let cases: [(query: String, expected: [String], fromIndex: Bool)] = [
        (#"section == "libs""#, ["a", "e"], true),
        (#"section == "games""#, ["e"], true),
        (#"section == "Kelvin""#, [], true),
        (#"section == "contrib/libs""#, ["b"], true),
        (#"section == "libs ""#, ["d"], true),
        (#"section == "nothing""#, [], true),
        (#"homepage == "https://example.com/libs""#, ["i"], true),
        (#"section == "libs" && installedSize > 20"#, ["e"], true),
        (#"section == "games" || installedSize == 30"#, ["c", "e"], true),
        (#"InRange(installedSize, 10, 20)"#, ["a", "b"], true),
        // Not decided by the index alone: rows are read and checked.
        (#"section == "libs"c"#, ["a", "c", "e"], false),
        (#"section == "lib*""#, ["a", "d", "e"], false),
        (#"section == "café""#, ["g"], false),
        (#"section == "\#(String(repeating: "x", count: 65))""#, ["h"], false),
        (#"section == "libs" && installedSize != 5"#, ["a"], false),
        (#"installedSize == "libs""#, ["j"], true),
        (#"section != "libs" && installedSize > 0"#, ["b", "c", "d"], false),
    ]

    @Test(arguments: cases)
    func answersAsTheEvaluatorDoes(query: String, expected: [String], fromIndex: Bool) throws {
        let answers = try QueryAnswers(query, in: try Self.store())
        #expect(answers.reference == expected, "the evaluator")
        #expect(answers.rowsChecked == expected, "rows read and checked")
        #expect(answers.identifiers == expected)
        #expect((answers.rowsRead == 0) == fromIndex, "rows read: \(answers.rowsRead)")
    }

    /// The item's own fields: its identifier (by hash, then its bytes),
    /// domain, type and type tree (an attribute of that name when the
    /// item has none, as the evaluator reads them).
    static let fieldItems = [
        SearchableItem(uniqueIdentifier: "photo", domainIdentifier: "album", contentType: "public.jpeg", attributes: [:]),
        SearchableItem(uniqueIdentifier: "note", domainIdentifier: "notes", contentType: "public.plain-text", attributes: [:]),
        SearchableItem(uniqueIdentifier: "loose", attributes: ["domainIdentifier": .string("album"), "contentType": .string("public.png")]),
        SearchableItem(uniqueIdentifier: "Photo", domainIdentifier: "ALBUM", attributes: [:]),
        SearchableItem(uniqueIdentifier: "fotó", attributes: [:]),
    ]

    static let fieldCases: [(query: String, expected: [String])] = [
        (#"uniqueIdentifier == "photo""#, ["photo"]),
        (#"uniqueIdentifier == "Photo""#, ["Photo"]),
        (#"uniqueIdentifier == "nothing""#, []),
        (#"domainIdentifier == "album""#, ["photo", "loose"]),
        (#"contentType == "public.png""#, ["loose"]),
        (#"contentTypeTree == "public.image""#, ["photo"]),  // an attribute's type has no tree
        (#"contentTypeTree == "public.text" || uniqueIdentifier == "loose""#, ["note", "loose"]),
        (#"contentTypeTree == "public.image" && domainIdentifier == "album""#, ["photo"]),
    ]

    @Test(arguments: fieldCases)
    func itemFieldsAreExact(query: String, expected: [String]) throws {
        let store = try memoryStore()
        try store.index(Self.fieldItems)
        let evaluator = QueryEvaluator(now: Date(), timeZone: TimeZone(identifier: "UTC")!)
        let expression = try QueryParser.parse(query)
        let reference = try store.allItems().map(\.item).filter { evaluator.matches(expression, QueryItem(item: $0)) }.map(\.uniqueIdentifier)
        #expect(reference == expected, "the evaluator")
        let (identifiers, outcome) = try store.queryIdentifiers(expression, limit: 20, firstWindow: 1_024)
        #expect(identifiers == expected)
        #expect(outcome.candidatesChecked == 0, "answered from the index")
        #expect(try store.items(matching: query).map(\.uniqueIdentifier) == expected)
    }

    @Test func aSectionIsNotEveryItemHoldingItsWord() throws {
        let store = try Self.store()
        let outcome = try store.query(#"section == "libs""#) { _ in }
        #expect(outcome.matchCount == 2)
        #expect(outcome.candidatesChecked == 2, "contrib/libs and `libs ` are not candidates")
    }

    /// A segment with more different values of an attribute than it lists
    /// (``ExactValues/distinctLimit(documents:)``) lists none and says so:
    /// its candidates come from the words, rows checked, before and after
    /// merges with segments that list theirs, the mark kept though the
    /// document it sits on was deleted.
    @Test func tooManyDifferentValuesAreFoundByTheirWords() throws {
        let store = try memoryStore()
        let versions = (0..<300).map { item("v\($0)", ["version": .string("1.0.\($0)"), "section": .string("libs")]) }
        try store.index(versions)
        try store.deleteItems(withIdentifiers: ["v0"])
        try store.index([item("w", ["version": .string("1.0.7")])])
        let query = try QueryParser.parse(#"version == "1.0.7""#)
        for phase in ["two segments", "merged"] {
            let (identifiers, outcome) = try store.queryIdentifiers(query, limit: 20, firstWindow: 1_024)
            #expect(identifiers == ["v7", "w"], "\(phase)")
            #expect(outcome.candidatesChecked > 0 && outcome.candidatesChecked < 20, "\(phase): the words' candidates, checked")
            #expect(try store.queryIdentifiers(#"section == "libs""#, limit: 400).count == 299, "\(phase)")
            if phase == "two segments" { #expect(try store.mergeSegments() == 2) }
        }
        let segments = try store.read { try store.ranked.snapshot($0) }
        #expect(segments.count == 1)
        #expect(try !ExactValues.lists(attribute: "version", in: segments[0].segment), "the merge kept the mark")
        #expect(try ExactValues.lists(attribute: "section", in: segments[0].segment))
    }

    @Test func expiredAndDeletedItemsAreLeftOut() throws {
        let clock = TestClock()
        let store = try memoryStore(clock: clock)
        try store.index([
            SearchableItem(uniqueIdentifier: "soon", expirationDate: clock.now.addingTimeInterval(60), attributes: ["section": .string("libs")]),
            item("kept", ["section": .string("libs")]), item("gone", ["section": .string("libs")]),
        ])
        try store.deleteItems(withIdentifiers: ["gone"])
        #expect(try store.queryIdentifiers(#"section == "libs""#) == ["soon", "kept"])
        clock.advance(by: 120)
        #expect(try store.queryIdentifiers(#"section == "libs""#) == ["kept"])
        #expect(try store.items(matching: #"section == "libs""#).map(\.uniqueIdentifier) == ["kept"])
    }

    @Test func theFirstMatchesInIndexOrder() throws {
        let store = try memoryStore()
        for start in stride(from: 0, to: 3_000, by: 500) {
            try store.index((start..<start + 500).map { item("i\($0)", ["section": .string($0 % 3 == 0 ? "libs" : "net")]) })
        }
        let expected = (0..<3_000).filter { $0 % 3 == 0 }.map { "i\($0)" }
        for (limit, window) in [(1, 1_024), (20, 1_024), (20, 7), (1_000, 64), (5_000, 1_024)] {
            let (identifiers, _) = try store.queryIdentifiers(try QueryParser.parse(#"section == "libs""#), limit: limit, firstWindow: window)
            #expect(identifiers == Array(expected.prefix(limit)), "limit \(limit), window \(window)")
        }
    }

    @Test func badArgumentsAreRefused() throws {
        let store = try Self.store()
        #expect(throws: SpotlightIndexError.self) { try store.queryIdentifiers(#"section == "#) }
        #expect(throws: SpotlightIndexError.self) { try store.queryIdentifiers(#"section == "libs""#, limit: 0) }
        do {
            _ = try store.queryIdentifiers(#"section == "libs""#, limit: -1)
            Issue.record("a negative limit was taken")
        } catch let error as SpotlightIndexError {
            #expect(error.code == .invalidArgument)
        }
    }

    static let forms: [(String, String?)] = [
        ("libs", "libs"), ("", ""), ("\u{212A}elvin", nil), ("café", nil), ("a\r\nb", "a\r\nb"),
        (String(repeating: "x", count: 64), String(repeating: "x", count: 64)), (String(repeating: "x", count: 65), nil),
        ("東京", nil), ("\u{212A}" + String(repeating: "x", count: 64), nil),
    ]

    @Test(arguments: forms)
    func asciiForms(value: String, form: String?) {
        #expect(ExactValues.asciiForm(value) == form)
    }

    /// Which names the exact-value index lists: every attribute but the
    /// text columns', the content's and the item's own fields (listed from
    /// the item, but the unique identifier).
    static let names: [(String, Bool)] = [
        ("section", true), ("homepage", true), ("installedSize", true), ("version", true),
        ("domainIdentifier", true), ("contentType", true), ("contentTypeTree", true),
        ("uniqueIdentifier", false), ("textContent", false), ("transcribedTextContent", false),
        ("title", false), ("displayName", false), ("keywords", false), ("alternateNames", false), ("contentDescription", false),
    ]

    @Test(arguments: names)
    func listedNames(name: String, listed: Bool) {
        #expect(NumericIndex.hasExactValues(name) == listed)
        if TextColumns.namedColumnAttributes.contains(name) { #expect(TextColumns.bit(of: name) != 8) }
    }

    /// An item's entries: its numbers, dates and bools by name, its listed
    /// strings and URLs under reserved names, its own fields from the item
    /// (an attribute of that name where the item has none).
    @Test func entriesOfAnItem() {
        let date = Date(timeIntervalSinceReferenceDate: 1_000)
        let attributes: [String: AttributeValue] = [
            "section": .strings(["libs", "café", "games"]), "homepage": .url(URL(string: "https://example.com/a")!),
            "installedSize": .numbers([.int(5), .double(2.5)]), "rating": .number(.int(4)), "added": .date(date),
            "dates": .dates([date, date.addingTimeInterval(1)]), "free": .bool(true), "thumbnail": .data(Data([1, 2])),
            "title": .string("Pear"), "textContent": .string("words"), "contentType": .string("public.text"),
        ]
        func reserved(_ attribute: String, _ value: String) -> String { "\u{1}\(attribute)\u{0}\(value)" }
        let expected: [(String, Double)] = [
            (reserved("section", "libs"), 0), (reserved("section", "games"), 0), (reserved("homepage", "https://example.com/a"), 0),
            (reserved("domainIdentifier", "mail"), 0), (reserved("contentType", "public.text"), 0),
            ("installedSize", 5), ("installedSize", 2.5), ("rating", 4), ("added", 1_000), ("dates", 1_000), ("dates", 1_001), ("free", 1),
        ]
        let entries = NumericIndex.entries(attributes, domain: "mail")
        let key = { (entry: (String, Double)) in "\(entry.0)=\(entry.1)" }
        #expect(entries.map(key).sorted() == expected.map(key).sorted())
        // With the item's own content type, its tree is listed too, and the attribute of that name is not.
        let typed = NumericIndex.entries(["contentType": .string("x.y")], contentType: "public.plain-text").map(\.0)
        #expect(typed.contains(reserved("contentType", "public.plain-text")) && !typed.contains(reserved("contentType", "x.y")))
        #expect(typed.contains(reserved("contentTypeTree", "public.text")))
    }

    /// A content type's entries are made once and reused: each time (and
    /// past the types kept) they are its name and its whole tree, as the
    /// tree is read anew; a type with no ASCII form lists nothing.
    @Test(arguments: ["public.plain-text", "public.item", "com.example.unknown", "public.jpeg", "café.type"])
    func contentTypeEntriesAreTheTypesTree(type: String) {
        func reserved(_ attribute: String, _ value: String) -> String { "\u{1}\(attribute)\u{0}\(value)" }
        let tree = ContentType(type).conformanceTree.filter { ExactValues.asciiForm($0) != nil }
        let expected = (ExactValues.asciiForm(type) == nil ? [] : [reserved("contentType", type)])
            + tree.map { reserved("contentTypeTree", $0) }
        for _ in 0..<2 {
            #expect(NumericIndex.entries([:], contentType: type).map(\.0) == expected)
        }
        // Types the cache no longer keeps are made as they come.
        for index in 0..<(ContentTypeEntries.limit + 2) {
            _ = ContentTypeEntries.shared.entries(of: "com.example.filler\(index)")
        }
        #expect(ContentTypeEntries.shared.entries(of: "com.example.past-the-limit").map(\.0)
            == [reserved("contentType", "com.example.past-the-limit"), reserved("contentTypeTree", "com.example.past-the-limit"),
                reserved("contentTypeTree", "public.item")])
        #expect(NumericIndex.entries([:], contentType: type).map(\.0) == expected)
    }
}
