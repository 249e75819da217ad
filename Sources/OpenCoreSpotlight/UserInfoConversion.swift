import Foundation
import SpotlightIndex

/// `NSUserActivity.userInfo` (`[AnyHashable: Any]`) to and from the engine's
/// typed ``UserInfoValue``: property-list types, URLs and UUIDs, with
/// string keys, as Apple accepts.
enum UserInfoConversion {
    struct Unsupported: Error, CustomStringConvertible {
        var path: String
        var typeName: String
        var description: String {
            "userInfo\(path) holds a \(typeName); only strings, numbers, booleans, dates, data, URLs, UUIDs, arrays and dictionaries with string keys can be saved"
        }
    }

    static func values(_ dictionary: [AnyHashable: Any]) throws -> [String: UserInfoValue] {
        var out: [String: UserInfoValue] = [:]
        for (key, value) in dictionary {
            guard let name = key.base as? String else {
                throw Unsupported(path: "[\(key)]", typeName: "key of type \(type(of: key.base))")
            }
            out[name] = try self.value(value, path: "[\"\(name)\"]")
        }
        return out
    }

    static func value(_ value: Any, path: String) throws -> UserInfoValue {
        switch value {
        case let text as String: return .string(text)
        case let flag as Bool: return .bool(flag)
        case let number as Int: return .int(Int64(number))
        case let number as Int64: return .int(number)
        case let number as Int32: return .int(Int64(number))
        case let number as Int16: return .int(Int64(number))
        case let number as Int8: return .int(Int64(number))
        case let number as UInt8: return .int(Int64(number))
        case let number as UInt16: return .int(Int64(number))
        case let number as UInt32: return .int(Int64(number))
        case let number as UInt where number <= UInt(Int64.max): return .int(Int64(number))
        case let number as UInt64 where number <= UInt64(Int64.max): return .int(Int64(number))
        case let number as Double: return .double(number)
        case let number as Float: return .double(Double(number))
        case let number as NSNumber:
            let type = String(cString: number.objCType)
            return type == "d" || type == "f" ? .double(number.doubleValue) : .int(number.int64Value)
        case let date as Date: return .date(date)
        case let data as Data: return .data(data)
        case let url as URL: return .url(url)
        case let uuid as UUID: return .uuid(uuid)
        case let text as Substring: return .string(String(text))
        case let dictionary as [AnyHashable: Any]:
            var out: [String: UserInfoValue] = [:]
            for (key, element) in dictionary {
                guard let name = key.base as? String else {
                    throw Unsupported(path: path + "[\(key)]", typeName: "key of type \(type(of: key.base))")
                }
                out[name] = try self.value(element, path: path + "[\"\(name)\"]")
            }
            return .dictionary(out)
        case let array as [Any]:
            return .array(try array.enumerated().map { try self.value($1, path: path + "[\($0)]") })
        default:
            throw Unsupported(path: path, typeName: String(describing: type(of: value)))
        }
    }

    /// The Foundation value an app reads back from `userInfo`.
    static func foundation(_ value: UserInfoValue) -> Any {
        switch value {
        case .string(let text): text
        case .int(let number): Int(truncatingIfNeeded: number)
        case .double(let number): number
        case .bool(let flag): flag
        case .date(let date): date
        case .data(let data): data
        case .url(let url): url
        case .uuid(let uuid): uuid
        case .array(let values): values.map(foundation)
        case .dictionary(let values): foundation(values)
        }
    }

    static func foundation(_ values: [String: UserInfoValue]) -> [AnyHashable: Any] {
        var out: [AnyHashable: Any] = [:]
        for (key, value) in values { out[key] = foundation(value) }
        return out
    }
}
