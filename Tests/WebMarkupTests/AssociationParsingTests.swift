import Foundation
import StrictJSON
import Testing
@testable import WebMarkup

@Suite struct AssociationParsingTests {
    typealias F = AssociationFixtures

    static let full = #"""
        {
          "applinks": {
            "defaults": { "caseSensitive": false },
            "substitutionVariables": { "food": ["burrito", "pizza"] },
            "details": [ {
              "appIDs": [ "ABCDE12345.com.example.app", "ABCDE12345.com.example.app2" ],
              "defaults": { "percentEncoded": false },
              "components": [
                { "#": "no_universal_links", "exclude": true, "comment": "..." },
                { "/": "/buy/*" },
                { "/": "/help/*", "?": { "articleNumber": "????" } }
              ] },
              { "appID": "ABCDE12345.com.example.app", "paths": ["/legacy/*"] } ] },
          "webcredentials":       { "apps": [ "ABCDE12345.com.example.app" ] },
          "appclips":             { "apps": [ "ABCDE12345.com.example.app.Clip" ] },
          "activitycontinuation": { "apps": [ "ABCDE12345.com.example.app", "FGHIJ67890.com.example.handoff" ] }
        }
        """#

    @Test func readsTheModel() throws {
        let association = try AppSiteAssociation(json: Self.full)
        #expect(!association.isSigned)
        #expect(association.hasAppLinks)
        #expect(association.applicationIdentifiers == ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app2"])
        #expect(association.webCredentialsApps == ["ABCDE12345.com.example.app"])
        #expect(association.appClipApps == ["ABCDE12345.com.example.app.Clip"])
        #expect(association.activityContinuationApps == ["ABCDE12345.com.example.app", "FGHIJ67890.com.example.handoff"])
        #expect(association.substitutionVariables == ["food": ["burrito", "pizza"]])
        #expect(association.defaults?.caseSensitive == false)
        #expect(association.details.count == 2)
        let first = association.details[0]
        #expect(first.defaults?.percentEncoded == false)
        #expect(first.paths == nil)
        let components = try #require(first.components)
        #expect(components.count == 3)
        #expect(components[0].fragment == "no_universal_links")
        #expect(components[0].exclude == true)
        #expect(components[0].comment == "...")
        #expect(components[1].path == "/buy/*")
        #expect(components[1].exclude == nil)
        #expect(components[2].query == .items(["articleNumber": "????"]))
        #expect(association.details[1].paths == ["/legacy/*"])
        #expect(association.details[1].components == nil)
    }

    @Test func pathConstants() {
        #expect(AppSiteAssociation.wellKnownPath == "/.well-known/apple-app-site-association")
        #expect(AppSiteAssociation.legacyPath == "/apple-app-site-association")
    }

    @Test(arguments: [
        ("", WebMarkupError.Code.invalidJSON, "not valid JSON: unexpected end of data at line 1, column 1"),
        ("{", .invalidJSON, "expected a string key at line 1, column 2"),
        ("{\"applinks\": {\n  \"details\": [,]}}", .invalidJSON, "unexpected character `,` at line 2, column 15"),
        ("{} x", .invalidJSON, "unexpected text after the JSON value"),
        ("{\"a\": tru}", .invalidJSON, "invalid literal"),
        ("{\"a\": 01}", .invalidJSON, "expected `,` or `}`"),
        ("{\"a\": \"\\x\"}", .invalidJSON, "invalid escape"),
        ("{\"a\": \"\\ud800\"}", .invalidJSON, "unpaired surrogate"),
        ("{\"a\": \"line\nbreak\"}", .invalidJSON, "unescaped control character"),
        ("[]", .invalidJSON, "top level is an array; it must be a dictionary"),
        ("\"x\"", .invalidJSON, "top level is a string"),
        ("12", .invalidJSON, "top level is the number 12"),
    ])
    func malformedJSONThrowsAClearError(json: String, code: WebMarkupError.Code, fragment: String) {
        do {
            _ = try AppSiteAssociation(json: json)
            Issue.record("expected an error for \(json)")
        } catch let error as WebMarkupError {
            #expect(error.code == code)
            #expect(error.message.contains(fragment), "\(error.message)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func invalidUTF8IsRefused() {
        let data = Data(#"{"applinks": {"details": "caf"#.utf8) + Data([0xE9]) + Data(#""}}"#.utf8)
        #expect(throws: WebMarkupError(.invalidJSON, "The association file is not valid UTF-8 text.")) {
            try AppSiteAssociation(data: data)
        }
    }

    @Test func filesOver128KBAreRefused() throws {
        let padding = String(repeating: " ", count: 128 * 1024)
        let exact = Data(("{}" + padding).utf8.prefix(128 * 1024))
        _ = try AppSiteAssociation(data: exact)
        let over = Data(("{}" + padding).utf8)
        do {
            _ = try AppSiteAssociation(data: over)
            Issue.record("expected pageTooLarge")
        } catch let error as WebMarkupError {
            #expect(error.code == .pageTooLarge)
            #expect(error.message.contains("131074 bytes"))
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let json = #"{"a": "# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        #expect(throws: WebMarkupError.self) { try AppSiteAssociation(data: Data(json.utf8.prefix(128 * 1024))) }
        let deep = String(repeating: "[", count: 50_000)
        #expect(throws: WebMarkupError.self) { try AppSiteAssociation(json: deep) }
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let data = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"applinks": {"details": [{"appID": "\#(F.app)", "paths": ["*"]}]}}"#.utf8)
        #expect(try AppSiteAssociation(data: data).handler(for: F.url("/x")) == F.app)
    }

    @Test func jsonReaderKeepsOrderTypesAndEscapes() throws {
        let text = #"{"b": 1, "a": true, "n": 1.5e3, "s": "\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "b": [null, false, -0]}"#
        let value = try AssociationJSON.parse(Array(text.utf8))
        let object = try #require(value.objectValue)
        #expect(object.keys == ["b", "a", "n", "s"])
        #expect(object.duplicateKeys == ["b"])
        #expect(object["a"]?.boolValue == true)
        guard case .number(let number)? = object["n"] else { Issue.record("n is not a number"); return }
        #expect(number == "1.5e3")
        #expect(object["s"]?.stringValue == "\"\\/\u{8}\u{C}\n\r\té😀")
        #expect(object["b"]?.arrayValue?.count == 3)
        // Numbers are not booleans.
        let one = try AssociationJSON.parse(Array("1".utf8))
        #expect(one.boolValue == nil)
    }

    @Test func everyAppIDOnceInEvaluationOrder() throws {
        let association = try AppSiteAssociation(json: #"""
            {"applinks": {"details": [
              {"appIDs": ["\#(F.other)", "\#(F.app)"], "paths": ["*"]},
              {"appID": "\#(F.app)", "appIDs": ["\#(F.third)"], "paths": ["*"]},
              {"appIDs": [7, "\#(F.other)"], "paths": ["*"]}]}}
            """#)
        #expect(association.applicationIdentifiers == [F.other, F.app, F.third])
        #expect(association.details[1].applicationIdentifiers == [F.app, F.third])
    }

    @Test func emptyObjectIsAnEmptyAssociation() throws {
        let association = try AppSiteAssociation(json: "{}")
        #expect(association.details.isEmpty)
        #expect(association.applicationIdentifiers.isEmpty)
        #expect(association.webCredentialsApps.isEmpty)
        #expect(!association.hasAppLinks)
    }

    @Test func worksAcrossTasks() async throws {
        let association = try AppSiteAssociation(json: Self.full)
        let result = await Task.detached {
            association.handler(for: URL(string: "https://example.com/BUY/1")!)
        }.value
        #expect(result == "ABCDE12345.com.example.app")
    }
}
