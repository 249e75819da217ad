import Foundation
import Testing
@testable import WebMarkup

@Suite struct AssociationValidatorTests {
    typealias F = AssociationFixtures

    static let ok = AssociationFetch(statusCode: 200, contentType: "application/json", redirects: [], finalURL: nil, byteCount: 0)

    static func findings(_ json: String, fetch: AssociationFetch? = nil, samples: [String] = []) -> [AssociationFinding] {
        AssociationValidator.validate(data: Data(json.utf8), fetch: fetch, sampleURLs: samples.map(F.url))
    }

    static func codes(_ json: String, fetch: AssociationFetch? = nil, samples: [String] = []) -> [String] {
        findings(json, fetch: fetch, samples: samples).map(\.code)
    }

    /// A well-formed entry around `components`.
    static func entry(_ components: String, variables: String? = nil) -> String {
        let variablesText = variables.map { #""substitutionVariables": \#($0), "# } ?? ""
        return #"{"applinks": {\#(variablesText)"details": [{"appIDs": ["\#(F.app)"], "components": [\#(components)]}]}}"#
    }

    static let clean = #"""
        {"applinks": {
            "defaults": {"caseSensitive": false},
            "substitutionVariables": {"food": ["burrito", "pizza"]},
            "details": [{
                "appIDs": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app2"],
                "defaults": {"percentEncoded": false},
                "components": [
                    {"#": "no_universal_links", "exclude": true, "comment": "Matches any URL with a fragment no_universal_links"},
                    {"/": "/help/website/*", "exclude": true},
                    {"/": "/buy/*"},
                    {"/": "/help/*", "?": {"articleNumber": "????"}},
                    {"/": "/$(lang)_$(region)/$(food)/"},
                    {"/": "/café/*"}]}]},
         "webcredentials": {"apps": ["ABCDE12345.com.example.app"]},
         "appclips": {"apps": ["ABCDE12345.com.example.app.Clip"]},
         "activitycontinuation": {"apps": ["ABCDE12345.com.example.app"]}}
        """#

    @Test func aCleanFileHasNoFindings() {
        let fetch = AssociationFetch(statusCode: 200, contentType: "application/json; charset=utf-8", byteCount: Self.clean.utf8.count)
        #expect(Self.findings(Self.clean, fetch: fetch, samples: ["/buy/1", "/en_GB/pizza", "/caf%C3%A9/menu"]) == [])
    }

    @Test(arguments: [
        (AssociationFetch(statusCode: 404, contentType: "text/html", byteCount: 10), ["aasa_unreachable"]),
        (AssociationFetch(statusCode: 200, contentType: "application/octet-stream", byteCount: 10), ["aasa_bad_content_type"]),
        (AssociationFetch(statusCode: 200, contentType: nil, byteCount: 10), ["aasa_bad_content_type"]),
        (AssociationFetch(statusCode: 200, contentType: "Application/JSON ; charset=UTF-8", byteCount: 10), []),
        (AssociationFetch(statusCode: 200, contentType: "application/json",
                          redirects: [URL(string: "https://www.example.com/.well-known/apple-app-site-association")!],
                          finalURL: URL(string: "https://www.example.com/.well-known/apple-app-site-association")!, byteCount: 10),
         ["aasa_redirect"]),
        (AssociationFetch(statusCode: 301, contentType: nil, redirects: [], byteCount: 0), ["aasa_unreachable"]),
        (AssociationFetch(statusCode: 200, contentType: "application/json", byteCount: 200_000), ["aasa_too_large"]),
        (AssociationFetch(statusCode: 200, contentType: "application/json", redirects: [],
                          finalURL: URL(string: "https://example.com/apple-app-site-association")!, byteCount: 10),
         []),
    ])
    func fetchProblems(fetch: AssociationFetch, expected: [String]) {
        #expect(Self.codes(Self.clean, fetch: fetch) == expected)
    }

    @Test func redirectMessageNamesTheChain() throws {
        let fetch = AssociationFetch(statusCode: 200, contentType: "application/json",
                                     redirects: [URL(string: "https://www.example.com/x")!], finalURL: URL(string: "https://www.example.com/x")!, byteCount: 10)
        let finding = try #require(Self.findings(Self.clean, fetch: fetch).first)
        #expect(finding.severity == .error)
        #expect(finding.message.contains("https://www.example.com/x"))
        #expect(finding.message.contains("does not follow redirects"))
    }

    @Test(arguments: [
        ("", "aasa_invalid_json"),
        ("{\"applinks\": }", "aasa_invalid_json"),
        ("[1, 2]", "aasa_not_object"),
        ("null", "aasa_not_object"),
    ])
    func unreadableFiles(json: String, code: String) {
        #expect(Self.codes(json) == [code])
    }

    @Test func invalidUTF8() {
        let data = Data([0x7B, 0xFF, 0x7D])
        #expect(AssociationValidator.validate(data: data, fetch: nil).map(\.code) == ["aasa_invalid_utf8"])
    }

    @Test func tooLargeIsReportedAndTheContentStillChecked() {
        let json = Self.entry(#"{"/": "/x", "casesensitive": true}"#) + String(repeating: " ", count: 140_000)
        #expect(Self.codes(json) == ["aasa_too_large", "aasa_unknown_key"])
    }

    @Test func unknownKeyNamesThePathAndTheLikelyKey() throws {
        let json = Self.entry(#"{"/": "/a"}, {"/": "/b"}, {"/": "/c", "casesensitive": false}"#)
        let findings = Self.findings(json)
        #expect(findings == [AssociationFinding(
            code: "aasa_unknown_key", severity: .error,
            message: "Unknown key `applinks.details[0].components[2].casesensitive`: did you mean `caseSensitive`? Keys are case-sensitive and Apple silently ignores unknown ones, so this setting has no effect.")])
    }

    @Test(arguments: [
        (#"{"applinks": {"detials": []}}"#, "applinks.detials", "details"),
        (#"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "component": []}]}}"#, "applinks.details[0].component", "components"),
        (#"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "components": [{"exlude": true}]}]}}"#, "applinks.details[0].components[0].exlude", "exclude"),
        (#"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "components": [{"PercentEncoded": true}]}]}}"#, "applinks.details[0].components[0].PercentEncoded", "percentEncoded"),
        (#"{"applink": {}}"#, "applink", "applinks"),
        (#"{"webcredentials": {"app": []}}"#, "webcredentials.app", "apps"),
    ])
    func misspelledKeys(json: String, path: String, suggestion: String) throws {
        let finding = try #require(Self.findings(json).first { $0.code == "aasa_unknown_key" })
        #expect(finding.severity == .error)
        #expect(finding.message.contains("`\(path)`") || finding.message.contains(path), "\(finding.message)")
        #expect(finding.message.contains("did you mean `\(suggestion)`"), "\(finding.message)")
    }

    @Test func plainUnknownKeysAreWarnings() throws {
        let findings = Self.findings(Self.entry(#"{"/": "/x", "futureKey": {"a": "b"}}"#))
        #expect(findings == [AssociationFinding(code: "aasa_unknown_key", severity: .warning, message: "Unknown key `applinks.details[0].components[0].futureKey`; Apple ignores it.")])
    }

    @Test(arguments: [
        (#"{"webcredentials": {"apps": []}}"#, ["aasa_no_applinks"]),
        (#"{"applinks": {"apps": ["x"], "details": []}}"#, ["aasa_legacy_apps_not_empty"]),
        (#"{"applinks": {"apps": [], "details": {"ABCDE12345.com.example.app": {"paths": ["/x"]}}}}"#, ["aasa_legacy_details_dictionary"]),
        (#"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": ["/p"], "components": [{"/": "/c"}]}]}}"#, ["aasa_paths_ignored"]),
        (#"{"applinks": {"details": [{"appID": "abcde12345.com.example.app", "paths": ["/p"]}]}}"#, ["aasa_bad_app_id"]),
        (#"{"applinks": {"details": [{"appID": "ABCDE1234.com.example.app", "paths": ["/p"]}]}}"#, ["aasa_bad_app_id"]),
        (#"{"applinks": {"details": [{"appIDs": ["com.example.app"], "paths": ["/p"]}]}}"#, ["aasa_bad_app_id"]),
        (#"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.exa_mple"], "paths": ["/p"]}]}}"#, ["aasa_bad_app_id"]),
        (#"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.ex-ample.App2"], "paths": ["/p"]}]}}"#, []),
        (#"{"appclips": {"apps": ["bad"]}, "applinks": {"details": []}}"#, ["aasa_bad_app_id"]),
        (#"{"applinks": {"details": [{"paths": ["/p"]}]}}"#, ["aasa_no_app_id"]),
        (#"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app"}]}}"#, ["aasa_missing_key"]),
        (#"{"applinks": {}}"#, ["aasa_missing_key"]),
        (#"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": ["/search?q=*"]}]}}"#, ["aasa_legacy_question_mark"]),
        (#"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "appID": "ABCDE12345.com.example.app", "paths": ["/p"]}]}}"#, ["aasa_duplicate_key"]),
        (#"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": ["/a"]}, {"appIDs": ["ABCDE12345.com.example.app"], "paths": ["/b"]}]}}"#, ["aasa_duplicate_app"]),
        (#"{"applinks": {"details": "x"}}"#, ["aasa_wrong_type"]),
        (#"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "components": {"/": "/x"}}]}}"#, ["aasa_wrong_type", "aasa_missing_key"]),
        (#"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "components": [{"/": "/x", "exclude": 1}]}]}}"#, ["aasa_wrong_type"]),
        (#"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "components": [{"/": "/x", "?": {"a": "1", "flag": true}}]}]}}"#, ["aasa_non_string_query"]),
    ])
    func structure(json: String, expected: [String]) {
        #expect(Self.codes(json) == expected)
    }

    @Test func wrongTypeMessagesNameThePath() throws {
        let findings = Self.findings(Self.entry(#"{"/": "/x", "exclude": 1}"#))
        #expect(findings.map(\.message) == ["`applinks.details[0].components[0].exclude` must be true or false, but it is the number 1; it is ignored (as if absent); Apple does not document how it reads other types."])
    }

    @Test func nonStringQueryIsAnError() throws {
        let finding = try #require(Self.findings(Self.entry(#"{"/": "/x", "?": {"a": "1", "flag": true}}"#)).first)
        #expect(finding.severity == .error)
        #expect(finding.message.hasPrefix("`applinks.details[0].components[0][\"?\"].flag` is true"))
        #expect(finding.message.contains("ignores the whole `?` dictionary"))
    }

    @Test(arguments: [
        (#"{"/": "/$(a(b)"}"#, #"{"a(b": ["x"]}"#, ["aasa_variable_bad_name"]),
        (#"{"/": "/$(x)"}"#, #"{"x": ["$(food)"], "food": ["a"]}"#, ["aasa_variable_nested", "aasa_variable_unused"]),
        (#"{"/": "/$(nope)"}"#, "", ["aasa_variable_undefined"]),
        (#"{"/": "/$(alpha)"}"#, #"{"alpha": ["x"]}"#, ["aasa_variable_shadows_builtin"]),
        (#"{"/": "/$(x)"}"#, #"{"x": []}"#, ["aasa_variable_empty"]),
        (#"{"/": "/x"}"#, #"{"x": ["a"]}"#, ["aasa_variable_unused"]),
        (#"{"/": "/$(x"}"#, "", ["aasa_variable_syntax"]),
        (##"{"/": "/x", "?": {"lang": "$(lang)"}, "#": "$(digit)"}"##, "", []),
        (#"{"/": "/x/$(Canadian food)"}"#, #"{"Canadian food": ["poutine"]}"#, []),
    ])
    func substitutionVariables(components: String, variables: String, expected: [String]) {
        #expect(Self.codes(Self.entry(components, variables: variables.isEmpty ? nil : variables)) == expected)
    }

    @Test(arguments: [
        (#"{"/": "/café/*"}"#, "", ["aasa_non_ascii_pattern"]),
        (#"{"/": "/café/*", "percentEncoded": false}"#, "", []),
        (#"{"/": "/$(dish)"}"#, #"{"dish": ["crêpe"]}"#, ["aasa_non_ascii_pattern"]),
        (#"{"/": "/a b"}"#, "", ["aasa_unencoded_character"]),
        (#"{"/": "/a%20b"}"#, "", []),
        (##"{"/": "/x", "#": "caf\u00e9"}"##, "", ["aasa_non_ascii_pattern"]),
    ])
    func encoding(components: String, variables: String, expected: [String]) {
        #expect(Self.codes(Self.entry(components, variables: variables.isEmpty ? nil : variables)) == expected)
    }

    @Test func nonASCIIMessageSuggestsTheEncoding() throws {
        let finding = try #require(Self.findings(Self.entry(#"{"/": "/café/*"}"#)).first)
        #expect(finding.message.contains("`applinks.details[0].components[0][\"/\"]`"))
        #expect(finding.message.contains("%C3%A9"))
    }

    @Test func nonASCIIInALegacyPath() {
        #expect(Self.codes(#"{"applinks": {"details": [{"appID": "\#(F.app)", "paths": ["/café"]}]}}"#) == ["aasa_non_ascii_pattern"])
    }

    @Test(arguments: [
        (#"{"/": "*"}, {"/": "/x", "exclude": true}"#, ["aasa_catch_all", "aasa_unreachable_rule"]),
        (#"{"/": "/help/*"}, {"/": "/help/website/*", "exclude": true}"#, ["aasa_unreachable_rule"]),
        (#"{"/": "/help/website/*", "exclude": true}, {"/": "/help/*"}"#, []),
        (#"{"/": "/buy/*"}, {"/": "/buy", "exclude": true}"#, ["aasa_unreachable_rule"]),
        (#"{"/": "/buy*"}, {"/": "/buy/x", "exclude": true}"#, ["aasa_unreachable_rule"]),
        (#"{"/": "/buy/*"}, {"/": "/buyer", "exclude": true}"#, []),
        (#"{"/": "/buy/*", "?": {"a": "1"}}, {"/": "/buy/x", "exclude": true}"#, []),
        (##"{"/": "/buy/*", "#": "x"}, {"/": "/buy/x", "exclude": true}"##, []),
        (#"{"/": "/Buy/*", "caseSensitive": false}, {"/": "/buy/x", "exclude": true}"#, ["aasa_unreachable_rule"]),
        (#"{"/": "/Buy/*"}, {"/": "/buy/x", "exclude": true, "caseSensitive": false}"#, []),
        (#"{"/": "/a"}, {"/": "/a/"}"#, ["aasa_unreachable_rule"]),
        (#"{"/": "/a/*", "exclude": true}, {"/": "/a/b"}"#, ["aasa_unreachable_rule"]),
        (#"{"/": "/a/?"}, {"/": "/a/b", "exclude": true}"#, []),
        (#"{"/": "/$(lang)/*"}, {"/": "/en/x", "exclude": true}"#, []),
        (##"{"#": "*"}"##, ["aasa_catch_all"]),
        (#"{"/": "/*", "?": "*"}"#, ["aasa_catch_all"]),
        (#"{"/": "*", "exclude": true}"#, []),
        (#"{"/": "*", "?": {"a": "?*"}}"#, []),
    ])
    func ruleOrder(components: String, expected: [String]) {
        #expect(Self.codes(Self.entry(components)) == expected)
    }

    @Test func unreachableExclusionMessage() throws {
        let findings = Self.findings(Self.entry(#"{"/": "/help/*"}, {"/": "/help/website/*", "exclude": true}"#))
        #expect(findings == [AssociationFinding(
            code: "aasa_unreachable_rule", severity: .error,
            message: "The exclusion `applinks.details[0].components[1]` never applies: the earlier rule `applinks.details[0].components[0]` already matches every URL it would, and the first matching rule wins. Move the exclusion above it.")])
    }

    @Test func legacyUnreachableAndCatchAll() {
        let json = #"{"applinks": {"details": [{"appID": "\#(F.app)", "paths": ["/a/*", "NOT /a/b", "*"]}]}}"#
        #expect(Self.codes(json) == ["aasa_catch_all", "aasa_unreachable_rule"])
    }

    @Test func sampleURLsThatOpenNoApp() throws {
        let json = Self.entry(#"{"/": "/private/*", "exclude": true}, {"/": "/shop/*"}"#)
        let findings = Self.findings(json, samples: ["/shop/1", "/private/2", "/about"])
        #expect(findings == [
            AssociationFinding(code: "aasa_no_app_for_url", severity: .warning,
                               message: "The sample URL https://example.com/private/2 opens no app: blocked for \(F.app) by `applinks.details[0].components[0]`."),
            AssociationFinding(code: "aasa_no_app_for_url", severity: .warning,
                               message: "The sample URL https://example.com/about opens no app: no rule for \(F.app) matches."),
        ])
    }

    @Test func regionUKIsExplained() {
        let json = Self.entry(#"{"/": "/$(lang)_$(region)/*"}"#)
        #expect(Self.codes(json, samples: ["/en_GB/x", "/en_UK/x"]) == ["aasa_no_app_for_url", "aasa_variable_region_uk"])
    }

    @Test func signedFilesAreFlagged() throws {
        let data = try #require(Data(base64Encoded: AssociationSignedTests.derBlob))
        let fetch = AssociationFetch(statusCode: 200, contentType: "application/pkcs7-mime", byteCount: data.count)
        let findings = AssociationValidator.validate(data: data, fetch: fetch, sampleURLs: [F.url("/signed/1")])
        #expect(findings.map(\.code) == ["aasa_signed"])
        #expect(findings.first?.message.contains("not verified") == true)
        let json = AssociationFetch(statusCode: 200, contentType: "application/json", byteCount: data.count)
        #expect(AssociationValidator.validate(data: data, fetch: json).map(\.code) == ["aasa_bad_content_type", "aasa_signed"])
        let broken = data.prefix(100)
        #expect(AssociationValidator.validate(data: broken, fetch: nil).map(\.code) == ["aasa_signed", "aasa_invalid_signed_data"])
    }

    @Test func findingsAreCodable() throws {
        let finding = AssociationFinding(code: "aasa_catch_all", severity: .warning, message: "m")
        let data = try JSONEncoder().encode(finding)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains(#""severity":"warning""#))
        #expect(try JSONDecoder().decode(AssociationFinding.self, from: data) == finding)
    }

    @Test func hostileFilesValidateQuickly() {
        var components: [String] = []
        for index in 0..<1_500 {
            components.append(#"{"/": "/*a*a*a*a*a*a*b\#(index)/$(lang)*$(region)", "?": {"q": "*a*a*a*b"}}"#)
        }
        let json = Self.entry(components.joined(separator: ","))
        let sample = "/" + String(repeating: "a", count: 4_000) + "?q=" + String(repeating: "a", count: 2_000)
        let start = ContinuousClock.now
        let findings = Self.findings(json, samples: [sample])
        #expect(findings.map(\.code) == ["aasa_no_app_for_url"])
        #expect(ContinuousClock.now - start < .seconds(20))
    }
}
