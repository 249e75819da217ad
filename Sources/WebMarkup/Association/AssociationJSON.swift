// A small strict JSON reader for association files.
//
// Why not JSONSerialization: on Linux it hands back NSNumber for `true` and `1`
// alike and forgets key order. The AASA rules depend on both (`"exclude": 1` is
// not `true`; legacy `details` keys and unknown-key findings are reported in
// file order), so this reader keeps every member in order, keeps the raw text of
// numbers, records duplicate keys, and bounds nesting depth.
//
// Interface: `AssociationJSON.parse(_:)` takes UTF-8 bytes (a leading BOM is
// skipped) and returns an `AssociationJSONValue` or throws
// `AssociationJSONError`, whose message names the line and column.

/// A parsed JSON value that keeps object member order.
enum AssociationJSONValue: Sendable {
    case null
    case bool(Bool)
    /// The number's text as written (`1`, `1.0`, `-2e3`).
    case number(String)
    case string(String)
    case array([AssociationJSONValue])
    case object(AssociationJSONObject)

    /// A short name for messages: "a string", "a number", …
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let text): "the number \(text)"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }

    var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    var objectValue: AssociationJSONObject? {
        if case .object(let value) = self { value } else { nil }
    }

    var arrayValue: [AssociationJSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// Only JSON `true` and `false`; numbers are not booleans here.
    var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }
}

/// A JSON object whose members stay in file order. Lookups see the last
/// occurrence of a repeated key, as Foundation's parser does.
struct AssociationJSONObject: Sendable {
    struct Member: Sendable {
        var key: String
        var value: AssociationJSONValue
    }

    /// Every member in file order, repeats included.
    var members: [Member] = []
    private var index: [String: Int] = [:]

    /// Keys that occur more than once, in order of their second occurrence.
    private(set) var duplicateKeys: [String] = []

    init() {}

    mutating func append(_ key: String, _ value: AssociationJSONValue) {
        if index[key] != nil, !duplicateKeys.contains(key) { duplicateKeys.append(key) }
        index[key] = members.count
        members.append(Member(key: key, value: value))
    }

    subscript(key: String) -> AssociationJSONValue? {
        index[key].map { members[$0].value }
    }

    /// Members with repeats removed (the last occurrence wins, placed where the key first appeared).
    var uniqueMembers: [Member] {
        var seen = Set<String>()
        var result: [Member] = []
        for member in members where seen.insert(member.key).inserted {
            result.append(Member(key: member.key, value: self[member.key]!))
        }
        return result
    }

    var keys: [String] { uniqueMembers.map(\.key) }
}

struct AssociationJSONError: Error, Sendable {
    var message: String
}

enum AssociationJSON {
    /// Deeper nesting than this is refused rather than risking the stack.
    static let maximumDepth = 256

