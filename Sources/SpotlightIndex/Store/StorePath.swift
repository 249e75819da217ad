import Foundation

/// What a store may do with the paths under its root: never follow a
/// symbolic link, never touch what it did not make.
///
/// Every app runs as the same user, so the folders under the root are only
/// as private as each app is careful; a link one app leaves in its folder
/// (`com.t.a/evil.sqlite → ../com.t.b/default.sqlite`, or a linked
/// `default.ranked` folder) must not let a store open, write, rename or
/// delete anything elsewhere. The root itself may be a link (a user's data
/// directory elsewhere is their choice); every component below it is
/// checked with `lstat` before it is opened, created, renamed or deleted,
/// and segment files are opened `O_NOFOLLOW`.
///
/// ```swift
/// try StorePath.checkNoLinks(file, below: root)     // throws .storeUnavailable naming the link
/// ```
enum StorePath {
    /// What `lstat` says a path is.
    enum Kind: Equatable {
        case missing, directory, file, link, other
    }

    /// The kind of `path`, without following a link at its end.
    static func kind(_ path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return .link
        case S_IFDIR: return .directory
        case S_IFREG: return .file
        default: return .other
        }
    }

    /// True when `path` is a regular file (not a link to one).
    static func isFile(_ path: String) -> Bool { kind(path) == .file }

    /// The size in bytes of what is at `path` (a link's own, not its
    /// target's, as `FileManager.attributesOfItem` gives it, without its
    /// lookup of the owner's names); nil when nothing is there.
    static func size(_ path: String) -> Int? {
        var info = stat()
        return lstat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    /// Checks each component of `url` below `root` (the root excluded): none
    /// may be a symbolic link, and all but the last must be directories.
    /// Components that do not exist yet are fine.
    /// - Throws: ``SpotlightIndexError`` `.storeUnavailable` naming the link.
    static func checkNoLinks(_ url: URL, below root: URL) throws {
        let rootComponents = lexicalComponents(root.path)
        let components = lexicalComponents(url.path)
        guard components.starts(with: rootComponents) else {
            throw SpotlightIndexError(.storeUnavailable, "\(url.path) is not under the store root \(root.path)")
        }
        // Paths as plain strings: Foundation's URL operations, and generic
        // joins of substrings, cost more than the `lstat`s, on every store
        // a search opens.
        var path = ""
        for component in rootComponents { path += "/" + component }
        let below = components.count - rootComponents.count
        for (index, component) in components.dropFirst(rootComponents.count).enumerated() {
            path += "/" + component
            switch kind(path) {
            case .link:
                throw linked(URL(fileURLWithPath: path))
            case .missing:
                return
            case .directory:
                continue
            case .file, .other:
                if index < below - 1 {
                    throw SpotlightIndexError(.storeUnavailable, "\(path) is a file where a folder of stores should be; move it away")
                }
            }
        }
    }

    /// An absolute path's components, `.` dropped and `..` taking the one
    /// before it away, as a standardized file URL's are (links not resolved).
    static func lexicalComponents(_ path: String) -> [String] {
        var components: [String] = []
        for component in path.split(separator: "/") {
            if component == "." { continue }
            if component == ".." {
                if !components.isEmpty { components.removeLast() }
                continue
            }
            components.append(String(component))
        }
        return components
    }

    /// The error for a link where a store's file or folder should be.
    static func linked(_ path: URL) -> SpotlightIndexError {
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path.path)).map { " (to \($0))" } ?? ""
        return SpotlightIndexError(.storeUnavailable, "\(path.path) is a symbolic link\(target); OpenSpotlight never follows links inside its store folder: remove the link")
    }

    /// Creates a `0700` directory (and its missing parents below `root`), or
    /// checks that the one there is a real directory.
    static func makePrivateDirectory(_ url: URL, below root: URL) throws {
        try checkNoLinks(url, below: root)
        switch kind(url.path) {
        case .directory:
            return
        case .link:
            throw linked(url)
        case .file, .other:
            throw SpotlightIndexError(.storeUnavailable, "\(url.path) is a file, not a directory; move it away")
        case .missing:
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw SpotlightIndexError(.storeUnavailable, "cannot create \(url.path): check its parent's permissions", underlying: error)
            }
            // Created, or raced by another process: either way it must now be a real directory.
            guard kind(url.path) == .directory else { throw linked(url) }
        }
    }

    /// A name beside `file` that nothing has: `<file>.corrupt-<time to the
    /// millisecond>-<4 random hex digits>`, a counter added until unused.
    static func asideName(for file: URL, at date: Date) -> URL {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let stamp = formatter.string(from: date).replacingOccurrences(of: ":", with: "")
        let base = file.path + ".corrupt-" + stamp + "-" + String(format: "%04x", UInt16.random(in: 0...UInt16.max))
        var candidate = base
        var counter = 1
        while kind(candidate) != .missing || kind(candidate + "-wal") != .missing {
            counter += 1
            candidate = base + "-\(counter)"
        }
        return URL(fileURLWithPath: candidate)
    }
}
