import Foundation
import Synchronization
import Testing
import SpotlightIndex
import SpotlightSystem
import SpotlightService
import TestSupport

/// A clock the tests move by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ date: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex(date) }
    var now: Date { current.withLock { $0 } }
    func advance(days: Double) { current.withLock { $0 += days * 86_400 } }
}

@Suite struct LocationSuggestionsTests {
    static let shop: [String: AttributeValue] = [
        "namedLocation": .string("Ray's Fruit Emporium"), "thoroughfare": .string("Mulberry Street"), "subThoroughfare": .string("120"),
        "city": .string("New York"), "stateOrProvince": .string("NY"), "postalCode": .string("10013"),
        "latitude": .number(.double(40.7194)), "longitude": .number(.double(-73.997)), "phoneNumbers": .strings(["+1 212 555 0142"]),
    ]
    static let bakery: [String: AttributeValue] = [
        "thoroughfare": .string("Rue Montorgueil"), "subThoroughfare": .string("51"), "postalCode": .string("75002"), "city": .string("Paris"),
    ]

    /// Two registered apps with stores on `clock`.
    struct Places {
        let root: ServiceRoot
        let clock = TestClock()
        var options: StoreOptions {
            var options = StoreOptions()
            let clock = self.clock
            options.clock = { clock.now }
            return options
        }
        init() throws {
            root = try ServiceRoot()
            try root.registry.register(app("com.example.grocer", "GreenGrocer", types: ["com.example.grocer.store"]))
            try root.registry.register(app("com.example.bakery", "Bakery", types: ["com.example.bakery.shop"]))
        }
        func activities(_ bundle: String) throws -> UserActivityStore {
            try UserActivityStore(bundleIdentifier: bundle, location: root.location, options: options)
        }
        @discardableResult
        func view(_ bundle: String, _ title: String, _ attributes: [String: AttributeValue], search: Bool = true, prediction: Bool = false,
                  persistentIdentifier: String? = nil, expires: Date? = nil) throws -> StoredActivity {
            var record = UserActivityRecord(activityType: bundle + ".view")
            record.title = title
            record.isEligibleForSearch = search
            record.isEligibleForPrediction = prediction
            record.persistentIdentifier = persistentIdentifier
            record.expirationDate = expires
            return try activities(bundle).donate(record, contentAttributes: attributes)
        }
        func suggestions(_ context: String? = nil, limit: Int = 3) throws -> [PlaceSuggestion] {
            try LocationSuggestions(registry: root.registry, options: options).suggestions(context: context, limit: limit).suggestions
        }
    }

    @Test func theLastViewedPlacesComeFirstAndFadeAway() throws {
        let places = try Places()
        defer { places.root.cleanUp() }
        try places.view("com.example.grocer", "Store page", Self.shop)
        places.clock.advance(days: 1)
        try places.view("com.example.bakery", "Our shop", Self.bakery)
        try places.view("com.example.bakery", "A recipe", ["title": .string("Croissants")])   // no place: never suggested
        places.clock.advance(days: 1)

        let found = try places.suggestions()
        #expect(found.map(\.name) == ["Our shop", "Ray's Fruit Emporium"], "most recent first; the title names a place without namedLocation")
        #expect(found.map(\.attribution) == ["From Bakery", "From GreenGrocer"])
        #expect(zip(found.map(\.weight), [(0.5).squareRoot(), 0.5]).allSatisfy { abs($0 - $1) < 1e-12 }, "halving every 2 days: \(found.map(\.weight))")
        #expect(found[0].address == "51 Rue Montorgueil, Paris, 75002")
        #expect(found[0].actions == [.navigateToAddress("51 Rue Montorgueil, Paris, 75002")])
        #expect(found[0].actions.map(\.uri.absoluteString) == ["geo:0,0?q=51%20Rue%20Montorgueil,%20Paris,%2075002"])
        #expect(found[1].actions == [.navigate(latitude: 40.7194, longitude: -73.997), .call(phoneNumber: "+1 212 555 0142")])
        #expect(try places.suggestions(limit: 1).map(\.name) == ["Our shop"])

        // Viewing the shop again brings it back to the front; two donations of one place are one suggestion.
        try places.view("com.example.grocer", "Store page (again)", Self.shop)
        #expect(try places.suggestions().map(\.name) == ["Ray's Fruit Emporium", "Our shop"])

        places.clock.advance(days: 13.5)
        #expect(try places.suggestions().map(\.name) == ["Ray's Fruit Emporium"], "the bakery was viewed 14.5 days ago")
        places.clock.advance(days: 1.01)
        #expect(try places.suggestions().isEmpty)
    }

