import Foundation
import Testing
import TestSupport
@testable import SpotlightIndex

@Suite struct UserActivityStoreTests {
    let bundle = "org.openspotlight.activities"

    func activities(_ dir: ScratchDirectory, clock: TestClock? = nil) throws -> UserActivityStore {
        try UserActivityStore(bundleIdentifier: bundle, location: .directory(dir.url), options: options(clock: clock))
    }

    func record(_ type: String = "com.example.recipes.view", title: String? = nil, info: [String: UserInfoValue] = [:],
                _ configure: (inout UserActivityRecord) -> Void = { _ in }) -> UserActivityRecord {
        var record = UserActivityRecord(activityType: type)
        record.title = title
        record.userInfo = info
        configure(&record)
        return record
    }

    @Test func userInfoValuesRoundTripThroughJSONWithTheirTypes() throws {
        let value: UserInfoValue = .dictionary([
            "s": .string("Zoë \"quoted\" / slash"), "i": .int(-9_007_199_254_740_993), "d": .double(0.1), "b": .bool(true),
            "t": .date(Date(timeIntervalSince1970: 1_700_000_000.25)), "data": .data(Data([0, 255, 7])),
            "u": .url(URL(string: "https://example.com/a?b=c#d")!), "id": .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
            "a": .array([.int(1), .array([]), .dictionary([:])]),
        ])
        let json = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(UserInfoValue.self, from: json) == value)
        #expect(String(decoding: try JSONEncoder().encode(UserInfoValue.int(4)), as: UTF8.self) == #"{"int":4}"#)
        let bad: [(String, String)] = [
            (#"{}"#, "exactly one of the keys"), (#"{"int":1,"bool":true}"#, "exactly one"), (#"{"uuid":"nope"}"#, "not a UUID"),
            (#"{"data":"%%%"}"#, "not base64"), (#"{"colour":"red"}"#, "exactly one"),
        ]
        for (text, message) in bad {
            #expect(throws: DecodingError.self, "\(text) must be refused: \(message)") {
                try JSONDecoder().decode(UserInfoValue.self, from: Data(text.utf8))
            }
        }
    }

