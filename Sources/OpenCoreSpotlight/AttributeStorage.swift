import Foundation
import SpotlightIndex
import UniformTypeIdentifiers

/// The values of an attribute set, in the engine's typed form, keyed by
/// property (or custom key) name.
///
/// - `NSNumber` values keep integer or floating-point exactness;
/// - a person attribute (`authors`) holds the people's names and handles
///   as strings, which search and query strings see, and the people
///   themselves, encoded, under `authors.persons`;
/// - `emailHeaders` is stored as encoded data;
/// - setting a property to nil records that it was cleared, which an
///   update (`isUpdate`) turns into removing it from the stored item.
struct AttributeStorage {
    var values: [String: AttributeValue] = [:]
    var persons: [String: [CSPerson]] = [:]
    var cleared: Set<String> = []

    // MARK: Getters

    func string(_ name: String) -> String? {
        if case .string(let value)? = values[name] { return value }
        return nil
    }

    func strings(_ name: String) -> [String]? {
        if case .strings(let value)? = values[name] { return value }
        return nil
    }

    func number(_ name: String) -> NSNumber? {
        switch values[name] {
        case .number(let number)?: return Self.nsNumber(number)
        case .bool(let bool)?: return NSNumber(value: bool)
        default: return nil
        }
    }

    func date(_ name: String) -> Date? {
        if case .date(let value)? = values[name] { return value }
        return nil
    }

    func dates(_ name: String) -> [Date]? {
        if case .dates(let value)? = values[name] { return value }
        return nil
    }

    func url(_ name: String) -> URL? {
        if case .url(let value)? = values[name] { return value }
        return nil
    }

    func data(_ name: String) -> Data? {
        if case .data(let value)? = values[name] { return value }
        return nil
    }

    func persons(_ name: String) -> [CSPerson]? { persons[name] }

    func type(_ name: String) -> UTType? { string(name).flatMap(UTType.init) }

    func headers(_ name: String) -> [String: [Any]]? {
        guard let data = data(name), let decoded = try? JSONDecoder().decode([String: [String]].self, from: data) else { return nil }
        return decoded.mapValues { $0 as [Any] }
    }

    // MARK: Setters

    mutating func set(_ name: String, _ value: AttributeValue?) {
        values[name] = value
        persons[name] = nil
        if value == nil { cleared.insert(name) } else { cleared.remove(name) }
    }

    mutating func setString(_ name: String, _ value: String?) { set(name, value.map(AttributeValue.string)) }
    mutating func setStrings(_ name: String, _ value: [String]?) { set(name, value.map(AttributeValue.strings)) }
    mutating func setNumber(_ name: String, _ value: NSNumber?) { set(name, value.map { .number(Self.attributeNumber($0)) }) }
    mutating func setDate(_ name: String, _ value: Date?) { set(name, value.map(AttributeValue.date)) }
    mutating func setDates(_ name: String, _ value: [Date]?) { set(name, value.map(AttributeValue.dates)) }
    mutating func setUrl(_ name: String, _ value: URL?) { set(name, value.map(AttributeValue.url)) }
    mutating func setData(_ name: String, _ value: Data?) { set(name, value.map(AttributeValue.data)) }
    mutating func setType(_ name: String, _ value: UTType?) { setString(name, value?.identifier) }

    mutating func setPersons(_ name: String, _ value: [CSPerson]?) {
        guard let value else { set(name, nil); return }
        set(name, .strings(value.flatMap { person in (person.displayName.map { [$0] } ?? []) + person.handles }))
        persons[name] = value.map { $0.copy() as! CSPerson }
    }

    mutating func setHeaders(_ name: String, _ value: [String: [Any]]?) {
        guard let value else { set(name, nil); return }
        let strings = value.mapValues { $0.map { "\($0)" } }
        set(name, (try? JSONEncoder().encode(strings)).map(AttributeValue.data))
    }

    // MARK: The engine's form

    /// The attributes as the engine stores them (person companions included).
    var engineAttributes: [String: AttributeValue] {
        var attributes = values
        for (name, people) in persons {
            if let data = try? JSONEncoder().encode(people.map(\.stored)) {
                attributes[name + ".persons"] = .data(data)
            }
        }
        return attributes
    }

    /// Names an update removes: cleared ones, and their person companions.
    var removedNames: Set<String> {
        Set(cleared.flatMap { [$0, $0 + ".persons"] })
    }

    init() {}

    /// Storage for attributes read back from the engine.
    init(engine attributes: [String: AttributeValue]) {
        for (name, value) in attributes {
            if name.hasSuffix(".persons") {
                let base = String(name.dropLast(".persons".count))
                if case .data(let data) = value, let stored = try? JSONDecoder().decode([CSPerson.Stored].self, from: data) {
                    persons[base] = stored.map(CSPerson.init)
                }
            } else {
                values[name] = value
            }
        }
    }

    static func attributeNumber(_ number: NSNumber) -> AttributeNumber {
        let type = String(cString: number.objCType)
        if type == "d" || type == "f" { return .double(number.doubleValue) }
        if type == "Q" || type == "L" || type == "I", number.uint64Value > UInt64(Int64.max) { return .double(number.doubleValue) }
        return .int(number.int64Value)
    }

    static func nsNumber(_ number: AttributeNumber) -> NSNumber {
        switch number {
        case .int(let value): NSNumber(value: value)
        case .double(let value): NSNumber(value: value)
        }
    }
}
