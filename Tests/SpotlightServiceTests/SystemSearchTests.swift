import Foundation
import Testing
@testable import SpotlightIndex
@testable import SpotlightSystem
@testable import SpotlightService

@Suite struct SystemSearchTests {
    func item(_ id: String, _ title: String, hint: Int = 0, _ more: [String: AttributeValue] = [:]) -> SearchableItem {
        var attributes = more
        attributes["title"] = .string(title)
        attributes["rankingHint"] = .number(.int(Int64(hint)))
        return SearchableItem(uniqueIdentifier: id, attributes: attributes)
    }

    @Test func resultsAreGroupedByAppInOrderOfEachAppsBestResult() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.grocer", "Grocer", continuation: true))
        try root.registry.register(app("com.example.notes", "Notes"))
        try root.registry.register(app("com.example.empty", "Empty"))
        try root.store("com.example.grocer").index((1...5).map { item("g\($0)", "Apple \($0)", hint: $0 * 10) })
        try root.store("com.example.notes", "work").index([item("n1", "Apple pie recipe", hint: 100)])
        try root.store("com.example.notes", "home").index([item("n2", "Apples to buy", hint: 5)])
        try root.store("com.example.unregistered").index([item("u1", "Apple", hint: 100)])

        let found = try SystemSearch(registry: root.registry).search("apple", resultsPerApp: 3)
        #expect(found.groups.map(\.app.displayName) == ["Notes", "Grocer"], "the app of the best result first; unregistered apps are not searched")
        let notes = found.groups[0], grocer = found.groups[1]
        #expect(notes.results.map(\.reference.description) == ["com.example.notes/work/n1", "com.example.notes/home/n2"])
        #expect(!notes.hasMoreResults && !notes.offersSearchInApp)
        #expect(grocer.results.map(\.reference.itemIdentifier) == ["g5", "g4", "g3"])
        #expect(grocer.hasMoreResults && grocer.offersSearchInApp)
        #expect(found.problems.isEmpty)
        #expect(try SystemSearch(registry: root.registry).search("apple", resultsPerApp: 1).groups.map { $0.results.count } == [1, 1])
        #expect(try SystemSearch(registry: root.registry).search("zebra").groups.isEmpty)
    }

    @Test func activitiesShowUnlessTheyAreAnItem() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.recipes", "Recipes", types: ["com.example.recipes.view"]))
        try root.store("com.example.recipes").index([item("r7", "Tarte Tatin"), item("r8", "Tarte au citron")])
        let activities = try UserActivityStore(bundleIdentifier: "com.example.recipes", location: root.location)
        func view(_ title: String, _ attributes: [String: AttributeValue] = [:]) throws {
            var record = UserActivityRecord(activityType: "com.example.recipes.view")
            record.title = title
            try activities.donate(record, contentAttributes: attributes)
        }
        try view("Tarte Tatin (viewed)", ["relatedUniqueIdentifier": .string("r7")])
        try view("Tarte au citron (viewed)", ["weakRelatedUniqueIdentifier": .string("r8")])
        try view("Tarte flambée (viewed)", ["weakRelatedUniqueIdentifier": .string("gone")])
        try view("Tarte normande (viewed)")
        let found = try SystemSearch(registry: root.registry).search("tarte", resultsPerApp: 10)
        let titles = found.groups.flatMap(\.results).map(\.title).sorted()
        #expect(titles == ["Tarte Tatin", "Tarte au citron", "Tarte flambée (viewed)", "Tarte normande (viewed)"])
        let activity = try #require(found.groups[0].results.first { $0.title == "Tarte normande (viewed)" })
        #expect(activity.reference.isActivity && activity.reference.indexName == UserActivityStore.indexName)
    }

    @Test func actionsComeFromTheAttributes() {
        let table: [(String, [String: AttributeValue], [ResultAction])] = [
            ("nothing", [:], []),
            ("call", ["supportsPhoneCall": .bool(true), "phoneNumbers": .strings(["+33 1", "+33 2"])], [.call(phoneNumber: "+33 1")]),
            ("no call without the flag", ["phoneNumbers": .strings(["+33 1"])], []),
            ("email", ["emailAddresses": .strings(["a@example.com"])], [.email(address: "a@example.com")]),
            ("navigate", ["supportsNavigation": .number(1), "latitude": .number(48.85), "longitude": .number(2.35)],
             [.navigate(latitude: 48.85, longitude: 2.35)]),
            ("navigate to an address", ["supportsNavigation": .number(1), "fullyFormattedAddress": .string("1 rue de Rivoli, Paris")],
             [.navigateToAddress("1 rue de Rivoli, Paris")]),
            ("address parts", ["supportsNavigation": .number(1), "thoroughfare": .string("Rivoli"), "city": .string("Paris")],
             [.navigateToAddress("Rivoli, Paris")]),
            ("bad coordinates", ["supportsNavigation": .number(1), "latitude": .number(100), "longitude": .number(0)], []),
            ("web URL", ["url": .url(URL(string: "https://example.com")!)], [.openURL(URL(string: "https://example.com")!)]),
            ("content URL", ["contentURL": .url(URL(string: "http://example.com/a")!)], [.openURL(URL(string: "http://example.com/a")!)]),
            ("file URLs are not actions", ["contentURL": .url(URL(fileURLWithPath: "/etc/passwd"))], []),
            ("url before URL before contentURL",
             ["url": .url(URL(string: "https://a.org")!), "URL": .url(URL(string: "https://b.org")!), "contentURL": .url(URL(string: "https://c.org")!)],
             [.openURL(URL(string: "https://a.org")!)]),
            ("a file url gives way to URL", ["url": .url(URL(fileURLWithPath: "/tmp/x")), "URL": .url(URL(string: "https://b.org")!)],
             [.openURL(URL(string: "https://b.org")!)]),
            ("an empty number is passed over", ["supportsPhoneCall": .bool(true), "phoneNumbers": .strings(["", "+33 2"])], [.call(phoneNumber: "+33 2")]),
            ("an empty address gives way to its parts",
             ["supportsNavigation": .bool(true), "fullyFormattedAddress": .string(""), "city": .string("Lyon"), "country": .string("France")],
             [.navigateToAddress("Lyon, France")]),
            ("a flag of 0 is off", ["supportsPhoneCall": .number(0), "phoneNumbers": .strings(["1"])], []),
            ("all", ["supportsPhoneCall": .number(1), "phoneNumbers": .strings(["1"]), "emailAddresses": .strings(["e@x"]),
                     "url": .url(URL(string: "https://x.org")!)],
             [.call(phoneNumber: "1"), .email(address: "e@x"), .openURL(URL(string: "https://x.org")!)]),
        ]
        for (name, attributes, expected) in table {
            #expect(ResultAction.actions(for: attributes) == expected, "\(name)")
        }
    }

    /// An app of one store reads the items of the results it shows (and of
    /// those tied with the last), knowing from the matches alone whether it
    /// has more: the same rows, in the same order, as reading them all.
    @Test func anAppShowsItsBestRowsAndKnowsWhetherItHasMore() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.ties", "Ties"))
        try root.registry.register(app("com.example.three", "Three"))
        try root.registry.register(app("com.example.four", "Four"))
        // Five equal scores: the search keeps the first indexed of them (one
        // more than shown), and the rows shown are ordered by identifier.
        try root.store("com.example.ties").index(["e", "d", "c", "b", "a"].map { item($0, "Walnut bread") })
        try root.store("com.example.three").index((1...3).map { item("t\($0)", "Walnut \($0)", hint: $0) })
        try root.store("com.example.four").index((1...4).map { item("f\($0)", "Walnut \($0)", hint: $0) })
        let found = try SystemSearch(registry: root.registry).search("walnut", resultsPerApp: 3)
        func group(_ name: String) throws -> AppResultGroup { try #require(found.groups.first { $0.app.displayName == name }) }
        #expect(try group("Ties").results.map(\.reference.itemIdentifier) == ["b", "c", "d"])
        #expect(try group("Ties").hasMoreResults)
        #expect(try group("Three").results.map(\.reference.itemIdentifier) == ["t3", "t2", "t1"])
        #expect(try !group("Three").hasMoreResults)
        #expect(try group("Four").results.map(\.reference.itemIdentifier) == ["f4", "f3", "f2"])
        #expect(try group("Four").hasMoreResults)
        let one = try SystemSearch(registry: root.registry).search("walnut", resultsPerApp: 1)
        #expect(one.groups.map { $0.results.map(\.reference.itemIdentifier) }.sorted { $0[0] < $1[0] } == [["d"], ["f4"], ["t3"]])
        #expect(one.groups.allSatisfy { $0.hasMoreResults })
    }

    /// A row shows what the item's attributes say, each read as the row's
    /// documentation gives it (``ShownAttributes`` picks them out in one pass).
    @Test func aRowShowsTheItemsAttributes() {
        let full = SearchableItem(uniqueIdentifier: "r1", attributes: [
            "title": .strings(["Bistro", "Other"]), "displayName": .string("Shown name"), "contentDescription": .string("Lunch"),
            "thumbnailURL": .url(URL(string: "https://x.org/t.png")!), "thumbnailData": .data(Data([1])),
            "contentURL": .url(URL(string: "https://x.org/bistro")!), "latitude": .number(45.76), "longitude": .number(4.83),
            "rating": .number(7), "ratingDescription": .string("7 of 5"), "price": .number(12.5),
            "thoroughfare": .string("Rue Mercière"), "postalCode": .string("69002"), "city": .string("Lyon"), "keywords": .strings(["food"]),
        ])
        let row = SystemSearchResult(full, score: 2, explanation: "why", bundleIdentifier: "com.example.a", indexName: "default")
        #expect(row.title == "Bistro" && row.description == "Lunch" && row.hasThumbnailData)
        #expect(row.thumbnailURL == URL(string: "https://x.org/t.png") && row.url == URL(string: "https://x.org/bistro"))
        #expect(row.coordinate == GeoPoint(latitude: 45.76, longitude: 4.83) && row.rating == 5 && row.ratingDescription == "7 of 5")
        #expect(row.price == 12.5 && row.address == "Rue Mercière, 69002, Lyon")
        #expect(row.actions == [.openURL(URL(string: "https://x.org/bistro")!)] && row.reference.description == "com.example.a/default/r1")

        let sparse = SearchableItem(uniqueIdentifier: "r2", attributes: [
            "displayName": .string("Named"), "thumbnailURL": .string("not a URL"), "latitude": .number(100), "longitude": .number(0),
            "rating": .number(-1), "price": .number(-3), "fullyFormattedAddress": .string("1 Main St"),
        ])
        let other = SystemSearchResult(sparse, score: 1, explanation: "", bundleIdentifier: "com.example.a", indexName: "default")
        #expect(other.title == "Named" && other.description == nil && other.thumbnailURL == nil && !other.hasThumbnailData)
        #expect(other.coordinate == nil && other.rating == 0 && other.price == nil && other.address == "1 Main St" && other.url == nil)
        let bare = SystemSearchResult(SearchableItem(uniqueIdentifier: "r3", attributes: [:]), score: 1, explanation: "",
                                      bundleIdentifier: "com.example.a", indexName: "default")
        #expect(bare.title == "r3" && bare.address == nil && bare.actions.isEmpty)
    }

    /// A row's encoder is written out (its explanation is kept unwritten
    /// until read): its JSON still names every property the row holds.
    @Test func aRowsJSONNamesEveryPropertyWithItsExplanation() throws {
        let item = SearchableItem(uniqueIdentifier: "r1", contentType: "public.text", attributes: [
            "title": .string("Bistro"), "contentDescription": .string("Lunch"), "thumbnailURL": .url(URL(string: "https://x.org/t.png")!),
            "contentURL": .url(URL(string: "https://x.org/bistro")!), "latitude": .number(45.76), "longitude": .number(4.83),
            "rating": .number(4), "ratingDescription": .string("4 of 5"), "price": .number(12.5), "city": .string("Lyon"),
        ])
        var row = SystemSearchResult(item, score: 2, explanation: "why", bundleIdentifier: "com.example.a", indexName: "default")
        row.distance = 12
        row.appendToExplanation(" × app 0.5")
        #expect(row.explanation == "why × app 0.5")
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(row)) as? [String: Any])
        let properties = Mirror(reflecting: row).children.compactMap(\.label).map { $0 == "explained" ? "explanation" : $0 }
        #expect(json.keys.sorted() == properties.sorted())
        #expect(json["explanation"] as? String == "why × app 0.5")
        #expect(json["reference"] as? String == "com.example.a/default/r1")
    }

    @Test func appsAreSearchedTogetherInTheirOrderAndACancelledSearchStops() async throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        for index in 0..<12 {
            let bundle = String(format: "com.example.app%02d", index)
            try root.registry.register(app(bundle, String(format: "App %02d", index)))
            try root.store(bundle).index([item("i\(index)", "Apple \(index)", hint: index * 8)])
        }
        let search = SystemSearch(registry: root.registry)
        let found = try search.search("apple", resultsPerApp: 1)
        #expect(found.groups.map(\.app.displayName) == (0..<12).reversed().map { String(format: "App %02d", $0) }, "ranked by each app's best result")
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try search.search("apple")
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }
}
