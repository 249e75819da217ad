// The project's one strict JSON reader: association files
// (apple-app-site-association) and JSON-LD blocks in WebMarkup, and the item
// lines `spotlight import` reads (SpotlightService). No dependencies.
//
// Why not JSONSerialization: it loses what both formats need. On Linux it hands
// back NSNumber for `true` and `1` alike (and `"exclude": 1` is not `true` in an
// association file); it forgets key order (legacy AASA `details` keys, unknown-key
// findings and JSON-LD properties are reported in file order); it rewrites
// numbers (`4.50` must stay `4.50`, `5` must never become `5.0`); and its errors
// do not say where the text went wrong. This reader keeps every object member in
// file order, repeats included, keeps numbers as written, tells booleans from
// numbers, and reports the exact line and column of the first error.
//
// Interface: `OrderedJSON.parse(_:maximumDepth:rejectingLoneSurrogates:)` takes
// UTF-8 bytes or a String (a leading byte order mark is skipped) and returns an
// `OrderedJSON` value, or throws `OrderedJSONError`. Nesting deeper than
// `maximumDepth` arrays and objects is an error, never a stack overflow. The
// error's `message` is in the wording JSON-LD problems use; its `problem`,
// `found`, `line` and `column` let a caller word it its own way, as association
// files do (Association/OrderedJSON+Association.swift).

/// A parsed JSON value whose objects keep their members in file order.
///
/// ```swift
/// let value = try OrderedJSON.parse(#"{"b": 1, "a": true}"#, maximumDepth: 64)
/// value.objectValue?.keys   // ["b", "a"]
/// value["b"]                // .number("1"), never a boolean
/// ```
package enum OrderedJSON: Sendable {
    case null
    case bool(Bool)
    /// The number's text as written (`1`, `1.0`, `4.50`, `-2e3`).
    case number(String)
    case string(String)
    case array([OrderedJSON])
    case object(Object)

    /// One `"key": value` of an object.
    package struct Member: Sendable {
        package var key: String
        package var value: OrderedJSON
    }

    /// A JSON object whose members stay in file order. Lookups see the last
    /// occurrence of a repeated key, as Foundation's parser and `JSON.parse` do.
    package struct Object: Sendable {
        /// Every member in file order, repeats included.
        package private(set) var members: [Member] = []
        private var index: [String: Int] = [:]

        /// Keys that occur more than once, in order of their second occurrence.
        package private(set) var duplicateKeys: [String] = []

        package init() {}

        package mutating func append(_ key: String, _ value: OrderedJSON) {
            if index[key] != nil, !duplicateKeys.contains(key) { duplicateKeys.append(key) }
            index[key] = members.count
            members.append(Member(key: key, value: value))
        }

        package subscript(key: String) -> OrderedJSON? {
            index[key].map { members[$0].value }
        }

        /// Members with repeats removed: the last value of a key, placed where the key first appeared.
        package var uniqueMembers: [Member] {
            guard !duplicateKeys.isEmpty else { return members }
            var seen = Set<String>()
            return members.compactMap { member in
                seen.insert(member.key).inserted ? Member(key: member.key, value: self[member.key]!) : nil
            }
        }

        /// Each key once, in order of first appearance.
        package var keys: [String] { uniqueMembers.map(\.key) }
    }

    /// The value of `key` when this is an object that has it.
    package subscript(key: String) -> OrderedJSON? {
        objectValue?[key]
    }

    package var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    package var objectValue: Object? {
        if case .object(let value) = self { value } else { nil }
    }

    package var arrayValue: [OrderedJSON]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// Only JSON `true` and `false`; numbers are not booleans here.
    package var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// Parses UTF-8 bytes as one JSON value.
    ///
    /// - Parameters:
    ///   - maximumDepth: how many arrays and objects may nest; the outermost one is level 1.
    ///   - rejectingLoneSurrogates: whether a `\u` escape of an unpaired UTF-16 surrogate is
    ///     an error; otherwise it reads as U+FFFD.
    package static func parse(
        _ bytes: [UInt8], maximumDepth: Int, rejectingLoneSurrogates: Bool = false
    ) throws(OrderedJSONError) -> OrderedJSON {
        var reader = Reader(bytes: bytes, maximumDepth: maximumDepth, rejectingLoneSurrogates: rejectingLoneSurrogates)
        return try reader.readDocument()
    }

    /// Parses a whole text as one JSON value, as the bytes version does.
    package static func parse(
        _ text: String, maximumDepth: Int, rejectingLoneSurrogates: Bool = false
    ) throws(OrderedJSONError) -> OrderedJSON {
        try parse(Array(text.utf8), maximumDepth: maximumDepth, rejectingLoneSurrogates: rejectingLoneSurrogates)
    }
}

