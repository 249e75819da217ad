import Foundation
import SpotlightQuery

/// The typed values of an item: every number, date and bool of its
/// attributes as (name, value), which the ranked index's segments keep
/// sorted by attribute and value (their "points" sections, see
/// ``SegmentFormat``) for the query language's comparisons and `InRange`.
///
/// Dates are seconds since 2001-01-01 00:00 UTC (the query language's
/// numeric dates), bools 0 and 1. Short strings of the attributes
/// ``hasExactValues(_:)`` names are there too, as the exact-value index
/// (``/RankedSearch/ExactValues``) keeps them: a reserved name per value, 0.
///
/// ```swift
/// NumericIndex.entries(["rating": .number(.int(4)), "title": .string("Pear")])   // [("rating", 4.0)]
/// NumericIndex.entries(["section": .string("libs")])                           // [("\u{1}section\u{0}libs", 0.0)]
/// ```
enum NumericIndex {
    /// The (name, value) pairs of an item's attributes, and the exact
    /// values of its own fields (`domainIdentifier`, `contentType`,
    /// `contentTypeTree`) as the query language sees them (``QueryItem``).
    static func entries(_ attributes: [String: AttributeValue], domain: String? = nil, contentType: String? = nil) -> [(String, Double)] {
        var entries: [(String, Double)] = []
        // Strings as the evaluator reads them: an item field's from the item, an attribute's its strings and URLs.
        let item = QueryItem(item: SearchableItem(uniqueIdentifier: "", domainIdentifier: domain, contentType: contentType, attributes: attributes))
        for name in exactItemFields + attributes.keys.filter({ hasExactValues($0) && !exactItemFields.contains($0) }) {
            for case .string(let text) in item.values(of: name) {
                if let reserved = ExactValues.name(attribute: name, value: text) { entries.append((reserved, 0)) }
            }
        }
        for (name, value) in attributes {
            switch value {
            case .number(let number): entries.append((name, number.doubleValue))
            case .numbers(let numbers): entries += numbers.map { (name, $0.doubleValue) }
            case .date(let date): entries.append((name, date.timeIntervalSinceReferenceDate))
            case .dates(let dates): entries += dates.map { (name, $0.timeIntervalSinceReferenceDate) }
            case .bool(let bool): entries.append((name, bool ? 1 : 0))
            default: break
            }
        }
        return entries
    }

    /// Whether the exact-value index lists an attribute's short strings:
    /// every attribute but the words of the title, keywords and description
    /// columns and the content text (free text, which the word index
    /// serves); for the item's own fields, the values the query language
    /// reads (the item's, or an attribute of that name when it has none:
    /// ``QueryItem``), but the unique identifier's.
    static func hasExactValues(_ name: String) -> Bool {
        exactItemFields.contains(name)
            || TextColumns.bit(of: name) == 8 && !QueryItem.contentNames.contains(name) && !QueryPlanner.itemFields.contains(name)
    }

    /// The item's own fields the exact-value index lists (the unique
    /// identifier has its own lookup, by hash: see `QueryPlanner`).
    static let exactItemFields = ["domainIdentifier", "contentType", "contentTypeTree"]
}
