import Foundation
import Testing
@testable import SpotlightService

/// Import lines are read by a strict parser that says where and why a line
/// is refused, and never guesses (a key given twice is refused, not kept).
@Suite struct JSONParserTests {
    @Test(arguments: [
        (#"{"a":1,"b":[2.5,"x",true,null],"c":{}}"#, JSONValue.object(["a": .integer(1), "b": .array([.number(2.5), .string("x"), .bool(true), .null]), "c": .object([:])])),
        (#" [ -0.5e2 , 9223372036854775807, 9223372036854775808 ] "#, .array([.number(-50), .integer(Int64.max), .number(9_223_372_036_854_775_808)])),
        (#""\u00e9\ud83d\ude00\n\t\"\\\/""#, .string("é😀\n\t\"\\/")),
        (#""\u0000 is a NUL, escaped""#, .string("\u{0} is a NUL, escaped")),
        ("\"日本語\"", .string("日本語")),
    ])
    func validJSONIsRead(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(text.utf8) == expected)
    }

    @Test(arguments: [
        ("{\"a\":\"x\u{0}y\"}", "a NUL byte inside a string; write it as \\u0000 at column 8"),
        (#"{"n":1e400}"#, "the number 1e400 is out of the range of a 64-bit floating-point number at column 6"),
        (#"{"n":-1e400}"#, "the number -1e400 is out of the range"),
        (#"{"a":1,"b":2,"a":3}"#, #"the key "a" is given twice in one object; keep one at column 14"#),
        (#"{"a":"\ud800"}"#, "a lone surrogate \\uD800"),
        (#"{"a":"\udc00x"}"#, "a lone surrogate \\uDC00"),
        (#"{"a":"\x"}"#, #"\"x" is not a JSON escape at column 7"#),
        (#"{"a":1,}"#, #""}" where a key (a string) should be at column 8"#),
        (#"[1,2,]"#, #""]" where a value should be at column 6"#),
        (#"{"a":012}"#, "a number may not start with 0 at column 6"),
        (#"{"a":1} x"#, "text after the end of the JSON value at column 9"),
        (#"{"a":tru}"#, "not a JSON value (did you mean true?) at column 6"),
        ("{\"a\":\"tab\there\"}", "control character U+0009 inside a string"),
        (#"{"a":"open"#, "the line ends inside a string"),
        ("", "the line ends where a value should be at column 1"),
        (String(repeating: "[", count: 300) + String(repeating: "]", count: 300), "nested deeper than 256 levels"),
    ])
    func badJSONSaysWhereAndWhy(text: String, message: String) {
        #expect { try JSONParser.parse(text.utf8) } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test func itemLinesReportTheirFaults() {
        #expect { try ItemJSON.item(from: #"{"uniqueIdentifier":"a","attributes":{"title":"A","title":"B"}}"#) } throws: { error in
            "\(error)" == #"not JSON: the key "title" is given twice in one object; keep one at column 51"#
        }
    }
}
