import Foundation
import SpotlightIndex
import Synchronization

/// The process's activity stores, one per (bundle identifier, location),
/// opened on first use and shared by `NSUserActivity` and every
/// `CSSearchableIndex` of the app.
enum AppActivities {
    private static let stores = Mutex<[String: UserActivityStore]>([:])

    /// Serializes `NSUserActivity`'s class-level deletes, in call order.
    static let queue = DispatchQueue(label: "openspotlight.activities")

    private static func key(_ bundleIdentifier: String, _ location: StoreLocation) -> String {
        "\(bundleIdentifier)\u{0}\(location)"
    }

    /// The app's activity store, created if needed.
    static func store(bundleIdentifier: String = OpenSpotlightConfiguration.bundleIdentifier,
                      location: StoreLocation = OpenSpotlightConfiguration.location) throws -> UserActivityStore {
        let key = key(bundleIdentifier, location)
        if let store = stores.withLock({ $0[key] }) { return store }
        let store = try UserActivityStore(bundleIdentifier: bundleIdentifier, location: location)
        return stores.withLock { stores in
            if let existing = stores[key] { return existing }
            stores[key] = store
            return store
        }
    }

    /// The app's activity store if it has one: deletes need not create it.
    static func existingStore(bundleIdentifier: String, location: StoreLocation) throws -> UserActivityStore? {
        if let store = stores.withLock({ $0[key(bundleIdentifier, location)] }) { return store }
        guard UserActivityStore.exists(bundleIdentifier: bundleIdentifier, location: location) else { return nil }
        return try store(bundleIdentifier: bundleIdentifier, location: location)
    }

    /// Runs a write on an item store, deleting the activities tied to the items it removes.
    static func cascading<T>(_ itemStore: SpotlightStore, bundleIdentifier: String, location: StoreLocation,
                             _ write: () throws -> T) throws -> T {
        guard let activities = try existingStore(bundleIdentifier: bundleIdentifier, location: location) else { return try write() }
        return try activities.removingActivitiesLinked(to: itemStore, during: write)
    }
}
