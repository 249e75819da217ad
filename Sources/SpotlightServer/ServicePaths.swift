public import Foundation

/// Where the service listens and keeps its token: a private directory of the
/// user's runtime directory.
///
/// ```swift
/// let paths = try ServicePaths()                  // $XDG_RUNTIME_DIR/openspotlight
/// print(paths.socket.path)                        // …/openspotlight/spotlight.sock
/// ```
///
/// The directory is `$OPENSPOTLIGHT_RUNTIME_DIR`, else
/// `$XDG_RUNTIME_DIR/openspotlight`, else `/tmp/openspotlight-<uid>`; it is
/// created `0700` and refused when it is a link or belongs to someone else,
/// so the socket (`0600`) and the token (`0600`) inside it are the user's alone.
public struct ServicePaths: Sendable, Hashable {
    /// The variable naming the runtime directory outright (tests set it).
    public static let directoryVariable = "OPENSPOTLIGHT_RUNTIME_DIR"

    /// The private directory.
    public let directory: URL
    /// The Unix socket the service listens on.
    public var socket: URL { directory.appendingPathComponent("spotlight.sock") }
    /// The per-user token POST requests carry (`Authorization: Bearer …`).
    public var tokenFile: URL { directory.appendingPathComponent("token") }
    /// The port the service listens on at 127.0.0.1, written while it runs (for `spotlight` to find the page).
    public var portFile: URL { directory.appendingPathComponent("port") }

    /// The directory for `environment`, created if missing.
    /// - Throws: ``ServiceError`` `.unsafeRuntimeDirectory` when it is not a private directory of this user.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment, create: Bool = true) throws {
        if let explicit = environment[Self.directoryVariable], !explicit.isEmpty {
            directory = URL(fileURLWithPath: explicit, isDirectory: true)
        } else if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            directory = URL(fileURLWithPath: runtime, isDirectory: true).appendingPathComponent("openspotlight", isDirectory: true)
        } else {
            directory = URL(fileURLWithPath: "/tmp/openspotlight-\(getuid())", isDirectory: true)
        }
        if create { try Self.makePrivate(directory) }
    }

    /// The directory as given, not created nor checked (for tests).
    public init(directory: URL) {
        self.directory = directory
    }

    /// The file at `url` as it is (a link is not followed): type, owner, permissions; nil when there is none.
    static func examine(_ url: URL) -> (type: FileAttributeType, owner: UInt32, permissions: Int)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
              let type = attributes[.type] as? FileAttributeType else { return nil }
        return (type, (attributes[.ownerAccountID] as? NSNumber)?.uint32Value ?? UInt32.max, (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0o777)
    }

    /// Whether the file at `url` (not followed if a link) is a socket; nil when there is none.
    static func isSocket(_ url: URL) -> Bool? {
        examine(url).map { $0.type == .typeSocket }
    }

    /// Creates `url` `0700` if missing; refuses a link, a non-directory, another owner, or group/other access.
    static func makePrivate(_ url: URL) throws {
        if examine(url) == nil {
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ServiceError(.unsafeRuntimeDirectory, "cannot create \(url.path): \(error.localizedDescription)")
            }
        }
        guard let found = examine(url) else { throw ServiceError(.unsafeRuntimeDirectory, "\(url.path) vanished as it was made") }
        guard found.type == .typeDirectory else {
            throw ServiceError(.unsafeRuntimeDirectory, "\(url.path) is not a directory (a link or a file); remove it")
        }
        guard found.owner == getuid() else {
            throw ServiceError(.unsafeRuntimeDirectory, "\(url.path) belongs to another user; set \(directoryVariable) to a directory of yours")
        }
        if found.permissions & 0o077 != 0, chmod(url.path, 0o700) != 0 {
            throw ServiceError(.unsafeRuntimeDirectory, "\(url.path) is open to other users and cannot be made private")
        }
    }
}
