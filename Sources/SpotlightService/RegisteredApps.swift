import Foundation
import SpotlightIndex
public import SpotlightSystem
import Synchronization

/// The registered apps, read again only when a manifest changed.
///
/// ```swift
/// let apps = RegisteredApps(registry: AppRegistry())
/// let (registered, problems) = try apps.scan()   // decodes the manifests once; later calls stat them
/// ```
///
/// System search asks for the apps on every keystroke; decoding every
/// manifest each time cost ~1 ms at 20 apps. A manifest is read again when
/// its file (inode, size, modification time) differs, or the directory lists
/// other files: registering replaces the manifest atomically (a new inode),
/// so no change is missed within a clock tick.
public final class RegisteredApps: Sendable {
    public let registry: AppRegistry
    private struct Stamp: Hashable {
        var name: String
        var inode: UInt64
        var size: UInt64
        var seconds: Int
        var nanoseconds: Int
    }
    private let memo = Mutex<(stamps: [Stamp], apps: [AppRegistration], problems: [String])?>(nil)

    public init(registry: AppRegistry) {
        self.registry = registry
    }

    /// ``AppRegistry/scan()``, from memory while no manifest changed.
    public func scan() throws -> (apps: [AppRegistration], problems: [String]) {
        let directory = try registry.directory
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        // lstat, not FileManager's attributes: those also look up the owner's
        // and group's names, reading /etc/passwd and /etc/group per manifest.
        let folder = directory.path
        let stamps = names.map { name -> Stamp in
            var status = stat()
            guard lstat(folder + "/" + name, &status) == 0 else { return Stamp(name: name, inode: 0, size: 0, seconds: 0, nanoseconds: 0) }
            return Stamp(name: name, inode: UInt64(status.st_ino), size: UInt64(status.st_size),
                         seconds: Int(status.st_mtim.tv_sec), nanoseconds: Int(status.st_mtim.tv_nsec))
        }
        if let kept = memo.withLock({ $0 }), kept.stamps == stamps { return (kept.apps, kept.problems) }
        let scanned = try registry.scan()
        memo.withLock { $0 = (stamps, scanned.apps, scanned.problems) }
        return scanned
    }
}
