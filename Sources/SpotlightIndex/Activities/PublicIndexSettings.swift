public import Foundation

/// The device's choice about the public index: off unless the user turned
/// it on, and then where it is and the device's anonymous token. Kept in
/// `<root>/.public-index/settings.json` (mode 0600) beside the stores.
///
/// ```swift
/// var settings = PublicIndexSettings.load(location: .automatic)
/// settings.enable(serviceURL: URL(string: "https://public.example.org")!)   // makes a token if none
/// try settings.save(location: .automatic)
/// ```
///
/// Only while it is on do activities marked `isEligibleForPublicIndexing`
/// queue donations: nothing from before the opt-in is ever sent, and
/// turning it off forgets the waiting ones (see ``UserActivityStore/removeAllPublicDonations()``).
public struct PublicIndexSettings: Sendable, Hashable, Codable {
    /// True once the user opted in.
    public var isEnabled: Bool
    /// The public index service (`http` or `https`).
    public var serviceURL: URL?
    /// 32 random bytes as hex: all the index learns of this device. Made at
    /// the first opt-in; ``resetToken()`` makes a new one.
    public var token: String?

    public init(isEnabled: Bool = false, serviceURL: URL? = nil, token: String? = nil) {
        self.isEnabled = isEnabled
        self.serviceURL = serviceURL
        self.token = token
    }

    /// Turns donations and public results on, for this service.
    public mutating func enable(serviceURL: URL) {
        isEnabled = true
        self.serviceURL = serviceURL
        if token == nil { resetToken() }
    }

    /// A new random token: the index will count this device as a new one.
    public mutating func resetToken() {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        token = String((0..<64).map { _ in digits[Int.random(in: 0..<16, using: &generator)] })
    }

    /// The settings file under a root.
    public static func file(location: StoreLocation) -> URL? {
        location.rootDirectory?.appendingPathComponent(".public-index", isDirectory: true).appendingPathComponent("settings.json")
    }

    /// The saved settings; off when there are none or they cannot be read.
    public static func load(location: StoreLocation = .automatic) -> PublicIndexSettings {
        guard let file = file(location: location), let data = FileManager.default.contents(atPath: file.path),
              let settings = try? JSONDecoder().decode(PublicIndexSettings.self, from: data) else { return PublicIndexSettings() }
        return settings
    }

    /// Saves them, readable by the user only.
    /// - Throws: ``SpotlightIndexError`` `.invalidArgument` for a service URL
    ///   that is not http(s); the file system's error when it cannot be written.
    public func save(location: StoreLocation = .automatic) throws {
        if let serviceURL, !["http", "https"].contains(serviceURL.scheme?.lowercased() ?? "") || (serviceURL.host ?? "").isEmpty {
            throw SpotlightIndexError(.invalidArgument, "the public index's URL must be http or https with a host, not \(serviceURL.absoluteString)")
        }
        guard let file = Self.file(location: location) else {
            throw SpotlightIndexError(.invalidArgument, "an in-memory location has no settings file")
        }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let temporary = file.appendingPathExtension("tmp")
        _ = FileManager.default.createFile(atPath: temporary.path, contents: try encoder.encode(self), attributes: [.posixPermissions: 0o600])
        guard rename(temporary.path, file.path) == 0 else {
            throw SpotlightIndexError(.storeUnavailable, "cannot write \(file.path) (errno \(errno))")
        }
    }
}
