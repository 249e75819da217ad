import Foundation

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

    /// Parses one JSON text strictly (``JSONParser``): a refusal says where and why.
    static func parse(_ text: Substring) throws -> JSONValue {
        try JSONParser.parse(text.utf8)
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