    @Test func recordJSONIsStableAndRoundTrips() throws {
        let full = record(title: "Tarte", info: ["recipe": .string("r7"), "page": .int(2)]) {
            $0.requiredUserInfoKeys = ["recipe", "servings"]
            $0.keywords = ["pie", "apple"]
            $0.webpageURL = URL(string: "https://example.com/r/7")
            $0.persistentIdentifier = "r7"
            $0.expirationDate = Date(timeIntervalSince1970: 1_900_000_000)
            $0.isEligibleForPublicIndexing = true
        }
        let json = String(decoding: try full.jsonData(), as: UTF8.self)
        #expect(json == #"{"activityType":"com.example.recipes.view","expirationDate":1900000000,"isEligibleForHandoff":true,"isEligibleForPrediction":false,"isEligibleForPublicIndexing":true,"isEligibleForSearch":true,"keywords":["apple","pie"],"persistentIdentifier":"r7","requiredUserInfoKeys":["recipe","servings"],"title":"Tarte","userInfo":{"page":{"int":2},"recipe":{"string":"r7"}},"webpageURL":"https://example.com/r/7"}"#)
        #expect(try UserActivityRecord(jsonData: Data(json.utf8)) == full)
        let minimal = try UserActivityRecord(jsonData: Data(#"{"activityType":"t"}"#.utf8))
        #expect(minimal == UserActivityRecord(activityType: "t"))
        #expect(throws: DecodingError.self) { try UserActivityRecord(jsonData: Data(#"{"title":"no type"}"#.utf8)) }
        #expect(full.storedUserInfo == ["recipe": .string("r7")], "only the required keys are kept")
    }

    @Test func identifiersTellActivitiesApartByContent() {
        let base = record(title: "A", info: ["id": .int(1)])
        let table: [(String, UserActivityRecord, String?, Bool)] = [
            ("same content, other title", record(title: "B", info: ["id": .int(1)]), nil, true),
            ("other user info", record(title: "A", info: ["id": .int(2)]), nil, false),
            ("other type", record("com.example.other", title: "A", info: ["id": .int(1)]), nil, false),
            ("a related item", base, "item-1", false),
            ("a dropped, not required key", record(title: "A", info: ["id": .int(1), "scroll": .double(3)]) { $0.requiredUserInfoKeys = ["id"] }, nil, true),
            ("a persistent identifier", record(title: "A", info: ["id": .int(1)]) { $0.persistentIdentifier = "p" }, nil, false),
        ]
        for (name, other, related, same) in table {
            #expect((base.identifier() == other.identifier(relatedUniqueIdentifier: related)) == same, "\(name)")
        }
        #expect(record(title: "A").identifier() != record(title: "B").identifier(), "with nothing else, the title tells them apart")
        #expect(base.identifier().hasPrefix("activity-") && base.identifier().count == "activity-".count + 32)
    }

    @Test func donatingStoresSearchableActivitiesAndCountsViews() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let clock = TestClock()
        let activities = try activities(dir, clock: clock)
        let tatin = record(title: "Tarte Tatin", info: ["recipe": .string("r7")]) { $0.keywords = ["caramel"] }
        let stored = try activities.donate(tatin, contentAttributes: [
            "contentDescription": .string("Upside-down apple tart"), "keywords": .strings(["dessert"]),
            "domainIdentifier": .string("recipes.french"), "contentType": .string("public.content"),
        ])
        #expect(stored.record == tatin)
        #expect(stored.domainIdentifier == "recipes.french" && stored.contentType == "public.content")
        #expect(stored.attributes["title"] == .string("Tarte Tatin"))
        #expect(stored.attributes["keywords"] == .strings(["caramel", "dessert"]))
        #expect(stored.expiresAt == clock.now.addingTimeInterval(30 * 86_400))
        for text in ["tatin", "upside", "caramel", "dessert"] {
            #expect(try activities.store.ids(text) == [stored.identifier], "\(text)")
        }
        #expect(try activities.store.ids("r7").isEmpty, "the saved user info is not searched")
        clock.advance(by: 60)
        try activities.donate(tatin)
        #expect(try activities.activityCount() == 1, "the same content donated again replaces it")
        #expect(try activities.store.engagement(ofItem: stored.identifier).views == 2)
        let reopened = try self.activities(dir, clock: clock)
        #expect(try reopened.allActivities().map(\.record) == [tatin])
        #expect(!SpotlightStore.indexNames(bundleIdentifier: bundle, location: .directory(dir.url)).contains(UserActivityStore.indexName),
                "the activity store is not one of the app's indexes")
        #expect(UserActivityStore.exists(bundleIdentifier: bundle, location: .directory(dir.url)))
    }

