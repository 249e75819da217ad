public import Foundation

/// A number stored in an attribute, kept exactly as given: integers stay
/// integers (all 64 bits), doubles stay doubles.
///
/// ```swift
/// let size: AttributeNumber = 18062          // .int(18062)
/// let rating: AttributeNumber = 4.5          // .double(4.5)
/// ```
public enum AttributeNumber: Sendable, Hashable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, CustomStringConvertible {
    case int(Int64)
    case double(Double)

    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }

    /// The value as a `Double`, for comparisons and ranking.
    public var doubleValue: Double {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        }
    }

    public var description: String {
        switch self {
        case .int(let value): String(value)
        case .double(let value): String(value)
        }
    }
}

/// A typed attribute value of a ``SearchableItem``.
///
/// Every type of Apple's `CSSearchableItemAttributeSet` has a case here;
/// values are stored losslessly and returned exactly as given.
///
/// ```swift
/// var item = SearchableItem(uniqueIdentifier: "note-1")
/// item.attributes["title"] = .string("Groceries")
/// item.attributes["keywords"] = .strings(["food", "list"])
/// item.attributes["rankingHint"] = .number(80)
/// item.attributes["dueDate"] = .date(Date(timeIntervalSince1970: 1_800_000_000))
/// ```
public enum AttributeValue: Sendable, Hashable {
    case string(String)
    case strings([String])
    case number(AttributeNumber)
    case numbers([AttributeNumber])
    case date(Date)
    case dates([Date])
    case bool(Bool)
    case url(URL)
    case data(Data)

    /// The kind of this value, as named in errors and in `spotlight show`.
    public var kind: AttributeKind {
        switch self {
        case .string: .string
        case .strings: .strings
        case .number: .number
        case .numbers: .numbers
        case .date: .date
        case .dates: .dates
        case .bool: .bool
        case .url: .url
        case .data: .data
        }
    }

    /// The text of a string or string-array value; nil for every other kind.
    public var texts: [String]? {
        switch self {
        case .string(let value): [value]
        case .strings(let values): values
        default: nil
        }
    }

    /// The dates of a date or date-array value; nil for every other kind.
    public var dates: [Date]? {
        switch self {
        case .date(let value): [value]
        case .dates(let values): values
        default: nil
        }
    }

    /// The first number of a number, number-array or bool value.
    public var doubleValue: Double? {
        switch self {
        case .number(let value): value.doubleValue
        case .numbers(let values): values.first?.doubleValue
        case .bool(let value): value ? 1 : 0
        default: nil
        }
    }
}

/// The type of an ``AttributeValue``.
public enum AttributeKind: String, Sendable, Hashable, CaseIterable {
    case string, strings, number, numbers, date, dates, bool, url, data
}
