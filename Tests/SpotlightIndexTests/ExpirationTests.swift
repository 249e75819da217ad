import Foundation
import Testing
import TestSupport
@testable import SpotlightIndex

@Suite struct ExpirationTests {
    let day: TimeInterval = 86_400

    @Test func itemsWithoutADateExpireThirtyDaysAfterIndexing() throws {
        let clock = TestClock()
        let store = try memoryStore(clock: clock)
        try store.index([item("a", title: "apple")])
        let stored = try #require(try store.item(withIdentifier: "a"))
        #expect(stored.expiresAt == clock.now.addingTimeInterval(30 * day))
        #expect(stored.item.expirationDate == nil)
        clock.advance(by: 30 * day - 1)
        #expect(try store.ids("apple") == ["a"])
        clock.advance(by: 1)
        #expect(try store.ids("apple").isEmpty, "expired items are never returned")
        #expect(try store.item(withIdentifier: "a") == nil)
        #expect(try store.itemCount() == 0)
    }

    @Test func anExplicitDateWins() throws {
        let clock = TestClock()
        let store = try memoryStore(clock: clock)
        try store.index([SearchableItem(uniqueIdentifier: "long", expirationDate: clock.now.addingTimeInterval(400 * day), attributes: ["title": .string("kept")]),
                         SearchableItem(uniqueIdentifier: "short", expirationDate: clock.now.addingTimeInterval(day), attributes: ["title": .string("kept")])])
        clock.advance(by: 2 * day)
        #expect(try store.ids("kept") == ["long"])
        clock.advance(by: 100 * day)
        #expect(try store.ids("kept") == ["long"])
    }

    @Test func reindexingRestartsTheDefaultLifetime() throws {
        let clock = TestClock()
        let store = try memoryStore(clock: clock)
        try store.index([item("a", title: "apple")])
        clock.advance(by: 20 * day)
        try store.index([item("a", title: "apple")])
        clock.advance(by: 20 * day)
        #expect(try store.ids("apple") == ["a"])
    }

    @Test func expiredItemsArePurged() throws {
        let clock = TestClock()
        let store = try memoryStore(clock: clock)
        try store.index([item("a", title: "apple"), SearchableItem(uniqueIdentifier: "b", expirationDate: clock.now.addingTimeInterval(90 * day), attributes: ["title": .string("apple")])])
        clock.advance(by: 31 * day)
        #expect(try store.purgeExpiredItems() == 1)
        #expect(try store.purgeExpiredItems() == 0)
        #expect(try store.identifiers() == ["b"])
        // The purged item's tokens are gone too: re-adding it gives one result, not a ghost.
        try store.index([item("a", title: "apple")])
        #expect(try store.ids("apple").sorted() == ["a", "b"])
    }

    @Test func itemsExpiringWithinAWindowAreListedSoonestFirst() throws {
        let clock = TestClock()
        let store = try memoryStore(clock: clock)
        let now = clock.now
        try store.index([
            SearchableItem(uniqueIdentifier: "in2days", expirationDate: now.addingTimeInterval(2 * day)),
            SearchableItem(uniqueIdentifier: "in1day", expirationDate: now.addingTimeInterval(day)),
            SearchableItem(uniqueIdentifier: "in10days", expirationDate: now.addingTimeInterval(10 * day)),
            SearchableItem(uniqueIdentifier: "past", expirationDate: now.addingTimeInterval(-1)),
            SearchableItem(uniqueIdentifier: "default"),
        ])
        #expect(try store.itemsExpiring(within: 3 * day).map(\.uniqueIdentifier) == ["in1day", "in2days"])
        #expect(try store.itemsExpiring(within: 30 * day).map(\.uniqueIdentifier) == ["in1day", "in2days", "in10days", "default"])
        #expect(try store.itemsExpiring(within: 3 * day).first?.expiresAt == now.addingTimeInterval(day))
    }

    @Test func openingAStorePurgesWhatExpiredMeanwhile() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let clock = TestClock()
        try fileStore(dir, clock: clock).index([item("a", title: "apple")])
        clock.advance(by: 31 * day)
        let reopened = try fileStore(dir, clock: clock)
        clock.advance(by: -31 * day) // even with the clock turned back, the item is gone
        #expect(try reopened.itemCount() == 0)
    }
}
