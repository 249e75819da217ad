public import Foundation
import SpotlightIndex
import Synchronization

/// An app's on-device search index, as Apple's `CSSearchableIndex`.
///
/// ```swift
/// let index = CSSearchableIndex(name: "notes")
/// try await index.indexSearchableItems([item])
/// try await index.deleteSearchableItems(withDomainIdentifiers: ["notes.archive"])
/// ```
///
/// Every request has Apple's completion-handler form and an `async throws`
/// form; requests to one index object run one at a time, in the order they
/// were made. Requests are journaled before the handler is called: the
/// store is durable then. Instances with the same name address the same
/// store (`<root>/<bundle id>/<name>.sqlite`).
open class CSSearchableIndex: NSObject, @unchecked Sendable {
    /// The index's name; `"default"` for ``default()``.
    public let name: String
    /// The data-protection class asked for (kept for compatibility; Linux
    /// stores are private to the user, mode 0700).
    public let protectionClass: FileProtectionType?
    let isDefault: Bool
    let bundleIdentifier: String
    private let location: StoreLocation
    let queue: DispatchQueue
    /// The store and the file it was opened on (``StoreFileIdentity``).
    private let opened = Mutex<(store: SpotlightStore, file: StoreFileIdentity?)?>(nil)
    /// Index requests queued, the next prepared while one is written.
    private let lookAhead = IndexingLookAhead()
    /// Requests submitted so far: each takes the next number, in the
    /// order the queue runs them (`IndexingLookAhead` writes index
    /// requests numbered one after another together).
    private let submitted = Mutex(0)
    /// Set when the store's file was replaced while a batch was open on the old one.
    private let batchLost = Mutex(false)
    private let batchOnDefault = Mutex(false)
    /// Domains deleted inside the open batch: their activities go when it ends.
    private let batchActivityDomains = Mutex<[String]>([])

    /// Receives reindex requests; see ``CSSearchableIndexDelegate``.
    open weak var indexDelegate: (any CSSearchableIndexDelegate)? {
        didSet { if indexDelegate != nil { queue.async { self.signalDelegate() } } }
    }

    /// The shared default indexes, one per app and store location: an app
    /// configured anew (``OpenSpotlightConfiguration/configure(bundleIdentifier:storeDirectory:)``)
    /// gets the default index of its new location, not the one it had before.
    private static let defaults = Mutex<[String: CSSearchableIndex]>([:])

    /// The app's default index (batching is not available on it, as on Apple's).
    ///
    /// ```swift
    /// CSSearchableIndex.default().indexSearchableItems([item]) { error in … }
    /// ```
    open class func `default`() -> Self {
        let bundle = OpenSpotlightConfiguration.bundleIdentifier
        let key = "\(bundle)\u{0}\(OpenSpotlightConfiguration.location)"
        let index = defaults.withLock { defaults in
            if let index = defaults[key] { return index }
            let index = CSSearchableIndex(name: "default", protectionClass: nil, isDefault: true)
            defaults[key] = index
            return index
        }
        return index as! Self
    }

    /// A new index object for the app's unnamed index: the store ``default()``
    /// writes, reached through an object of your own. As on Apple's (where
    /// `-init` makes an index without a name), it is not the shared
    /// ``default()`` object, and it can batch: only the object `default()`
    /// returns refuses batches.
    ///
    /// ```swift
    /// let index = CSSearchableIndex()
    /// index.beginBatch()
    /// index.indexSearchableItems(items)
    /// index.endBatch(withClientState: state)
    /// ```
    public override convenience init() {
        self.init(name: "default", protectionClass: nil, isDefault: false)
    }

    /// A named index private to the app.
    public convenience init(name: String) {
        self.init(name: name, protectionClass: nil, isDefault: false)
    }

    /// A named index with a data-protection class.
    public convenience init(name: String, protectionClass: FileProtectionType?) {
        self.init(name: name, protectionClass: protectionClass, isDefault: false)
    }

