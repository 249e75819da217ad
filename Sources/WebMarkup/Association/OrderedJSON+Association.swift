import StrictJSON
// JSON as association files read it: the shared OrderedJSON reader with the
// association limits (256 levels, lone surrogates refused) and the wording
// association findings and errors have always used ("expected `:` after the key
// "applinks" at line 1, column 12", "a dictionary" rather than "an object").

enum AssociationJSON {
    /// Deeper nesting than this is refused rather than risking the stack.
    static let maximumDepth = 256

    /// Parses UTF-8 bytes (a leading BOM is skipped); a thrown error's `message` is in the association wording.
    static func parse(_ bytes: [UInt8]) throws(OrderedJSONError) -> OrderedJSON {
        do {
            return try OrderedJSON.parse(bytes, maximumDepth: maximumDepth, rejectingLoneSurrogates: true)
        } catch {
            var reworded = error
            reworded.message = "\(describe(error)) at line \(error.line), column \(error.column)"
            throw reworded
        }
    }

    private static func describe(_ error: OrderedJSONError) -> String {
        let found = error.found.map(printable) ?? ""
        switch error.problem {
        case .empty, .unexpectedEnd: return "unexpected end of data"
        case .unexpectedByte: return "unexpected character `\(found)`"
        case .invalidLiteral(let literal): return "invalid literal (expected `\(literal)`)"
        case .textAfterValue, .leadingZero(in: nil): return "unexpected text after the JSON value"
        case .tooDeep(let limit): return "nesting deeper than \(limit) levels"
        case .expectedKey: return "expected a string key"
        case .expectedColon(let key): return "expected `:` after the key \"\(key)\""
        case .expectedCommaOrBrace, .leadingZero(in: .object): return "expected `,` or `}` in a dictionary"
        case .expectedCommaOrBracket, .leadingZero(in: .array): return "expected `,` or `]` in an array"
        case .missingIntegerDigits, .missingFractionDigits, .missingExponentDigits: return "invalid number"
        case .unterminatedString: return "unterminated string"
        case .controlCharacter: return "unescaped control character in a string"
        case .invalidEscape: return "invalid escape `\\\(found)`"
        case .incompleteUnicodeEscape: return "incomplete \\u escape"
        case .invalidUnicodeEscape: return "invalid \\u escape"
        case .unpairedSurrogate: return "unpaired surrogate in \\u escape"
        }
    }

    private static func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
    }
}

extension OrderedJSON {
    /// A short name for association messages: "a string", "the number 1", "a dictionary", …
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
}
