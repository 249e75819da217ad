public import Foundation
public import PublicIndexProtocol

/// A crawled page as the public index keeps it: its site is its host, its key its URL.
///
/// ```swift
/// let page = PublicPage(url: URL(string: "https://shop.example.com/pear")!, title: "Pear", description: "Ripe pears")
/// try await index.savePages([page])
/// ```
public struct PublicPage: Sendable, Hashable {
    /// The canonical URL (`http`/`https`).
    public var url: URL
    public var title: String
    public var description: String?
    /// Entity names and types, searched as keywords.
    public var keywords: [String]
    public var imageURL: URL?
    public var deepLinks: [PublicDeepLink]
    /// The apps (`TEAMID.bundle`) the site's association file hands it to.
    public var applicationIdentifiers: [String]

    public init(url: URL, title: String, description: String? = nil, keywords: [String] = [], imageURL: URL? = nil,
                deepLinks: [PublicDeepLink] = [], applicationIdentifiers: [String] = []) {
        self.url = url
        self.title = title
        self.description = description
        self.keywords = keywords
        self.imageURL = imageURL
        self.deepLinks = deepLinks
        self.applicationIdentifiers = applicationIdentifiers
    }

    /// The distribution key: the host, lowercased.
    public var site: String { (url.host ?? "").lowercased() }
    /// The row's key: the normalized URL.
    public var key: String { PublicActivityContent.normalizedURL(url) }
}
