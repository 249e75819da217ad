import Foundation
import Testing
import UniformTypeIdentifiers
@testable import OpenCoreSpotlight
@testable import SpotlightIndex

extension OpenCoreSpotlightTests {
    @Suite struct UserActivityTests {
        func activity(_ title: String, info: [AnyHashable: Any] = [:], eligible: Bool = true) -> NSUserActivity {
            let activity = NSUserActivity(activityType: "com.example.recipes.view")
            activity.title = title
            activity.userInfo = info
            activity.isEligibleForSearch = eligible
            return activity
        }

        func donated() throws -> [StoredActivity] { try AppActivities.store().allActivities() }

        @Test func anEligibleActivityIsIndexedWhenItBecomesCurrent() throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let when = Date(timeIntervalSince1970: 1_750_000_000)
            let id = UUID()
            let tatin = activity("Tarte Tatin", info: [
                "recipe": "r7", "servings": 6, "rating": 4.5, "vegan": false, "added": when, "id": id,
                "link": URL(string: "https://example.com/r7")!, "steps": ["peel", "bake"], "nested": ["a": ["b": 1]],
                "scroll": 120.0,
            ])
            tatin.requiredUserInfoKeys = ["recipe", "servings", "rating", "vegan", "added", "id", "link", "steps", "nested"]
            tatin.keywords = ["caramel"]
            tatin.persistentIdentifier = "recipe-r7"
            tatin.webpageURL = URL(string: "https://example.com/recipes/7")
            let attributes = CSSearchableItemAttributeSet(contentType: .content)
            attributes.contentDescription = "Upside-down apple tart"
            attributes.domainIdentifier = "recipes.french"
            tatin.contentAttributeSet = attributes
            tatin.becomeCurrent()

            let stored = try #require(try donated().first)
            #expect(try donated().count == 1)
            #expect(stored.domainIdentifier == "recipes.french" && stored.contentType == "public.content")
            #expect(stored.record.persistentIdentifier == "recipe-r7")
            #expect(stored.record.storedUserInfo["scroll"] == nil, "keys outside requiredUserInfoKeys are not saved")
            let store = try AppActivities.store().store
            for text in ["tatin", "upside", "caramel"] { #expect(try store.search(text).map(\.item.uniqueIdentifier) == [stored.identifier]) }

            // What the app gets back when the activity is continued.
            let back = NSUserActivity(record: stored.record)
            #expect(back.activityType == "com.example.recipes.view" && back.title == "Tarte Tatin")
            #expect(back.webpageURL == URL(string: "https://example.com/recipes/7"))
            let info = try #require(back.userInfo)
            #expect(info["recipe"] as? String == "r7")
            #expect(info["servings"] as? Int == 6)
            #expect(info["rating"] as? Double == 4.5)
            #expect(info["vegan"] as? Bool == false)
            #expect(info["added"] as? Date == when)
            #expect(info["id"] as? UUID == id)
            #expect(info["link"] as? URL == URL(string: "https://example.com/r7"))
            #expect(info["steps"] as? [String] == ["peel", "bake"])
            #expect((info["nested"] as? [AnyHashable: Any])?["a"].flatMap { $0 as? [AnyHashable: Any] }?["b"] as? Int == 1)
            #expect(info["scroll"] == nil)
        }

        @Test func activitiesThatMustNotBeIndexedAreNot() throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            activity("not eligible", eligible: false).becomeCurrent()
            let ended = activity("invalidated")
            ended.invalidate()
            ended.becomeCurrent()
            let expired = activity("expired")
            expired.expirationDate = Date().addingTimeInterval(-1)
            expired.becomeCurrent()
            final class Opaque {}
            let unsaveable = activity("opaque", info: ["list": [1, Opaque()]])
            unsaveable.becomeCurrent()
            guard case .failure(let error)? = unsaveable.lastDonation else {
                Issue.record("a user info value that cannot be saved must fail the donation")
                return
            }
            #expect("\(error)".contains(#"userInfo["list"][1] holds a Opaque"#), "\(error)")
            #expect(try donated().isEmpty)
        }