    /// A named index of another bundle identifier — Apple's form for tests
    /// (an app extension indexing for its app, a test target writing the
    /// app's index). `options` is kept for compatibility and unused.
    ///
    /// ```swift
    /// let index = CSSearchableIndex(name: "notes", protectionClass: nil, bundleIdentifier: "com.example.notes", options: 0)
    /// ```
    public convenience init(name: String, protectionClass: FileProtectionType?, bundleIdentifier: String, options: Int) {
        self.init(name: name, protectionClass: protectionClass, isDefault: false, bundleIdentifier: bundleIdentifier)
    }

    init(name: String, protectionClass: FileProtectionType?, isDefault: Bool, bundleIdentifier: String? = nil) {
        self.name = name
        self.protectionClass = protectionClass
        self.isDefault = isDefault
        self.bundleIdentifier = bundleIdentifier ?? OpenSpotlightConfiguration.bundleIdentifier
        self.location = OpenSpotlightConfiguration.location
        self.queue = DispatchQueue(label: "openspotlight.index.\(name)")
        super.init()
    }

    /// True: indexing works wherever a store directory can be written.
    open class func isIndexingAvailable() -> Bool { true }

    // MARK: - The store

    /// The store, opened on first use and again whenever its file was
    /// replaced on disk (lost, moved aside as damaged, made anew by another
    /// process): a request never writes into a file that is no longer the
    /// store. A lost store is made anew empty, asking the delegate for a
    /// reindex. A batch open on a lost store is lost with it: the batch's
    /// end fails and applies nothing.
    func store() throws -> SpotlightStore {
        let file = StoreFileIdentity(bundleIdentifier: bundleIdentifier, indexName: name, location: location)
        let previous = opened.withLock { $0 }
        if let previous, previous.file == file, file != nil || location.rootDirectory == nil { return previous.store }
        do {
            let store = try SpotlightStore(bundleIdentifier: bundleIdentifier, indexName: name, location: location)
            if let previous, previous.store.isBatchOpen {
                previous.store.discardBatch()
                try store.beginBatch()
                batchLost.withLock { $0 = true }
            }
            let openedFile = StoreFileIdentity(bundleIdentifier: bundleIdentifier, indexName: name, location: location)
            opened.withLock { $0 = (store, openedFile) }
            if previous != nil { queue.async { self.signalDelegate() } }
            return store
        } catch let error as SpotlightIndexError where error.code == .invalidStoreName {
            throw CSIndexError(.indexUnavailableError, "index \"\(name)\" of \"\(bundleIdentifier)\" cannot be opened: \(error.message)")
        } catch {
            throw CSIndexError(error)
        }
    }

    /// Runs a write that may remove items, then deletes the donated
    /// activities tied to them (`relatedUniqueIdentifier`), as Apple does.
    private func cascading<T>(_ store: SpotlightStore, _ write: () throws -> T) throws -> T {
        try AppActivities.cascading(store, bundleIdentifier: bundleIdentifier, location: location, write)
    }

    /// Deletes the donated activities in these domains (their `contentAttributeSet.domainIdentifier`).
    private func deleteActivities(inDomains domains: [String]) throws {
        guard !domains.isEmpty else { return }
        try AppActivities.existingStore(bundleIdentifier: bundleIdentifier, location: location)?.deleteActivities(inDomains: domains)
    }

    /// Runs `work` after every earlier request, then the handler with its error.
    private func submit(_ completionHandler: (((any Error)?) -> Void)?, _ work: @escaping @Sendable (SpotlightStore) throws -> Void) {
        submit(completionHandler, numbered: { _ in }, work: { try work(try self.store()) })
    }

    /// Runs `work` after every earlier request, then the handler with its
    /// error; `numbered` gets the request's number as it is queued.
    private func submit(_ completionHandler: (((any Error)?) -> Void)?, numbered: (Int) -> Void, work: @escaping @Sendable () throws -> Void) {
        let handler = completionHandler.map { UncheckedSendable($0) }
        submitted.withLock { count in
            count += 1
            numbered(count)
            queue.async {
                var failure: (any Error)?
                do { try work() } catch let error as CSIndexError { failure = error } catch { failure = CSIndexError(error) }
                handler?.value(failure)
            }
        }
    }

