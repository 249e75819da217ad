import Crypto
public import Foundation
public import PublicIndexProtocol

/// The service's secret and what it derives: the only trace of a device in the index.
///
/// A donor is `HMAC-SHA256(secret, "donor/1" ‖ activity hash ‖ token)`, cut to
/// 16 bytes: the same device donating the same activity gives the same donor
/// (counted once), two activities of one device give unrelated donors (the
/// index cannot link them), and without the secret nobody can tell whether a
/// token donated a hash. The secret lives in a file beside the service, never
/// in the database, so a dump alone reveals nothing of the tokens.
///
/// ```swift
/// let secret = try ServerSecret(loadingOrCreatingAt: dataDirectory.appendingPathComponent("secret"))
/// let donor = secret.donor(of: hash, token: token)   // 16 bytes
/// ```
public struct ServerSecret: Sendable {
    /// The 32 bytes (a `SymmetricKey` is made per use: it is not `Sendable`).
    let bytes: Data

    var key: SymmetricKey { SymmetricKey(data: bytes) }

    /// A secret from 32 bytes (tests and benchmarks).
    public init(bytes: [UInt8]) {
        self.bytes = Data(bytes)
    }

    /// Reads the secret kept at `file`, or makes one (32 random bytes, mode 0600).
    /// - Throws: ``PublicIndexError`` `.configuration` when the file exists but is not 32 bytes.
    public init(loadingOrCreatingAt file: URL) throws {
        if let data = FileManager.default.contents(atPath: file.path) {
            guard data.count == 32 else {
                throw PublicIndexError(.configuration, "\(file.path) is not a 32-byte secret; restore it from a backup (a new one would count every device again)")
            }
            bytes = data
            return
        }
        let fresh = SymmetricKey(size: .bits256)
        let data = fresh.withUnsafeBytes { Data($0) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: file.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw PublicIndexError(.configuration, "cannot write the service's secret to \(file.path)")
        }
        bytes = data
    }

    /// The donor recorded for `token` donating `hash`.
    public func donor(of hash: ActivityHash, token: DeviceToken) -> Data {
        var message = Data("donor/1".utf8)
        message.append(contentsOf: hash.bytes)
        message.append(contentsOf: token.bytes)
        return Data(HMAC<SHA256>.authenticationCode(for: message, using: key).prefix(16))
    }

    /// A key for in-memory bookkeeping about a token (flood limits, opens),
    /// unrelated to the donors stored.
    public func memoryKey(of token: DeviceToken, purpose: String) -> Data {
        var message = Data("memory/1/\(purpose)".utf8)
        message.append(contentsOf: token.bytes)
        return Data(HMAC<SHA256>.authenticationCode(for: message, using: key).prefix(16))
    }
}
