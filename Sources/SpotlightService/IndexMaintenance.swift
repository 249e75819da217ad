public import Foundation
public import SpotlightIndex
public import SpotlightSystem

/// Delivers the engine's requests to apps that are not running, through
/// their index extension, as the system does on an iPhone: a lost or
/// damaged store asks for everything again, items about to expire ask to
/// be re-indexed.
///
/// ```swift
/// for delivery in try IndexMaintenance().deliverPendingRequests() {
///     print(delivery.app.displayName, delivery.request.kind, delivery.outcome)
/// }
/// ```
///
/// A reindex request stays pending until the app acknowledges it (its
/// handler calls the acknowledgement handler); one that was delivered but
/// not acknowledged is delivered again next time. Apps without an index
/// extension are skipped: their own delegate gets the requests when they run.
public struct IndexMaintenance: Sendable {
    /// Where apps and stores are.
    public let registry: AppRegistry
    /// How long an index extension may run, in seconds (default 300).
    public var timeout: TimeInterval
    /// What runs the index extensions (a process of its own, by default).
    public let processRunner: any ProcessRunning
    /// The least free space worth giving back (``compactStores()``; default 4 MB).
    public var compactionMinimumBytes: Int64 = 4 << 20
    private let options: StoreOptions

    /// - Parameter processRunner: what runs index extensions: ``AppProcessRunner`` (a process), or a test's stand-in.
    public init(registry: AppRegistry = AppRegistry(), timeout: TimeInterval = 300, options: StoreOptions = StoreOptions(),
                processRunner: any ProcessRunning = AppProcessRunner()) {
        self.registry = registry
        self.timeout = timeout
        self.options = options
        self.processRunner = processRunner
    }

    /// One request handed to one app.
    public struct Delivery: Sendable, Encodable {
        public var app: AppRegistration
        public var request: IndexRequest
        /// What the extension printed, or why it failed.
        public var outcome: String
        /// True when the extension ran and exited with status 0.
        public var succeeded: Bool
        /// For a reindex: whether the store no longer asks for one.
        public var acknowledged: Bool
    }

    /// A store that maintenance found damaged (moved aside, made anew empty
    /// with a reindex requested) or could not open.
    public struct StoreCheck: Sendable, Encodable {
        public var bundleIdentifier: String
        public var indexName: String
        /// Where the damaged file was moved, when it was.
        public var movedAside: String?
        /// Why the store could not be opened, when it could not.
        public var error: String?
    }

    /// Checks every registered app's stores, and the web store, with SQLite's `quick_check` (the
    /// full check that front ends skip when they open stores to search), so a
    /// damaged one is moved aside and its app asked to index again by
    /// ``deliverPendingRequests()``. Returns the stores that were not sound.
    ///
    /// ```swift
    /// for check in try IndexMaintenance().verifyStores() { print(check.bundleIdentifier, check.movedAside ?? check.error ?? "") }
    /// ```
    public func verifyStores() throws -> [StoreCheck] {
        var checking = options
        checking.checksIntegrityOnOpen = true
        var found: [StoreCheck] = []
        for (app, name) in try storeNames() {
            do {
                if let aside = try open(app, name, checking).movedAsideFile {
                    found.append(StoreCheck(bundleIdentifier: app, indexName: name, movedAside: aside.path))
                }
            } catch {
                found.append(StoreCheck(bundleIdentifier: app, indexName: name, error: "\(error)"))
            }
        }
        return found
    }

    /// Every registered app's stores, by index name (its indexes, then its
    /// activities'), then the web store's when there is one: the crawler's
    /// pages are checked, merged and compacted as the apps' items are (a
    /// damaged web store is moved aside and filled again as sites are
    /// crawled; no app is asked).
    private func storeNames() throws -> [(bundleIdentifier: String, indexName: String)] {
        var names = try registry.apps().flatMap { app in
            var names = SpotlightStore.indexNames(bundleIdentifier: app.bundleIdentifier, location: registry.location)
            if UserActivityStore.exists(bundleIdentifier: app.bundleIdentifier, location: registry.location) {
                names.append(UserActivityStore.indexName)
            }
            return names.map { (app.bundleIdentifier, $0) }
        }
        if WebStore.exists(location: registry.location) { names.append((WebStore.bundleIdentifier, WebStore.indexName)) }
        return names
    }

    /// Opens one of ``storeNames()``.
    private func open(_ bundleIdentifier: String, _ name: String, _ options: StoreOptions) throws -> SpotlightStore {
        if bundleIdentifier == WebStore.bundleIdentifier && name == WebStore.indexName {
            return try WebStore(location: registry.location, options: options).store
        }
        return name == UserActivityStore.indexName
            ? try UserActivityStore(bundleIdentifier: bundleIdentifier, location: registry.location, options: options).store
            : try SpotlightStore(bundleIdentifier: bundleIdentifier, indexName: name, location: registry.location, options: options)
    }

