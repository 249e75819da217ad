public import Foundation

// Older spellings of CSSearchableIndex's methods, so code written for an
// older SDK (Apple's iOS 9 sample code and the books of that time) keeps
// compiling. Each is deprecated and renamed, as Swift's own renames are:
// the compiler's warning names today's spelling, and Xcode's fix-it (or
// SourceKit-LSP's) rewrites the call.
//
// Swift 2 imported the Objective-C selectors without Swift names
// (`endIndexBatchWithClientState(_:completionHandler:)`); Swift 3 gave them
// today's names (`endBatch(withClientState:completionHandler:)`).

extension CSSearchableIndex {
    /// Swift 2's spelling of ``default()``.
    @available(*, deprecated, renamed: "default()")
    public class func defaultSearchableIndex() -> CSSearchableIndex { CSSearchableIndex.default() }

    /// Swift 2's spelling of ``beginBatch()``.
    @available(*, deprecated, renamed: "beginBatch()")
    public func beginIndexBatch() { beginBatch() }

    /// Swift 2's spelling of ``endBatch(withClientState:completionHandler:)``.
    ///
    /// ```swift
    /// index.endIndexBatchWithClientState(state) { error in … }   // warning: renamed to 'endBatch(withClientState:completionHandler:)'
    /// ```
    @available(*, deprecated, renamed: "endBatch(withClientState:completionHandler:)")
    public func endIndexBatchWithClientState(_ clientState: Data, completionHandler: (((any Error)?) -> Void)? = nil) {
        endBatch(withClientState: clientState, completionHandler: completionHandler)
    }

    /// The Objective-C selector's spelling of ``endBatch(withClientState:completionHandler:)``,
    /// which OpenCoreSpotlight offered before it followed the Swift name.
    @available(*, deprecated, renamed: "endBatch(withClientState:completionHandler:)")
    public func endIndexBatch(withClientState clientState: Data, completionHandler: (((any Error)?) -> Void)? = nil) {
        endBatch(withClientState: clientState, completionHandler: completionHandler)
    }

    /// The `async` form of ``endIndexBatch(withClientState:completionHandler:)``.
    @available(*, deprecated, renamed: "endBatch(withClientState:)")
    public func endIndexBatch(withClientState clientState: Data) async throws {
        try await endBatch(withClientState: clientState)
    }

    /// Swift 2's spelling of ``deleteSearchableItems(withIdentifiers:completionHandler:)``.
    @available(*, deprecated, renamed: "deleteSearchableItems(withIdentifiers:completionHandler:)")
    public func deleteSearchableItemsWithIdentifiers(_ identifiers: [String], completionHandler: (((any Error)?) -> Void)? = nil) {
        deleteSearchableItems(withIdentifiers: identifiers, completionHandler: completionHandler)
    }

    /// Swift 2's spelling of ``deleteSearchableItems(withDomainIdentifiers:completionHandler:)``.
    @available(*, deprecated, renamed: "deleteSearchableItems(withDomainIdentifiers:completionHandler:)")
    public func deleteSearchableItemsWithDomainIdentifiers(_ domainIdentifiers: [String], completionHandler: (((any Error)?) -> Void)? = nil) {
        deleteSearchableItems(withDomainIdentifiers: domainIdentifiers, completionHandler: completionHandler)
    }

    /// Swift 2's spelling of ``deleteAllSearchableItems(completionHandler:)``.
    @available(*, deprecated, renamed: "deleteAllSearchableItems(completionHandler:)")
    public func deleteAllSearchableItemsWithCompletionHandler(_ completionHandler: (((any Error)?) -> Void)? = nil) {
        deleteAllSearchableItems(completionHandler: completionHandler)
    }

    /// Swift 2's spelling of ``fetchLastClientState(completionHandler:)``.
    @available(*, deprecated, renamed: "fetchLastClientState(completionHandler:)")
    public func fetchLastClientStateWithCompletionHandler(_ completionHandler: @escaping (Data?, (any Error)?) -> Void) {
        fetchLastClientState(completionHandler: completionHandler)
    }
}
