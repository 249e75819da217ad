import Foundation
import GRDB

/// Tells whether anything was committed to a store since it was last asked,
/// by any process or store object: a read-only connection of its own on the
/// store's file, asking SQLite's `PRAGMA data_version` (which changes when a
/// connection other than the one asking commits; this one never writes).
///
/// ```swift
/// let observer = try StoreChangeObserver(store: store)
/// let before = try observer.version()
/// // … an app indexes …
/// if try observer.version() != before { /* results computed before are stale */ }
/// ```
///
/// Asking costs a few microseconds (SQLite reads the WAL index, no page), so
/// a front end can check every store it answered from before reusing an
/// answer. It watches the file the store opened: a store replaced on disk
/// (see ``StoreFileIdentity``) needs a new observer.
public final class StoreChangeObserver: Sendable {
    private let connection: DatabaseQueue

    /// - Throws: ``SpotlightIndexError`` `.storeUnavailable` for a store in memory or a file that cannot be opened.
    public init(store: SpotlightStore) throws {
        guard let file = store.fileURL else {
            throw SpotlightIndexError(.storeUnavailable, "a store in memory has no file to observe")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "change observer"
        do {
            connection = try DatabaseQueue(path: file.path, configuration: configuration)
        } catch {
            throw SpotlightIndexError(.storeUnavailable, "cannot observe \(file.path)", underlying: error)
        }
    }

    /// A number that differs from the one returned before whenever a change was committed in between.
    public func version() throws -> Int {
        do {
            return try connection.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        } catch {
            throw SpotlightIndexError(.storeUnavailable, "cannot read the store's change counter", underlying: error)
        }
    }
}
