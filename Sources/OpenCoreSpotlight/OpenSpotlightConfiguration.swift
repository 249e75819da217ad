public import Foundation
import SpotlightIndex
import Synchronization

/// Where this process's indexes live and which app it is: OpenSpotlight's
/// addition to Apple's API (on an iPhone the system knows both).
///
/// By default the bundle identifier is `$OPENSPOTLIGHT_BUNDLE_ID`, else
/// `Bundle.main.bundleIdentifier`, else `local.<executable name>`; stores
/// live under `$OPENSPOTLIGHT_HOME` or `~/.local/share/openspotlight`.
///
/// ```swift
/// OpenSpotlightConfiguration.configure(bundleIdentifier: "com.example.notes")
/// ```
public enum OpenSpotlightConfiguration {
    struct Settings {
        var bundleIdentifier: String?
        var directory: URL?
        var queryTimeBudget: TimeInterval = StoreOptions().queryTimeBudget
    }

    static let settings = Mutex(Settings())

    /// Sets the app's bundle identifier and, optionally, the stores' root directory.
    public static func configure(bundleIdentifier: String, storeDirectory: URL? = nil) {
        settings.withLock {
            $0.bundleIdentifier = bundleIdentifier
            $0.directory = storeDirectory
        }
    }

    /// How long a `CSSearchQuery` may run, in seconds (10 by default): past
    /// it the query completes with `CSSearchQueryError` `.unknown`, "query
    /// too expensive". Set it before the app's first query.
    ///
    /// ```swift
    /// OpenSpotlightConfiguration.queryTimeBudget = 2
    /// ```
    public static var queryTimeBudget: TimeInterval {
        get { settings.withLock { $0.queryTimeBudget } }
        set { settings.withLock { $0.queryTimeBudget = max(0, newValue) } }
    }

    /// The options the app's stores are read with.
    static var readingOptions: StoreOptions {
        var options = StoreOptions()
        options.queryTimeBudget = queryTimeBudget
        return options
    }

    /// The bundle identifier indexes are kept under.
    public static var bundleIdentifier: String {
        if let configured = settings.withLock({ $0.bundleIdentifier }) { return configured }
        let environment = ProcessInfo.processInfo.environment
        if let value = environment["OPENSPOTLIGHT_BUNDLE_ID"], !value.isEmpty { return value }
        if let value = Bundle.main.bundleIdentifier, !value.isEmpty { return value }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "app").lastPathComponent
        let safe = String(executable.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-") ? Character(scalar) : "-"
        })
        return "local." + (safe.isEmpty ? "app" : safe)
    }

    static var location: StoreLocation {
        settings.withLock { $0.directory }.map(StoreLocation.directory) ?? .automatic
    }
}
