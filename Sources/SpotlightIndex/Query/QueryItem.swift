import Foundation
import SpotlightQuery

/// An item as the query language's evaluator sees it.
///
/// - `uniqueIdentifier`, `domainIdentifier`, `contentType` and
///   `contentTypeTree` come from the item itself (an attribute of the same
///   name is used when the item has none);
/// - strings and URLs are strings, numbers and bools numbers (0/1), dates
///   dates; data values are not comparable;
/// - `*` ranges over the text attributes the full-text index holds, except
///   content text; `**` adds `textContent` and `transcribedTextContent`.
///   That is what lets the engine take `*` candidates from the index.
struct QueryItem: QueryableItem {
    let item: SearchableItem

    static let contentNames: Set<String> = ["textContent", "transcribedTextContent"]

    func values(of attribute: String) -> [QueryItemValue] {
        switch attribute {
        case "uniqueIdentifier":
            return [.string(item.uniqueIdentifier)]
        case "domainIdentifier":
            if let domain = item.domainIdentifier { return [.string(domain)] }
        case "contentType":
            if let type = item.contentType { return [.string(type)] }
        case "contentTypeTree":
            if item.contentType != nil { return item.contentTypeTree.map { .string($0) } }
        default:
            break
        }
        guard let value = item.attributes[attribute] else { return [] }
        switch value {
        case .string(let text): return [.string(text)]
        case .strings(let texts): return texts.map { .string($0) }
        case .number(let number): return [.number(number.doubleValue)]
        case .numbers(let numbers): return numbers.map { .number($0.doubleValue) }
        case .date(let date): return [.date(date)]
        case .dates(let dates): return dates.map { .date($0) }
        case .bool(let bool): return [.number(bool ? 1 : 0)]
        case .url(let url): return [.string(url.absoluteString)]
        case .data: return []
        }
    }

    var defaultSearchableAttributes: [String] {
        item.attributes.keys.filter { name in
            FullTextIndex.isSearched(name) && !Self.contentNames.contains(name) && item.attributes[name]!.isText
        }.sorted()
    }

    var contentAttributes: [String] {
        item.attributes.keys.filter { Self.contentNames.contains($0) && item.attributes[$0]!.isText }.sorted()
    }
}

extension AttributeValue {
    /// Strings, string arrays and URLs: what the full-text index holds.
    var isText: Bool {
        switch self {
        case .string, .strings, .url: true
        default: false
        }
    }
}
