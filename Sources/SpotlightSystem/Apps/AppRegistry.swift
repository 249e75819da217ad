public import Foundation
public import SpotlightIndex

/// The apps known to system search: one JSON file per app in
/// `<root>/.apps/<bundle id>.json` (the root of `StoreLocation`), which is
/// also where an app may install its manifest itself.
///
/// ```swift
/// let registry = AppRegistry()
/// try registry.register(manifestAt: URL(fileURLWithPath: "/usr/share/recipes/openspotlight.json"))
/// for app in try registry.apps() { print(app.displayName, app.bundleIdentifier) }
/// try registry.unregister("com.example.recipes", deletingIndexes: false)
/// ```
///
/// `.apps` can never be a bundle identifier (it starts with a dot), so it
/// never collides with an app's store directory.
public struct AppRegistry: Sendable {
    /// Where the stores and the registry live.
    public let location: StoreLocation

    public init(location: StoreLocation = .automatic) {
        self.location = location
    }

    /// The registry directory.
    public var directory: URL {
        get throws {
            guard let root = location.rootDirectory else {
                throw SystemSearchError(.registryUnavailable, "an in-memory location has no app registry; use a directory")
            }
            return root.appendingPathComponent(".apps", isDirectory: true)
        }
    }

    private func file(for bundleIdentifier: String) throws -> URL {
        do { try StoreName.validateBundleIdentifier(bundleIdentifier) } catch let error as SpotlightIndexError {
            throw SystemSearchError(.invalidRegistration, error.message)
        }
        return try directory.appendingPathComponent(bundleIdentifier + ".json")
    }

    // MARK: - Registering

    /// Registers an app, or replaces its registration.
    /// - Throws: ``SystemSearchError`` `.invalidRegistration` saying what is
    ///   wrong, `.registryUnavailable` when the directory cannot be written.
    public func register(_ app: AppRegistration) throws {
        try app.validate()
        let file = try file(for: app.bundleIdentifier)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try encoder.encode(app).write(to: file, options: .atomic)
        } catch {
            throw SystemSearchError(.registryUnavailable, "cannot write \(file.path): \(error.localizedDescription); check the directory's permissions")
        }
    }

    /// Registers the app a manifest file describes (the JSON form of ``AppRegistration``).
    @discardableResult
    public func register(manifestAt url: URL) throws -> AppRegistration {
        let app = try Self.readManifest(url)
        try register(app)
        return app
    }

    /// Reads and checks a manifest file.
    public static func readManifest(_ url: URL) throws -> AppRegistration {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw SystemSearchError(.invalidRegistration, "cannot read the manifest \(url.path): \(error.localizedDescription)")
        }
        if data.count > 1 << 20 { throw SystemSearchError(.invalidRegistration, "the manifest \(url.path) is over 1 MB") }
        let app: AppRegistration
        do { app = try JSONDecoder().decode(AppRegistration.self, from: data) } catch {
            throw SystemSearchError(.invalidRegistration, "the manifest \(url.path) is not a valid app registration: \(Self.describe(error))")
        }
        try app.validate()
        return app
    }

    /// Forgets an app. Its indexes stay unless `deletingIndexes` is true.
    /// - Throws: `.appNotRegistered` when it is not registered.
    public func unregister(_ bundleIdentifier: String, deletingIndexes: Bool = false) throws {
        let file = try file(for: bundleIdentifier)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw SystemSearchError(.appNotRegistered, "\(bundleIdentifier) is not registered; `spotlight apps` lists the apps that are")
        }
        do {
            try FileManager.default.removeItem(at: file)
            if deletingIndexes, let root = location.rootDirectory {
                for directory in [root.appendingPathComponent(bundleIdentifier, isDirectory: true),
                                  root.appendingPathComponent(".registry", isDirectory: true).appendingPathComponent(bundleIdentifier, isDirectory: true)]
                where FileManager.default.fileExists(atPath: directory.path) {
                    try FileManager.default.removeItem(at: directory)
                }
            }
        } catch {
            throw SystemSearchError(.registryUnavailable, "cannot remove \(bundleIdentifier)'s files: \(error.localizedDescription)")
        }
    }

    // MARK: - Reading

    /// The registration of an app, or nil.
    public func app(_ bundleIdentifier: String) throws -> AppRegistration? {
        let file = try file(for: bundleIdentifier)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let app = try Self.readManifest(file)
        guard app.bundleIdentifier == bundleIdentifier else {
            throw SystemSearchError(.invalidRegistration, "\(file.path) describes \(app.bundleIdentifier), not \(bundleIdentifier); rename or fix it")
        }
        return app
    }

    /// Every registered app, by display name, and the files that could not be read.
    public func scan() throws -> (apps: [AppRegistration], problems: [String]) {
        let directory = try directory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var apps: [AppRegistration] = []
        var problems: [String] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let bundle = String(name.dropLast(5))
            do {
                if let app = try app(bundle) { apps.append(app) }
            } catch {
                problems.append("\(directory.appendingPathComponent(name).path): \(error)")
            }
        }
        apps.sort { ($0.displayName.lowercased(), $0.bundleIdentifier) < ($1.displayName.lowercased(), $1.bundleIdentifier) }
        return (apps, problems)
    }

    /// Every registered app, by display name (unreadable files are skipped; see ``scan()``).
    public func apps() throws -> [AppRegistration] { try scan().apps }

    /// The environment an app is launched with: this process's, plus the
    /// app's bundle identifier (which OpenCoreSpotlight reads) and the
    /// stores' root, so that the app writes where system search reads.
    public func environment(for app: AppRegistration) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["OPENSPOTLIGHT_BUNDLE_ID"] = app.bundleIdentifier
        if let root = location.rootDirectory { environment["OPENSPOTLIGHT_HOME"] = root.path }
        return environment
    }

    /// Runs one of an app's extension commands (index extension, importer)
    /// with a request: its JSON replaces ``AppRegistration/requestPlaceholder``
    /// in the command and is in the environment under `environmentKey`.
    /// - Parameter runner: what runs the command (a process of its own, by default).
    public func runExtension(_ command: [String], of app: AppRegistration, requestJSON json: String, environmentKey: String,
                             timeout: TimeInterval, what: String, runner: any ProcessRunning = AppProcessRunner()) throws -> AppProcess.Result {
        var environment = environment(for: app)
        environment[environmentKey] = json
        let arguments = command.map { $0.replacingOccurrences(of: AppRegistration.requestPlaceholder, with: json) }
        return try runner.run(arguments, environment: environment, timeout: timeout, what: what)
    }

    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return error.localizedDescription }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map(\.stringValue).joined(separator: ".")
            return keys.isEmpty ? "" : " at \(keys)"
        }
        switch error {
        case .keyNotFound(let key, let context): return "\"\(key.stringValue)\" is missing\(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(context.debugDescription)\(path(context))"
        case .dataCorrupted(let context): return "not JSON (\(context.debugDescription))\(path(context))"
        @unknown default: return "\(error)"
        }
    }
}
