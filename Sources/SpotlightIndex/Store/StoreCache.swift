import Synchronization

/// Stores opened once and kept: opening a store checks its file, so code
/// that reaches many stores again and again keeps them here.
///
/// ```swift
/// let cache = StoreCache()
/// let store = try cache.store(bundleIdentifier: "com.example.notes", indexName: "default", location: .automatic) {
///     try SpotlightStore(bundleIdentifier: "com.example.notes")
/// }
/// ```
///
/// A store is kept for its file as it is on disk (``StoreFileIdentity``):
/// when the file is replaced (lost and made anew, moved aside as damaged,
/// deleted and indexed again by another process), the next call opens the
/// new file and forgets the old handle, instead of reading the old,
/// unlinked file forever. A ``SpotlightStore`` itself is bound to the file
/// it opened: keep stores here to follow their files.
public final class StoreCache: Sendable {
    private struct Kept {
        let store: SpotlightStore
        let identity: StoreFileIdentity?
    }

    /// Which store: compared field by field (no key string made per lookup).
    private struct Key: Hashable {
        let bundleIdentifier: String
        let indexName: String
        let location: StoreLocation
    }

    private let stores = Mutex<[Key: Kept]>([:])

    public init() {}

    /// The store of `indexName` of an app, kept for its file as it is now;
    /// `open` opens it when it is new or its file was replaced.
    public func store(bundleIdentifier: String, indexName: String, location: StoreLocation,
                      open: () throws -> SpotlightStore) rethrows -> SpotlightStore {
        let key = Key(bundleIdentifier: bundleIdentifier, indexName: indexName, location: location)
        let identity = StoreFileIdentity(bundleIdentifier: bundleIdentifier, indexName: indexName, location: location)
        if let kept = stores.withLock({ $0[key] }), kept.identity == identity, identity != nil || location.rootDirectory == nil {
            return kept.store
        }
        let store = try open()
        // Opening may have created the file: keep the store under the identity it has now.
        let opened = StoreFileIdentity(bundleIdentifier: bundleIdentifier, indexName: indexName, location: location)
        return stores.withLock { stores in
            if let kept = stores[key], kept.identity == opened, opened != nil { return kept.store }
            stores[key] = Kept(store: store, identity: opened)
            return store
        }
    }
}