    static func parse(_ bytes: [UInt8]) throws(AssociationJSONError) -> AssociationJSONValue {
        var parser = Parser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.position = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.position < bytes.count {
            throw parser.error("unexpected text after the JSON value")
        }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ what: String) -> AssociationJSONError {
            var line = 1
            var column = 1
            for byte in bytes[..<min(position, bytes.count)] {
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
            }
            return AssociationJSONError(message: "\(what) at line \(line), column \(column)")
        }

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                position += 1
            }
        }

        mutating func expect(_ literal: String, _ value: AssociationJSONValue) throws(AssociationJSONError) -> AssociationJSONValue {
            let utf8 = Array(literal.utf8)
            guard bytes.count - position >= utf8.count, Array(bytes[position..<position + utf8.count]) == utf8 else {
                throw error("invalid literal (expected `\(literal)`)")
            }
            position += utf8.count
            return value
        }

        mutating func parseValue(depth: Int) throws(AssociationJSONError) -> AssociationJSONValue {
            guard let byte = current else { throw error("unexpected end of data") }
            switch byte {
            case UInt8(ascii: "{"):
                return try parseObject(depth: depth + 1)
            case UInt8(ascii: "["):
                return try parseArray(depth: depth + 1)
            case UInt8(ascii: "\""):
                return .string(try parseString())
            case UInt8(ascii: "t"):
                return try expect("true", .bool(true))
            case UInt8(ascii: "f"):
                return try expect("false", .bool(false))
            case UInt8(ascii: "n"):
                return try expect("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return .number(try parseNumber())
            default:
                throw error("unexpected character `\(Self.printable(byte))`")
            }
        }

        static func printable(_ byte: UInt8) -> String {
            byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
        }

        mutating func parseObject(depth: Int) throws(AssociationJSONError) -> AssociationJSONValue {
            guard depth <= AssociationJSON.maximumDepth else { throw error("nesting deeper than \(AssociationJSON.maximumDepth) levels") }
            position += 1
            var object = AssociationJSONObject()
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                position += 1
                return .object(object)
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw error("expected a string key") }
                let key = try parseString()
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw error("expected `:` after the key \"\(key)\"") }
                position += 1
                skipWhitespace()
                object.append(key, try parseValue(depth: depth))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","):
                    position += 1
                case UInt8(ascii: "}"):
                    position += 1
                    return .object(object)
                default:
                    throw error("expected `,` or `}` in a dictionary")
                }
            }
        }

        mutating func parseArray(depth: Int) throws(AssociationJSONError) -> AssociationJSONValue {
            guard depth <= AssociationJSON.maximumDepth else { throw error("nesting deeper than \(AssociationJSON.maximumDepth) levels") }
            position += 1
            var elements: [AssociationJSONValue] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try parseValue(depth: depth))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","):
                    position += 1
                case UInt8(ascii: "]"):
                    position += 1
                    return .array(elements)
                default:
                    throw error("expected `,` or `]` in an array")
                }
            }
        }

        mutating func parseNumber() throws(AssociationJSONError) -> String {
            let start = position
            if current == UInt8(ascii: "-") { position += 1 }
            guard let first = current, isDigit(first) else { throw error("invalid number") }
            position += 1
            if first != UInt8(ascii: "0") {
                while let byte = current, isDigit(byte) { position += 1 }
            }
            if current == UInt8(ascii: ".") {
                position += 1
                guard let byte = current, isDigit(byte) else { throw error("invalid number") }
                while let byte = current, isDigit(byte) { position += 1 }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                position += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
                guard let byte = current, isDigit(byte) else { throw error("invalid number") }
                while let byte = current, isDigit(byte) { position += 1 }
            }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        mutating func parseHex4() throws(AssociationJSONError) -> UInt32 {
            guard bytes.count - position >= 4 else { throw error("incomplete \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw error("invalid \\u escape")
                }
                value = value << 4 | digit
                position += 1
            }
            return value
        }

        mutating func parseString() throws(AssociationJSONError) -> String {
            position += 1
            var buffer: [UInt8] = []
            while true {
                guard let byte = current else { throw error("unterminated string") }
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    return String(decoding: buffer, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    position += 1
                    guard let escape = current else { throw error("unterminated string") }
                    position += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                    case UInt8(ascii: "b"): buffer.append(0x08)
                    case UInt8(ascii: "f"): buffer.append(0x0C)
                    case UInt8(ascii: "n"): buffer.append(0x0A)
                    case UInt8(ascii: "r"): buffer.append(0x0D)
                    case UInt8(ascii: "t"): buffer.append(0x09)
                    case UInt8(ascii: "u"):
                        var code = try parseHex4()
                        if code >= 0xD800 && code < 0xDC00 {
                            guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                                throw error("unpaired surrogate in \\u escape")
                            }
                            position += 2
                            let low = try parseHex4()
                            guard low >= 0xDC00 && low < 0xE000 else { throw error("unpaired surrogate in \\u escape") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else if code >= 0xDC00 && code < 0xE000 {
                            throw error("unpaired surrogate in \\u escape")
                        }
                        buffer.append(contentsOf: Array(String(Unicode.Scalar(code)!).utf8))
                    default:
                        position -= 1
                        throw error("invalid escape `\\\(Self.printable(escape))`")
                    }
                case 0..<0x20:
                    throw error("unescaped control character in a string")
                default:
                    buffer.append(byte)
                    position += 1
                }
            }
        }
    }
}
