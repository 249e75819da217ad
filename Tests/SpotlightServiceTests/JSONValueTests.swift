import Foundation
import Testing
@testable import SpotlightSystem

/// Import lines are read strictly (StrictJSON's reader) and refused with
/// where and why; nothing is guessed (a key given twice is refused, not kept).
@Suite struct JSONValueTests {
    @Test(arguments: [
        (#"{"a":1,"b":[2.5,"x",true,null],"c":{}}"#, JSONValue.object(["a": .integer(1), "b": .array([.number(2.5), .string("x"), .bool(true), .null]), "c": .object([:])])),
        (#" [ -0.5e2 , 9223372036854775807, 9223372036854775808 ] "#, .array([.number(-50), .integer(Int64.max), .number(9_223_372_036_854_775_808)])),
        (#""\u00e9\ud83d\ude00\n\t\"\\\/""#, .string("é😀\n\t\"\\/")),
        (#""\u0000 is a NUL, escaped""#, .string("\u{0} is a NUL, escaped")),
        ("\"日本語\"", .string("日本語")),
    ])
    func validJSONIsRead(text: String, expected: JSONValue) throws {
        #expect(try JSONValue.parse(Substring(text)) == expected)
    }

    @Test(arguments: [
        ("{\"a\":\"x\u{0}y\"}", "line 1, column 8: a control character (U+0000) inside a string must be escaped"),
        (#"{"n":1e400}"#, "the number 1e400 is out of the range of a 64-bit floating-point number"),
        (#"{"n":[-1e400]}"#, "the number -1e400 is out of the range"),
        (#"{"a":1,"b":2,"a":3}"#, #"the key "a" is given twice in one object; keep one"#),
        (#"{"o":{"x":1,"x":1}}"#, #"the key "x" is given twice"#),
        (#"{"a":"\ud800"}"#, "unpaired surrogate"),
        (#"{"a":"\x"}"#, "invalid escape after '\\', found 'x'"),
        (#"{"a":1,}"#, "expected a quoted key, found '}'"),
        (#"[1,2,]"#, "line 1, column 6: unexpected ']'"),
        (#"{"a":012}"#, "leading zeros"),
        (#"{"a":1} x"#, "after the JSON value"),
        (#"{"a":tru}"#, "unexpected"),
        ("{\"a\":\"tab\there\"}", "a control character (U+0009) inside a string must be escaped"),
        (#"{"a":"open"#, "unterminated string"),
        ("", "the line is empty"),
        (String(repeating: "[", count: 300) + String(repeating: "]", count: 300), "nested deeper than 256 levels"),
    ])
    func badJSONSaysWhereAndWhy(text: String, message: String) {
        #expect { try JSONValue.parse(Substring(text)) } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test func itemLinesReportTheirFaults() {
        #expect { try ItemJSON.item(from: #"{"uniqueIdentifier":"a","attributes":{"title":"A","title":"B"}}"#) } throws: { error in
            "\(error)" == #"not JSON: the key "title" is given twice in one object; keep one"#
        }
    }
}
