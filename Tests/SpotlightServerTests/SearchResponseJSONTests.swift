import Foundation
import Testing
@testable import SpotlightServer

/// `GET /v1/search`'s body, written by hand (``SearchResponseJSON``): it
/// reads back as the response it was made from, as `JSONEncoder`'s does.
@Suite struct SearchResponseJSONTests {
    static let odd = "quote \" backslash \\ slash / tab \t newline \n nul \u{0} bell \u{7} unit \u{1F} del \u{7F} é 漢字 🍐 \u{2028}"

    static let full = API.SearchResponse(
        query: odd, root: "/home/a b/.local/share/openspotlight",
        groups: [
            API.Group(app: API.App(bundleIdentifier: "com.example.grocer", displayName: "Grocer \"Fresh\"", icon: "/v1/apps/com.example.grocer/icon",
                                   activityTypes: ["com.example.grocer.view", odd], supportsSearchContinuation: true),
                      results: [
                          API.Result(reference: "com.example.grocer/default/p/1", title: odd, description: "Ripe", thumbnail: "/v1/thumbnail?ref=x%2Fy",
                                     thumbnailURL: "https://example.com/p.png", contentType: "public.item",
                                     actions: [API.Action(kind: "call", label: "Call", uri: "tel:+1-555-0100"),
                                               API.Action(kind: "navigate", label: "Directions", uri: "geo:48.85,2.35")],
                                     score: 3.556, explanation: "3.556 = text 3.334 × hint(0) 1", rating: 4.5, ratingDescription: "4.5 stars",
                                     price: 0.99, address: "1 Rue de Rivoli, Paris", latitude: 48.8566, longitude: -2.3522e-7, distance: 1_234.5),
                          API.Result(reference: "com.example.grocer/default/p/2", title: "Plain", description: nil, thumbnail: nil, thumbnailURL: nil,
                                     contentType: nil, actions: [], score: 1e-300, explanation: "", rating: nil, ratingDescription: nil, price: nil,
                                     address: nil, latitude: nil, longitude: nil, distance: nil),
                      ],
                      hasMoreResults: true, offersSearchInApp: false),
            API.Group(app: API.App(bundleIdentifier: "org.example.empty", displayName: "", icon: nil, activityTypes: [], supportsSearchContinuation: false),
                      results: [], hasMoreResults: false, offersSearchInApp: true),
        ],
        web: [
            API.WebResult(url: "https://example.com/a/b?c=d&e=f", title: "Page", description: odd, imageURL: "https://example.com/i.png",
                          app: "com.example.grocer", appName: "Grocer", appMatch: "universal-link", deepLink: "grocer://p/1", appStoreID: "123",
                          associatedApps: ["com.example.grocer", "x"], score: 0.123456789012345, explanation: "web"),
            API.WebResult(url: "https://example.com/", title: "", description: nil, imageURL: nil, app: nil, appName: nil, appMatch: nil,
                          deepLink: nil, appStoreID: nil, associatedApps: [], score: 5, explanation: ""),
        ],
        unavailableApps: ["com.example.gone"], problems: ["Gone (com.example.gone): the store is damaged"], tookMilliseconds: 12.25,
        publicResults: [
            API.PublicResult(kind: "activity", title: "Public", description: "d", url: "https://example.org", site: "example.org", users: 12,
                             score: 2.5, app: "a", appName: "A", appMatch: "app", publicApp: "b"),
            API.PublicResult(kind: "page", title: "Bare", description: nil, url: nil, site: "s", users: 0, score: 0, app: nil, appName: nil,
                             appMatch: nil, publicApp: nil),
        ])

    static let empty = API.SearchResponse(query: "", root: "", groups: [], web: [], unavailableApps: [], problems: [], tookMilliseconds: 0)

    @Test(arguments: [full, empty])
    func readsBackAsTheResponse(response: API.SearchResponse) throws {
        let written = Data(try SearchResponseJSON.encode(response))
        #expect(try JSONDecoder().decode(API.SearchResponse.self, from: written) == response)
        // The same document as JSONEncoder's: the same keys (absent optionals left out), the same values.
        let encoded = try JSONBody.encoder.encode(response)
        let mine = try JSONSerialization.jsonObject(with: written) as? NSDictionary
        let theirs = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
        #expect(mine != nil && mine == theirs)
        #expect(!String(decoding: written, as: UTF8.self).contains("\\/"), "slashes are not escaped")
    }

    /// A live search's answer (``LiveSearch``): the document `JSONEncoder`
    /// made of `{id, type, results}` before it was written by hand.
    @Test(arguments: [full, empty])
    func aLiveAnswerIsTheDocumentJSONEncoderWrote(response: API.SearchResponse) throws {
        struct Answer: Encodable { var id: Int, type: String, results: API.SearchResponse }
        let written = Data(try SearchResponseJSON.encodeLiveResults(id: 7, response))
        let encoded = try JSONBody.encoder.encode(Answer(id: 7, type: "results", results: response))
        let mine = try JSONSerialization.jsonObject(with: written) as? NSDictionary
        let theirs = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
        #expect(mine != nil && mine == theirs)
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.hasPrefix(#"{"id":7,"results":{"groups":["#) && text.hasSuffix(#"},"type":"results"}"#))
    }

    /// Each type's fields, as the writer writes them: a field added to a
    /// type fails here until the writer writes it too.
    @Test func everyFieldIsWritten() throws {
        func fields(_ value: Any) -> Set<String> { Set(Mirror(reflecting: value).children.compactMap(\.label)) }
        let response = Self.full
        #expect(fields(response) == ["query", "root", "groups", "web", "unavailableApps", "problems", "tookMilliseconds", "publicResults"])
        #expect(fields(response.groups[0]) == ["app", "results", "hasMoreResults", "offersSearchInApp"])
        #expect(fields(response.groups[0].app) == ["bundleIdentifier", "displayName", "icon", "activityTypes", "supportsSearchContinuation"])
        #expect(fields(response.groups[0].results[0]) == [
            "reference", "title", "description", "thumbnail", "thumbnailURL", "contentType", "actions", "score", "explanation", "rating",
            "ratingDescription", "price", "address", "latitude", "longitude", "distance",
        ])
        #expect(fields(response.groups[0].results[0].actions[0]) == ["kind", "label", "uri"])
        #expect(fields(response.web[0]) == [
            "url", "title", "description", "imageURL", "app", "appName", "appMatch", "deepLink", "appStoreID", "associatedApps", "score", "explanation",
        ])
        #expect(fields(response.publicResults[0]) == ["kind", "title", "description", "url", "site", "users", "score", "app", "appName", "appMatch", "publicApp"])
        // And the full response uses every one: each key appears in what is written.
        let text = String(decoding: try SearchResponseJSON.encode(response), as: UTF8.self)
        for key in fields(response).union(fields(response.groups[0].results[0])).union(fields(response.web[0])).union(fields(response.publicResults[0])) {
            #expect(text.contains("\"\(key)\":"), "\(key)")
        }
    }

    @Test func aNumberThatIsNotFiniteIsRefusedAsJSONEncoderRefusesIt() {
        var response = Self.empty
        response.tookMilliseconds = .nan
        #expect(throws: EncodingError.self) { try SearchResponseJSON.encode(response) }
        #expect(throws: EncodingError.self) { try JSONBody.encoder.encode(response) }
    }
}
