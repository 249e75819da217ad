// §1–§4 of the spec: CSSearchableIndex, batching, the index delegate, the
// extension classes. Every use is typed as the spec's Swift column types the
// member, so a missing, renamed, mis-labelled or re-typed member fails the
// build. Compiled against Apple's CoreSpotlight too (the one changed import).
#if canImport(CoreSpotlight)
import CoreSpotlight
#else
import OpenCoreSpotlight
#endif
import Foundation
import Testing
import UniformTypeIdentifiers

/// The signature conformance suite: each test holds the uses of one part of
/// the spec's tables. They are checked when this target compiles; running
/// them checks what can be seen without a store (defaults, values, types).
@Suite struct AppleAPIConformance {
    /// §1: CSSearchableIndex.
    @Test func searchableIndex() {
        let _: () -> CSSearchableIndex = CSSearchableIndex.default
        let _: (String) -> CSSearchableIndex = CSSearchableIndex.init(name:)
        let _: (String, FileProtectionType?) -> CSSearchableIndex = CSSearchableIndex.init(name:protectionClass:)
        let _: (String, FileProtectionType?, String, Int) -> CSSearchableIndex =
            CSSearchableIndex.init(name:protectionClass:bundleIdentifier:options:)
        let _: () -> CSSearchableIndex = CSSearchableIndex.init
        let _: () -> Bool = CSSearchableIndex.isIndexingAvailable
        let _: ReferenceWritableKeyPath<CSSearchableIndex, (any CSSearchableIndexDelegate)?> = \.indexDelegate

        let _: (CSSearchableIndex) -> ([CSSearchableItem], (((any Error)?) -> Void)?) -> Void =
            CSSearchableIndex.indexSearchableItems(_:completionHandler:)
        let _: (CSSearchableIndex) -> ([CSSearchableItem]) async throws -> Void = CSSearchableIndex.indexSearchableItems(_:)
        let _: (CSSearchableIndex) -> ([String], (((any Error)?) -> Void)?) -> Void =
            CSSearchableIndex.deleteSearchableItems(withIdentifiers:completionHandler:)
        let _: (CSSearchableIndex) -> ([String]) async throws -> Void = CSSearchableIndex.deleteSearchableItems(withIdentifiers:)
        let _: (CSSearchableIndex) -> ([String], (((any Error)?) -> Void)?) -> Void =
            CSSearchableIndex.deleteSearchableItems(withDomainIdentifiers:completionHandler:)
        let _: (CSSearchableIndex) -> ([String]) async throws -> Void = CSSearchableIndex.deleteSearchableItems(withDomainIdentifiers:)
        let _: (CSSearchableIndex) -> ((((any Error)?) -> Void)?) -> Void = CSSearchableIndex.deleteAllSearchableItems(completionHandler:)
        let _: (CSSearchableIndex) -> () async throws -> Void = CSSearchableIndex.deleteAllSearchableItems

        let _: (CSSearchableIndex) -> (String, String, UTType, @escaping @Sendable (Data?, (any Error)?) -> Void) -> Void =
            CSSearchableIndex.fetchData(forBundleIdentifier:itemIdentifier:contentType:completionHandler:)
        let _: (CSSearchableIndex) -> (String, String, UTType) async throws -> Data =
            CSSearchableIndex.fetchData(forBundleIdentifier:itemIdentifier:contentType:)
        #expect(CSSearchableIndex.isIndexingAvailable())
    }

    /// §1a: batching and client state, in Apple's Swift spelling.
    @Test func batching() {
        let _: (CSSearchableIndex) -> () -> Void = CSSearchableIndex.beginBatch
        let _: (CSSearchableIndex) -> (Data, (((any Error)?) -> Void)?) -> Void = CSSearchableIndex.endBatch(withClientState:completionHandler:)
        let _: (CSSearchableIndex) -> (Data) async throws -> Void = CSSearchableIndex.endBatch(withClientState:)
        let _: (CSSearchableIndex) -> (Data?, Data, (((any Error)?) -> Void)?) -> Void =
            CSSearchableIndex.endIndexBatch(expectedClientState:newClientState:completionHandler:)
        let _: (CSSearchableIndex) -> (Data?, Data) async throws -> Void = CSSearchableIndex.endIndexBatch(expectedClientState:newClientState:)
        let _: (CSSearchableIndex) -> (@escaping (Data?, (any Error)?) -> Void) -> Void = CSSearchableIndex.fetchLastClientState(completionHandler:)
        let _: (CSSearchableIndex) -> () async throws -> Data? = CSSearchableIndex.fetchLastClientState
    }

    /// Completion handlers default to nil, as the `= nil` of Apple's signatures allows
    /// (in a synchronous context, where the `async` forms are not candidates).
    func completionHandlersDefaultToNil(_ index: CSSearchableIndex, _ items: [CSSearchableItem]) {
        index.indexSearchableItems(items)
        index.deleteSearchableItems(withIdentifiers: ["a"])
        index.deleteSearchableItems(withDomainIdentifiers: ["d"])
        index.deleteAllSearchableItems()
        index.beginBatch()
        index.endBatch(withClientState: Data())
        index.endIndexBatch(expectedClientState: nil, newClientState: Data())
    }