        @Test func onlyWebURLsAreAcceptedAsWebpageURL() {
            let page = activity("page")
            page.webpageURL = URL(string: "https://example.com/a")
            page.webpageURL = URL(fileURLWithPath: "/etc/passwd")
            #expect(page.webpageURL == URL(string: "https://example.com/a"))
            page.webpageURL = URL(string: "myapp://open/1")
            #expect(page.webpageURL == URL(string: "https://example.com/a"))
            page.webpageURL = nil
            #expect(page.webpageURL == nil)
        }

        @Test func needsSaveLetsTheDelegateUpdateTheActivityFirst() throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            final class Screen: NSUserActivityDelegate {
                var saves = 0
                func userActivityWillSave(_ userActivity: NSUserActivity) {
                    saves += 1
                    userActivity.addUserInfoEntries(from: ["page": saves])
                }
            }
            let screen = Screen()
            let reading = activity("Reading", info: ["book": "b1"])
            reading.delegate = screen
            reading.becomeCurrent()
            #expect(screen.saves == 0, "not asked unless needsSave is set")
            reading.needsSave = true
            reading.becomeCurrent()
            #expect(screen.saves == 1 && !reading.needsSave)
            #expect(try donated().map { $0.record.userInfo["page"] } == [nil, .int(1)],
                    "the update made in userActivityWillSave is what is saved (as new content)")
        }

        @Test func aRelatedActivityIsTheItemItNames() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let index = CSSearchableIndex(name: "recipes")
            try await index.indexSearchableItems([makeItem("r7", title: "Tarte Tatin", domain: "french"),
                                                  makeItem("r8", title: "Crumble", domain: "british")])
            func view(_ id: String, domain: String? = nil) {
                let viewing = activity("Viewing \(id)", info: ["recipe": id])
                let attributes = CSSearchableItemAttributeSet(contentType: .content)
                attributes.relatedUniqueIdentifier = id
                attributes.domainIdentifier = domain
                viewing.contentAttributeSet = attributes
                viewing.becomeCurrent()
            }
            view("r7")
            view("r7")
            view("r8")
            let items = try index.store()
            #expect(try items.engagement(ofItem: "r7").views == 2, "each view of the activity counts for the item")
            #expect(try donated().count == 2, "the same content viewed twice is one activity")
            #expect(await run(CSSearchQuery(queryString: #"title == "*""#, queryContext: nil)).ids == ["r7", "r8"],
                    "activities are not Core Spotlight items")

            try await index.deleteSearchableItems(withIdentifiers: ["r7"])
            #expect(try donated().compactMap(\.relatedUniqueIdentifier) == ["r8"], "deleting the item deletes its activity")
            try await index.deleteSearchableItems(withDomainIdentifiers: ["british"])
            #expect(try donated().isEmpty)

            // Domains reach activities too, and in a batch only once it is applied.
            view("x1", domain: "drafts")
            view("x2", domain: "drafts.old")
            view("x3", domain: "published")
            index.beginBatch()
            try await index.deleteSearchableItems(withDomainIdentifiers: ["drafts"])
            #expect(try donated().count == 3)
            do {
                try await index.endIndexBatch(expectedClientState: Data("wrong".utf8), newClientState: Data("v1".utf8))
                Issue.record("the batch must fail on its client state")
            } catch {}
            #expect(try donated().count == 3, "a failed batch deletes nothing")
            index.beginBatch()
            try await index.deleteSearchableItems(withDomainIdentifiers: ["drafts"])
            try await index.endBatch(withClientState: Data("v1".utf8))
            #expect(try donated().compactMap(\.relatedUniqueIdentifier) == ["x3"])
        }

        @Test func savedActivitiesAreDeletedByPersistentIdentifierOrAll() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            for (title, key) in [("a", "chapter-1"), ("b", "chapter-1"), ("c", "chapter-2"), ("d", nil)] {
                let reading = activity(title)
                reading.persistentIdentifier = key
                reading.becomeCurrent()
            }
            #expect(try donated().count == 4)
            await NSUserActivity.deleteSavedUserActivities(withPersistentIdentifiers: ["chapter-1"])
            #expect(try donated().map(\.record.title) == ["c", "d"])
            await withCheckedContinuation { continuation in
                NSUserActivity.deleteAllSavedUserActivities { continuation.resume() }
            }
            #expect(try donated().isEmpty)
        }
    }
}
