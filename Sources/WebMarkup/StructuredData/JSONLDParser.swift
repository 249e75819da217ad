// A strict RFC 8259 JSON reader for JSON-LD blocks. Written here rather than
// using JSONSerialization because structured data needs what that API loses:
// numbers in their written form (`4.50` stays `4.50`, `5` never becomes `5.0`)
// and object keys in order. Nesting is bounded (`maximumDepth`): deeper input is
// an error, never a stack overflow. Errors carry line and column.

/// A parsed JSON value; objects keep their keys in order (a repeated key keeps its
/// first position and its last value, as `JSON.parse` does).
enum JSONLDValue {
    case string(String)
    /// The number as written in the block.
    case number(String)
    case bool(Bool)
    case null
    case array([JSONLDValue])
    case object([JSONLDMember])

    /// The value of `key` when this is an object that has it.
    subscript(key: String) -> JSONLDValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

/// One `"key": value` of a JSON object.
struct JSONLDMember {
    var key: String
    var value: JSONLDValue
}

struct JSONLDParseError: Error {
    var message: String
}

struct JSONLDParser {
    private let bytes: [UInt8]
    private var position = 0
    private let maximumDepth: Int

    /// Parses a whole text as one JSON value.
    static func parse(_ text: String, maximumDepth: Int = StructuredDataLimits.maximumJSONDepth) throws(JSONLDParseError) -> JSONLDValue {
        var parser = JSONLDParser(bytes: Array(text.utf8), maximumDepth: maximumDepth)
        return try parser.parseDocument()
    }

    private init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    private mutating func parseDocument() throws(JSONLDParseError) -> JSONLDValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        skipWhitespace()
        guard position < bytes.count else { throw error("the block is empty") }
        let value = try parseValue(depth: 1)
        skipWhitespace()
        guard position == bytes.count else { throw error("unexpected \(describeCurrent()) after the JSON value") }
        return value
    }

    private mutating func parseValue(depth: Int) throws(JSONLDParseError) -> JSONLDValue {
        guard position < bytes.count else { throw error("unexpected end of the block") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeCurrent())")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONLDParseError) -> JSONLDValue {
        guard depth <= maximumDepth else { throw error("nested deeper than \(maximumDepth) levels") }
        position += 1
        var members: [JSONLDMember] = []
        var positions: [String: Int] = [:]
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object(members) }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a quoted key, found \(describeCurrent())")
            }
            let key = try parseString()
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw error("expected ':' after a key, found \(describeCurrent())") }
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            if let existing = positions[key] {
                members[existing].value = value
            } else {
                positions[key] = members.count
                members.append(JSONLDMember(key: key, value: value))
            }
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "}")) { return .object(members) }
            throw error("expected ',' or '}' in an object, found \(describeCurrent())")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONLDParseError) -> JSONLDValue {
        guard depth <= maximumDepth else { throw error("nested deeper than \(maximumDepth) levels") }
        position += 1
        var elements: [JSONLDValue] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "]")) { return .array(elements) }
            throw error("expected ',' or ']' in an array, found \(describeCurrent())")
        }
    }

    private mutating func parseString() throws(JSONLDParseError) -> String {
        position += 1  // the opening quote
        var result: [UInt8] = []
        var runStart = position
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                result += bytes[runStart..<position]
                position += 1
                return String(decoding: result, as: UTF8.self)
            case UInt8(ascii: "\\"):
                result += bytes[runStart..<position]
                position += 1
                try parseEscape(into: &result)
                runStart = position
            case 0..<0x20:
                throw error("a control character (U+\(hex4(UInt16(byte)))) inside a string must be escaped")
            default:
                position += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func parseEscape(into result: inout [UInt8]) throws(JSONLDParseError) {
        guard position < bytes.count else { throw error("unterminated string") }
        let escaped = bytes[position]
        position += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): result.append(escaped)
        case UInt8(ascii: "b"): result.append(0x08)
        case UInt8(ascii: "f"): result.append(0x0C)
        case UInt8(ascii: "n"): result.append(0x0A)
        case UInt8(ascii: "r"): result.append(0x0D)
        case UInt8(ascii: "t"): result.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try parseHex4())
            if (0xD800..<0xDC00).contains(scalar), bytes[position...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) {
                let mark = position
                position += 2
                let low = UInt32(try parseHex4())
                if (0xDC00..<0xE000).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    position = mark  // a lone high surrogate; the next escape stands alone
                }
            }
            let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"  // lone surrogates
            result += Array(String(Character(character)).utf8)
        default:
            position -= 1
            throw error("invalid escape after '\\', found \(describeCurrent())")
        }
    }

    private mutating func parseHex4() throws(JSONLDParseError) -> UInt16 {
        guard position + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits") }
        var value: UInt16 = 0
        for byte in bytes[position..<position + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt16(digit)
        }
        position += 4
        return value
    }

    private mutating func parseNumber() throws(JSONLDParseError) -> String {
        let start = position
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
            // no further integer digits: JSON forbids leading zeros
        } else if !consumeDigits() {
            throw error("a number needs digits")
        }
        if consume(UInt8(ascii: ".")), !consumeDigits() { throw error("a number needs digits after '.'") }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            if !consumeDigits() { throw error("a number needs digits in its exponent") }
        }
        if position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            throw error("a number may not have leading zeros")
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func consumeDigits() -> Bool {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        return position > start
    }

    private mutating func expectLiteral(_ literal: String) throws(JSONLDParseError) {
        let expected = Array(literal.utf8)
        guard bytes[position...].starts(with: expected) else { throw error("unexpected \(describeCurrent())") }
        position += expected.count
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private func describeCurrent() -> String {
        guard position < bytes.count else { return "end of the block" }
        let byte = bytes[position]
        if byte >= 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// An error at the current position, with its 1-based line and column.
    private func error(_ message: String) -> JSONLDParseError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(position, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONLDParseError(message: "line \(line), column \(column): \(message)")
    }
}