    /// The `async` forms, as Apple's samples call them.
    func asyncForms(_ index: CSSearchableIndex, _ items: [CSSearchableItem]) async throws {
        try await index.indexSearchableItems(items)
        try await index.deleteSearchableItems(withIdentifiers: ["a"])
        try await index.deleteSearchableItems(withDomainIdentifiers: ["d"])
        try await index.deleteAllSearchableItems()
        try await index.endBatch(withClientState: Data())
        try await index.endIndexBatch(expectedClientState: nil, newClientState: Data())
        let _: Data? = try await index.fetchLastClientState()
        let _: Data = try await index.fetchData(forBundleIdentifier: "com.example.other", itemIdentifier: "i", contentType: .plainText)
    }

    /// §2 and §3: the delegate protocol's members (required and optional) with
    /// Apple's labels and types, and CSIndexExtensionRequestHandler as one.
    @Test func indexDelegate() {
        func requirements(_ delegate: any CSSearchableIndexDelegate) {
            let _: (CSSearchableIndex, @escaping () -> Void) -> Void =
                delegate.searchableIndex(_:reindexAllSearchableItemsWithAcknowledgementHandler:)
            let _: (CSSearchableIndex, [String], @escaping () -> Void) -> Void =
                delegate.searchableIndex(_:reindexSearchableItemsWithIdentifiers:acknowledgementHandler:)
            let _: (CSSearchableIndex) -> Void = delegate.searchableIndexDidThrottle(_:)
            let _: (CSSearchableIndex) -> Void = delegate.searchableIndexDidFinishThrottle(_:)
            let _: (CSSearchableIndex, String, String) throws -> Data = delegate.data(for:itemIdentifier:typeIdentifier:)
            let _: (CSSearchableIndex, String, String, Bool) throws -> URL = delegate.fileURL(for:itemIdentifier:typeIdentifier:inPlace:)
            let _: ([String], @escaping ([CSSearchableItem]) -> Void) -> Void = delegate.searchableItems(forIdentifiers:searchableItemsHandler:)
            let _: ([CSSearchableItem]) -> Void = delegate.searchableItemsDidUpdate(_:)
        }
        let handler: any CSSearchableIndexDelegate = OverridingExtension()
        requirements(handler)
        #expect(handler is CSIndexExtensionRequestHandler)
    }

    /// §4: CSImportExtension, subclassed as an importer is.
    @Test func importExtension() throws {
        let _: (CSImportExtension) -> (CSSearchableItemAttributeSet, URL) throws -> Void = CSImportExtension.update(_:forFileAt:)
        let attributes = CSSearchableItemAttributeSet(contentType: .plainText)
        try TitleImporter().update(attributes, forFileAt: URL(fileURLWithPath: "/notes/shopping.txt"))
        #expect(attributes.title == "shopping")
    }
}

/// Apple's classes are `open`, their class methods overridable: a subclass
/// overrides each member the spec lists on them.
final class OverridingIndex: CSSearchableIndex, @unchecked Sendable {
    override class func isIndexingAvailable() -> Bool { false }
    override func indexSearchableItems(_ items: [CSSearchableItem], completionHandler: (((any Error)?) -> Void)? = nil) {}
    override func deleteSearchableItems(withIdentifiers identifiers: [String], completionHandler: (((any Error)?) -> Void)? = nil) {}
    override func deleteSearchableItems(withDomainIdentifiers domainIdentifiers: [String], completionHandler: (((any Error)?) -> Void)? = nil) {}
    override func deleteAllSearchableItems(completionHandler: (((any Error)?) -> Void)? = nil) {}
    override func beginBatch() {}
    override func endBatch(withClientState clientState: Data, completionHandler: (((any Error)?) -> Void)? = nil) {}
    override func endIndexBatch(expectedClientState: Data?, newClientState: Data, completionHandler: (((any Error)?) -> Void)? = nil) {}
    override func fetchLastClientState(completionHandler: @escaping (Data?, (any Error)?) -> Void) {}
}

/// An index extension overriding every delegate method.
final class OverridingExtension: CSIndexExtensionRequestHandler, @unchecked Sendable {
    override func searchableIndex(_ searchableIndex: CSSearchableIndex,
                                  reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping () -> Void) {}
    override func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String],
                                  acknowledgementHandler: @escaping () -> Void) {}
    override func searchableIndexDidThrottle(_ searchableIndex: CSSearchableIndex) {}
    override func searchableIndexDidFinishThrottle(_ searchableIndex: CSSearchableIndex) {}
    override func data(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String) throws -> Data { Data() }
    override func fileURL(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String, inPlace: Bool) throws -> URL {
        URL(fileURLWithPath: "/")
    }
    override func searchableItems(forIdentifiers identifiers: [String], searchableItemsHandler: @escaping ([CSSearchableItem]) -> Void) {}
    override func searchableItemsDidUpdate(_ items: [CSSearchableItem]) {}
}

/// An app's own delegate: only the two required methods, the rest optional.
final class MinimalDelegate: NSObject, CSSearchableIndexDelegate {
    func searchableIndex(_ searchableIndex: CSSearchableIndex,
                         reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping () -> Void) {}
    func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String],
                         acknowledgementHandler: @escaping () -> Void) {}
}

/// A file importer: the title is the file's name.
final class TitleImporter: CSImportExtension {
    override func update(_ attributes: CSSearchableItemAttributeSet, forFileAt contentURL: URL) throws {
        attributes.title = contentURL.deletingPathExtension().lastPathComponent
    }
}
