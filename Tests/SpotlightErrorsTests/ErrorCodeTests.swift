import Foundation
import Testing
import SpotlightErrors

@Suite struct ErrorCodeTests {
    /// (code, its JSON): a code encodes as its name alone, as an enum's raw value did.
    static let encodings: [(TestErrorCode, String)] = [
        (.tooLarge, #""tooLarge""#),
        (.unreachable, #""unreachable""#),
        (.addedLater, #""addedLater""#),
        (TestErrorCode("fromANewerPeer"), #""fromANewerPeer""#),
    ]

    @Test(arguments: encodings)
    func aCodeRoundTripsThroughItsName(code: TestErrorCode, json: String) throws {
        #expect(String(decoding: try JSONEncoder().encode(code), as: UTF8.self) == json)
        #expect(try JSONDecoder().decode(TestErrorCode.self, from: Data(json.utf8)) == code)
        #expect(code.description == code.name)
    }

    @Test func aCodeInsideAnObjectIsAString() throws {
        struct Body: Codable, Equatable {
            var code: TestErrorCode
            var message: String
        }
        let body = Body(code: .unreachable, message: "no answer")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(body), as: UTF8.self) == #"{"code":"unreachable","message":"no answer"}"#)
        #expect(try JSONDecoder().decode(Body.self, from: Data(#"{"code":"unreachable","message":"no answer"}"#.utf8)) == body)
    }

    @Test func aNameTheTypeDoesNotListDecodesAsItself() throws {
        let code = try JSONDecoder().decode(TestErrorCode.self, from: Data(#""fromANewerPeer""#.utf8))
        #expect(code.name == "fromANewerPeer")
        #expect(code != .tooLarge)
        #expect(code == TestErrorCode("fromANewerPeer"))
    }

    @Test(arguments: ["1", "null", #"{"name":"tooLarge"}"#, #"["tooLarge"]"#])
    func onlyAStringDecodes(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TestErrorCode.self, from: Data(json.utf8)) }
    }

    @Test func codesCompareAndHashByName() {
        #expect(TestErrorCode.tooLarge == TestErrorCode("tooLarge"))
        #expect(TestErrorCode.tooLarge != .unreachable)
        #expect(Set([TestErrorCode.tooLarge, TestErrorCode("tooLarge"), .addedLater]).count == 2)
    }
}
