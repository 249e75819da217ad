import Foundation
import SpotlightQuery
import Testing
@testable import SpotlightIndex

/// The query language on the engine: the spec's conformance plan, a
/// differential test against the reference evaluator, batches and errors.
@Suite struct QueryEngineTests {
    /// 2025-06-18T15:00:00Z, the spec's §9.1 "now".
    static let now = Date(timeIntervalSince1970: 1_750_258_800)

    static func store(_ items: [SearchableItem]) throws -> SpotlightStore {
        let store = try memoryStore {
            $0.clock = { QueryEngineTests.now }
            $0.timeZone = TimeZone(identifier: "UTC")!
            $0.firstWeekday = 1
        }
        try store.index(items.map { var item = $0; item.expirationDate = .distantFuture; return item })
        return store
    }

    static func date(_ iso: String) -> AttributeValue { .date(ISO8601DateFormatter().date(from: iso)!) }

    /// The spec's §9.2 items A–J.
    static let specItems: [SearchableItem] = [
        SearchableItem(uniqueIdentifier: "A", domainIdentifier: "trips.europe", attributes: [
            "title": .string("Paris"), "contentDescription": .string("City of light"), "keywords": .strings(["travel", "France"]),
            "authorNames": .strings(["Frédéric Chopin"]), "rating": .number(5), "contentCreationDate": date("2025-06-18T09:00:00Z"),
            "completionDate": date("2025-06-10T12:00:00Z")]),
        SearchableItem(uniqueIdentifier: "B", attributes: [
            "title": .string("paris"), "keywords": .strings(["travel"]), "rating": .number(3), "contentCreationDate": date("2025-06-17T20:00:00Z")]),
        SearchableItem(uniqueIdentifier: "C", attributes: [
            "title": .string("I love Paris"), "contentDescription": .string("Notes from my trip"), "authorNames": .strings(["Tim Cook", "Steve Jobs"]),
            "rating": .number(4), "contentCreationDate": date("2025-06-01T10:00:00Z"), "completionDate": date("2025-06-17T08:00:00Z")]),
        SearchableItem(uniqueIdentifier: "D", contentType: "public.jpeg", attributes: [
            "title": .string("paris-france.jpg"), "pixelWidth": .number(4032), "pixelHeight": .number(3024), "latitude": .number(48.8566),
            "contentCreationDate": date("2024-12-31T23:00:00Z")]),
        SearchableItem(uniqueIdentifier: "E", attributes: [
            "title": .string("Comparison"), "textContent": .string("a comparison of two cities"), "rating": .number(2),
            "contentCreationDate": date("2025-05-20T10:00:00Z")]),
        SearchableItem(uniqueIdentifier: "F", attributes: [
            "title": .string("MyWindowClass"), "keywords": .strings(["code"]), "contentCreationDate": date("2025-06-16T10:00:00Z")]),
        SearchableItem(uniqueIdentifier: "G", attributes: [
            "title": .string("Broken Window"), "keywords": .strings(["glass", "Window"]), "rating": .number(1),
            "contentCreationDate": date("2025-06-10T10:00:00Z")]),
        SearchableItem(uniqueIdentifier: "H", attributes: ["title": .string("NSWindow"), "keywords": .strings(["code", "AppKit"])]),
        SearchableItem(uniqueIdentifier: "I", attributes: [
            "title": .string("Café Résumé"), "authorNames": .strings(["Frederic"]), "contentDescription": .string("He said \"hi\" and it's fine"),
            "keywords": .strings(["café"]), "rating": .number(0)]),
        SearchableItem(uniqueIdentifier: "J", attributes: ["title": .string("Q*A? notes"), "textContent": .string("budget for Paris trip")]),
    ]

    /// The §9.4 table: query, then expected ids, "-" or "ERROR" (the repository's copy,
    /// `Spec/query-conformance.tsv`, written by `Scripts/import-spec.py`).
    static let conformance: [(String, String)] = {
        let table = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Spec/query-conformance.tsv")
        guard let text = try? String(contentsOf: table, encoding: .utf8), !text.isEmpty else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0).map { line in
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }()

    @Test func theConformancePlanIsComplete() {
        #expect(Self.conformance.count == 82)
    }

