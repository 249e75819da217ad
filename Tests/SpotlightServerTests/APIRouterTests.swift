import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import SpotlightIndex
@testable import SpotlightSystem
@testable import SpotlightServer
@testable import SpotlightService

/// The HTTP API in process (Hummingbird's router test framework): every route,
/// its JSON, its errors.
@Suite struct APIRouterTests {
    @Test func searchIsGroupedByAppWithThumbnailsRatingPriceAddressAndActions() async throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        try await fixture.application(fixture.api()).test(.router) { client in
            let found = try await client.execute(uri: "/v1/search?q=pear", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(response.headers[.accessControlAllowOrigin] == nil, "no CORS")
                return try response.decoded(API.SearchResponse.self)
            }
            #expect(found.query == "pear" && found.root == fixture.storesDirectory.path)
            #expect(found.groups.map(\.app.displayName) == ["Grocer", "People"], "the app with the best result first")
            let pear = try #require(found.groups.first?.results.first)
            #expect(pear.reference == "com.example.grocer/default/p-pear")
            #expect(pear.title == "Pear" && pear.description == "Conference pears from the Loire")
            #expect(pear.price == 1.2 && pear.rating == 4 && pear.ratingDescription == "4 stars")
            #expect(pear.thumbnail == "/v1/thumbnail?ref=com.example.grocer%2Fdefault%2Fp-pear")
            #expect(found.groups[0].offersSearchInApp && !found.groups[1].offersSearchInApp)
            let zoe = try #require(found.groups.last?.results.first)
            #expect(zoe.actions.map(\.kind) == ["call", "email"])
            #expect(zoe.actions.map(\.uri) == ["tel:+33142685300", "mailto:zoe@example.com"])
            #expect(found.unavailableApps.isEmpty && found.problems.isEmpty)

            let shop = try await client.execute(uri: "/v1/search?q=montorgueil", method: .get) { try $0.decoded(API.SearchResponse.self) }
            let row = try #require(shop.groups.first?.results.first)
            #expect(row.address == "Rue Montorgueil, Paris" && row.latitude == 48.8647 && row.actions.map(\.kind) == ["navigate"])

            let one = try await client.execute(uri: "/v1/search?q=pe&perApp=1&web=0", method: .get) { try $0.decoded(API.SearchResponse.self) }
            #expect(one.groups.map(\.results.count) == [1, 1] && one.groups[0].hasMoreResults)
            let accented = try await client.execute(uri: "/v1/search?q=zo%C3%AB+pearson", method: .get) { try $0.decoded(API.SearchResponse.self) }
            #expect(accented.query == "zoë pearson" && accented.groups.map(\.app.displayName) == ["People"])
        }
    }

    @Test func badRequestsGetJSONErrorsWithStableCodes() async throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let long = String(repeating: "a", count: 1_025)
        let table: [(String, HTTPRequest.Method, HTTPFields, ByteBuffer?, HTTPResponse.Status, String)] = [
            ("/v1/search", .get, [:], nil, .badRequest, "invalidRequest"),
            ("/v1/search?q=\(long)", .get, [:], nil, .uriTooLong, "queryTooLong"),
            ("/v1/search?q=%FF%FE", .get, [:], nil, .badRequest, "invalidRequest"),
            ("/v1/search?q=a%2", .get, [:], nil, .badRequest, "invalidRequest"),
            ("/v1/search?q=a%00b", .get, [:], nil, .badRequest, "invalidRequest"),
            ("/v1/search?q=a&perApp=0", .get, [:], nil, .badRequest, "invalidRequest"),
            ("/v1/search?q=a&perApp=many", .get, [:], nil, .badRequest, "invalidRequest"),
            ("/v1/search?q=a&web=11", .get, [:], nil, .badRequest, "invalidRequest"),
            ("/v1/nothing", .get, [:], nil, .notFound, "notFound"),
            ("/v1/search?q=a", .delete, [:], nil, .methodNotAllowed, "methodNotAllowed"),
            ("/v1/search?q=a", .options, [.origin: "https://evil.example"], nil, .forbidden, "forbiddenOrigin"),
            ("/v1/search?q=a", .get, [.origin: "https://evil.example"], nil, .forbidden, "forbiddenOrigin"),
            ("/v1/open", .post, [.contentType: "application/json"], try json(API.OpenRequest(reference: "com.example.grocer/default/p-pear")), .unauthorized, "unauthorized"),
            ("/v1/open", .post, [.authorization: "Bearer \(String(repeating: "0", count: 64))", .contentType: "application/json"],
             try json(API.OpenRequest(reference: "com.example.grocer/default/p-pear")), .unauthorized, "unauthorized"),
            ("/v1/open", .post, [.authorization: "Bearer \(ServerFixture.token.value)", .contentType: "text/plain"],
             ByteBuffer(string: "{}"), .badRequest, "invalidRequest"),
            ("/v1/open", .post, authorized(), ByteBuffer(string: "{not json"), .badRequest, "invalidRequest"),
            ("/v1/open", .post, authorized(), ByteBuffer(string: "{}"), .badRequest, "invalidRequest"),
            ("/v1/open", .post, authorized(), ByteBuffer(string: String(repeating: " ", count: 70_000)), .contentTooLarge, "bodyTooLarge"),
            ("/v1/open", .post, authorized(), try json(API.OpenRequest(reference: "com.example.grocer/default/gone")), .notFound, "resultNotFound"),
            ("/v1/open", .post, authorized(), try json(API.OpenRequest(reference: "not a reference")), .notFound, "resultNotFound"),
            ("/v1/open", .post, authorized(), try json(API.OpenRequest(reference: "com.example.nobody/default/x")), .notFound, "appNotRegistered"),
            ("/v1/open", .post, authorized(), try json(API.OpenRequest(web: "file:///etc/passwd")), .badRequest, "invalidRequest"),
            ("/v1/search-in-app", .post, authorized(), try json(API.SearchInAppRequest(app: ServerFixture.people, text: "x")), .conflict, "notContinuable"),
            ("/v1/action", .post, authorized(), try json(API.ActionRequest(reference: "com.example.grocer/default/p-pear", kind: "call")), .badRequest, "invalidRequest"),
            ("/v1/show?ref=com.example.grocer/default/nope", .get, [:], nil, .notFound, "resultNotFound"),
            ("/v1/show?ref=com.example.grocer/../../etc/passwd", .get, [:], nil, .notFound, "resultNotFound"),
            ("/v1/explain?ref=com.example.grocer/default/p-pear", .get, [:], nil, .badRequest, "invalidRequest"),
            ("/v1/thumbnail?ref=com.example.grocer/default/p-peach", .get, [:], nil, .notFound, "notFound"),
            ("/v1/apps/com.example.grocer/icon", .get, [:], nil, .notFound, "notFound"),
            ("/v1/search/live", .get, [:], nil, .badRequest, "invalidRequest"),
        ]
        try await fixture.application(fixture.api()).test(.router) { client in
            for (uri, method, headers, body, status, code) in table {
                try await client.execute(uri: uri, method: method, headers: headers, body: body) { response in
                    #expect(response.status == status, "\(method) \(uri.prefix(80))")
                    #expect(response.errorCode == code, "\(method) \(uri.prefix(80)): \(response.text.prefix(300))")
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                    #expect(response.headers[.accessControlAllowOrigin] == nil)
                }
            }
        }
        #expect(fixture.lines(fixture.appLog).isEmpty && fixture.lines(fixture.openerLog).isEmpty, "nothing refused was carried out")
    }

    @Test func openSearchInAppAndActionsReachTheAppAndTheOpener() async throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        try await fixture.application(fixture.api()).test(.router) { client in
            let opened = try await client.execute(uri: "/v1/open", method: .post, headers: authorized(),
                                                  body: try json(API.OpenRequest(reference: "com.example.grocer/default/p-pear"))) { response in
                #expect(response.status == .ok, "\(response.text)")
                return try response.decoded(API.OpenResponse.self)
            }
            #expect(opened.app == ServerFixture.grocer && opened.appName == "Grocer" && opened.recordedSelection)
            #expect(opened.activityType == "com.apple.corespotlightitem" && opened.output == "grocer handled it\n")
            let received = try UserActivityRecord(jsonData: Data(try #require(fixture.lines(fixture.appLog).first).utf8))
            #expect(received.userInfo["kCSSearchableItemActivityIdentifier"] == .string("p-pear"))
            #expect(try fixture.store(ServerFixture.grocer).engagement(ofItem: "p-pear").selections == 1)

            let inApp = try await client.execute(uri: "/v1/search-in-app", method: .post, headers: authorized(),
                                                 body: try json(API.SearchInAppRequest(app: ServerFixture.grocer, text: "pears"))) {
                try $0.decoded(API.OpenResponse.self)
            }
            #expect(inApp.activityType == "com.apple.corespotlightquerycontinuation")
            let continued = try UserActivityRecord(jsonData: Data(fixture.lines(fixture.appLog)[1].utf8))
            #expect(continued.userInfo["kCSSearchQueryString"] == .string("pears"))

            for (reference, kind, uri) in [("com.example.people/default/e1", "call", "tel:+33142685300"),
                                           ("com.example.people/default/e1", "email", "mailto:zoe@example.com"),
                                           ("com.example.grocer/default/shop", "navigate", "geo:48.8647,2.347")] {
                let done = try await client.execute(uri: "/v1/action", method: .post, headers: authorized(),
                                                    body: try json(API.ActionRequest(reference: reference, kind: kind))) { response in
                    #expect(response.status == .ok, "\(response.text)")
                    return try response.decoded(API.ActionResponse.self)
                }
                #expect(done.uri == uri && done.kind == kind)
            }
            #expect(fixture.lines(fixture.openerLog) == ["tel:+33142685300", "mailto:zoe@example.com", "geo:48.8647,2.347"])
        }
    }

    @Test func placesAreSuggestedBeforeAnythingIsTypedAndTheirActionsAct() async throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        try await fixture.application(fixture.api()).test(.router) { client in
            let none = try await client.execute(uri: "/v1/suggestions/places", method: .get) { try $0.decoded(API.PlaceSuggestionsResponse.self) }
            #expect(none.suggestions.isEmpty && none.context == nil)

            let shop = try fixture.viewShop()
            let found = try await client.execute(uri: "/v1/suggestions/places", method: .get) { response in
                #expect(response.status == .ok, "\(response.text)")
                return try response.decoded(API.PlaceSuggestionsResponse.self)
            }
            let place = try #require(found.suggestions.first)
            #expect(found.suggestions.count == 1)
            #expect(place.name == "Ray's Fruit Emporium" && place.attribution == "From Grocer" && place.app == ServerFixture.grocer)
            #expect(place.address == "120 Mulberry Street, New York, NY 10013")
            #expect(place.reference == "\(ServerFixture.grocer)/.activities/\(shop.identifier)")
            #expect(place.actions.map(\.kind) == ["navigate", "call"])
            #expect(place.latitude == 40.7194 && place.longitude == -73.997)

            // A context asking for a place narrows; one that does not asks for none.
            let meet = try await client.execute(uri: "/v1/suggestions/places?context=meet+me+at+ray", method: .get) {
                try $0.decoded(API.PlaceSuggestionsResponse.self)
            }
            #expect(meet.suggestions.map(\.name) == ["Ray's Fruit Emporium"] && meet.context == "meet me at ray")
            let thanks = try await client.execute(uri: "/v1/suggestions/places?context=thanks", method: .get) {
                try $0.decoded(API.PlaceSuggestionsResponse.self)
            }
            #expect(thanks.suggestions.isEmpty)
            let bad = try await client.execute(uri: "/v1/suggestions/places?limit=0", method: .get) { $0 }
            #expect(bad.status == .badRequest && bad.errorCode == "invalidRequest")

            // Its actions go through the opener, as a result's do.
            for (kind, uri) in [("navigate", "geo:40.7194,-73.997"), ("call", "tel:+12125550142")] {
                let done = try await client.execute(uri: "/v1/action", method: .post, headers: authorized(),
                                                    body: try json(API.ActionRequest(reference: place.reference, kind: kind))) { response in
                    #expect(response.status == .ok, "\(response.text)")
                    return try response.decoded(API.ActionResponse.self)
                }
                #expect(done.uri == uri)
            }
            #expect(fixture.lines(fixture.openerLog) == ["geo:40.7194,-73.997", "tel:+12125550142"])
        }
    }

    @Test func showExplainAppsHealthThumbnailAndMetrics() async throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let api = fixture.api(reusesAnswers: true)   // (the metrics count answers from memory)
        try await fixture.application(api).test(.router) { client in
            let shown = try await client.execute(uri: "/v1/show?ref=com.example.grocer%2Fdefault%2Fp-pear", method: .get) { try $0.decoded(API.ShowResponse.self) }
            #expect(shown.attributes["title"] == "\"Pear\"" && shown.attributes["price"] == "1.2" && shown.attributes["thumbnailData"] == "<\(ServerFixture.png.count) bytes>")
            #expect(shown.views == 0 && shown.selections == 0)

            let why = try await client.execute(uri: "/v1/explain?ref=com.example.grocer/default/p-pear&q=pear", method: .get) { try $0.decoded(API.ExplainResponse.self) }
            // "pear" also finds Peach and the Paris shop, one typo away as a prefix ("peac…", "par…"), ranked under it.
            #expect(why.matches && why.rank == 1 && why.matchCount == 3 && why.terms.map(\.term) == ["pear*"])
            #expect(why.terms.first?.foundIn == ["contentDescription", "title"] && why.summary.contains("result 1 of 3"), "\(why)")
            let lacking = try await client.execute(uri: "/v1/explain?ref=com.example.grocer/default/p-pear&q=banana", method: .get) { try $0.decoded(API.ExplainResponse.self) }
            #expect(!lacking.matches && lacking.rank == nil && lacking.terms.first?.foundIn == [])

            let apps = try await client.execute(uri: "/v1/apps", method: .get) { try $0.decoded(API.AppsResponse.self) }
            #expect(apps.apps.map(\.bundleIdentifier) == [ServerFixture.grocer, ServerFixture.people])

            let health = try await client.execute(uri: "/v1/health", method: .get) { try $0.decoded(API.Health.self) }
            #expect(health.status == "ok" && health.apps == 2 && health.version == 1 && health.root == fixture.storesDirectory.path)

            try await client.execute(uri: "/v1/thumbnail?ref=com.example.grocer/default/p-pear", method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "image/png")
                #expect(Data(response.body.readableBytesView) == ServerFixture.png)
                #expect(response.headers[.contentSecurityPolicy]?.contains("sandbox") == true)
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
            }

            _ = try await client.execute(uri: "/v1/search?q=pear", method: .get) { $0.status }
            _ = try await client.execute(uri: "/v1/search?q=pear", method: .get) { $0.status }
            let metrics = try await client.execute(uri: "/v1/metrics", method: .get) { $0.text }
            #expect(metrics.contains("openspotlight_searches_answered_from_memory_total 1"), "the second pear came from memory")
            #expect(metrics.contains(#"openspotlight_requests_total{route="/v1/thumbnail",status="200"} 1"#), "\(metrics.prefix(2000))")
            #expect(metrics.contains(#"openspotlight_requests_total{route="/v1/explain",status="200"} 2"#))
            #expect(metrics.contains("# TYPE openspotlight_request_duration_seconds histogram"))
        }
    }

    @Test func theServiceSeesEveryCommittedWrite() async throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        try await fixture.application(fixture.api()).test(.router) { client in
            func titles(_ text: String) async throws -> [String] {
                try await client.execute(uri: "/v1/search?q=\(text)", method: .get) { try $0.decoded(API.SearchResponse.self) }
                    .groups.flatMap(\.results).map(\.title)
            }
            #expect(try await titles("quince") == [])
            let writer = try fixture.store(ServerFixture.grocer)
            try writer.index([SearchableItem(uniqueIdentifier: "p-quince", attributes: ["title": .string("Quince")])])
            #expect(try await titles("quince") == ["Quince"], "an item indexed after the store was opened")
            try writer.deleteItems(withIdentifiers: ["p-quince"])
            #expect(try await titles("quince") == [], "and deleted")
            // Another app registered and indexed while the service runs.
            try fixture.registry.register(AppRegistration(bundleIdentifier: "com.example.late", displayName: "Late", launchCommand: ["/bin/true"]))
            try fixture.store("com.example.late").index([SearchableItem(uniqueIdentifier: "q", attributes: ["title": .string("Quince jelly")])])
            #expect(try await titles("quince") == ["Quince jelly"])
            // The store removed and made anew by the app: the new file is read, not the old one.
            try FileManager.default.removeItem(at: fixture.storesDirectory.appendingPathComponent("com.example.late"))
            try fixture.store("com.example.late").index([SearchableItem(uniqueIdentifier: "q2", attributes: ["title": .string("Quince paste")])])
            #expect(try await titles("quince") == ["Quince paste"])
        }
    }

    @Test func theOriginPolicyOfEachListener() {
        let loopback = Listener.loopback(port: 7780)
        let table: [(Listener, String?, HTTPFields, Bool)] = [
            (.unixSocket, "localhost", [:], true),
            (.unixSocket, nil, [:], true),
            (.unixSocket, "localhost", [.origin: "http://127.0.0.1:7780"], false),
            (loopback, "127.0.0.1:7780", [:], true),
            (loopback, "localhost:7780", [.origin: "http://localhost:7780"], true),
            (loopback, "127.0.0.1:7780", [.origin: "http://127.0.0.1:7780"], true),
            (loopback, "evil.example:7780", [:], false),
            (loopback, "127.0.0.1:7781", [:], false),
            (loopback, nil, [:], false),
            (loopback, "127.0.0.1:7780", [.origin: "http://evil.example"], false),
            (loopback, "127.0.0.1:7780", [.origin: "null"], false),
            (loopback, "127.0.0.1:7780", [.origin: "ws://127.0.0.1"], true),
            (loopback, "127.0.0.1:7780", [.origin: "ws://evil.example"], false),
            (loopback, "127.0.0.1:7780", [.origin: "http://127.0.0.1:7781"], false),
            (loopback, "127.0.0.1:7780", [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"], false),
        ]
        for (listener, host, fields, allowed) in table {
            #expect((listener.refusal(authority: host, fields) == nil) == allowed, "\(listener) \(host ?? "-") \(fields)")
        }
    }

    @Test func queryParametersDecodeStrictly() throws {
        let query = try QueryParameters("q=caf%C3%A9+cr%C3%A8me&perApp=5&q=second&empty")
        #expect(query["q"] == "café crème" && query["empty"] == "" && query["missing"] == nil)
        #expect(try query.integer("perApp", default: 3) == 5 && query.integer("web", default: 3) == 3)
        for bad in ["q=%", "q=%G0", "q=%C3", "q=%ED%A0%80"] {
            #expect(throws: APIError.self, "\(bad)") { try QueryParameters(bad) }
        }
    }
}
