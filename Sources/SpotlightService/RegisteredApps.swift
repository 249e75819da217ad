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
        var modified: Date
    }
    private let memo = Mutex<(stamps: [Stamp], apps: [AppRegistration], problems: [String])?>(nil)

    public init(registry: AppRegistry) {
        self.registry = registry
    }

    /// ``AppRegistry/scan()``, from memory while no manifest changed.
    public func scan() throws -> (apps: [AppRegistration], problems: [String]) {
        let directory = try registry.directory
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        let stamps = names.map { name -> Stamp in
            let attributes = (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)) ?? [:]
            return Stamp(name: name, inode: (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0,
                         size: (attributes[.size] as? NSNumber)?.uint64Value ?? 0,
                         modified: attributes[.modificationDate] as? Date ?? .distantPast)
        }
        if let kept = memo.withLock({ $0 }), kept.stamps == stamps { return (kept.apps, kept.problems) }
        let scanned = try registry.scan()
        memo.withLock { $0 = (stamps, scanned.apps, scanned.problems) }
        return scanned
    }
}
