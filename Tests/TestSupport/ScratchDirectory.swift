// What the test targets share: a scratch directory, the package's executables
// built beside the tests, and running a program to the end. Foundation only, so
// that every test target may depend on it; the loopback website stays in
// `WebTestSupport`, which needs NIO (a support target, not a product).
public import Foundation

/// A directory of its own under the system's temporary folder, made when the
/// value is made and removed with everything in it by ``cleanUp()`` (or when
/// the last reference goes away).
///
/// Call ``cleanUp()`` in a `defer`: it also keeps the directory alive until
/// then, since Swift may release an object after its last use.
///
/// ```swift
/// let scratch = try ScratchDirectory("crawler")
/// defer { scratch.cleanUp() }
/// let store = try WebStore(location: .directory(scratch.url))
/// ```
public final class ScratchDirectory: Sendable {
    /// The directory: `<temporary folder>/openspotlight-<label>-<UUID>`.
    public let url: URL

    /// Makes a fresh directory.
    /// - Parameters:
    ///   - label: a word in the directory's name, saying which tests made it.
    ///   - permissions: the directory's mode (e.g. `0o755` for a directory another
    ///     system user must reach); the process's default when `nil`.
    public init(_ label: String = "tests", permissions: Int? = nil) throws {
        url = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("openspotlight-\(label)-\(UUID().uuidString)", isDirectory: true)
        let attributes: [FileAttributeKey: Any]? = permissions.map { [.posixPermissions: $0] }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: attributes)
    }

    deinit { cleanUp() }

    /// The path of `name` inside the directory (not created).
    public func appendingPathComponent(_ name: String, isDirectory: Bool = false) -> URL {
        url.appendingPathComponent(name, isDirectory: isDirectory)
    }

    /// Removes the directory and everything in it; calling it again does nothing.
    public func cleanUp() {
        try? FileManager.default.removeItem(at: url)
    }
}
