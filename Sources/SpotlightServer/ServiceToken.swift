public import Foundation

/// The per-user secret that every POST to the service carries
/// (`Authorization: Bearer <token>`): only a process that can read the
/// user's `0600` token file, or the page the service itself served, can act.
///
/// ```swift
/// let token = try ServiceToken.loadOrCreate(at: paths.tokenFile)
/// request.headers[.authorization] = "Bearer \(token.value)"
/// ```
public struct ServiceToken: Sendable, Hashable {
    /// 64 hexadecimal digits (32 random bytes).
    public let value: String

    public init(value: String) {
        self.value = value
    }

    /// Reads the token file; makes it (`0600`, 32 bytes from the system's
    /// random source) when missing. A file others can read is replaced.
    public static func loadOrCreate(at file: URL) throws -> ServiceToken {
        if let existing = try load(from: file) { return existing }
        var bytes = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        let value = bytes.map { String(format: "%02x", $0) }.joined()
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".token-\(getpid())")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ServiceError(.tokenUnavailable, "cannot write \(temporary.path): \(String(cString: strerror(errno)))") }
        let written = value.withCString { write(descriptor, $0, strlen($0)) }
        close(descriptor)
        guard written == value.utf8.count, rename(temporary.path, file.path) == 0 else {
            unlink(temporary.path)
            throw ServiceError(.tokenUnavailable, "cannot write the token \(file.path): \(String(cString: strerror(errno)))")
        }
        return ServiceToken(value: value)
    }

    /// The token in `file`, or nil when there is none (or it is not private to the user).
    public static func load(from file: URL) throws -> ServiceToken? {
        guard let found = ServicePaths.examine(file) else { return nil }
        guard found.type == .typeRegular, found.owner == getuid(), found.permissions & 0o077 == 0 else {
            unlink(file.path)
            return nil
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw ServiceError(.tokenUnavailable, "cannot read \(file.path)")
        }
        let value = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard value.count == 64, value.allSatisfy(\.isHexDigit) else { return nil }
        return ServiceToken(value: value)
    }

    /// Compares in time independent of where the first difference is.
    public func matches(_ candidate: String) -> Bool {
        let expected = Array(value.utf8), given = Array(candidate.utf8)
        guard expected.count == given.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ given[index] }
        return difference == 0
    }
}
