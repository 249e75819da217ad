import Foundation
import PublicIndexProtocol
import Testing

/// The canonical public form and its hash: the one thing devices and the
/// service must agree on byte for byte. Expected hashes were computed
/// independently (Python's hashlib over the documented layout).
struct PublicActivityContentTests {
    static let tarte = PublicActivityContent(activityType: "com.example.recipes.view", app: "com.example.recipes", title: "Tarte Tatin",
                                             webpageURL: URL(string: "https://recipes.example.com/r7"))

    @Test(arguments: [
        (tarte, "a5f7a0afb340f1e67d37a4407eab74668b9357b0f0d63b0c15a76aa3fae0f629"),
        // The locator is the public identifier when there is no webpageURL.
        (PublicActivityContent(activityType: "com.example.recipes.view", app: "com.example.recipes", title: "Tarte Tatin",
                               publicIdentifier: #"{"recipe":"r7"}"#), "f40fd0806dfbfce0b397fdf6d374f511e9a14bdeb20cf744e8df22699603a11a"),
        // NFC, white space collapsed; scheme and host lowercased, default port, fragment and empty path normalized.
        (PublicActivityContent(activityType: "com.example.recipes.view", app: "com.example.recipes", title: "  Cre\u{0300}me \n bru\u{0302}le\u{0301}e ",
                               webpageURL: URL(string: "HTTPS://Recipes.Example.COM:443#top")), "8f9cdf1d1002f969338f192cd9ff0368e322a11405c512ddf0a9091b813b9f01"),
    ])
    func hashIsSHA256OfTheCanonicalForm(content: PublicActivityContent, expected: String) throws {
        #expect(ActivityHash(of: content).hex == expected)
        #expect(try ActivityHash(hex: expected.uppercased()) == ActivityHash(of: content))
    }

    @Test func fieldsOutsideTheHashDoNotChangeIt() {
        var richer = Self.tarte
        richer.contentDescription = "Caramelised apples"
        richer.keywords = ["dessert"]
        richer.thumbnailURL = URL(string: "https://recipes.example.com/r7.jpg")
        richer.app = "com.other.app"
        #expect(ActivityHash(of: richer) == ActivityHash(of: Self.tarte))
        var retitled = Self.tarte
        retitled.title = "Tarte Tatin!"
        #expect(ActivityHash(of: retitled) != ActivityHash(of: Self.tarte))
    }

    @Test(arguments: [
        ("", PublicIndexProtocolError.Code.invalidHash),
        (String(repeating: "a", count: 63), .invalidHash),
        (String(repeating: "g", count: 64), .invalidHash),
        (String(repeating: "a", count: 65), .invalidHash),
        ("é" + String(repeating: "a", count: 62), .invalidHash),
    ])
    func badHashesAreRefused(text: String, code: PublicIndexProtocolError.Code) {
        #expect(throws: PublicIndexProtocolError(code, "\"\(text.prefix(80))\"\(text.count > 80 ? "…" : "") is not a SHA-256 (64 hexadecimal digits)")) {
            try ActivityHash(hex: text)
        }
    }

    static func modified(_ change: (inout PublicActivityContent) -> Void) -> PublicActivityContent {
        var content = tarte
        change(&content)
        return content
    }

    @Test(arguments: [
        (modified { $0.title = " \n " }, "title must be 1 to 1024 bytes of text"),
        (modified { $0.title = String(repeating: "x", count: 1_025) }, "title must be 1 to 1024 bytes of text"),
        (modified { $0.activityType = "" }, "activityType must be 1 to 255 bytes without control characters"),
        (modified { $0.activityType = "a\u{7}b" }, "activityType must be 1 to 255 bytes without control characters"),
        (modified { $0.webpageURL = nil }, "a public activity needs a webpageURL or a public identifier (its required userInfo) so that others can open it"),
        (modified { $0.webpageURL = URL(string: "ftp://example.com/x") }, "webpageURL must be an http or https URL with a host, at most 2048 bytes"),
        (modified { $0.thumbnailURL = URL(string: "file:///etc/passwd") }, "thumbnailURL must be an http or https URL with a host, at most 2048 bytes"),
        (modified { $0.keywords = Array(repeating: "k", count: 33) }, "at most 32 keywords of 1 to 128 bytes each"),
        (modified { $0.contentDescription = String(repeating: "d", count: 4_097) }, "contentDescription is over 4096 bytes"),
    ])
    func invalidContentIsRefusedNamingTheField(content: PublicActivityContent, message: String) {
        #expect(throws: PublicIndexProtocolError(.invalidContent, message)) { try content.validate() }
    }

    @Test(arguments: ["", ".com.example", "com example", "com/example", "cöm.example", String(repeating: "a", count: 256)])
    func badAppsAreRefused(app: String) {
        #expect(throws: PublicIndexProtocolError.self) { try Self.modified { $0.app = app }.validate() }
        #expect(throws: PublicIndexProtocolError.self) {
            try DonationBatch(token: .random(), donations: [Donation(app: app, hash: ActivityHash(of: Self.tarte))]).validate()
        }
    }

    @Test func batchesAreBoundedAndIDsUnique() throws {
        let hash = ActivityHash(of: Self.tarte)
        let donation = Donation(app: "com.example.recipes", hash: hash)
        #expect(throws: PublicIndexProtocolError(.invalidBatch, "a batch holds 1 to 100 donations, not 0")) {
            try DonationBatch(token: .random(), donations: []).validate()
        }
        #expect(throws: PublicIndexProtocolError(.invalidBatch, "a batch holds 1 to 100 donations, not 101")) {
            try DonationBatch(token: .random(), donations: (0...100).map { _ in Donation(app: "com.example.recipes", hash: hash) }).validate()
        }
        #expect(throws: PublicIndexProtocolError(.invalidBatch, "donation 1 repeats the id \(donation.id.uuidString)")) {
            try DonationBatch(token: .random(), donations: [donation, donation]).validate()
        }
        try DonationBatch(token: .random(), donations: [donation]).validate()
    }

    @Test func tokensAreRandomHexAndNeverPrinted() throws {
        let token = DeviceToken.random()
        #expect(token.text.count == 64)
        #expect(token != DeviceToken.random())
        #expect(try DeviceToken(token.text.uppercased()) == token)
        #expect("\(token)" == "DeviceToken(…)")
        #expect(throws: PublicIndexProtocolError.self) { try DeviceToken("me@example.com") }
        let json = try PublicIndexJSON.encoder().encode(DonationBatch(token: token, donations: []))
        #expect(try PublicIndexJSON.decoder().decode(DonationBatch.self, from: json).token == token)
    }
}
