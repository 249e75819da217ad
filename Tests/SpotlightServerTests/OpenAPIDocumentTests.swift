import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SpotlightServer

@Suite struct OpenAPIDocumentTests {
    func document() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
    }

    @Test func everyRouteIsDocumentedAndNothingElse() throws {
        let paths = try #require(try document()["paths"] as? [String: [String: Any]])
        for route in Routes.all {
            #expect(paths[route.path]?[route.method.lowercased()] != nil, "\(route.method) \(route.path) is not in /v1/openapi.json")
        }
        let documented = Set(paths.flatMap { path, methods in methods.keys.map { "\($0.uppercased()) \(path)" } })
        #expect(documented == Set(Routes.all.map { "\($0.method) \($0.path)" }), "the document lists a route the service does not have")
    }

    @Test func everyErrorCodeIsDocumented() throws {
        let schemas = try #require((try document()["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let error = try #require(((schemas["Error"] as? [String: Any])?["properties"] as? [String: Any])?["error"] as? [String: Any])
        let codes = try #require(((error["properties"] as? [String: Any])?["code"] as? [String: Any])?["enum"] as? [String])
        #expect(codes == APIError.Code.allCases.map(\.rawValue))
    }

    @Test func theDocumentIsServed() async throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        try await fixture.application(fixture.api()).test(.router) { client in
            try await client.execute(uri: "/v1/openapi.json", method: .get) { response in
                #expect(response.status == .ok && response.text == OpenAPIDocument.json)
            }
        }
    }
}
