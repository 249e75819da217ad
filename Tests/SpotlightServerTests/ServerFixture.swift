import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport
@testable import SpotlightIndex
@testable import SpotlightSystem
@testable import SpotlightServer
@testable import SpotlightService

/// A store root with two registered apps, a runtime directory, a recording
/// opener and a recording app, for the service's tests.
struct ServerFixture {
    static let grocer = "com.example.grocer"
    static let people = "com.example.people"
    /// A 1×1 PNG, the pear's thumbnail.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=")!

    let scratch: ScratchDirectory
    let registry: AppRegistry
    let runtime: URL
    /// What the grocer app received, one activity JSON per line.
    let appLog: URL
    /// What the opener was handed, one URI per line.
    let openerLog: URL

    init() throws {
        scratch = try ScratchDirectory("server")
        let url = scratch.url
        runtime = url.appendingPathComponent("run", isDirectory: true)
        registry = AppRegistry(location: .directory(url.appendingPathComponent("stores", isDirectory: true)))
        appLog = url.appendingPathComponent("grocer.log")
        openerLog = url.appendingPathComponent("opener.log")
        try registry.register(AppRegistration(
            bundleIdentifier: Self.grocer, displayName: "Grocer",
            launchCommand: ["/bin/sh", "-c", "printf '%s\\n' \"$OPENSPOTLIGHT_ACTIVITY\" >> '\(appLog.path)'; echo grocer handled it", "sh"],
            activityTypes: [], supportsSearchContinuation: true))
        try registry.register(AppRegistration(bundleIdentifier: Self.people, displayName: "People", launchCommand: ["/bin/true"],
                                              activityTypes: [], supportsSearchContinuation: false))
        try store(Self.grocer).index([
            SearchableItem(uniqueIdentifier: "p-pear", attributes: [
                "title": .string("Pear"), "contentDescription": .string("Conference pears from the Loire"),
                "price": .number(1.2), "rating": .number(4), "ratingDescription": .string("4 stars"),
                "thumbnailData": .data(Self.png), "rankingHint": .number(50),
            ]),
            SearchableItem(uniqueIdentifier: "p-peach", attributes: ["title": .string("Peach"), "contentDescription": .string("White peaches")]),
            SearchableItem(uniqueIdentifier: "shop", attributes: [
                "title": .string("Grocer Montorgueil"), "supportsNavigation": .number(1), "latitude": .number(48.8647), "longitude": .number(2.347),
                "thoroughfare": .string("Rue Montorgueil"), "city": .string("Paris"),
            ]),
        ])
        try store(Self.people).index([
            SearchableItem(uniqueIdentifier: "e1", attributes: [
                "title": .string("Zoë Pearson"), "contentDescription": .string("Buyer, fruit"), "supportsPhoneCall": .number(1),
                "phoneNumbers": .strings(["+33 1 42 68 53 00"]), "emailAddresses": .strings(["zoe@example.com"]),
            ]),
        ])
    }

    /// The fixture's directory: stores, runtime directory, logs.
    var url: URL { scratch.url }
    var location: StoreLocation { registry.location }

    /// The grocer's shop viewed as an activity whose map item filled its
    /// address (what `NSUserActivity.mapItem` does): a place to suggest.
    @discardableResult
    func viewShop() throws -> StoredActivity {
        var record = UserActivityRecord(activityType: "com.example.grocer.store")
        record.title = "Ray's Fruit Emporium"
        record.isEligibleForSearch = true
        return try UserActivityStore(bundleIdentifier: Self.grocer, location: location).donate(record, contentAttributes: [
            "namedLocation": .string("Ray's Fruit Emporium"), "subThoroughfare": .string("120"), "thoroughfare": .string("Mulberry Street"),
            "city": .string("New York"), "stateOrProvince": .string("NY"), "postalCode": .string("10013"),
            "latitude": .number(.double(40.7194)), "longitude": .number(.double(-73.997)), "phoneNumbers": .strings(["+1 212 555 0142"]),
        ])
    }
    var storesDirectory: URL { registry.location.rootDirectory! }
    var paths: ServicePaths { ServicePaths(directory: runtime) }

    func store(_ bundle: String, _ index: String = "default") throws -> SpotlightStore {
        try SpotlightStore(bundleIdentifier: bundle, indexName: index, location: location)
    }

    /// An opener that records the URI instead of opening it.
    var runner: ActionRunner {
        ActionRunner(command: ["/bin/sh", "-c", "printf '%s\\n' \"$1\" >> '\(openerLog.path)'", "sh"])
    }

    /// - Parameter reusesAnswers: answer a repeated question from memory (off, as the service runs by default).
    func api(reusesAnswers: Bool = false) -> SpotlightAPI {
        SpotlightAPI(registry: registry, runner: runner, reusesAnswers: reusesAnswers)
    }

    static let token = ServiceToken(value: String(repeating: "ab", count: 32))

    /// An application over `api` for Hummingbird's in-process tests.
    func application(_ api: SpotlightAPI, listener: Listener = .unixSocket) -> some ApplicationProtocol {
        Application(router: Routes(api: api, token: Self.token, listener: listener).router())
    }

    func lines(_ file: URL) -> [String] {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func cleanUp() { scratch.cleanUp() }
}

extension TestResponse {
    /// The body as `T` (the API's own decoding).
    func decoded<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: Data(body.readableBytesView))
    }

    /// The API error's code, if the body is one.
    var errorCode: String? { (try? decoded(APIError.Body.self))?.error.code }

    var text: String { String(decoding: body.readableBytesView, as: UTF8.self) }
}

/// A JSON body.
func json(_ value: some Encodable) throws -> ByteBuffer {
    ByteBuffer(bytes: try JSONEncoder().encode(value))
}

/// Headers of an authorized JSON POST.
func authorized(_ token: ServiceToken = ServerFixture.token) -> HTTPFields {
    [.authorization: "Bearer \(token.value)", .contentType: "application/json"]
}
