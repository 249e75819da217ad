import Foundation
import GRDB

/// The typed attribute index: every number, date and bool value of every
/// item as a row `(name, value, item)` of the `attr_numbers` table, whose
/// primary key makes comparisons and `InRange` on an attribute a range scan.
///
/// Dates are stored as seconds since 2001-01-01 00:00 UTC (the query
/// language's numeric dates), bools as 0 and 1. Like the full-text rows,
/// an item's rows are removed by replaying its attributes.
enum NumericIndex {
    static let insertSQL = "INSERT OR IGNORE INTO attr_numbers(name, value, item) VALUES (?, ?, ?)"

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

    static func insert(_ db: Database, item: Int64, _ entries: [(String, Double)]) throws {
        guard !entries.isEmpty else { return }
        let statement = try db.cachedStatement(sql: insertSQL)
        for (name, value) in entries {
            statement.setUncheckedArguments([name, value, item])
            try statement.execute()
        }
    }

    static func remove(_ db: Database, item: Int64, _ attributes: [String: AttributeValue]) throws {
        let entries = self.entries(attributes)
        guard !entries.isEmpty else { return }
        let statement = try db.cachedStatement(sql: "DELETE FROM attr_numbers WHERE name = ? AND value = ? AND item = ?")
        for (name, value) in entries {
            statement.setUncheckedArguments([name, value, item])
            try statement.execute()
        }
    }

    /// Derives the whole table again from the stored attributes.
    static func rebuild(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM attr_numbers")
        let rows = try Row.fetchCursor(db, sql: "SELECT rowid, attributes FROM item_attributes")
        while let row = try rows.next() {
            let data: Data = row["attributes"]
            let attributes = try AttributeCodec.decode(try BlobCompression.unpack(Array(data)))
            try insert(db, item: row["rowid"], entries(attributes))
        }
    }
}
