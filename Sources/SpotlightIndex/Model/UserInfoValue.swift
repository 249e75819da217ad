public import Foundation

/// One value of an activity's `userInfo`: the property-list types, plus the
/// URLs and UUIDs Apple's `NSUserActivity` also accepts.
///
/// ```swift
/// let info: [String: UserInfoValue] = ["recipe": .string("r7"), "servings": .int(4),
///                                      "tags": .array([.string("vegan")])]
/// ```
///
/// Its JSON form is a one-key object naming the type — `{"string":"r7"}`,
/// `{"int":4}`, `{"date":1700000000.5}` (seconds since 1970), `{"data":"<base64>"}`,
/// `{"url":"https://…"}`, `{"uuid":"…"}`, `{"array":[…]}`, `{"dictionary":{…}}`
/// — so that a value survives a round trip with its type, through a store
/// or a process boundary.
public indirect enum UserInfoValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case url(URL)
    case uuid(UUID)
    case array([UserInfoValue])
    case dictionary([String: UserInfoValue])

    private enum Key: String, CodingKey, CaseIterable {
        case string, int, double, bool, date, data, url, uuid, array, dictionary
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "a user info value is an object with exactly one of the keys \(Key.allCases.map(\.rawValue).joined(separator: ", "))"))
        }
        switch key {
        case .string: self = .string(try container.decode(String.self, forKey: key))
        case .int: self = .int(try container.decode(Int64.self, forKey: key))
        case .double: self = .double(try container.decode(Double.self, forKey: key))
        case .bool: self = .bool(try container.decode(Bool.self, forKey: key))
        case .date: self = .date(Date(timeIntervalSince1970: try container.decode(Double.self, forKey: key)))
        case .data:
            guard let data = Data(base64Encoded: try container.decode(String.self, forKey: key)) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "data is not base64")
            }
            self = .data(data)
        case .url:
            guard let url = URL(string: try container.decode(String.self, forKey: key)) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a URL")
            }
            self = .url(url)
        case .uuid:
            guard let uuid = UUID(uuidString: try container.decode(String.self, forKey: key)) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a UUID")
            }
            self = .uuid(uuid)
        case .array: self = .array(try container.decode([UserInfoValue].self, forKey: key))
        case .dictionary: self = .dictionary(try container.decode([String: UserInfoValue].self, forKey: key))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .string(let value): try container.encode(value, forKey: .string)
        case .int(let value): try container.encode(value, forKey: .int)
        case .double(let value): try container.encode(value, forKey: .double)
        case .bool(let value): try container.encode(value, forKey: .bool)
        case .date(let value): try container.encode(value.timeIntervalSince1970, forKey: .date)
        case .data(let value): try container.encode(value.base64EncodedString(), forKey: .data)
        case .url(let value): try container.encode(value.absoluteString, forKey: .url)
        case .uuid(let value): try container.encode(value.uuidString, forKey: .uuid)
        case .array(let value): try container.encode(value, forKey: .array)
        case .dictionary(let value): try container.encode(value, forKey: .dictionary)
        }
    }

    public var description: String {
        switch self {
        case .string(let value): "\"\(value)\""
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): String(value)
        case .date(let value): ISO8601DateFormatter().string(from: value)
        case .data(let value): "<\(value.count) bytes>"
        case .url(let value): value.absoluteString
        case .uuid(let value): value.uuidString
        case .array(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(let values):
            "[" + values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
        }
    }
}
