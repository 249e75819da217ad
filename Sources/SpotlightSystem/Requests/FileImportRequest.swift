public import Foundation
import SpotlightIndex

/// A request from the system to an app's import extension (Apple's
/// `CSImportExtension`): describe this file for search.
///
/// ```swift
/// let request = FileImportRequest(file: URL(fileURLWithPath: "/home/me/list.txt"), contentType: "public.plain-text")
/// ```
///
/// It reaches the app as JSON in the environment (``environmentKey``) and in
/// the `{request}` argument of the app's importer command; the importer
/// indexes the file as an item of the index ``indexName`` (by default
/// `files`), keyed by the file's path.
public struct FileImportRequest: Sendable, Hashable, Codable {
    /// The environment variable holding the request as JSON.
    public static let environmentKey = "OPENSPOTLIGHT_IMPORT_REQUEST"

    /// The file, an absolute path.
    public var file: String
    /// Its uniform type identifier.
    public var contentType: String
    /// The app's index the item goes to.
    public var indexName: String

    public init(file: URL, contentType: String, indexName: String = "files") {
        self.file = file.standardizedFileURL.path
        self.contentType = contentType
        self.indexName = indexName
    }

    /// The file's URL.
    public var fileURL: URL { URL(fileURLWithPath: file) }

    /// The request as compact JSON with sorted keys.
    public func jsonData() throws -> Data {
        try CanonicalJSON.encode(self)
    }
}