    private func awaiting(_ start: (@escaping ((any Error)?) -> Void) -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            start { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    private static func check(_ report: IndexReport) throws {
        guard !report.refused.isEmpty else { return }
        let reasons = report.refused.prefix(3).map(\.error.message).joined(separator: "; ")
        throw CSIndexError(.invalidItemError, "\(report.refused.count) item(s) refused, the others indexed: \(reasons)")
    }

    // MARK: - Indexing

    /// Adds items, or replaces those with the same identifiers (merges them with `isUpdate`).
    /// A request made while another runs is prepared (checked, tokenized)
    /// while that one is written, so a stream of batches keeps two cores
    /// busy; requests waiting one right after another are written in one
    /// transaction (`IndexingLookAhead`), each reported in its turn.
    open func indexSearchableItems(_ items: [CSSearchableItem], completionHandler: (((any Error)?) -> Void)? = nil) {
        let request = IndexingLookAhead.Request(items.map(\.engineItem))
        submit(completionHandler, numbered: { lookAhead.enqueue(request, number: $0) }, work: {
            // Written already with an earlier request's items: no store to open.
            let report = try request.writtenReport() ?? self.lookAhead.write(request, store: try self.store())
            try Self.check(report)
        })
    }

    /// Adds or replaces items; returns once the store is durable.
    open func indexSearchableItems(_ items: [CSSearchableItem]) async throws {
        try await awaiting { indexSearchableItems(items, completionHandler: $0) }
    }

    /// Deletes items by identifier.
    open func deleteSearchableItems(withIdentifiers identifiers: [String], completionHandler: (((any Error)?) -> Void)? = nil) {
        submit(completionHandler) { store in try self.cascading(store) { try store.deleteItems(withIdentifiers: identifiers) } }
    }

    /// Deletes items by identifier; returns once the store is durable.
    open func deleteSearchableItems(withIdentifiers identifiers: [String]) async throws {
        try await awaiting { deleteSearchableItems(withIdentifiers: identifiers, completionHandler: $0) }
    }

    /// Deletes the items of domains and of their sub-domains (`a` removes `a.b`).
    open func deleteSearchableItems(withDomainIdentifiers domainIdentifiers: [String], completionHandler: (((any Error)?) -> Void)? = nil) {
        submit(completionHandler) { store in
            try self.cascading(store) { try store.deleteItems(inDomains: domainIdentifiers) }
            if store.isBatchOpen {
                self.batchActivityDomains.withLock { $0 += domainIdentifiers }
            } else {
                try self.deleteActivities(inDomains: domainIdentifiers)
            }
        }
    }

    /// Deletes the items of domains and of their sub-domains; returns once the store is durable.
    open func deleteSearchableItems(withDomainIdentifiers domainIdentifiers: [String]) async throws {
        try await awaiting { deleteSearchableItems(withDomainIdentifiers: domainIdentifiers, completionHandler: $0) }
    }

    /// Deletes every item of this index, and its batch client state.
    open func deleteAllSearchableItems(completionHandler: (((any Error)?) -> Void)? = nil) {
        submit(completionHandler) { store in try self.cascading(store) { try store.deleteAllItems() } }
    }

    /// Deletes every item of this index, and its batch client state.
    open func deleteAllSearchableItems() async throws {
        try await awaiting { deleteAllSearchableItems(completionHandler: $0) }
    }

    // MARK: - Batches

    /// Starts a batch: the requests that follow are applied together when it ends.
    ///
    /// ```swift
    /// let index = CSSearchableIndex(name: "notes")
    /// index.beginBatch()
    /// index.indexSearchableItems(items)
    /// index.endBatch(withClientState: Data("page-7".utf8)) { error in … }
    /// ```
    ///
    /// Not available on ``default()``: its ``endBatch(withClientState:completionHandler:)``
    /// fails with `.invalidClientStateError`, as on Apple's.
    open func beginBatch() {
        if isDefault {
            batchOnDefault.withLock { $0 = true }
            return
        }
        submit(nil) { store in
            if store.isBatchOpen { store.discardBatch() }
            self.batchLost.withLock { $0 = false }
            self.batchActivityDomains.withLock { $0 = [] }
            try store.beginBatch()
        }
    }

    private func endBatch(_ completionHandler: (((any Error)?) -> Void)?, _ end: @escaping @Sendable (SpotlightStore) throws -> IndexReport) {
        if isDefault {
            batchOnDefault.withLock { $0 = false }
            let handler = completionHandler.map { UncheckedSendable($0) }
            queue.async {
                handler?.value(CSIndexError(.invalidClientStateError, "batching is not supported on the default index; use CSSearchableIndex(name:)"))
            }
            return
        }
        submit(completionHandler) { store in
            guard store.isBatchOpen else {
                throw CSIndexError(.invalidClientStateError, "no batch is open on this index; call beginBatch() first")
            }
            if self.batchLost.withLock({ lost in defer { lost = false }; return lost }) {
                store.discardBatch()
                throw CSIndexError(.indexUnavailableError, "the store of index \"\(self.name)\" was lost while the batch was open; nothing of the batch was applied: index its items again")
            }
            let domains = self.batchActivityDomains.withLock { domains in defer { domains = [] }; return domains }
            do {
                try Self.check(try self.cascading(store) { try end(store) })
                try self.deleteActivities(inDomains: domains)
            } catch {
                if store.isBatchOpen { store.discardBatch() }
                throw error
            }
        }
    }

    /// Applies the batch and stores `clientState` (at most 250 bytes) with it, atomically.
    open func endBatch(withClientState clientState: Data, completionHandler: (((any Error)?) -> Void)? = nil) {
        endBatch(completionHandler) { store in try store.endBatch(clientState: clientState) }
    }

    /// Applies the batch and stores `clientState` with it; see ``endBatch(withClientState:completionHandler:)``.
    open func endBatch(withClientState clientState: Data) async throws {
        try await awaiting { endBatch(withClientState: clientState, completionHandler: $0) }
    }

    /// Applies the batch only if the stored client state is `expectedClientState`
    /// (nil: none stored); otherwise fails with `.mismatchedClientState` and applies nothing.
    open func endIndexBatch(expectedClientState: Data?, newClientState: Data, completionHandler: (((any Error)?) -> Void)? = nil) {
        endBatch(completionHandler) { store in try store.endBatch(expectedClientState: expectedClientState, newClientState: newClientState) }
    }

    /// Applies the batch if the stored client state is `expectedClientState`; see the completion-handler form.
    open func endIndexBatch(expectedClientState: Data?, newClientState: Data) async throws {
        try await awaiting { endIndexBatch(expectedClientState: expectedClientState, newClientState: newClientState, completionHandler: $0) }
    }

    /// The client state stored by the last batch (nil if none, or after `deleteAllSearchableItems`).
    open func fetchLastClientState(completionHandler: @escaping (Data?, (any Error)?) -> Void) {
        let handler = UncheckedSendable(completionHandler)
        queue.async {
            if self.isDefault {
                handler.value(nil, CSIndexError(.invalidClientStateError, "batching is not supported on the default index; use CSSearchableIndex(name:)"))
                return
            }
            do { handler.value(try self.store().lastClientState(), nil) } catch { handler.value(nil, (error as? CSIndexError) ?? CSIndexError(error)) }
        }
    }

    /// The client state stored by the last batch; see ``fetchLastClientState(completionHandler:)``.
    open func fetchLastClientState() async throws -> Data? {
        try await withCheckedThrowingContinuation { continuation in
            fetchLastClientState { data, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: data) }
            }
        }
    }

    // MARK: - The delegate

    /// Tells the delegate what the store needs: a full reindex after loss
    /// or damage (until acknowledged), and items expiring within a day.
    func signalDelegate() {
        guard let delegate = indexDelegate, let store = try? store() else { return }
        if (try? store.pendingReindex) != nil {
            delegate.searchableIndex(self, reindexAllSearchableItemsWithAcknowledgementHandler: {
                self.queue.async { try? store.acknowledgeReindex() }
            })
        }
        if let expiring = try? store.itemsExpiring(within: 24 * 3600), !expiring.isEmpty {
            delegate.searchableIndex(self, reindexSearchableItemsWithIdentifiers: expiring.map(\.uniqueIdentifier),
                                     acknowledgementHandler: {})
        }
    }
}

/// Carries a non-Sendable value (a completion handler) to the index's queue, where it is used once.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
