public import Foundation

/// What a device may send of an activity marked `isEligibleForPublicIndexing`,
/// and only once the public index asks for it: the fields anyone may see.
///
/// ```swift
/// let content = PublicActivityContent(activityType: "com.example.recipes.view", app: "com.example.recipes",
///                                     title: "Tarte Tatin", webpageURL: URL(string: "https://recipes.example.com/r7"))
/// let hash = ActivityHash(of: content)   // what is donated until then
/// ```
///
/// Its hash covers the activity type, the locator (the `webpageURL`, else the
/// app's public identifier) and the title; the other fields ride along with
/// the content. Apple requires a `webpageURL` or `requiredUserInfoKeys` for
/// public indexing, so that others can open the activity: the public
/// identifier is the app's required `userInfo` in canonical JSON.
public struct PublicActivityContent: Sendable, Hashable, Codable {
    /// The reverse-DNS type the app continues.
    public var activityType: String
    /// The bundle identifier of the app that opens it.
    public var app: String
    /// The title shown and searched.
    public var title: String
    /// The page showing the same content (`http` or `https`).
    public var webpageURL: URL?
    /// What the app needs to open it without a web page: its required `userInfo`, canonical JSON.
    public var publicIdentifier: String?
    /// `contentDescription` from the activity's attribute set.
    public var contentDescription: String?
    /// Extra search terms.
    public var keywords: [String]
    /// An image for the result (`http` or `https`).
    public var thumbnailURL: URL?

    public init(activityType: String, app: String, title: String, webpageURL: URL? = nil, publicIdentifier: String? = nil,
                contentDescription: String? = nil, keywords: [String] = [], thumbnailURL: URL? = nil) {
        self.activityType = activityType
        self.app = app
        self.title = title
        self.webpageURL = webpageURL
        self.publicIdentifier = publicIdentifier
        self.contentDescription = contentDescription
        self.keywords = keywords
        self.thumbnailURL = thumbnailURL
    }

    /// Limits every device and the service apply.
    public enum Limits {
        public static let activityTypeBytes = 255
        public static let titleBytes = 1_024
        public static let urlBytes = 2_048
        public static let publicIdentifierBytes = 2_048
        public static let descriptionBytes = 4_096
        public static let keywordCount = 32
        public static let keywordBytes = 128
    }

    /// The title as hashed and stored: Unicode NFC, runs of white space as one space, trimmed.
    public var normalizedTitle: String { Self.normalizedText(title) }

    /// How the hash finds the activity: `url <normalized webpageURL>`, else `id <public identifier>`.
    public var locator: String {
        if let webpageURL { return "url " + Self.normalizedURL(webpageURL) }
        return "id " + (publicIdentifier ?? "")
    }

    /// The bytes hashed: a version tag, then the activity type, the locator and
    /// the normalized title, each as a 4-byte big-endian length and its UTF-8.
    public var canonicalForm: Data {
        var data = Data("openspotlight-public-activity/1".utf8)
        for field in [activityType, locator, normalizedTitle] {
            let bytes = Array(field.utf8)
            let count = UInt32(bytes.count)
            data.append(contentsOf: [UInt8(count >> 24), UInt8(count >> 16 & 0xff), UInt8(count >> 8 & 0xff), UInt8(count & 0xff)])
            data.append(contentsOf: bytes)
        }
        return data
    }

    /// Checks every field against ``Limits`` and the rules above.
    /// - Throws: ``PublicIndexProtocolError`` `.invalidContent` or `.invalidApp`, naming the field.
    public func validate() throws {
        try BundleIdentifier.validate(app)
        func refuse(_ message: String) -> PublicIndexProtocolError { PublicIndexProtocolError(.invalidContent, message) }
        if activityType.isEmpty || activityType.utf8.count > Limits.activityTypeBytes || Self.hasControl(activityType) {
            throw refuse("activityType must be 1 to \(Limits.activityTypeBytes) bytes without control characters")
        }
        let title = normalizedTitle
        if title.isEmpty || title.utf8.count > Limits.titleBytes {
            throw refuse("title must be 1 to \(Limits.titleBytes) bytes of text")
        }
        if webpageURL == nil && (publicIdentifier ?? "").isEmpty {
            throw refuse("a public activity needs a webpageURL or a public identifier (its required userInfo) so that others can open it")
        }
        for (name, url) in [("webpageURL", webpageURL), ("thumbnailURL", thumbnailURL)] {
            guard let url else { continue }
            if !Self.isWebURL(url) || url.absoluteString.utf8.count > Limits.urlBytes {
                throw refuse("\(name) must be an http or https URL with a host, at most \(Limits.urlBytes) bytes")
            }
        }
        if let publicIdentifier, publicIdentifier.utf8.count > Limits.publicIdentifierBytes {
            throw refuse("the public identifier is over \(Limits.publicIdentifierBytes) bytes")
        }
        if let contentDescription, contentDescription.utf8.count > Limits.descriptionBytes {
            throw refuse("contentDescription is over \(Limits.descriptionBytes) bytes")
        }
        if keywords.count > Limits.keywordCount || keywords.contains(where: { $0.isEmpty || $0.utf8.count > Limits.keywordBytes }) {
            throw refuse("at most \(Limits.keywordCount) keywords of 1 to \(Limits.keywordBytes) bytes each")
        }
    }

    /// True for an `http`/`https` URL with a host.
    public static func isWebURL(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return !(url.host ?? "").isEmpty
    }

    /// A URL as the hash sees it: scheme and host lowercased, no fragment, no
    /// default port, an empty path as `/`.
    public static func normalizedURL(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        parts.scheme = parts.scheme?.lowercased()
        parts.host = parts.host?.lowercased()
        parts.fragment = nil
        if (parts.scheme == "http" && parts.port == 80) || (parts.scheme == "https" && parts.port == 443) { parts.port = nil }
        if parts.path.isEmpty { parts.path = "/" }
        return parts.string ?? url.absoluteString
    }

    /// NFC, white space collapsed and trimmed.
    public static func normalizedText(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping
            .split(whereSeparator: { $0.isWhitespace })
            .joined(separator: " ")
    }

    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}

/// Apps are named by reverse-DNS bundle identifiers.
public enum BundleIdentifier {
    /// - Throws: ``PublicIndexProtocolError`` `.invalidApp` for anything but
    ///   1 to 255 bytes of ASCII letters, digits, `-`, `_` and `.`, not starting with `.`.
    public static func validate(_ identifier: String) throws {
        let allowed = identifier.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte == 0x2d || byte == 0x2e || byte == 0x5f
        }
        guard allowed, !identifier.isEmpty, identifier.utf8.count <= 255, !identifier.hasPrefix(".") else {
            throw PublicIndexProtocolError(.invalidApp, "\(HexBytes.quoted(identifier)) is not a bundle identifier (reverse DNS such as com.example.app)")
        }
    }
}
