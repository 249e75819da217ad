import Foundation
import Testing
@testable import WebMarkup

/// Shared helpers for the association tests.
enum AssociationFixtures {
    static let app = "ABCDE12345.com.example.app"
    static let other = "ABCDE12345.com.example.other"
    static let third = "FGHIJ67890.com.example.third"

    static func url(_ suffix: String) -> URL {
        URL(string: "https://example.com" + suffix)!
    }

    /// One entry for `app` with the given components (a JSON array body).
    static func components(_ components: String, entryDefaults: String? = nil, domainDefaults: String? = nil, variables: String? = nil) throws -> AppSiteAssociation {
        var appLinks: [String] = []
        if let domainDefaults { appLinks.append(#""defaults": \#(domainDefaults)"#) }
        if let variables { appLinks.append(#""substitutionVariables": \#(variables)"#) }
        let entryDefaultsText = entryDefaults.map { #", "defaults": \#($0)"# } ?? ""
        appLinks.append(#""details": [{"appIDs": ["\#(app)"]\#(entryDefaultsText), "components": [\#(components)]}]"#)
        return try AppSiteAssociation(json: #"{"applinks": {\#(appLinks.joined(separator: ", "))}}"#)
    }

    static func result(_ association: AppSiteAssociation, _ suffix: String, for identifier: String = app) -> AssociationMatch {
        association.match(url(suffix), applicationIdentifier: identifier)
    }
}

@Suite struct AssociationMatchingTests {
    typealias F = AssociationFixtures

    static let legacy = #"""
        {"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.app",
          "paths": ["/wwdc/news/", "NOT /videos/wwdc/2010/*", "/videos/wwdc/201?/*"]}]}}
        """#

    @Test(arguments: [
        ("/wwdc/news/", AssociationMatch.match),
        ("/wwdc/news", .match),
        ("/wwdc/news/?q=1#top", .match),
        ("/WWDC/news/", .none),
        ("/videos/wwdc/2010/keynote", .block),
        ("/videos/wwdc/2010", .block),
        ("/videos/wwdc/2011/keynote", .match),
        ("/videos/wwdc/2020/keynote", .none),
        ("/elsewhere", .none),
    ])
    func legacyPaths(path: String, expected: AssociationMatch) throws {
        let association = try AppSiteAssociation(json: Self.legacy)
        #expect(F.result(association, path) == expected)
        #expect(F.result(association, path, for: F.other) == .none)
    }

    @Test(arguments: [
        // First match wins and stops: an exclusion does not "skip and keep looking".
        (#"["/a/*", "NOT /a/b/*"]"#, "/a/b/c", AssociationMatch.match),
        (#"["NOT /a/b/*", "/a/*"]"#, "/a/b/c", .block),
        (#"["NOT /a/b/*", "/a/*"]"#, "/a/c", .match),
        (#"["NOT *", "/a/*"]"#, "/a/c", .block),
        (#"["NOT/a/*"]"#, "/a/c", .none),
        (#"["NOT/a/*"]"#, "/NOT/a/c", .match),
    ])
    func legacyFirstMatchStops(paths: String, path: String, expected: AssociationMatch) throws {
        let association = try AppSiteAssociation(json: #"{"applinks": {"details": [{"appID": "\#(F.app)", "paths": \#(paths)}]}}"#)
        #expect(F.result(association, path) == expected)
    }

    @Test(arguments: [
        (#"{"/": "/a/*"}, {"/": "/a/b/*", "exclude": true}"#, "/a/b/c", AssociationMatch.match),
        (#"{"/": "/a/b/*", "exclude": true}, {"/": "/a/*"}"#, "/a/b/c", .block),
        (#"{"/": "/a/b/*", "exclude": true}, {"/": "/a/*"}"#, "/a/c", .match),
        (#"{"/": "/a/b/*", "exclude": false}, {"/": "/a/*", "exclude": true}"#, "/a/b", .match),
        (#"{"/": "/a/b/*", "exclude": true}"#, "/z", .none),
    ])
    func componentsFirstMatchStops(components: String, path: String, expected: AssociationMatch) throws {
        #expect(F.result(try F.components(components), path) == expected)
    }

    static let appleOverview = #"""
        {"#": "no_universal_links", "exclude": true, "comment": "Matches any URL with a fragment no_universal_links"},
        {"/": "/buy/*"},
        {"/": "/help/website/*", "exclude": true},
        {"/": "/help/*", "?": {"articleNumber": "????"}}
        """#

    @Test(arguments: [
        ("/buy/42", AssociationMatch.match),
        ("/buy", .match),
        ("/buy/42#no_universal_links", .block),
        ("/buy/42#other", .match),
        ("/help/website/faq", .block),
        ("/help/website", .block),
        ("/help/x?articleNumber=1234", .match),
        ("/help/x?utm=1&articleNumber=1234", .match),
        ("/help/x?articleNumber=123", .none),
        ("/help/x", .none),
        ("/", .none),
    ])
    func applesOverviewExample(path: String, expected: AssociationMatch) throws {
        #expect(F.result(try F.components(Self.appleOverview), path) == expected)
    }

    @Test(arguments: [
        (#"{"b": "*"}"#, "?a=1", AssociationMatch.match),
        (#"{"b": "?*"}"#, "?a=1", .none),
        (#"{"b": ""}"#, "?a=1", .match),
        (#"{"b": "1"}"#, "?a=1", .none),
        (#"{"b": "*"}"#, "", .match),
        (#"{"a": "1", "b": "*"}"#, "?a=1", .match),
        (#"{"id": "42"}"#, "?id=42&id=7", .none),
        (#"{"id": "42"}"#, "?id=7&id=42", .none),
        (#"{"id": "42"}"#, "?id=7&id=42&id=9", .none),
        (#"{"id": "7"}"#, "?id=7&id=7", .match),
        (#"{"id": "*"}"#, "?id=7&id=42", .match),
        (#"{"id": ""}"#, "?id=7&id=42", .none),
        (#"{"id": "?*"}"#, "?id=7&id=42", .match),
        (#"{"id": "7,42"}"#, "?id=7&id=42", .none),
        (#"{"flag": ""}"#, "?flag", .match),
        (#"{"flag": "?*"}"#, "?flag", .none),
        (#"{"flag": ""}"#, "?flag=", .match),
        (#"{"articleNumber": "????"}"#, "?articleNumber=4815&utm_source=x", .match),
        (#"{"articleNumber": "????"}"#, "?articleNumber=481", .none),
        (#"{"q": "a%20b"}"#, "?q=a%20b", .match),
        (#"{"q": "a b"}"#, "?q=a%20b", .none),
        // One non-string predicate: Apple ignores the whole dictionary.
        (#"{"flag": true}"#, "?flag=1", .match),
        (#"{"flag": true}"#, "?other=1", .match),
        (#"{"flag": false}"#, "?flag=1", .match),
        (#"{"n": 5}"#, "?n=5", .match),
        (#"{"n": null}"#, "?n=5", .match),
        (#"{"a": "1", "flag": true}"#, "?a=2", .match),
        (#"{"a": ["1"]}"#, "?a=2", .match),
        (#"{"a": {"b": "1"}}"#, "?a=2", .match),
    ])
    func queryDictionary(query: String, suffix: String, expected: AssociationMatch) throws {
        let association = try F.components(#"{"/": "/x", "?": \#(query)}"#)
        #expect(F.result(association, "/x" + suffix) == expected)
    }

    @Test(arguments: [
        (#""a=1""#, "?a=1", AssociationMatch.match),
        (#""a=1""#, "?a=1&b=2", .none),
        (#""a=1""#, "", .none),
        (#""*""#, "", .match),
        (#""?*""#, "", .none),
        (#""""#, "", .match),
        (#""""#, "?", .match),
        (#""def""#, "?def", .match),
    ])
    func queryString(query: String, suffix: String, expected: AssociationMatch) throws {
        let association = try F.components(#"{"/": "/x", "?": \#(query)}"#)
        #expect(F.result(association, "/x" + suffix) == expected)
    }

    @Test(arguments: [
        (#""*""#, "", AssociationMatch.match),
        (#""?*""#, "", .none),
        (#""""#, "", .match),
        (#""top""#, "#top", .match),
        (#""top""#, "#top2", .none),
        (#""t?p""#, "#tip", .match),
    ])
    func fragment(fragment: String, suffix: String, expected: AssociationMatch) throws {
        let association = try F.components(##"{"/": "/x", "#": \##(fragment)}"##)
        #expect(F.result(association, "/x" + suffix) == expected)
    }

    @Test func applesBareAbcExample() throws {
        let association = try F.components(##"{"/": "abc", "?": "def", "#": "*"}"##)
        #expect(F.result(association, "/abc?def") == .match)
        #expect(F.result(association, "/abc?defg") == .none)
    }

    @Test(arguments: [
        (#"{"/": "/a%20b"}"#, "/a%20b", AssociationMatch.match),
        (#"{"/": "/a b"}"#, "/a%20b", .none),
        (#"{"/": "/a b", "percentEncoded": false}"#, "/a%20b", .match),
        (#"{"/": "/a%20b", "percentEncoded": false}"#, "/a%20b", .none),
        (#"{"/": "/a/b"}"#, "/a%2Fb", .none),
        (#"{"/": "/a%2Fb"}"#, "/a%2Fb", .match),
        (#"{"/": "/a/b", "percentEncoded": false}"#, "/a%2Fb", .match),
        (#"{"/": "/caf%C3%A9"}"#, "/caf%C3%A9", .match),
        (#"{"/": "/caf%C3%A9"}"#, "/caf%c3%a9", .none),
        (#"{"/": "/caf\u00e9", "percentEncoded": false}"#, "/caf%C3%A9", .match),
        (#"{"/": "/caf\u00e9", "percentEncoded": false}"#, "/caf%c3%a9", .match),
        (#"{"/": "/caf\u00e9"}"#, "/caf%C3%A9", .none),
        (#"{"/": "/caf?"}"#, "/caf%C3%A9", .none),
        (#"{"/": "/caf??????"}"#, "/caf%C3%A9", .match),
        (#"{"/": "/caf?", "percentEncoded": false}"#, "/caf%C3%A9", .match),
        (#"{"/": "/x", "?": {"q": "a b"}, "percentEncoded": false}"#, "/x?q=a%20b", .match),
        (#"{"/": "/x", "?": "q=a b", "percentEncoded": false}"#, "/x?q=a%20b", .match),
        (##"{"/": "/x", "#": "a b", "percentEncoded": false}"##, "/x#a%20b", .match),
        (##"{"/": "/x", "#": "a b"}"##, "/x#a%20b", .none),
    ])
    func percentEncoding(component: String, path: String, expected: AssociationMatch) throws {
        #expect(F.result(try F.components(component), path) == expected)
    }

    @Test func unicodeURLsAreMatchedPercentEncoded() throws {
        let url = try #require(URL(string: "https://example.com/caf%C3%A9/menu"))
        let encoded = try F.components(#"{"/": "/caf%C3%A9/*"}"#)
        let decoded = try F.components(#"{"/": "/café/*", "percentEncoded": false}"#)
        #expect(encoded.match(url, applicationIdentifier: F.app) == .match)
        #expect(decoded.match(url, applicationIdentifier: F.app) == .match)
    }

    @Test(arguments: [
        (#"{"/": "/foo"}"#, "/FOO", AssociationMatch.none),
        (#"{"/": "/foo", "caseSensitive": false}"#, "/FOO", .match),
        (#"{"/": "/FOO", "caseSensitive": false}"#, "/foo", .match),
        (#"{"/": "/$(food)", "caseSensitive": false}"#, "/pIZZA", .match),
        (#"{"/": "/$(food)"}"#, "/pizza", .none),
        (#"{"/": "/$(food)"}"#, "/Pizza", .match),
        (#"{"/": "/$(upper)", "caseSensitive": false}"#, "/a", .match),
        (#"{"/": "/$(upper)"}"#, "/a", .none),
        (#"{"/": "/$(region)", "caseSensitive": false}"#, "/gb", .match),
        (#"{"/": "/x", "?": {"Q": "X"}, "caseSensitive": false}"#, "/x?q=x", .match),
        (#"{"/": "/x", "?": {"Q": "X"}}"#, "/x?q=x", .none),
        (#"{"/": "/x", "?": "Q=X", "caseSensitive": false}"#, "/x?q=x", .match),
        (##"{"/": "/x", "#": "Top", "caseSensitive": false}"##, "/x#TOP", .match),
        (##"{"/": "/x", "#": "Top"}"##, "/x#TOP", .none),
    ])
    func caseSensitivity(component: String, path: String, expected: AssociationMatch) throws {
        let association = try F.components(component, variables: #"{"food": ["Pizza"]}"#)
        #expect(F.result(association, path) == expected)
    }

    @Test(arguments: [
        // (domain defaults, entry defaults, component, URL, expected)
        (#"{"caseSensitive": false}"#, "", #"{"/": "/foo"}"#, "/FOO", AssociationMatch.match),
        (#"{"caseSensitive": true}"#, "", #"{"/": "/foo"}"#, "/FOO", .none),
        (#"{"caseSensitive": false}"#, #"{"caseSensitive": true}"#, #"{"/": "/foo"}"#, "/FOO", .none),
        (#"{"caseSensitive": false}"#, #"{"caseSensitive": true}"#, #"{"/": "/foo", "caseSensitive": false}"#, "/FOO", .match),
        ("", #"{"caseSensitive": false}"#, #"{"/": "/foo"}"#, "/FOO", .match),
        ("", #"{"percentEncoded": false}"#, #"{"/": "/a b"}"#, "/a%20b", .match),
        (#"{"percentEncoded": false}"#, "", #"{"/": "/a b", "percentEncoded": true}"#, "/a%20b", .none),
        // `/`, `?`, `#` and `exclude` in defaults act as defaults [oracle-reported].
        (##"{"/": "/foo/*"}"##, "", ##"{"#": "*"}"##, "/bar", .none),
        (##"{"/": "/foo/*"}"##, "", ##"{"#": "*"}"##, "/foo/1", .match),
        ("", ##"{"/": "/foo/*"}"##, ##"{"#": "*"}"##, "/bar", .none),
        (##"{"/": "/bar"}"##, ##"{"/": "/foo/*"}"##, ##"{"#": "*"}"##, "/foo/1", .match),
        (#"{"/": "/foo/*"}"#, "", #"{"/": "/bar"}"#, "/bar", .match),
        (##"{"exclude": true}"##, "", ##"{"#": "*"}"##, "/bar", .block),
        (#"{"exclude": true}"#, "", #"{"/": "/a", "exclude": false}"#, "/a", .match),
        (##"{"?": {"id": "??"}}"##, "", ##"{"#": "*"}"##, "/bar?id=7", .none),
        (##"{"?": {"id": "??"}}"##, "", ##"{"#": "*"}"##, "/bar?id=77", .match),
        (##"{"#": "?*"}"##, "", ##"{"/": "/x"}"##, "/x", .none),
        (##"{"#": "?*"}"##, "", ##"{"/": "/x"}"##, "/x#f", .match),
    ])
    func defaultsHierarchy(domain: String, entry: String, component: String, path: String, expected: AssociationMatch) throws {
        let association = try F.components(component, entryDefaults: entry.isEmpty ? nil : entry, domainDefaults: domain.isEmpty ? nil : domain)
        #expect(F.result(association, path) == expected)
    }

    @Test func componentsReplacePaths() throws {
        let association = try AppSiteAssociation(json: #"""
            {"applinks": {"details": [{"appID": "\#(F.app)", "paths": ["/p/*"], "components": [{"/": "/c/*"}]}]}}
            """#)
        #expect(F.result(association, "/p/1") == .none)
        #expect(F.result(association, "/c/1") == .match)
        #expect(association.details[0].paths == ["/p/*"])
    }

    @Test func substitutionVariablesInADocument() throws {
        let association = try F.components(#"{"/": "/$(lang)_$(region)/$(food)/"}"#, variables: #"{"food": ["burrito", "pizza"]}"#)
        #expect(F.result(association, "/en_US/pizza/") == .match)
        #expect(F.result(association, "/en_GB/burrito") == .match)
        #expect(F.result(association, "/en_UK/pizza/") == .none)
        #expect(F.result(association, "/english_US/pizza/") == .none)
        #expect(F.result(association, "/en_US/sushi/") == .none)
    }

    @Test func appIDAndAppIDsAreUnited() throws {
        let association = try AppSiteAssociation(json: #"""
            {"applinks": {"details": [{"appID": "\#(F.app)", "appIDs": ["\#(F.other)", "\#(F.app)"], "components": [{"/": "/x"}]}]}}
            """#)
        #expect(association.applicationIdentifiers == [F.app, F.other])
        #expect(F.result(association, "/x", for: F.app) == .match)
        #expect(F.result(association, "/x", for: F.other) == .match)
        #expect(F.result(association, "/x", for: F.third) == .none)
    }

    @Test func legacyDetailsDictionaryIsReadInSortedOrder() throws {
        let association = try AppSiteAssociation(json: #"""
            {"applinks": {"apps": [], "details": {
                "ZZZZZ12345.com.example.z": {"paths": ["*"]},
                "AAAAA12345.com.example.a": {"paths": ["NOT /private/*", "*"]}}}}
            """#)
        #expect(association.applicationIdentifiers == ["AAAAA12345.com.example.a", "ZZZZZ12345.com.example.z"])
        #expect(association.handler(for: F.url("/page")) == "AAAAA12345.com.example.a")
        #expect(association.handler(for: F.url("/private/x")) == "ZZZZZ12345.com.example.z")
        #expect(F.result(association, "/private/x", for: "AAAAA12345.com.example.a") == .block)
    }

    static let twoApps = #"""
        {"applinks": {"details": [
            {"appIDs": ["\#(AssociationFixtures.other)", "\#(AssociationFixtures.app)"], "components": [{"/": "/private/*", "exclude": true}, {"/": "/shared/*"}]},
            {"appID": "\#(AssociationFixtures.third)", "components": [{"/": "*"}]},
            {"appIDs": ["\#(AssociationFixtures.app)"], "components": [{"/": "/mine/*"}, {"/": "/private/*"}]}
        ]}}
        """#

    @Test(arguments: [
        ("/shared/1", AssociationFixtures.other as String?),
        ("/private/1", AssociationFixtures.third),
        ("/mine/1", AssociationFixtures.app),
        ("/anything", AssociationFixtures.third),
    ])
    func handlerIsTheFirstMatchingAppInFileOrder(path: String, expected: String?) throws {
        let association = try AppSiteAssociation(json: Self.twoApps)
        #expect(association.handler(for: F.url(path)) == expected)
    }

    @Test func anExclusionBlocksOnlyItsOwnEntrysAppsAndStopsLaterEntries() throws {
        let association = try AppSiteAssociation(json: Self.twoApps)
        // The first entry listing `app` blocks /private; the later entry's /private rule is never reached.
        #expect(F.result(association, "/private/1", for: F.app) == .block)
        #expect(F.result(association, "/private/1", for: F.third) == .match)
        #expect(F.result(association, "/mine/1", for: F.app) == .match)
        #expect(F.result(association, "/mine/1", for: F.other) == .none)
        #expect(association.applicationIdentifiers == [F.other, F.app, F.third])
    }

    @Test func noApplinksMatchesNothing() throws {
        let association = try AppSiteAssociation(json: #"{"webcredentials": {"apps": ["\#(F.app)"]}}"#)
        #expect(!association.hasAppLinks)
        #expect(F.result(association, "/") == .none)
        #expect(association.handler(for: F.url("/")) == nil)
        #expect(association.webCredentialsApps == [F.app])
    }

    @Test(arguments: [
        #"{"applinks": []}"#,
        #"{"applinks": {"details": "nope"}}"#,
        #"{"applinks": {"details": [1, "x", null]}}"#,
        #"{"applinks": {"details": [{"appIDs": "ABCDE12345.com.example.app", "components": [{"/": "*"}]}]}}"#,
        #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "components": {"/": "*"}}]}}"#,
        #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": "*"}]}}"#,
        #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "components": [[], 3, "x"]}]}}"#,
        #"{"applinks": {"defaults": 7, "substitutionVariables": [1], "details": [{"appID": "ABCDE12345.com.example.app", "defaults": "x", "components": []}]}}"#,
    ])
    func wrongTypesAreIgnored(json: String) throws {
        let association = try AppSiteAssociation(json: json)
        #expect(F.result(association, "/anything") == .none)
        #expect(association.handler(for: F.url("/anything")) == nil)
    }

    @Test(arguments: [
        (#"{"/": "/x", "exclude": 1}"#, AssociationMatch.match),
        (#"{"/": "/x", "exclude": "true"}"#, .match),
        (#"{"/": "/x", "exclude": true}"#, .block),
        (#"{"/": 5, "exclude": true}"#, .block),
        (#"{"/": "/X", "caseSensitive": 0}"#, .none),
        (#"{"/": "/x", "?": 3}"#, .match),
    ])
    func nonBooleanFlagsAndMistypedPatternsCountAsAbsent(component: String, expected: AssociationMatch) throws {
        #expect(F.result(try F.components(component), "/x") == expected)
    }

    @Test func emptyPathURLsAreTheRoot() throws {
        let association = try F.components(#"{"/": "/"}"#)
        #expect(association.match(URL(string: "https://example.com")!, applicationIdentifier: F.app) == .match)
        #expect(F.result(association, "/") == .match)
        #expect(F.result(association, "/a") == .none)
    }
}
