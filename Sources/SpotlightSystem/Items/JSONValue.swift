import Foundation
import StrictJSON

/// A JSON value that keeps integers apart from other numbers, with a
/// canonical text form (sorted keys, no spaces, shortest exact numbers):
/// what makes ``ItemJSON`` exact in both directions.
enum JSONValue: Equatable, Decodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        if let flag = try? container.decode(Bool.self) { self = .bool(flag); return }
        if let int = try? container.decode(Int64.self) { self = .integer(int); return }
        if let double = try? container.decode(Double.self) { self = .number(double); return }
        if let text = try? container.decode(String.self) { self = .string(text); return }
        if let array = try? container.decode([JSONValue].self) { self = .array(array); return }
        self = .object(try container.decode([String: JSONValue].self))
    }

    /// Why a line is not the JSON an item needs.
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// Most arrays and objects an import line may nest.
    static let maximumDepth = 256

    /// Parses one JSON text with the project's strict reader (`StrictJSON`:
    /// the line and column of the first error, a raw control character or
    /// lone surrogate refused), then refuses what an item must not be read
    /// from: a key given twice in one object (keeping either would lose data
    /// silently) and a number past a Double's range (`1e400`).
    static func parse(_ text: Substring) throws -> JSONValue {
        let parsed: OrderedJSON
        do {
            // Copied at once: `Array(text.utf8)` of a substring went byte
            // by byte, a quarter of `spotlight import`'s reading of a line.
            let bytes = text.utf8.withContiguousStorageIfAvailable { Array($0) } ?? Array(text.utf8)
            parsed = try OrderedJSON.parse(bytes, maximumDepth: maximumDepth, rejectingLoneSurrogates: true)
        } catch {
            throw ReadError(description: error.message.replacingOccurrences(of: "the block", with: "the line"))
        }
        return try JSONValue(parsed)
    }

    /// A strictly read value, integers told apart from other numbers.
    init(_ value: OrderedJSON) throws {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .string(let text): self = .string(text)
        case .number(let text):
            let isInteger = !text.contains { $0 == "." || $0 == "e" || $0 == "E" }
            if isInteger, let integer = Int64(text) {
                self = .integer(integer)
            } else if let double = Double(text), double.isFinite {
                self = .number(double)
            } else {
                throw ReadError(description: "the number \(text.prefix(40)) is out of the range of a 64-bit floating-point number")
            }
        case .array(let elements): self = .array(try elements.map(JSONValue.init))
        case .object(let object):
            if let key = object.duplicateKeys.first {
                throw ReadError(description: "the key \"\(key.prefix(80))\" is given twice in one object; keep one")
            }
            var members: [String: JSONValue] = [:]
            for member in object.members { members[member.key] = try JSONValue(member.value) }
            self = .object(members)
        }
    }

    /// The canonical text.
    var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .integer(let int): out += String(int)
        case .number(let double):
            // Shortest text that reads back as the same Double; always with a
            // fraction or exponent, so that it does not read back as an integer.
            let text = "\(double)"
            out += text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
        case .string(let text): Self.writeString(text, to: &out)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                Self.writeString(key, to: &out)
                out += ":"
                members[key]!.write(to: &out)
            }
            out += "}"
        }
    }

    static func writeString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value):
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
