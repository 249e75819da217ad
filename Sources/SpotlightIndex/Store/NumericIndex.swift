import Foundation

/// The typed values of an item: every number, date and bool of its
/// attributes as (name, value), which the ranked index's segments keep
/// sorted by attribute and value (their "points" sections, see
/// ``SegmentFormat``) for the query language's comparisons and `InRange`.
///
/// Dates are seconds since 2001-01-01 00:00 UTC (the query language's
/// numeric dates), bools 0 and 1.
///
/// ```swift
/// NumericIndex.entries(["rating": .number(.int(4)), "title": .string("Pear")])   // [("rating", 4.0)]
/// ```
enum NumericIndex {
    /// The (name, value) pairs of an item's attributes.
    static func entries(_ attributes: [String: AttributeValue]) -> [(String, Double)] {
        var entries: [(String, Double)] = []
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
}
