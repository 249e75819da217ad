import Foundation
import SpotlightQuery

/// An item of the conformance item set (spec §9.2).
struct SpecItem: QueryableItem, Sendable, CustomStringConvertible {
    let id: String
    let attributes: [String: [QueryItemValue]]

    /// Attributes `*` leaves out (§9.1).
    static let excludedFromAny: Set<String> = ["uniqueIdentifier", "domainIdentifier", "contentType", "textContent"]

    func values(of attribute: String) -> [QueryItemValue] {
        attributes[attribute] ?? []
    }

    /// Every string / string-array attribute except the excluded ones.
    var defaultSearchableAttributes: [String] {
        attributes.keys.sorted().filter { name in
            !Self.excludedFromAny.contains(name)
                && attributes[name]!.allSatisfy { if case .string = $0 { true } else { false } }
        }
    }

    var contentAttributes: [String] { ["textContent"] }

    var description: String { id }
}

/// Builders for the item tables.
enum Value {
    static func string(_ text: String) -> [QueryItemValue] { [.string(text)] }
    static func strings(_ texts: String...) -> [QueryItemValue] { texts.map(QueryItemValue.string) }
    static func number(_ value: Double) -> [QueryItemValue] { [.number(value)] }
    static func date(_ iso: String) -> [QueryItemValue] { [.date(isoDate(iso))] }
}

/// A date from ISO-8601 text, for tests.
func isoDate(_ text: String) -> Date {
    guard let date = TimeExpression.parseISO8601(text) else { fatalError("bad test date \(text)") }
    return date
}

/// The §9.2 item set, in index order.
let specItems: [SpecItem] = [
    SpecItem(id: "A", attributes: [
        "title": Value.string("Paris"),
        "contentDescription": Value.string("City of light"),
        "keywords": Value.strings("travel", "France"),
        "authorNames": Value.strings("Frédéric Chopin"),
        "rating": Value.number(5),
        "contentCreationDate": Value.date("2025-06-18T09:00Z"),
        "completionDate": Value.date("2025-06-10T12:00Z"),
        "domainIdentifier": Value.string("trips.europe"),
    ]),
    SpecItem(id: "B", attributes: [
        "title": Value.string("paris"),
        "keywords": Value.strings("travel"),
        "rating": Value.number(3),
        "contentCreationDate": Value.date("2025-06-17T20:00Z"),
    ]),
    SpecItem(id: "C", attributes: [
        "title": Value.string("I love Paris"),
        "contentDescription": Value.string("Notes from my trip"),
        "authorNames": Value.strings("Tim Cook", "Steve Jobs"),
        "rating": Value.number(4),
        "contentCreationDate": Value.date("2025-06-01T10:00Z"),
        "completionDate": Value.date("2025-06-17T08:00Z"),
    ]),
    SpecItem(id: "D", attributes: [
        "title": Value.string("paris-france.jpg"),
        "contentType": Value.string("public.jpeg"),
        "pixelWidth": Value.number(4032),
        "pixelHeight": Value.number(3024),
        "latitude": Value.number(48.8566),
        "contentCreationDate": Value.date("2024-12-31T23:00Z"),
    ]),
    SpecItem(id: "E", attributes: [
        "title": Value.string("Comparison"),
        "textContent": Value.string("a comparison of two cities"),
        "rating": Value.number(2),
        "contentCreationDate": Value.date("2025-05-20T10:00Z"),
    ]),
    SpecItem(id: "F", attributes: [
        "title": Value.string("MyWindowClass"),
        "keywords": Value.strings("code"),
        "contentCreationDate": Value.date("2025-06-16T10:00Z"),
    ]),
    SpecItem(id: "G", attributes: [
        "title": Value.string("Broken Window"),
        "keywords": Value.strings("glass", "Window"),
        "rating": Value.number(1),
        "contentCreationDate": Value.date("2025-06-10T10:00Z"),
    ]),
    SpecItem(id: "H", attributes: [
        "title": Value.string("NSWindow"),
        "keywords": Value.strings("code", "AppKit"),
    ]),
    SpecItem(id: "I", attributes: [
        "title": Value.string("Café Résumé"),
        "authorNames": Value.strings("Frederic"),
        "contentDescription": Value.string("He said \"hi\" and it's fine"),
        "keywords": Value.strings("café"),
        "rating": Value.number(0),
    ]),
    SpecItem(id: "J", attributes: [
        "title": Value.string("Q*A? notes"),
        "textContent": Value.string("budget for Paris trip"),
    ]),
]

/// The §9.1 environment: now 2025-06-18T15:00:00Z, UTC, Sunday first.
let specEvaluator = QueryEvaluator(
    now: isoDate("2025-06-18T15:00:00Z"), timeZone: TimeZone(identifier: "UTC")!, firstWeekday: 1)

/// The ids of the spec items a query matches, in index order.
func matchingIDs(_ expression: QueryExpression, evaluator: QueryEvaluator = specEvaluator) -> [String] {
    specItems.filter { evaluator.matches(expression, $0) }.map(\.id)
}
