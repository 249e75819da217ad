public import Foundation
import SpotlightIndex
import SpotlightSystem

extension CSIndexExtensionRequestHandler {
    /// Handles the request this process was launched with as the app's
    /// index extension (OpenSpotlight's addition: on an iPhone the system
    /// loads the extension). Returns false when there is no request.
    ///
    /// ```swift
    /// // main.swift of the app's index extension command
    /// final class NotesIndexer: CSIndexExtensionRequestHandler {
    ///     override func searchableIndex(_ index: CSSearchableIndex,
    ///                                   reindexAllSearchableItemsWithAcknowledgementHandler done: @escaping () -> Void) {
    ///         index.indexSearchableItems(allNotes()) { _ in done() }
    ///     }
    /// }
    /// exit(try CSIndexExtensionRequestHandler.handleLaunchRequest(with: NotesIndexer()) ? 0 : 1)
    /// ```
    ///
    /// A data request (another app's `fetchData(forBundleIdentifier:…)`)
    /// calls `data(for:itemIdentifier:typeIdentifier:)` and writes what it
    /// returns where the request says; an error it throws is rethrown.
    ///
    /// For a reindex, the delegate method is called with the index it
    /// names, and this waits (up to `timeout` seconds) for the
    /// acknowledgement handler; a reindex is then marked done, after every
    /// write the handler submitted. Without an acknowledgement the request
    /// stays pending and is delivered again.
    /// - Throws: `DecodingError` when the request is not valid JSON.
    @discardableResult
    public static func handleLaunchRequest(with handler: any CSSearchableIndexDelegate,
                                           environment: [String: String] = ProcessInfo.processInfo.environment,
                                           timeout: TimeInterval = 300) throws -> Bool {
        guard let json = environment[IndexRequest.environmentKey], !json.isEmpty else { return false }
        let request = try JSONDecoder().decode(IndexRequest.self, from: Data(json.utf8))
        let index = request.indexName == "default" ? CSSearchableIndex.default() : CSSearchableIndex(name: request.indexName)
        if request.kind == .provideData {
            guard let item = request.identifiers.first, let type = request.typeIdentifier, let output = request.outputFile else { return false }
            let data = try handler.data(for: index, itemIdentifier: item, typeIdentifier: type)
            guard FileManager.default.createFile(atPath: output, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw CSIndexError(.unknownError, "cannot write the requested data to \(output)")
            }
            return true
        }
        let acknowledged = DispatchSemaphore(value: 0)
        switch request.kind {
        case .reindexAll:
            handler.searchableIndex(index, reindexAllSearchableItemsWithAcknowledgementHandler: { acknowledged.signal() })
        case .reindexItems:
            handler.searchableIndex(index, reindexSearchableItemsWithIdentifiers: request.identifiers, acknowledgementHandler: { acknowledged.signal() })
        case .provideData:
            return false
        }
        guard acknowledged.wait(timeout: .now() + timeout) == .success else { return false }
        // After the writes the handler submitted to this index object.
        return index.queue.sync {
            guard request.kind == .reindexAll else { return true }
            do {
                try index.store().acknowledgeReindex()
                return true
            } catch {
                return false
            }
        }
    }
}