    @Test func donationsTheStoreRefusesSayWhyAndStoreNothing() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let clock = TestClock()
        let activities = try activities(dir, clock: clock)
        let table: [(String, UserActivityRecord, [String: AttributeValue], SpotlightIndexError.Code, String)] = [
            ("not eligible", record(title: "x") { $0.isEligibleForSearch = false }, [:], .invalidArgument, "eligible neither for search nor for prediction"),
            ("expired", record(title: "x") { $0.expirationDate = clock.now }, [:], .invalidArgument, "expired"),
            ("empty type", record("", title: "x"), [:], .invalidItem, "activity type"),
            ("file URL", record(title: "x") { $0.webpageURL = URL(fileURLWithPath: "/etc/passwd") }, [:], .invalidItem, "not an http or https URL"),
            ("bad attribute", record(title: "x"), ["rankingHint": .number(500)], .invalidItem, "rankingHint"),
            ("huge title", record(title: String(repeating: "a", count: 5_000_000)), [:], .limitExceeded, "limit"),
        ]
        for (name, record, attributes, code, message) in table {
            do {
                try activities.donate(record, contentAttributes: attributes)
                Issue.record("\(name): must be refused")
            } catch let error as SpotlightIndexError {
                #expect(error.code == code, "\(name)")
                #expect(error.message.contains(message), "\(name): \(error.message)")
            }
        }
        #expect(try activities.activityCount() == 0)
    }

    @Test func relatedActivitiesCountViewsForTheItemAndGoWithIt() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let notes = try fileStore(dir, bundle: bundle, index: "notes")
        let main = try fileStore(dir, bundle: bundle, index: "default")
        try notes.index([item("n1", title: "Groceries", domain: "lists"), item("n2", title: "Chores", domain: "lists.home")])
        try main.index([item("m1", title: "Main")])
        let activities = try activities(dir)
        let strong = try activities.donate(record(info: ["id": .string("n1")]), contentAttributes: ["relatedUniqueIdentifier": .string("n1")])
        let weak = try activities.donate(record(info: ["id": .string("n2")]), contentAttributes: ["weakRelatedUniqueIdentifier": .string("n2")])
        let onMain = try activities.donate(record(info: ["id": .string("m1")]), contentAttributes: ["relatedUniqueIdentifier": .string("m1")])
        let orphan = try activities.donate(record(info: ["id": .string("zz")]), contentAttributes: ["relatedUniqueIdentifier": .string("zz")])
        #expect(strong.relatedUniqueIdentifier == "n1" && weak.weakRelatedUniqueIdentifier == "n2")
        #expect(try notes.engagement(ofItem: "n1").views == 1)
        #expect(try notes.engagement(ofItem: "n2").views == 1)
        #expect(try main.engagement(ofItem: "m1").views == 1)
        #expect(try activities.activityCount() == 4, "an activity whose item is not indexed yet is kept")

        // Deleting an item deletes its strongly related activity only.
        try activities.removingActivitiesLinked(to: notes) { try notes.deleteItems(inDomains: ["lists"]) }
        #expect(Set(try activities.allActivities().map(\.identifier)) == [weak.identifier, onMain.identifier, orphan.identifier])
        // A write that deletes nothing leaves them; deleteAll of another store reaches its own.
        _ = try activities.removingActivitiesLinked(to: notes) { try notes.index([item("n3", title: "New")]) }
        #expect(try activities.activityCount() == 3)
        try activities.removingActivitiesLinked(to: main) { try main.deleteAllItems() }
        #expect(Set(try activities.allActivities().map(\.identifier)) == [weak.identifier, orphan.identifier])
        // A batch: the link is cut when the batch is applied, not before.
        try main.index([item("zz", title: "Late item")])
        try main.beginBatch()
        try activities.removingActivitiesLinked(to: main) { try main.deleteItems(withIdentifiers: ["zz"]) }
        #expect(try activities.activityCount() == 2)
        _ = try activities.removingActivitiesLinked(to: main) { try main.endBatch(clientState: Data("1".utf8)) }
        #expect(try activities.allActivities().map(\.identifier) == [weak.identifier])
    }

    @Test func deletingByPersistentIdentifierDomainAndAll() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let activities = try activities(dir)
        let a = try activities.donate(record(title: "a") { $0.persistentIdentifier = "shared" })
        let b = try activities.donate(record(title: "b") { $0.persistentIdentifier = "shared" })
        let c = try activities.donate(record(title: "c") { $0.persistentIdentifier = "own" }, contentAttributes: ["domainIdentifier": .string("work.mail")])
        let d = try activities.donate(record(title: "d"), contentAttributes: ["domainIdentifier": .string("workshop")])
        #expect(Set([a, b, c, d].map(\.identifier)).count == 4)
        #expect(try activities.deleteActivities(withPersistentIdentifiers: ["shared", "unknown"]) == 2)
        #expect(try activities.allActivities().map(\.identifier) == [c.identifier, d.identifier])
        try activities.deleteActivities(inDomains: ["work"])
        #expect(try activities.allActivities().map(\.identifier) == [d.identifier])
        try activities.deleteAllActivities()
        #expect(try activities.activityCount() == 0)
    }
}
