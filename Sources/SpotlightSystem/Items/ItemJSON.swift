import Foundation
public import SpotlightIndex

/// Items as JSON Lines, the form of `spotlight import` and `spotlight export`:
/// one object per line, exact in both directions (exporting what was imported
/// gives the same text, for lines in the canonical form export writes).
///
/// ```json
/// {"attributes":{"keywords":["fruit","pomme"],"price":{"double":2.4},"rankingHint":90,"title":"Apple"},"contentType":"public.item","domainIdentifier":"produce","uniqueIdentifier":"p-apple"}
/// ```
///
/// Attribute values: a string; an array of strings; an integer; `true` or
/// `false`; and, tagged with a one-key object, `{"double": 2.4}`,
/// `{"numbers": [1, {"double": 2.5}]}`, `{"date": 7.3e8}` and
/// `{"dates": [...]}` (seconds since 2001-01-01T00:00:00Z, Apple's reference
/// date; an ISO 8601 string is accepted on import), `{"url": "https://…"}`,
/// `{"data": "<base64>"}`, `{"strings": []}` for an empty list. A plain
/// number with a fraction or exponent is read as a double. `expirationDate`
/// is a date in the same form; keys are written sorted.
public enum ItemJSON {
    /// One item as one line of canonical JSON (no newline).
    public static func line(_ item: SearchableItem) -> String {
        var object: [String: JSONValue] = ["uniqueIdentifier": .string(item.uniqueIdentifier)]
        if let domain = item.domainIdentifier { object["domainIdentifier"] = .string(domain) }
        if let type = item.contentType { object["contentType"] = .string(type) }
        if let date = item.expirationDate { object["expirationDate"] = .number(date.timeIntervalSinceReferenceDate) }
        object["attributes"] = .object(item.attributes.mapValues(value))
        return JSONValue.object(object).text
    }

    /// An item from one line.
    /// - Throws: ``SystemSearchError`` `.invalidRegistration`-free: a plain
    ///   `ItemJSON.LineError` saying what is wrong, with the attribute's name.
    public static func item(from line: Substring) throws -> SearchableItem {
        let value: JSONValue
        do { value = try JSONValue.parse(line) } catch { throw LineError("not JSON: \(error)") }
        guard case .object(let object) = value else { throw LineError("a line must be a JSON object") }
        guard case .string(let id)? = object["uniqueIdentifier"] else { throw LineError("\"uniqueIdentifier\" is missing or not a string") }
        for key in object.keys where !["uniqueIdentifier", "domainIdentifier", "contentType", "expirationDate", "attributes"].contains(key) {
            throw LineError("unknown key \"\(key)\"")
        }
        var item = SearchableItem(uniqueIdentifier: id)
        switch object["domainIdentifier"] {
        case .string(let domain)?: item.domainIdentifier = domain
        case nil, .null?: break
        default: throw LineError("\"domainIdentifier\" must be a string")
        }
        switch object["contentType"] {
        case .string(let type)?: item.contentType = type
        case nil, .null?: break
        default: throw LineError("\"contentType\" must be a string")
        }
        if let expiration = object["expirationDate"], expiration != .null {
            item.expirationDate = try date(expiration, "expirationDate")
        }
        switch object["attributes"] {
        case .object(let attributes)?:
            for (name, value) in attributes { item.attributes[name] = try attribute(value, name) }
        case nil: break
        default: throw LineError("\"attributes\" must be an object")
        }
        return item
    }

    /// What is wrong with a line.
    public struct LineError: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: - Values

    static func value(_ value: AttributeValue) -> JSONValue {
        func number(_ number: AttributeNumber) -> JSONValue {
            switch number {
            case .int(let int): .integer(int)
            case .double(let double): .object(["double": .number(double)])
            }
        }
        switch value {
        case .string(let text): return .string(text)
        case .strings(let texts): return texts.isEmpty ? .object(["strings": .array([])]) : .array(texts.map(JSONValue.string))
        case .number(let value): return number(value)
        case .numbers(let values): return .object(["numbers": .array(values.map(number))])
        case .date(let date): return .object(["date": .number(date.timeIntervalSinceReferenceDate)])
        case .dates(let dates): return .object(["dates": .array(dates.map { .number($0.timeIntervalSinceReferenceDate) })])
        case .bool(let flag): return .bool(flag)
        case .url(let url): return .object(["url": .string(url.absoluteString)])
        case .data(let data): return .object(["data": .string(data.base64EncodedString())])
        }
    }

    static func attribute(_ value: JSONValue, _ name: String) throws -> AttributeValue {
        func number(_ value: JSONValue) throws -> AttributeNumber {
            switch value {
            case .integer(let int): return .int(int)
            case .number(let double): return .double(double)
            case .object(let tagged) where tagged.count == 1:
                if case .number(let double)? = tagged["double"] { return .double(double) }
                if case .integer(let int)? = tagged["double"] { return .double(Double(int)) }
            default: break
            }
            throw LineError("attribute \(name): \(value.text) is not a number")
        }
        switch value {
        case .string(let text): return .string(text)
        case .integer, .number: return .number(try number(value))
        case .bool(let flag): return .bool(flag)
        case .array(let elements):
            return .strings(try elements.map {
                guard case .string(let text) = $0 else { throw LineError("attribute \(name): a plain array holds strings only; tag numbers and dates ({\"numbers\": [...]})") }
                return text
            })
        case .object(let tagged):
            guard tagged.count == 1, let (tag, inner) = tagged.first else {
                throw LineError("attribute \(name): a tagged value is an object with one key (double, numbers, date, dates, url, data, strings)")
            }
            switch (tag, inner) {
            case ("double", _): return .number(try number(value))
            case ("numbers", .array(let elements)): return .numbers(try elements.map(number))
            case ("date", _): return .date(try date(inner, name))
            case ("dates", .array(let elements)): return .dates(try elements.map { try date($0, name) })
            case ("url", .string(let text)):
                guard let url = URL(string: text) else { throw LineError("attribute \(name): \(text) is not a URL") }
                return .url(url)
            case ("data", .string(let text)):
                guard let data = Data(base64Encoded: text) else { throw LineError("attribute \(name): data is not base64") }
                return .data(data)
            case ("strings", .array(let elements)): return try attribute(.array(elements), name)
            default: throw LineError("attribute \(name): {\"\(tag)\": …} is not a known tagged value")
            }
        case .null: throw LineError("attribute \(name) is null; leave it out instead")
        }
    }

    static func date(_ value: JSONValue, _ name: String) throws -> Date {
        switch value {
        case .number(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
        case .integer(let seconds): return Date(timeIntervalSinceReferenceDate: Double(seconds))
        case .string(let text):
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            if let date = formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text) { return date }
            throw LineError("\(name): \(text) is not an ISO 8601 date")
        default: throw LineError("\(name) must be a date: seconds since 2001 or an ISO 8601 string")
        }
    }
}