    @Test(arguments: 0..<82)
    func theSpecQueriesGiveTheSpecResultsOnTheEngine(row: Int) throws {
        try #require(Self.conformance.count == 82)
        let (query, expected) = Self.conformance[row]
        let store = try Self.store(Self.specItems)
        if expected == "ERROR" {
            let error = #expect(throws: SpotlightIndexError.self, "\(query)") { try store.items(matching: query) }
            #expect(error?.code == .invalidQuery)
            return
        }
        let ids = try store.items(matching: query).map(\.uniqueIdentifier)
        #expect(ids.joined(separator: ",") == (expected == "-" ? "" : expected), "query: \(query)")
    }

    @Test func anInvalidQuerySaysWhereBeforeAnyBatch() throws {
        let store = try Self.store(Self.specItems)
        var batches = 0
        let error = #expect(throws: SpotlightIndexError.self) { try store.query(#"title == "apple"#) { _ in batches += 1 } }
        #expect(error?.code == .invalidQuery)
        #expect(error?.message.contains("column 10") == true, "\(error?.message ?? "")")
        #expect(batches == 0)
    }

    @Test func resultsStreamInBatchesAndCanBeCancelled() throws {
        let items = (0..<1_000).map { item("i\($0)", title: "item \($0)", ["rating": .number(.int(Int64($0 % 10)))]) }
        let store = try Self.store(items)
        var sizes: [Int] = []
        let all = try store.query("rating >= 5", batchSize: 64) { sizes.append($0.count) }
        #expect(all.matchCount == 500)
        #expect(sizes == Array(repeating: 64, count: 7) + [52])
        #expect(all.candidatesChecked == 500, "the typed index picked exactly the candidates")

        let cancellation = QueryCancellation()
        var delivered = 0
        let cut = try store.query("rating >= 0", batchSize: 100, cancellation: cancellation) { batch in
            delivered += batch.count
            if delivered >= 300 { cancellation.cancel() }
        }
        #expect(cut.wasCancelled)
        #expect(cut.matchCount == 300 && delivered == 300)
        #expect(cut.candidatesChecked == 300, "cancelled from the batch, it stops at once rather than checking another batch")
    }

    @Test func expiredItemsAndUnknownAttributesMatchNothing() throws {
        let store = try memoryStore { $0.clock = { QueryEngineTests.now } }
        try store.index([SearchableItem(uniqueIdentifier: "old", expirationDate: Self.now.addingTimeInterval(-1), attributes: ["title": .string("x")]),
                         item("new", title: "x")])
        #expect(try store.items(matching: #"title == "x""#).map(\.uniqueIdentifier) == ["new"])
        #expect(try store.items(matching: #"noSuchAttribute == "*""#).isEmpty)
        #expect(try store.items(matching: #"noSuchAttribute != "x""#).map(\.uniqueIdentifier) == ["new"])
    }

    /// Candidates are read by statements of power-of-two lengths, the last
    /// rowid repeated: `IN` reads it once, so nothing is returned twice.
    @Test(arguments: [
        ([], []),
        ([5], [5]),
        ([5, 6], [5, 6]),
        ([3, 7, 9], [3, 7, 9, 9]),
        (Array(1...5), [1, 2, 3, 4, 5, 5, 5, 5]),
        (Array(1...33), Array(1...33) + Array(repeating: 33, count: 31)),
        (Array(1...64), Array(1...64)),
    ] as [([Int64], [Int64])])
    func candidateReadsArePadded(rowids: [Int64], padded: [Int64]) {
        #expect(SpotlightStore.padded(rowids[...]) == padded)
    }

    @Test(arguments: [1, 3, 5, 33, 64, 65, 150])
    func everyMatchComesOnceWhateverTheirNumber(count: Int) throws {
        let items = (0..<count).map { item("i\($0)", title: "item \($0)", ["section": .string("libs")]) }
            + (0..<7).map { item("o\($0)", title: "other \($0)", ["section": .string("oldlibs")]) }
        let store = try Self.store(items)
        let found = try store.items(matching: #"section == "libs""#).map(\.uniqueIdentifier)
        #expect(found.count == count)
        #expect(Set(found) == Set((0..<count).map { "i\($0)" }))
    }
}
