import Foundation

/// A strict JSON parser for one import line (RFC 8259): integers kept apart
/// from other numbers, and every refusal said with its column —
/// a NUL or other raw control character, a number out of a Double's range
/// (`1e400`), a key given twice (JSON leaves it to the reader; keeping
/// either silently would lose data), invalid escapes and lone surrogates,
/// nesting deeper than 256.
///
/// ```swift
/// let value = try JSONParser.parse(#"{"a":1,"b":[2.5,"x"]}"#.utf8)
/// ```
struct JSONParser {
    /// Why a line is not JSON, with the 1-based column of the byte at fault.
    struct Failure: Error, CustomStringConvertible {
        var column: Int
        var reason: String
        var description: String { "\(reason) at column \(column)" }
    }

    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func parse(_ text: some Collection<UInt8>) throws(Failure) -> JSONValue {
        var parser = JSONParser(Array(text))
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw parser.fail("text after the end of the JSON value") }
        return value
    }

    private func fail(_ reason: String, at position: Int? = nil) -> Failure {
        Failure(column: (position ?? index) + 1, reason: reason)
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private func describe(_ byte: UInt8) -> String {
        byte == 0 ? "a NUL byte" : byte < 0x20 || byte == 0x7F ? String(format: "control character U+%04X", byte) : "\"\(Character(UnicodeScalar(byte)))\""
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw fail("the line ends where a value should be") }
        guard depth < Self.maximumDepth else { throw fail("nested deeper than \(Self.maximumDepth) levels") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case let byte: throw fail("\(describe(byte)) where a value should be")
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<(index + expected.count)]) == expected else {
            throw fail("not a JSON value (did you mean \(word)?)")
        }
        index += expected.count
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw fail(index < bytes.count ? "\(describe(bytes[index])) where a key (a string) should be" : "the line ends inside an object")
            }
            let keyAt = index
            let key = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("a \":\" should follow the key \"\(key)\"") }
            index += 1
            skipSpace()
            let member = try value(depth: depth + 1)
            guard members.updateValue(member, forKey: key) == nil else {
                throw fail("the key \"\(key.prefix(80))\" is given twice in one object; keep one", at: keyAt)
            }
            skipSpace()
            guard index < bytes.count else { throw fail("the line ends inside an object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw fail("\(describe(bytes[index])) where \",\" or \"}\" should be")
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipSpace()
            elements.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw fail("the line ends inside an array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw fail("\(describe(bytes[index])) where \",\" or \"]\" should be")
        }
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        let integerDigits = digits()
        guard integerDigits > 0 else { throw fail("a number needs a digit after \"-\"") }
        if integerDigits > 1, bytes[index - integerDigits] == UInt8(ascii: "0") { throw fail("a number may not start with 0", at: start) }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            isInteger = false
            guard digits() > 0 else { throw fail("a digit should follow the decimal point") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            isInteger = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw fail("a digit should follow the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else {
            throw fail("the number \(text.prefix(40)) is out of the range of a 64-bit floating-point number", at: start)
        }
        return .number(double)
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun() {
            if runStart < index { scalars.append(contentsOf: String(decoding: bytes[runStart..<index], as: UTF8.self).unicodeScalars) }
        }
        while true {
            guard index < bytes.count else { throw fail("the line ends inside a string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flushRun()
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw fail("\(describe(byte)) inside a string; write it as \\u\(String(format: "%04X", byte))") }
            if byte != UInt8(ascii: "\\") { index += 1; continue }
            flushRun()
            index += 1
            guard index < bytes.count else { throw fail("the line ends inside a string") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                let first = try hex4()
                if (0xD800...0xDBFF).contains(first) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw fail("a lone surrogate \\u\(String(first, radix: 16, uppercase: true)) (not followed by its low half)")
                    }
                    index += 2
                    let second = try hex4()
                    guard (0xDC00...0xDFFF).contains(second) else { throw fail("\\u\(String(first, radix: 16, uppercase: true)) must be followed by a low surrogate") }
                    scalars.append(UnicodeScalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!)
                } else if (0xDC00...0xDFFF).contains(first) {
                    throw fail("a lone surrogate \\u\(String(first, radix: 16, uppercase: true))")
                } else {
                    scalars.append(UnicodeScalar(first)!)
                }
            default:
                throw fail("\\\(describe(escape)) is not a JSON escape", at: index - 2)
            }
            runStart = index
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("\\u needs four hexadecimal digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("\\u needs four hexadecimal digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
