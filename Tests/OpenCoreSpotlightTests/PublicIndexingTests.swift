import Foundation
import PublicIndexProtocol
import Testing
import UniformTypeIdentifiers
@testable import OpenCoreSpotlight
@testable import SpotlightIndex

extension OpenCoreSpotlightTests {
    /// `isEligibleForPublicIndexing`: a hash queued in the app's outbox, only after the device opted in.
    @Suite struct PublicIndexingTests {
        func tatin() -> NSUserActivity {
            let activity = NSUserActivity(activityType: "com.example.recipes.view")
            activity.title = "Tarte  Tatin"
            activity.userInfo = ["recipe": "r7", "scroll": 120]
            activity.isEligibleForSearch = true
            activity.isEligibleForPublicIndexing = true
            activity.webpageURL = URL(string: "https://recipes.example.com/r7")
            activity.keywords = ["caramel"]
            let attributes = CSSearchableItemAttributeSet(contentType: .content)
            attributes.contentDescription = "Upside-down apple tart"
            attributes.thumbnailURL = URL(string: "https://recipes.example.com/r7.jpg")
            activity.contentAttributeSet = attributes
            return activity
        }

        func optIn(_ app: TestApp) throws {
            var settings = PublicIndexSettings()
            settings.enable(serviceURL: URL(string: "http://127.0.0.1:9")!)
            try settings.save(location: .directory(app.directory))
        }

        func outbox() throws -> [PendingPublicDonation] { try AppActivities.store().pendingPublicDonations(limit: 1_000) }

        @Test func nothingIsQueuedUntilTheDeviceOptsIn() throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            tatin().becomeCurrent()
            #expect(try AppActivities.store().activityCount() == 1)
            #expect(try outbox().isEmpty)
            #expect(!PublicIndexSettings.load(location: .directory(app.directory)).isEnabled)
        }

        @Test func anEligibleActivityQueuesTheHashOfItsPublicFormAndThatForm() throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try optIn(app)
            tatin().becomeCurrent()
            tatin().becomeCurrent()
            let queued = try outbox()
            #expect(queued.count == 2)
            #expect(queued[0].id != queued[1].id)
            let content = try PublicIndexJSON.decoder().decode(PublicActivityContent.self, from: queued[0].content)
            #expect(content == PublicActivityContent(
                activityType: "com.example.recipes.view", app: app.bundleIdentifier, title: "Tarte  Tatin",
                webpageURL: URL(string: "https://recipes.example.com/r7"), contentDescription: "Upside-down apple tart",
                keywords: ["caramel"], thumbnailURL: URL(string: "https://recipes.example.com/r7.jpg")))
            #expect(queued[0].hash == ActivityHash(of: content).hex)
            // Never the private userInfo.
            #expect(!String(decoding: queued[0].content, as: UTF8.self).contains("scroll"))
        }

        @Test func withoutAWebPageTheRequiredUserInfoIsThePublicIdentifier() throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try optIn(app)
            let activity = tatin()
            activity.webpageURL = nil
            activity.becomeCurrent()                           // no webpageURL, no required keys: not public
            #expect(try outbox().isEmpty)
            activity.requiredUserInfoKeys = ["recipe"]
            activity.becomeCurrent()
            let content = try PublicIndexJSON.decoder().decode(PublicActivityContent.self, from: try #require(try outbox().first).content)
            #expect(content.publicIdentifier == #"{"recipe":{"string":"r7"}}"#)
            #expect(content.webpageURL == nil)
        }

        @Test func activitiesNotEligibleForSearchOrPublicIndexingQueueNothing() throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try optIn(app)
            let privateOne = tatin()
            privateOne.isEligibleForPublicIndexing = false
            privateOne.becomeCurrent()
            let unsearchable = tatin()
            unsearchable.isEligibleForSearch = false
            unsearchable.becomeCurrent()
            #expect(try outbox().isEmpty)
        }
    }
}
