public import Foundation
import SpotlightIndex
public import UniformTypeIdentifiers

/// The searchable and displayable metadata of an item, as Apple's
/// `CSSearchableItemAttributeSet`: all 190 of Apple's properties
/// (`CSSearchableItemAttributeSet+Properties.swift`), typed as Swift
/// imports them, plus custom attributes.
///
/// ```swift
/// let attributes = CSSearchableItemAttributeSet(contentType: .text)
/// attributes.title = "Paris"
/// attributes.contentDescription = "City of light"
/// attributes.keywords = ["travel", "France"]
/// attributes.rankingHint = 80
/// let item = CSSearchableItem(uniqueIdentifier: "trip-1", domainIdentifier: "trips", attributeSet: attributes)
/// ```
///
/// Setting a property to nil removes it; on an item indexed with
/// `isUpdate`, that removes it from the stored item too.
open class CSSearchableItemAttributeSet: NSObject, NSCopying, @unchecked Sendable {
    var storage = AttributeStorage()

    /// An attribute set for items of a type; sets `contentType` and `contentTypeTree`.
    public init(contentType: UTType) {
        super.init()
        setContentType(contentType.identifier)
    }

    /// An attribute set for items of a type given by identifier (Apple deprecated it in iOS 14).
    @available(*, deprecated, renamed: "init(contentType:)")
    public convenience init(itemContentType: String) {
        self.init(storage: AttributeStorage())
        setContentType(itemContentType)
    }

    /// An empty attribute set (for results that fetch no attributes).
    public override init() {
        super.init()
    }

    init(storage: AttributeStorage) {
        self.storage = storage
        super.init()
    }

    private func setContentType(_ identifier: String) {
        storage.setString("contentType", identifier)
        storage.setStrings("contentTypeTree", UTType.conformanceTree(of: identifier))
        storage.cleared.removeAll()
    }

    /// Stores an app-defined attribute: `NSString`, `NSNumber`, `NSDate`,
    /// `NSData`, `NSURL`, `CSPerson`, or an array of one of these; nil or
    /// `NSNull` removes it.
    ///
    /// ```swift
    /// attributes.setValue(NSNumber(value: 4), forCustomKey: CSCustomAttributeKey(keyName: "stars")!)
    /// ```
    open func setValue(_ value: (any NSSecureCoding)?, forCustomKey key: CSCustomAttributeKey) {
        let name = key.keyName
        switch value {
        case nil, is NSNull: storage.set(name, nil)
        case let person as CSPerson: storage.setPersons(name, [person])
        case let array as NSArray:
            let elements = array.map { $0 as Any }
            if let people = elements as? [CSPerson] { storage.setPersons(name, people) }
            else if let texts = elements.map({ Self.text($0) }) as? [String] { storage.set(name, .strings(texts)) }
            else if let numbers = elements as? [NSNumber] { storage.set(name, .numbers(numbers.map(AttributeStorage.attributeNumber))) }
            else if let dates = elements.map({ ($0 as? NSDate).map { $0 as Date } ?? ($0 as? Date) }) as? [Date] { storage.set(name, .dates(dates)) }
            else { storage.set(name, .strings(elements.map { "\($0)" })) }
        case let number as NSNumber: storage.setNumber(name, number)
        case let date as NSDate: storage.setDate(name, date as Date)
        case let data as NSData: storage.setData(name, data as Data)
        case let url as NSURL: storage.setUrl(name, url as URL)
        case let value?: storage.setString(name, Self.text(value) ?? "\(value)")
        }
    }

    private static func text(_ value: Any) -> String? {
        if let string = value as? String { return string }
        if let string = value as? NSString { return string as String }
        return nil
    }

    /// The value stored for an app-defined attribute, or nil.
    open func value(forCustomKey key: CSCustomAttributeKey) -> (any NSSecureCoding)? {
        let name = key.keyName
        if let people = storage.persons[name] {
            return key.isMultiValued || people.count != 1 ? NSArray(array: people) : people[0] as? any NSSecureCoding
        }
        switch storage.values[name] {
        case .string(let text)?: return NSString(string: text)
        case .strings(let texts)?: return NSArray(array: texts.map { NSString(string: $0) })
        case .number(let number)?: return AttributeStorage.nsNumber(number)
        case .numbers(let numbers)?: return NSArray(array: numbers.map(AttributeStorage.nsNumber))
        case .date(let date)?: return NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        case .dates(let dates)?: return NSArray(array: dates.map { NSDate(timeIntervalSinceReferenceDate: $0.timeIntervalSinceReferenceDate) })
        case .bool(let bool)?: return NSNumber(value: bool)
        case .url(let url)?: return NSURL(string: url.absoluteString)
        case .data(let data)?: return NSData(data: data)
        case nil: return nil
        }
    }

    /// Moves every attribute the other set has into this one (replacing
    /// this one's values of the same names) and leaves the other set empty:
    /// Apple's way to hand over large text without copying it twice.
    ///
    /// ```swift
    /// attributes.moveFrom(bodyAttributes)   // bodyAttributes is empty afterwards
    /// ```
    open func moveFrom(_ sourceAttributeSet: CSSearchableItemAttributeSet) {
        guard sourceAttributeSet !== self else { return }
        storage.values.merge(sourceAttributeSet.storage.values) { _, moved in moved }
        storage.persons.merge(sourceAttributeSet.storage.persons) { _, moved in moved }
        storage.cleared.subtract(sourceAttributeSet.storage.values.keys)
        sourceAttributeSet.storage = AttributeStorage()
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = CSSearchableItemAttributeSet(storage: storage)
        copy.storage.persons = storage.persons.mapValues { $0.map { $0.copy() as! CSPerson } }
        return copy
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CSSearchableItemAttributeSet else { return false }
        return storage.engineAttributes == other.storage.engineAttributes
    }

    open override var hash: Int { storage.values.count }

    open override var description: String {
        let names = storage.values.keys.sorted().joined(separator: ", ")
        return "CSSearchableItemAttributeSet(\(names))"
    }
}

extension CSSearchableItemAttributeSet {
    /// Other names of the properties in query strings, to the name an
    /// attribute is stored under: the Objective-C spelling where it differs
    /// (`URL` → `url`, `GPSDifferental` → `gpsDifferental`) and the Spotlight
    /// `kMDItem` spelling (`kMDItemTitle` → `title`, `kMDItemDescription` →
    /// `contentDescription`), as Apple's `CSSearchQuery` accepts them.
    static let queryAliases: [String: String] = {
        var aliases = ["kMDItemDescription": "contentDescription"]
        for (objectiveC, swift) in propertyNames {
            if objectiveC != swift { aliases[objectiveC] = swift }
            let spotlight = "kMDItem" + objectiveC.prefix(1).uppercased() + objectiveC.dropFirst()
            if aliases[spotlight] == nil { aliases[spotlight] = swift }
        }
        return aliases
    }()
}
