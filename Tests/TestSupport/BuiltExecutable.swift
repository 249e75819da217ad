public import Foundation

/// The package's executables as built beside the test bundle: `spotlight`,
/// `spotlight-store-helper`, `openspotlight-app-helper`, `colleagues`,
/// `greengrocer`.
///
/// ```swift
/// let spotlight = BuiltExecutable.url(named: "spotlight")
/// let result = try ChildProcess.run(spotlight, ["apps", "--json"], environment: ["OPENSPOTLIGHT_HOME": home.path])
/// #expect(result.status == 0, "\(result.error)")
/// ```
public enum BuiltExecutable {
    /// Where the executable `name` is: in the test bundle's folder or its parent
    /// (SwiftPM's build folder, whichever way the tests were started), else the
    /// path it would have in the bundle's folder, so that running it fails
    /// saying which file is missing.
    public static func url(named name: String) -> URL {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [folder, folder.deletingLastPathComponent(), Bundle.main.bundleURL.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return folder.appendingPathComponent(name)
    }
}
