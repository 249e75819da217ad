import Foundation
import RankedSearch
import SpotlightQuery
import Synchronization

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
        entries.reserveCapacity(attributes.count + exactItemFields.count)
        func listed(_ name: String, _ text: String) {
            if let entry = exactEntry(name, text) { entries.append(entry) }
        }
        // The item's own fields as the evaluator reads them (``QueryItem``: an
        // attribute of that name when the item has none), read here
        // directly: through a `QueryItem` of a `SearchableItem` made for the
        // purpose, ~1,000 instructions an item.
        func listedAttribute(_ name: String) {
            switch attributes[name] {
            case .string(let text): listed(name, text)
            case .strings(let texts): for text in texts { listed(name, text) }
            case .url(let url): listed(name, url.absoluteString)
            default: break
            }
        }
        if let domain { listed("domainIdentifier", domain) } else { listedAttribute("domainIdentifier") }
        if let contentType {
            entries.append(contentsOf: ContentTypeEntries.shared.entries(of: contentType))
        } else {
            listedAttribute("contentType")
            listedAttribute("contentTypeTree")
        }
        // Then every attribute in one pass: its strings and URLs (as
        // ``QueryItem/values(of:)`` gives them) when listed, its numbers, dates and bools.
        for (name, value) in attributes {
            switch value {
            case .string(let text): if !unlisted.contains(name) { listed(name, text) }
            case .strings(let texts): if !unlisted.contains(name) { for text in texts { listed(name, text) } }
            case .url(let url): if !unlisted.contains(name) { listed(name, url.absoluteString) }
            case .number(let number): entries.append((name, number.doubleValue))
            case .numbers(let numbers): for number in numbers { entries.append((name, number.doubleValue)) }
            case .date(let date): entries.append((name, date.timeIntervalSinceReferenceDate))
            case .dates(let dates): for date in dates { entries.append((name, date.timeIntervalSinceReferenceDate)) }
            case .bool(let bool): entries.append((name, bool ? 1 : 0))
            case .data: break
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
        exactItemFields.contains(name) || !unlisted.contains(name)
    }

    /// Attributes whose strings are not listed as attributes: the text
    /// columns' and content's, and the item's own fields (the ones listed
    /// are read from the item). One set lookup per attribute of every item
    /// indexed, where the checks one by one were ~5% of indexing's CPU.
    private static let unlisted = NameLookup(Set(TextColumns.namedColumnAttributes).union(QueryItem.contentNames).union(QueryPlanner.itemFields).sorted())

    /// The item's own fields the exact-value index lists (the unique
    /// identifier has its own lookup, by hash: see `QueryPlanner`).
    static let exactItemFields = ["domainIdentifier", "contentType", "contentTypeTree"]

    /// The entry of a short string value of attribute `name`: its reserved
    /// name (``/RankedSearch/ExactValues``) and 0; nil for a value the
    /// exact-value index does not keep.
    static func exactEntry(_ name: String, _ text: String) -> (String, Double)? {
        ExactValues.name(attribute: name, value: text).map { ($0, 0) }
    }
}

/// The exact-value entries of a content type (`contentType` and each type
/// of its conformance tree), made once per type: every item of an app
/// repeats a few types, and making them for each item was three heap
/// allocations an item (its tree and two names longer than a small
/// string), besides the walk of the tree.
///
/// ```swift
/// ContentTypeEntries.shared.entries(of: "public.item")
/// // [("\u{1}contentType\u{0}public.item", 0), ("\u{1}contentTypeTree\u{0}public.item", 0)]
/// ```
final class ContentTypeEntries: Sendable {
    static let shared = ContentTypeEntries()
    /// Types kept at most: past them (an app inventing types), entries are made each time.
    static let limit = 256
    private let known = Mutex<[String: [(String, Double)]]>([:])

    func entries(of contentType: String) -> [(String, Double)] {
        if let entries = known.withLock({ $0[contentType] }) { return entries }
        var entries: [(String, Double)] = []
        if let entry = NumericIndex.exactEntry("contentType", contentType) { entries.append(entry) }
        for type in ContentType(contentType).conformanceTree {
            if let entry = NumericIndex.exactEntry("contentTypeTree", type) { entries.append(entry) }
        }
        known.withLock { known in
            if known.count < Self.limit { known[contentType] = entries }
        }
        return entries
    }
}
