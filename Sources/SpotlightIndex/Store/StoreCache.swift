import Synchronization

/// Stores opened once and kept, by key: opening a store checks its file,
/// so code that reaches many stores again and again keeps them here.
///
/// ```swift
/// let cache = StoreCache()
/// let store = try cache.store("com.example.notes/default") {
///     try SpotlightStore(bundleIdentifier: "com.example.notes")
/// }
/// ```
public final class StoreCache: Sendable {
    private let stores = Mutex<[String: SpotlightStore]>([:])

    public init() {}

    /// The store kept under `key`, or the one `open` gives, kept from now on.
    /// Two callers racing on a new key both open; the first kept wins.
    public func store(_ key: String, open: () throws -> SpotlightStore) rethrows -> SpotlightStore {
        if let store = stores.withLock({ $0[key] }) { return store }
        let store = try open()
        return stores.withLock { stores in
            if let existing = stores[key] { return existing }
            stores[key] = store
            return store
        }
    }
}
