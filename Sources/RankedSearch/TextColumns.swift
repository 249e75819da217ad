/// The ranked index's four text columns (title, keywords, description,
/// other) and which attributes go to which: postings record a token's
/// columns as bits, so a query can ask for one attribute's column.
///
/// ```swift
/// TextColumns.column(of: "displayName")   // 0: the title column
/// TextColumns.bit(of: "keywords")         // 2
/// TextColumns.column(of: "contentType")   // nil: not searched
/// ```
package enum TextColumns {
    /// The column an attribute's tokens go to, as a bit (title 1,
    /// keywords 2, description 4, other 8): what the ranked index's
    /// postings record, so that a query can ask for one attribute's column.
    package static func bit(of name: String) -> UInt8 {
        switch name {
        case "title", "displayName": 1
        case "keywords", "alternateNames": 2
        case "contentDescription": 4
        default: 8
        }
    }

    /// Each named column's own attribute (title, keywords, description):
    /// a column holding only its text, in ASCII, is plain
    /// (``DocumentTokens/plainColumns``), so a query on that attribute can
    /// trust the column's tokens.
    package static let primaryAttributes = ["title", "keywords", "contentDescription"]

    /// Whether `name` is the own attribute of `column` (0 title, 1 keywords, 2 description).
    package static func isPrimary(_ name: String, column: Int) -> Bool {
        column < primaryAttributes.count && primaryAttributes[column] == name
    }

    /// The attributes ``bit(of:)`` puts in a column of their own (not the last, 8).
    package static let namedColumnAttributes = ["title", "displayName", "keywords", "alternateNames", "contentDescription"]

    /// Every column's bit.
    package static let allColumns: UInt8 = 0xF

    /// The column of a searched attribute (0 title, 1 keywords, 2
    /// description, 3 other), nil for one that is not searched.
    package static func column(of name: String) -> Int? {
        guard let id = outsideLastColumn.names.id(of: name) else { return 3 }
        return outsideLastColumn.columns[id]
    }

    /// The attributes outside the last column, looked up by bytes (every
    /// item's every attribute), and each one's column (nil: not searched):
    /// those of a column of their own, then the unsearched.
    private static let outsideLastColumn: (names: NameLookup, columns: [Int?]) = {
        let unsearchedNames = unsearched.sorted()
        return (NameLookup(namedColumnAttributes + unsearchedNames),
                namedColumnAttributes.map { Int(bit(of: $0).trailingZeroBitCount) } + unsearchedNames.map { _ in nil })
    }()

    /// Attributes that hold identifiers, types or paths rather than words.
    package static let unsearched: Set<String> = [
        "contentType", "contentTypeTree", "relatedUniqueIdentifier", "weakRelatedUniqueIdentifier",
        "domainIdentifier", "containerIdentifier", "accountIdentifier", "actionIdentifiers",
        "providerDataTypeIdentifiers", "providerFileTypeIdentifiers", "providerInPlaceFileTypeIdentifiers",
        "mailboxIdentifiers", "sharedItemContentType", "path",
    ]
}
