public import Foundation
import SpotlightIndex
import SpotlightSystem
import UniformTypeIdentifiers

/// The principal class of an app's import extension, as Apple's
/// `CSImportExtension`: subclass it and fill in the attributes of a file of
/// a type the app declares.
///
/// ```swift
/// final class ListImporter: CSImportExtension {
///     override func update(_ attributes: CSSearchableItemAttributeSet, forFileAt contentURL: URL) throws {
///         let text = try String(contentsOf: contentURL, encoding: .utf8)
///         attributes.title = text.split(separator: "\n").first.map(String.init)
///         attributes.textContent = text
///     }
/// }
/// // main.swift of the app's importer command
/// exit(try CSImportExtension.handleLaunchRequest(with: ListImporter()) ? 0 : 1)
/// ```
///
/// On Linux `spotlight index-file FILE` finds the registered app that
/// imports the file's type and runs its importer command with the request;
/// the file becomes an item of the app's `files` index, keyed by its path,
/// with `contentURL`, `displayName` and the content type set.
open class CSImportExtension: NSObject {
    public override init() { super.init() }

    /// Fills in `attributes` from the file; throw when it cannot be read.
    open func update(_ attributes: CSSearchableItemAttributeSet, forFileAt contentURL: URL) throws {
        throw CSIndexError(.unknownError, "\(type(of: self)) does not override update(_:forFileAt:)")
    }

    /// Handles the request this process was launched with as the app's
    /// importer. Returns false when there is no request.
    /// - Throws: `DecodingError` for a malformed request, the importer's
    ///   error, or a ``CSIndexError`` when the item cannot be indexed.
    @discardableResult
    public static func handleLaunchRequest(with importer: CSImportExtension,
                                           environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Bool {
        guard let json = environment[FileImportRequest.environmentKey], !json.isEmpty else { return false }
        let request = try JSONDecoder().decode(FileImportRequest.self, from: Data(json.utf8))
        let type = UTType(request.contentType) ?? .data
        let attributes = CSSearchableItemAttributeSet(contentType: type)
        attributes.contentURL = request.fileURL
        attributes.displayName = request.fileURL.lastPathComponent
        try importer.update(attributes, forFileAt: request.fileURL)
        let item = CSSearchableItem(uniqueIdentifier: request.file, domainIdentifier: nil, attributeSet: attributes)
        let index = CSSearchableIndex(name: request.indexName)
        let done = DispatchSemaphore(value: 0)
        final class Box: @unchecked Sendable { var error: (any Error)? }
        let box = Box()
        index.indexSearchableItems([item]) { error in
            box.error = error
            done.signal()
        }
        done.wait()
        if let error = box.error { throw error }
        return true
    }
}
