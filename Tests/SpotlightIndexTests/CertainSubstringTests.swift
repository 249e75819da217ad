import Foundation
import SpotlightQuery
import Testing
import TestSupport
@_spi(Inspection) @testable import RankedSearch
@testable import SpotlightIndex

/// `title == "*fragment*"c` answered from the index where it is certain:
/// a document whose title column holds only its title, in ASCII, and
/// holds a word containing the fragment, matches without its row being
/// read; every other candidate is read and checked, and the answers are
/// the evaluator's, in index order.
@Suite struct CertainSubstringTests {
    static let items: [SearchableItem] = [
        item("a", title: "Apple pie"),
        item("b", title: "Crème brûlée with apple"),          // not ASCII: checked
        item("c", title: "Pineapple", ["displayName": .string("Fruit")]),   // two attributes in the title column: checked
        item("d", title: "APPLESAUCE"),
        item("e", title: "Banana", ["contentDescription": .string("an apple a day")]),
        item("f", title: "Grape", ["keywords": .strings(["snapple", "juice"])]),
        item("g", title: "Grapple", ["keywords": .strings(["naïve", "grapple"])]),   // keywords not ASCII
    ]

    /// Query, expected identifiers in index order, and the rows read and checked.
    static let cases: [(String, [String], Int)] = [
        (#"title == "*ppl*"c"#, ["a", "b", "c", "d", "g"], 2),
        (#"title == "*PPL*"cd"#, ["a", "b", "c", "d", "g"], 2),
        // Case counts: every candidate is read.
        (#"title == "*ppl*""#, ["a", "b", "c", "g"], 5),
        // Words, tokens, a prefix or a suffix are not substrings: every candidate is read.
        (#"title == "*ppl*"cw"#, ["a", "b", "c", "d", "g"], 5),
        (#"title == "app*"c"#, ["a", "d"], 3),
        (#"title == "*sauce"c"#, ["d"], 1),
        // A fragment that is not letters and digits alone: read.
        (#"title == "*e p*"c"#, ["a"], 2),
        (#"title == "*ppl*"c || contentDescription == "*ppl*"c"#, ["a", "b", "c", "d", "e", "g"], 2),
        (#"title == "*ppl*"c || contentDescription == "*ppl*""#, ["a", "b", "c", "d", "e", "g"], 3),
        (#"keywords == "*ppl*"c"#, ["f", "g"], 1),
        (#"displayName == "*rui*"c"#, ["c"], 1),
        (#"title == "*ppl*"c && contentDescription == "*day*"c"#, [], 0),
        (#"title == "*ppl*"c && title == "*pie*"c"#, ["a"], 0),
        (#"title == "*ppl*"c && title != "*pie*"c"#, ["b", "c", "d", "g"], 5),
        // Any attribute: each column's own is one of them.
        (#"** == "*ppl*"c"#, ["a", "b", "c", "d", "e", "f", "g"], 2),
        (#"* == "*ppl*"cd"#, ["a", "b", "c", "d", "e", "f", "g"], 2),
        (#"** == "*ppl*""#, ["a", "b", "c", "e", "f", "g"], 7),
    ]

    @Test(arguments: cases)
    func answersAsTheEvaluatorDoesReadingOnlyWhatIsUncertain(query: String, expected: [String], checked: Int) throws {
        let store = try memoryStore()
        try store.index(Self.items)
        let answers = try QueryAnswers(query, in: store)
        #expect(answers.reference == expected, "the evaluator")
        #expect(answers.rowsChecked == expected, "rows read and checked")
        #expect(answers.identifiers == expected)
        #expect(answers.rowsRead == checked, "rows read: \(answers.rowsRead)")
    }

    /// A query that wants fewer matches than there are stops at them,
    /// certain or checked, in index order.
    @Test func aLimitStopsInIndexOrder() throws {
        let store = try memoryStore()
        try store.index(Self.items)
        let expression = try QueryParser.parse(#"title == "*ppl*"c"#)
        for limit in 1...5 {
            let (identifiers, _) = try store.queryIdentifiers(expression, limit: limit, firstWindow: 1_024)
            #expect(identifiers == Array(["a", "b", "c", "d", "g"].prefix(limit)), "limit \(limit)")
        }
    }

    /// Which columns are plain: the column's own attribute only, in ASCII.
    @Test(arguments: [
        (["title": AttributeValue.string("Apple pie")], UInt8(1)),
        (["title": .string("Apple pie"), "displayName": .string("Pie")], 0),
        (["displayName": .string("Pie")], 0),
        (["title": .string("Crème")], 0),
        (["keywords": .strings(["a", "b"]), "contentDescription": .string("text")], 2 | 4),
        (["keywords": .strings(["a", "ü"])], 0),
        (["keywords": .strings(["a"]), "alternateNames": .strings(["b"])], 0),
        (["title": .string("x"), "textContent": .string("body")], 1),
    ] as [([String: AttributeValue], UInt8)])
    func plainColumnsAreTheColumnsOwnASCIIText(attributes: [String: AttributeValue], plain: UInt8) {
        #expect(DocumentTokens(attributes: attributes, weights: .standard).plainColumns == plain)
    }

    /// A segment keeps each document's plain columns, and a merge carries them.
    @Test func segmentsAndMergesKeepPlainColumns() throws {
        let store = try memoryStore()
        for item in Self.items { try store.index([item]) }
        _ = try store.mergeSegments()
        let expected: [String: UInt8] = ["a": 1, "b": 0, "c": 0, "d": 1, "e": 1 | 4, "f": 1 | 2, "g": 1]
        try store.read { db in
            var seen: [String: UInt8] = [:]
            for snapshot in try store.ranked.snapshot(db) {
                for doc in 0..<snapshot.segment.documentCount where !snapshot.deleted.contains(doc) {
                    seen[try snapshot.segment.identifier(doc)] = snapshot.segment.plainColumns(doc)
                }
            }
            #expect(seen == expected)
        }
    }
}
