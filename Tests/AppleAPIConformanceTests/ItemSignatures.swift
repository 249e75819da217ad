// §5–§7 of the spec: CSSearchableItem, the attribute set's initializers and
// methods, and the value types (CSPerson, CSLocalizedString, CSCustomAttributeKey).
#if canImport(CoreSpotlight)
import CoreSpotlight
#else
import OpenCoreSpotlight
#endif
import Foundation
import Testing
import UniformTypeIdentifiers

extension AppleAPIConformance {
    /// §5: CSSearchableItem.
    @Test func searchableItem() {
        let _: (String?, String?, CSSearchableItemAttributeSet) -> CSSearchableItem =
            CSSearchableItem.init(uniqueIdentifier:domainIdentifier:attributeSet:)
        let _: ReferenceWritableKeyPath<CSSearchableItem, String> = \.uniqueIdentifier
        let _: ReferenceWritableKeyPath<CSSearchableItem, String?> = \.domainIdentifier
        let _: ReferenceWritableKeyPath<CSSearchableItem, CSSearchableItemAttributeSet> = \.attributeSet
        let _: ReferenceWritableKeyPath<CSSearchableItem, Date?> = \.expirationDate
        let _: ReferenceWritableKeyPath<CSSearchableItem, Bool> = \.isUpdate
        let _: ReferenceWritableKeyPath<CSSearchableItem, CSSearchableItem.UpdateListenerOptions> = \.updateListenerOptions
        let _: (CSSearchableItem) -> (CSSearchableItem) -> ComparisonResult = CSSearchableItem.compare(byRank:)

        let item = CSSearchableItem(uniqueIdentifier: nil, domainIdentifier: nil, attributeSet: CSSearchableItemAttributeSet(contentType: .text))
        // `Date!`: usable as a Date without unwrapping, and reset by nil.
        let expires: Date = item.expirationDate
        item.expirationDate = nil
        #expect(item.expirationDate == expires)
        #expect(UUID(uuidString: item.uniqueIdentifier) != nil, "a nil identifier is a new UUID")
        #expect(CSSearchableItem.UpdateListenerOptions.summarization.rawValue == 1 << 1)
        #expect(CSSearchableItem.UpdateListenerOptions.priority.rawValue == 1 << 2)
        #expect((item.copy() as? CSSearchableItem)?.uniqueIdentifier == item.uniqueIdentifier)
    }

    /// §6: the attribute set's initializers and methods.
    @Test func attributeSetMethods() {
        let _: (UTType) -> CSSearchableItemAttributeSet = CSSearchableItemAttributeSet.init(contentType:)
        let _: (CSSearchableItemAttributeSet) -> ((any NSSecureCoding)?, CSCustomAttributeKey) -> Void =
            CSSearchableItemAttributeSet.setValue(_:forCustomKey:)
        let _: (CSSearchableItemAttributeSet) -> (CSCustomAttributeKey) -> (any NSSecureCoding)? =
            CSSearchableItemAttributeSet.value(forCustomKey:)
        let _: (CSSearchableItemAttributeSet) -> (CSSearchableItemAttributeSet) -> Void = CSSearchableItemAttributeSet.moveFrom(_:)

        let attributes = CSSearchableItemAttributeSet(contentType: .plainText)
        #expect(attributes.contentType == UTType.plainText.identifier)
        let key = CSCustomAttributeKey(keyName: "price")!
        attributes.setValue(NSNumber(value: 3), forCustomKey: key)
        #expect((attributes.value(forCustomKey: key) as? NSNumber)?.intValue == 3)
    }

    /// §7: CSPerson, CSLocalizedString, CSCustomAttributeKey.
    @Test func valueTypes() {
        let _: (String?, [String], String) -> CSPerson = CSPerson.init(displayName:handles:handleIdentifier:)
        let _: KeyPath<CSPerson, String?> = \.displayName
        let _: KeyPath<CSPerson, [String]> = \.handles
        let _: KeyPath<CSPerson, String> = \.handleIdentifier
        let _: ReferenceWritableKeyPath<CSPerson, String?> = \.contactIdentifier

        let _: ([AnyHashable: Any]) -> CSLocalizedString = CSLocalizedString.init(localizedStrings:)
        let _: (CSLocalizedString) -> () -> String = CSLocalizedString.localizedString

        let _: (String) -> CSCustomAttributeKey? = CSCustomAttributeKey.init(keyName:)
        let _: (String, Bool, Bool, Bool, Bool) -> CSCustomAttributeKey? =
            CSCustomAttributeKey.init(keyName:searchable:searchableByDefault:unique:multiValued:)
        let _: KeyPath<CSCustomAttributeKey, String> = \.keyName
        let _: KeyPath<CSCustomAttributeKey, Bool> = \.isSearchable
        let _: KeyPath<CSCustomAttributeKey, Bool> = \.isSearchableByDefault
        let _: KeyPath<CSCustomAttributeKey, Bool> = \.isUnique
        let _: KeyPath<CSCustomAttributeKey, Bool> = \.isMultiValued

        // The one-argument initializer's defaults, as the spec gives them.
        let key = CSCustomAttributeKey(keyName: "price")!
        #expect(key.isSearchable && !key.isSearchableByDefault && !key.isUnique && !key.isMultiValued)
        #expect(CSCustomAttributeKey(keyName: "kMDItemTitle") == nil, "kMD names are reserved")
        #expect(CSCustomAttributeKey(keyName: "two words") == nil)
        let person = CSPerson(displayName: "Zoë", handles: ["zoe@example.com"], handleIdentifier: "emailAddresses")
        person.contactIdentifier = "c1"
        #expect(person.contactIdentifier == "c1")
        #expect(CSLocalizedString(localizedStrings: ["en": "Hello"]).localizedString() == "Hello")
    }
}