    /// A store whose free pages maintenance gave back (``compactStores()``).
    public struct StoreCompaction: Sendable, Encodable {
        public var bundleIdentifier: String
        public var indexName: String
        /// Bytes the store's file shrank by.
        public var bytesSaved: Int64
    }

    /// Gives back the free pages of every registered app's store (and the web store) where they
    /// are a quarter of its file and at least ``compactionMinimumBytes``
    /// (``/SpotlightIndex/SpotlightStore/compact(whenFreeAbove:minimumBytes:)``):
    /// what deleting many items, or upgrading a store to schema v10, leaves.
    /// Returns the stores compacted; one that cannot be opened or written is
    /// left as it is (``verifyStores()`` reports those).
    ///
    /// ```swift
    /// for done in try IndexMaintenance().compactStores() { print(done.bundleIdentifier, done.bytesSaved) }
    /// ```
    public func compactStores() throws -> [StoreCompaction] {
        // Opened without a quick_check: verifyStores() has just read every
        // store whole for it, and compacting a damaged file fails alone.
        var compacting = options
        compacting.checksIntegrityOnOpen = false
        return try storeNames().compactMap { app, name in
            guard let store = try? open(app, name, compacting), !store.isReadOnly,
                  let saved = try? store.compact(minimumBytes: compactionMinimumBytes), saved > 0 else { return nil }
            return StoreCompaction(bundleIdentifier: app, indexName: name, bytesSaved: saved)
        }
    }

    /// A store whose index segments maintenance merged into one (``mergeStores(idleFor:)``).
    public struct StoreMerge: Sendable, Encodable {
        public var bundleIdentifier: String
        public var indexName: String
        /// How many segments became one.
        public var segmentsMerged: Int
    }

    /// Merges the index segments of every registered app's store (and the web store) that has
    /// not been written for `idle` seconds into one
    /// (``/SpotlightIndex/SpotlightStore/mergeSegments()``): a store searched
    /// more than it is written answers fastest from one segment, and one
    /// still being written would soon need merging again. Returns the stores
    /// merged; one that cannot be opened or written is left as it is.
    ///
    /// ```swift
    /// for done in try IndexMaintenance().mergeStores(idleFor: 300) { print(done.bundleIdentifier, done.segmentsMerged) }
    /// ```
    public func mergeStores(idleFor idle: TimeInterval = 0) throws -> [StoreMerge] {
        var merging = options
        merging.checksIntegrityOnOpen = false
        let now = Date()
        return try storeNames().compactMap { app, name in
            // Looked at before opening: opening a store whose log is empty writes to it (GRDB's pool).
            let file = registry.location.filePath(of: app, index: name).map { URL(fileURLWithPath: $0) }
            guard now.timeIntervalSince(Self.lastWritten(file) ?? now) >= idle,
                  let store = try? open(app, name, merging), !store.isReadOnly,
                  let merged = try? store.mergeSegments(), merged > 0 else { return nil }
            return StoreMerge(bundleIdentifier: app, indexName: name, segmentsMerged: merged)
        }
    }

    /// When a store's file or its write-ahead log last changed (a commit
    /// writes the log; a checkpoint, the file).
    static func lastWritten(_ file: URL?) -> Date? {
        guard let file else { return nil }
        return [file.path, file.path + "-wal"].compactMap {
            (try? FileManager.default.attributesOfItem(atPath: $0))?[.modificationDate] as? Date
        }.max()
    }

    /// Runs every registered app's index extension once per pending request.
    public func deliverPendingRequests() throws -> [Delivery] {
        var deliveries: [Delivery] = []
        for app in try registry.apps() {
            guard let command = app.indexExtensionCommand else { continue }
            let requests = try IndexRequest.pending(bundleIdentifier: app.bundleIdentifier, location: registry.location, options: options)
            for request in requests {
                deliveries.append(try deliver(request, to: app, command: command))
            }
        }
        return deliveries
    }

    func deliver(_ request: IndexRequest, to app: AppRegistration, command: [String]) throws -> Delivery {
        let json = String(decoding: try request.jsonData(), as: UTF8.self)
        var delivery = Delivery(app: app, request: request, outcome: "", succeeded: false, acknowledged: false)
        do {
            let result = try registry.runExtension(command, of: app, requestJSON: json, environmentKey: IndexRequest.environmentKey,
                                                   timeout: timeout, what: "\(app.displayName)'s index extension", runner: processRunner)
            delivery.succeeded = result.status == 0
            delivery.outcome = result.status == 0 ? result.output : "exit status \(result.status): \(result.output)"
        } catch {
            delivery.outcome = "\(error)"
        }
        if request.kind == .reindexAll {
            let store = try SpotlightStore(bundleIdentifier: app.bundleIdentifier, indexName: request.indexName,
                                           location: registry.location, options: options)
            delivery.acknowledged = try store.pendingReindex == nil
        }
        return delivery
    }
}
