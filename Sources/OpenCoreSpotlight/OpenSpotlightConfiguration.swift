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
    }

    static let settings = Mutex(Settings())

    /// Sets the app's bundle identifier and, optionally, the stores' root directory.
    public static func configure(bundleIdentifier: String, storeDirectory: URL? = nil) {
        settings.withLock { $0 = Settings(bundleIdentifier: bundleIdentifier, directory: storeDirectory) }
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
