public import Foundation
import SpotlightIndex
import SpotlightSystem
public import UniformTypeIdentifiers

extension CSSearchableIndex {
    /// Asks another app for the data of one of its items, as Apple's
    /// `fetchData(forBundleIdentifier:itemIdentifier:contentType:)`: the
    /// other app's registered index extension is run with the request and
    /// answers through its delegate's `data(for:itemIdentifier:typeIdentifier:)`.
    ///
    /// ```swift
    /// let data = try await CSSearchableIndex.default().fetchData(
    ///     forBundleIdentifier: "org.openspotlight.examples.GreenGrocer", itemIdentifier: "p-pear", contentType: .plainText)
    /// ```
    /// - Completion: the data, or a ``CSIndexError``: `.remoteConnectionError`
    ///   when the app is not registered, has no index extension, or its
    ///   extension failed or provided nothing.
    public func fetchData(forBundleIdentifier bundleIdentifier: String, itemIdentifier: String, contentType: UTType,
                        completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void) {
        let location = OpenSpotlightConfiguration.location
        DispatchQueue.global().async {
            do {
                completionHandler(try Self.fetchData(bundleIdentifier, itemIdentifier, contentType.identifier, location), nil)
            } catch {
                completionHandler(nil, error)
            }
        }
    }

    /// The `async` form of ``fetchData(forBundleIdentifier:itemIdentifier:contentType:completionHandler:)``.
    public func fetchData(forBundleIdentifier bundleIdentifier: String, itemIdentifier: String, contentType: UTType) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            fetchData(forBundleIdentifier: bundleIdentifier, itemIdentifier: itemIdentifier, contentType: contentType) { data, error in
                if let data { continuation.resume(returning: data) } else { continuation.resume(throwing: error ?? CSIndexError(.unknownError, "no data")) }
            }
        }
    }

    static func fetchData(_ bundleIdentifier: String, _ itemIdentifier: String, _ type: String, _ location: StoreLocation) throws -> Data {
        let registry = AppRegistry(location: location)
        let app: AppRegistration?
        do { app = try registry.app(bundleIdentifier) } catch { throw CSIndexError(.remoteConnectionError, "\(error)") }
        guard let app else {
            throw CSIndexError(.remoteConnectionError, "\(bundleIdentifier) is not a registered app; it cannot provide data")
        }
        guard let command = app.indexExtensionCommand else {
            throw CSIndexError(.remoteConnectionError, "\(app.displayName) has no index extension to provide data")
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("openspotlight-data-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let request = IndexRequest(kind: .provideData, indexName: "default", identifiers: [itemIdentifier],
                                   typeIdentifier: type, outputFile: output.path)
        let json = String(decoding: try request.jsonData(), as: UTF8.self)
        let result: AppProcess.Result
        do {
            result = try registry.runExtension(command, of: app, requestJSON: json, environmentKey: IndexRequest.environmentKey,
                                               timeout: 60, what: "\(app.displayName)'s index extension")
        } catch {
            throw CSIndexError(.remoteConnectionError, "\(error)")
        }
        guard result.status == 0, let data = FileManager.default.contents(atPath: output.path) else {
            let said = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
            throw CSIndexError(.remoteConnectionError, "\(app.displayName) provided no \(type) data for \(itemIdentifier) (exit status \(result.status))\(said.isEmpty ? "" : ": \(said.suffix(300))")")
        }
        return data
    }
}