/// Why a text is not JSON, and where: `message` reads "line 2, column 11: unexpected '''".
package struct OrderedJSONError: Error, Sendable {
    /// What was wrong, for callers that word messages their own way.
    package enum Problem: Sendable, Equatable {
        /// Nothing but whitespace.
        case empty
        /// The text stops where a value should start.
        case unexpectedEnd
        /// No value starts with ``OrderedJSONError/found``.
        case unexpectedByte
        /// A value that starts like `true`, `false` or `null` (the literal) but is not.
        case invalidLiteral(String)
        /// More than whitespace after the value.
        case textAfterValue
        /// Arrays and objects nested deeper than the limit.
        case tooDeep(limit: Int)
        case expectedKey
        case expectedColon(key: String)
        case expectedCommaOrBrace
        case expectedCommaOrBracket
        case missingIntegerDigits
        case missingFractionDigits
        case missingExponentDigits
        /// A digit right after a leading `0`, in an object, an array, or (nil) at the top level.
        case leadingZero(in: Container?)
        case unterminatedString
        /// An unescaped byte below 0x20 (``OrderedJSONError/found``) inside a string.
        case controlCharacter
        /// A backslash followed by ``OrderedJSONError/found``, which no escape starts with.
        case invalidEscape
        /// Fewer than four bytes left after `\u`.
        case incompleteUnicodeEscape
        /// A byte after `\u` that is not a hex digit.
        case invalidUnicodeEscape
        /// A UTF-16 surrogate without its other half (only when lone surrogates are rejected).
        case unpairedSurrogate
    }

    package enum Container: Sendable, Equatable {
        case object
        case array
    }

    package var problem: Problem
    /// The byte where reading stopped; nil at the end of the text.
    package var found: UInt8?
    /// 1-based; columns count characters, not bytes.
    package var line: Int
    package var column: Int
    /// "line 1, column 32: expected a quoted key, found '}'"
    package var message: String

    package init(_ problem: Problem, found: UInt8?, line: Int, column: Int) {
        self.problem = problem
        self.found = found
        self.line = line
        self.column = column
        self.message = "line \(line), column \(column): \(Self.describe(problem, found: found))"
    }

    private static func describe(_ problem: Problem, found byte: UInt8?) -> String {
        let found = describe(byte)
        switch problem {
        case .empty: return "the block is empty"
        case .unexpectedEnd: return "unexpected end of the block"
        case .unexpectedByte, .invalidLiteral: return "unexpected \(found)"
        case .textAfterValue: return "unexpected \(found) after the JSON value"
        case .tooDeep(let limit): return "nested deeper than \(limit) levels"
        case .expectedKey: return "expected a quoted key, found \(found)"
        case .expectedColon: return "expected ':' after a key, found \(found)"
        case .expectedCommaOrBrace: return "expected ',' or '}' in an object, found \(found)"
        case .expectedCommaOrBracket: return "expected ',' or ']' in an array, found \(found)"
        case .missingIntegerDigits: return "a number needs digits"
        case .missingFractionDigits: return "a number needs digits after '.'"
        case .missingExponentDigits: return "a number needs digits in its exponent"
        case .leadingZero: return "a number may not have leading zeros"
        case .unterminatedString: return "unterminated string"
        case .controlCharacter: return "a control character (U+\(hex4(byte ?? 0))) inside a string must be escaped"
        case .invalidEscape: return "invalid escape after '\\', found \(found)"
        case .incompleteUnicodeEscape, .invalidUnicodeEscape: return "a \\u escape needs four hex digits"
        case .unpairedSurrogate: return "unpaired surrogate in a \\u escape"
        }

        func hex4(_ byte: UInt8) -> String {
            let digits = String(byte, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
    }

    /// `'x'`, `byte 0x9`, or `end of the block`.
    private static func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "end of the block" }
        if byte >= 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}

/// A recursive-descent reader over UTF-8 bytes (RFC 8259, no extensions).
private struct Reader {
    private let bytes: [UInt8]
    private var position = 0
    private let maximumDepth: Int
    private let rejectingLoneSurrogates: Bool

    init(bytes: [UInt8], maximumDepth: Int, rejectingLoneSurrogates: Bool) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.rejectingLoneSurrogates = rejectingLoneSurrogates
    }

    mutating func readDocument() throws(OrderedJSONError) -> OrderedJSON {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        skipWhitespace()
        guard position < bytes.count else { throw error(.empty) }
        let value = try readValue(depth: 1, in: nil)
        skipWhitespace()
        guard position == bytes.count else { throw error(.textAfterValue) }
        return value
    }

    /// A value whose arrays and objects are at nesting level `depth`, inside `container`.
    private mutating func readValue(depth: Int, in container: OrderedJSONError.Container?) throws(OrderedJSONError) -> OrderedJSON {
        guard position < bytes.count else { throw error(.unexpectedEnd) }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try readObject(depth: depth)
        case UInt8(ascii: "["): return try readArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try readLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try readLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try readLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber(in: container))
        default: throw error(.unexpectedByte)
        }
    }

    private mutating func readObject(depth: Int) throws(OrderedJSONError) -> OrderedJSON {
        guard depth <= maximumDepth else { throw error(.tooDeep(limit: maximumDepth)) }
        position += 1
        var object = OrderedJSON.Object()
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object(object) }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error(.expectedKey) }
            let key = try readString()
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw error(.expectedColon(key: key)) }
            skipWhitespace()
            object.append(key, try readValue(depth: depth + 1, in: .object))
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "}")) { return .object(object) }
            throw error(.expectedCommaOrBrace)
        }
    }

    private mutating func readArray(depth: Int) throws(OrderedJSONError) -> OrderedJSON {
        guard depth <= maximumDepth else { throw error(.tooDeep(limit: maximumDepth)) }
        position += 1
        var elements: [OrderedJSON] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try readValue(depth: depth + 1, in: .array))
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "]")) { return .array(elements) }
            throw error(.expectedCommaOrBracket)
        }
    }

    private mutating func readString() throws(OrderedJSONError) -> String {
        position += 1  // the opening quote
        var result: [UInt8] = []
        var runStart = position
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                result += bytes[runStart..<position]
                position += 1
                return String(decoding: result, as: UTF8.self)
            case UInt8(ascii: "\\"):
                result += bytes[runStart..<position]
                position += 1
                try readEscape(into: &result)
                runStart = position
            case 0..<0x20:
                throw error(.controlCharacter)
            default:
                position += 1
            }
        }
        throw error(.unterminatedString)
    }

    private mutating func readEscape(into result: inout [UInt8]) throws(OrderedJSONError) {
        guard position < bytes.count else { throw error(.unterminatedString) }
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
            var scalar = try readHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                if bytes[position...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) {
                    let mark = position
                    position += 2
                    let low = try readHex4()
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if rejectingLoneSurrogates {
                        throw error(.unpairedSurrogate)
                    } else {
                        position = mark  // a lone high surrogate; the next escape stands alone
                    }
                } else if rejectingLoneSurrogates {
                    throw error(.unpairedSurrogate)
                }
            } else if (0xDC00..<0xE000).contains(scalar), rejectingLoneSurrogates {
                throw error(.unpairedSurrogate)
            }
            result += Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
        default:
            position -= 1
            throw error(.invalidEscape)
        }
    }

    private mutating func readHex4() throws(OrderedJSONError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error(.incompleteUnicodeEscape) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(.invalidUnicodeEscape)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private mutating func readNumber(in container: OrderedJSONError.Container?) throws(OrderedJSONError) -> String {
        let start = position
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
            // no further integer digits: JSON forbids leading zeros
        } else if !consumeDigits() {
            throw error(.missingIntegerDigits)
        }
        if consume(UInt8(ascii: ".")), !consumeDigits() { throw error(.missingFractionDigits) }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            if !consumeDigits() { throw error(.missingExponentDigits) }
        }
        if position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            throw error(.leadingZero(in: container))
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func consumeDigits() -> Bool {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        return position > start
    }

    private mutating func readLiteral(_ literal: String) throws(OrderedJSONError) {
        let expected = Array(literal.utf8)
        guard bytes[position...].starts(with: expected) else { throw error(.invalidLiteral(literal)) }
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

    /// `problem` at the current position, with its 1-based line and column.
    private func error(_ problem: OrderedJSONError.Problem) -> OrderedJSONError {
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
        return OrderedJSONError(problem, found: position < bytes.count ? bytes[position] : nil, line: line, column: column)
    }
}
