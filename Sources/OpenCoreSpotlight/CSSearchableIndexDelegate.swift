public import Foundation

/// What the index asks of the app, as Apple's `CSSearchableIndexDelegate`.
///
/// ```swift
/// final class Reindexer: NSObject, CSSearchableIndexDelegate {
///     func searchableIndex(_ index: CSSearchableIndex, reindexAllSearchableItemsWithAcknowledgementHandler done: @escaping () -> Void) {
///         index.indexSearchableItems(allNotes()) { _ in done() }
///     }
///     func searchableIndex(_ index: CSSearchableIndex, reindexSearchableItemsWithIdentifiers ids: [String],
///                          acknowledgementHandler done: @escaping () -> Void) {
///         index.indexSearchableItems(notes(ids)) { _ in done() }
///     }
/// }
/// ```
///
/// - The store was lost or damaged: `reindexAll…` is called, and again on
///   every launch until the handler is called.
/// - Items expire within a day: `reindexSearchableItems(withIdentifiers:)`
///   is called with them (again on the next launch while they still do).
public protocol CSSearchableIndexDelegate: AnyObject {
    func searchableIndex(_ searchableIndex: CSSearchableIndex,
                         reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping () -> Void)
    func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String],
                         acknowledgementHandler: @escaping () -> Void)
    func searchableIndexDidThrottle(_ searchableIndex: CSSearchableIndex)
    func searchableIndexDidFinishThrottle(_ searchableIndex: CSSearchableIndex)
    func data(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String) throws -> Data
    func fileURL(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String, inPlace: Bool) throws -> URL
    /// The system asks for items again to post-process them (never on Linux: no Apple Intelligence).
    func searchableItems(forIdentifiers identifiers: [String], searchableItemsHandler: @escaping ([CSSearchableItem]) -> Void)
    /// The system filled in items indexed with `updateListenerOptions` (never on Linux).
    func searchableItemsDidUpdate(_ items: [CSSearchableItem])
}

extension CSSearchableIndexDelegate {
    public func searchableItems(forIdentifiers identifiers: [String], searchableItemsHandler: @escaping ([CSSearchableItem]) -> Void) {
        searchableItemsHandler([])
    }
    public func searchableItemsDidUpdate(_ items: [CSSearchableItem]) {}
    public func searchableIndexDidThrottle(_ searchableIndex: CSSearchableIndex) {}
    public func searchableIndexDidFinishThrottle(_ searchableIndex: CSSearchableIndex) {}
    public func data(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String) throws -> Data {
        throw CSIndexError(.unknownError, "this app provides no data for \(itemIdentifier) as \(typeIdentifier)")
    }
    public func fileURL(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String, inPlace: Bool) throws -> URL {
        throw CSIndexError(.unknownError, "this app provides no file for \(itemIdentifier) as \(typeIdentifier)")
    }
}

/// The principal class of an app's index extension, as Apple's: subclass
/// it and override the delegate methods. It answers the same requests as
/// the app's delegate when the app is not running.
open class CSIndexExtensionRequestHandler: NSObject, CSSearchableIndexDelegate, @unchecked Sendable {
    public override init() { super.init() }

    open func searchableIndex(_ searchableIndex: CSSearchableIndex,
                              reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping () -> Void) {
        acknowledgementHandler()
    }

    open func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String],
                              acknowledgementHandler: @escaping () -> Void) {
        acknowledgementHandler()
    }

    // The optional methods, here so that a subclass's overrides are the ones called.

    open func searchableIndexDidThrottle(_ searchableIndex: CSSearchableIndex) {}

    open func searchableIndexDidFinishThrottle(_ searchableIndex: CSSearchableIndex) {}

    /// Provides an item's data for another app (`fetchData(forBundleIdentifier:…)`); by default there is none.
    open func data(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String) throws -> Data {
        throw CSIndexError(.unknownError, "this app provides no data for \(itemIdentifier) as \(typeIdentifier)")
    }

    open func fileURL(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String, inPlace: Bool) throws -> URL {
        throw CSIndexError(.unknownError, "this app provides no file for \(itemIdentifier) as \(typeIdentifier)")
    }

    open func searchableItems(forIdentifiers identifiers: [String], searchableItemsHandler: @escaping ([CSSearchableItem]) -> Void) {
        searchableItemsHandler([])
    }

    open func searchableItemsDidUpdate(_ items: [CSSearchableItem]) {}
}
