public import Foundation
import SpotlightIndex
public import SpotlightSystem
import UniformTypeIdentifiers

/// Hands files to the app that imports their type (Apple's Spotlight
/// import extensions): the app's importer command describes the file and
/// indexes it, so that it is found by system search.
///
/// ```swift
/// let outcome = try FileIndexer().indexFile(at: URL(fileURLWithPath: "/home/me/groceries.txt"))
/// print(outcome.app.displayName, outcome.request.contentType)
/// ```
///
/// A file's type comes from its extension (``UTType/init(filenameExtension:conformingTo:)``);
/// the first registered app, by display name, whose `importedContentTypes`
/// the type conforms to imports it.
public struct FileIndexer: Sendable {
    /// Where apps and stores are.
    public let registry: AppRegistry
    /// How long an importer may run, in seconds (default 60).
    public var timeout: TimeInterval
    /// What runs the importers (a process of its own, by default).
    public let processRunner: any ProcessRunning

    /// - Parameter processRunner: what runs importers: ``AppProcessRunner`` (a process), or a test's stand-in.
    public init(registry: AppRegistry = AppRegistry(), timeout: TimeInterval = 60, processRunner: any ProcessRunning = AppProcessRunner()) {
        self.registry = registry
        self.timeout = timeout
        self.processRunner = processRunner
    }

    /// What happened to one file.
    public struct Outcome: Sendable, Encodable {
        public var app: AppRegistration
        public var request: FileImportRequest
        /// What the importer printed.
        public var output: String
    }

    /// Imports one file through the app that handles its type.
    /// - Throws: ``SystemSearchError`` `.resultNotFound` for a missing file,
    ///   `.notContinuable` when no app imports its type, `.launchFailed` or
    ///   `.notHandled` when the importer fails.
    @discardableResult
    public func indexFile(at url: URL) throws -> Outcome {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw SystemSearchError(.resultNotFound, "\(url.path) is not a file")
        }
        guard let type = UTType(filenameExtension: url.pathExtension) else {
            throw SystemSearchError(.notContinuable, "the type of \(url.lastPathComponent) is not known from its extension \"\(url.pathExtension)\"")
        }
        guard let app = try registry.apps().first(where: { app in
            app.importerCommand != nil && app.importedContentTypes.contains { UTType($0).map(type.conforms(to:)) ?? false }
        }), let command = app.importerCommand else {
            throw SystemSearchError(.notContinuable, "no registered app imports \(type.identifier) files (\(url.lastPathComponent))")
        }
        let request = FileImportRequest(file: url, contentType: type.identifier)
        let json = String(decoding: try request.jsonData(), as: UTF8.self)
        let result = try registry.runExtension(command, of: app, requestJSON: json, environmentKey: FileImportRequest.environmentKey,
                                               timeout: timeout, what: "\(app.displayName)'s importer", runner: processRunner)
        guard result.status == 0 else {
            throw SystemSearchError(.notHandled, "\(app.displayName)'s importer failed on \(url.lastPathComponent) (exit status \(result.status)): \(result.output.suffix(500))")
        }
        return Outcome(app: app, request: request, output: result.output)
    }
}