    @Test func onlyLiveEligibleActivitiesAreSuggested() throws {
        let places = try Places()
        defer { places.root.cleanUp() }
        try places.view("com.example.grocer", "Store page", Self.shop, persistentIdentifier: "store")
        try places.view("com.example.bakery", "Our shop", Self.bakery, search: false, prediction: true)
        #expect(try places.suggestions().map(\.name).sorted() == ["Our shop", "Ray's Fruit Emporium"])

        // A prediction-only activity is suggested, never shown by search.
        let search = SystemSearch(registry: places.root.registry, options: places.options)
        #expect(try search.search("montorgueil").groups.isEmpty)
        #expect(try search.search("mulberry").groups.map(\.app.displayName) == ["GreenGrocer"])
        #expect(throws: SpotlightIndexError.self) { try places.view("com.example.bakery", "Nothing", Self.bakery, search: false, prediction: false) }

        // Deleting the activity removes its suggestion.
        #expect(try places.activities("com.example.grocer").deleteActivities(withPersistentIdentifiers: ["store"]) == 1)
        #expect(try places.suggestions().map(\.name) == ["Our shop"])

        // An expired one is not offered.
        places.clock.advance(days: 0.01)
        try places.view("com.example.grocer", "Pop-up stand", Self.shop, expires: places.clock.now.addingTimeInterval(3600))
        #expect(try places.suggestions().map(\.name) == ["Ray's Fruit Emporium", "Our shop"], "named by its namedLocation")
        places.clock.advance(days: 0.1)
        #expect(try places.suggestions().map(\.name) == ["Our shop"])
    }

    @Test(arguments: [
        ("Meet me at", ["Ray's Fruit Emporium", "Our shop"]),
        ("meet me at ", ["Ray's Fruit Emporium", "Our shop"]),
        ("OK! Meet me at Ray", ["Ray's Fruit Emporium"]),
        ("see you at ray's fruit", ["Ray's Fruit Emporium"]),
        ("Directions to rue montorg", ["Our shop"]),
        ("Retrouve-moi à", ["Ray's Fruit Emporium", "Our shop"]),
        ("I'm at 10013", ["Ray's Fruit Emporium"]),
        ("meet me at the", []),
        ("Thanks for the pears", []),
        ("meet atlas", []),
        ("meet me at the station and then we go home", []),
        ("", []),
    ])
    func aContextAsksForAPlace(context: String, expected: [String]) throws {
        let places = try Places()
        defer { places.root.cleanUp() }
        try places.view("com.example.bakery", "Our shop", Self.bakery)
        places.clock.advance(days: 0.5)
        try places.view("com.example.grocer", "Store page", Self.shop)
        #expect(try places.suggestions(context).map(\.name) == expected)
    }

    @Test func anActionOfASuggestionIsCarriedOutAndCountsAsASelection() throws {
        let places = try Places()
        defer { places.root.cleanUp() }
        let stored = try places.view("com.example.grocer", "Store page", Self.shop)
        let recorder = try OpenerRecorder()
        defer { recorder.cleanUp() }
        let launcher = AppLauncher(registry: places.root.registry, options: places.options)
        let place = try #require(try places.suggestions().first)
        #expect(try launcher.actions(of: place.reference) == place.actions)

        let done = try launcher.perform("navigate", of: place.reference, runner: recorder.runner)
        #expect(done.uri.absoluteString == "geo:40.7194,-73.997")
        try launcher.perform("call", of: place.reference, runner: recorder.runner)
        #expect(try recorder.opened() == ["geo:40.7194,-73.997", "tel:+12125550142"])
        #expect(try places.activities("com.example.grocer").store.engagement(ofItem: stored.identifier).selections == 2)

        #expect { try launcher.perform("email", of: place.reference, runner: recorder.runner) } throws: { error in
            (error as? SystemSearchError)?.code == .actionFailed && "\(error)".contains("offers no email action; it offers navigate, call")
        }
        let gone = ResultReference(bundleIdentifier: "com.example.grocer", indexName: UserActivityStore.indexName, itemIdentifier: "nope")
        #expect { try launcher.perform("navigate", of: gone, runner: recorder.runner) } throws: { ($0 as? SystemSearchError)?.code == .resultNotFound }
        #expect(try recorder.opened().count == 2, "nothing was opened for a refused action")
    }
}

/// A stand-in for `xdg-open` that records each URI it is given.
struct OpenerRecorder {
    let scratch: ScratchDirectory
    var directory: URL { scratch.url }
    var log: URL { directory.appendingPathComponent("opened.log") }
    var script: URL { directory.appendingPathComponent("open.sh") }
    /// The script is run by `sh`, not executed itself: a test spawning a
    /// process on another thread while this one wrote the script could hold
    /// its write descriptor across `fork`, and executing it then fails with
    /// ETXTBSY ("text file busy").
    var command: [String] { ["/bin/sh", script.path] }
    var runner: ActionRunner { ActionRunner(command: command, environment: [:], timeout: 10) }

    init(exitStatus: Int = 0) throws {
        scratch = try ScratchDirectory("opener")
        let body = "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '\(log.path)'\necho 'no handler' >&2\nexit \(exitStatus)\n"
        try Data(body.utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
    }

    func opened() throws -> [String] {
        guard FileManager.default.fileExists(atPath: log.path) else { return [] }
        return try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    func cleanUp() { scratch.cleanUp() }
}
