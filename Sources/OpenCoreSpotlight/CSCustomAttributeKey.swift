public import Foundation

/// An app-defined attribute, as Apple's `CSCustomAttributeKey`.
///
/// ```swift
/// let key = CSCustomAttributeKey(keyName: "recipeCuisine")!
/// attributes.setValue("Thai" as NSString, forCustomKey: key)
/// let query = CSSearchQuery(queryString: #"recipeCuisine == "thai"c"#, queryContext: nil)
/// ```
///
/// Key names are ASCII letters, digits and `_`, and must not start with
/// `kMD` (reserved); the initializer fails otherwise, as Apple's does.
open class CSCustomAttributeKey: NSObject, NSCopying, @unchecked Sendable {
    /// The attribute's name in the store and in query strings.
    public let keyName: String
    /// Whether query strings can use the attribute.
    public let isSearchable: Bool
    /// Whether free-text search also matches it.
    public let isSearchableByDefault: Bool
    /// A hint that values are often unique.
    public let isUnique: Bool
    /// Whether values are arrays.
    public let isMultiValued: Bool

    /// A key with Apple's defaults: searchable, not searchable by default, not unique, single-valued.
    public convenience init?(keyName: String) {
        self.init(keyName: keyName, searchable: true, searchableByDefault: false, unique: false, multiValued: false)
    }

    public init?(keyName: String, searchable: Bool, searchableByDefault: Bool, unique: Bool, multiValued: Bool) {
        guard Self.isValid(keyName) else { return nil }
        self.keyName = keyName
        self.isSearchable = searchable
        self.isSearchableByDefault = searchableByDefault
        self.isUnique = unique
        self.isMultiValued = multiValued
    }

    static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255 && !name.hasPrefix("kMD")
            && name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F }
            && CSSearchableItemAttributeSet.propertyNames.allSatisfy { $0.swift != name && $0.objectiveC != name }
    }

    open func copy(with zone: NSZone? = nil) -> Any { self }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CSCustomAttributeKey else { return false }
        return keyName == other.keyName && isSearchable == other.isSearchable
            && isSearchableByDefault == other.isSearchableByDefault && isUnique == other.isUnique
            && isMultiValued == other.isMultiValued
    }

    open override var hash: Int { keyName.hashValue }
}
