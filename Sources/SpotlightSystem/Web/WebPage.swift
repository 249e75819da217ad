public import Foundation
import SpotlightIndex

/// A public web page as the web store keeps it: what the crawler read from its
/// markup, keyed by its canonical URL (Apple keys web results by page URL).
///
/// Neither this module nor the engine reads HTML; `SpotlightCrawler` fills these from WebMarkup.
///
/// ```swift
/// let page = WebPage(url: URL(string: "https://shop.example.com/pear")!, title: "Pear",
///                    description: "Ripe pears", crawledAt: Date())
/// try WebStore().save([page])
/// ```
public struct WebPage: Sendable, Hashable, Codable {
    /// A link into an app that the page declares (`apple-itunes-app`, `al:ios`,
    /// `twitter:iphone`, `universal-link`…).
    public struct DeepLink: Sendable, Hashable, Codable {
        public var source: String
        public var url: String
        public var appStoreID: String?
        public init(source: String, url: String, appStoreID: String? = nil) {
            self.source = source
            self.url = url
            self.appStoreID = appStoreID
        }
    }

    /// A schema.org entity, its properties flattened to dotted paths.
    public struct Entity: Sendable, Hashable, Codable {
        public var types: [String]
        /// `json-ld`, `microdata` or `rdfa`.
        public var syntax: String
        public var properties: [String: String]
        public init(types: [String], syntax: String, properties: [String: String]) {
            self.types = types
            self.syntax = syntax
            self.properties = properties
        }
    }

    /// The page's identity: its canonical URL, else the address it was fetched from.
    public var url: URL
    /// Where it was fetched from (after redirects), when that differs from ``url``.
    public var fetchedURL: URL?
    public var title: String
    /// `nil` when the page has none or says `nosnippet`.
    public var description: String?
    public var imageURL: URL?
    public var deepLinks: [DeepLink]
    /// The apps (`TEAMID.bundle`) the site's apple-app-site-association hands this URL to, first match first.
    public var applicationIdentifiers: [String]
    public var entities: [Entity]
    public var crawledAt: Date

    public init(url: URL, fetchedURL: URL? = nil, title: String, description: String? = nil, imageURL: URL? = nil,
                deepLinks: [DeepLink] = [], applicationIdentifiers: [String] = [], entities: [Entity] = [], crawledAt: Date) {
        self.url = url
        self.fetchedURL = fetchedURL
        self.title = title
        self.description = description
        self.imageURL = imageURL
        self.deepLinks = deepLinks
        self.applicationIdentifiers = applicationIdentifiers
        self.entities = entities
        self.crawledAt = crawledAt
    }

    /// The App Store ids the page names (banner, App Links, Twitter), in order, once each.
    public var appStoreIDs: [String] {
        var seen = Set<String>()
        return deepLinks.compactMap(\.appStoreID).filter { seen.insert($0).inserted }
    }
}

extension WebPage {
    /// The attribute holding the whole page as JSON (not free-text searchable).
    static let recordAttribute = "webPageRecord"

    /// What the page's schema.org entities add to its searched words: their
    /// types and names (brand, author, recipe category, keywords), once each.
    public var entityKeywords: [String] {
        var keywords: [String] = []
        for entity in entities {
            keywords += entity.types
            for key in ["name", "brand.name", "author.name", "recipeCategory", "keywords"] {
                if let value = entity.properties[key] { keywords.append(value) }
            }
        }
        var seen = Set<String>()
        return keywords.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// The item the store keeps: title, description, image, URL and the entities'
    /// names and types are searchable; the page itself rides along as JSON.
    func searchableItem(expiration: TimeInterval) throws -> SearchableItem {
        var attributes: [String: AttributeValue] = [
            "title": .string(title),
            "url": .url(url),
            Self.recordAttribute: .data(try CanonicalJSON.encode(self)),
        ]
        if let description { attributes["contentDescription"] = .string(description) }
        if let imageURL { attributes["thumbnailURL"] = .url(imageURL) }
        let keywords = entityKeywords
        if !keywords.isEmpty { attributes["keywords"] = .strings(Array(keywords.prefix(64))) }
        return SearchableItem(uniqueIdentifier: url.absoluteString, domainIdentifier: url.host?.lowercased(),
                              contentType: "public.html", expirationDate: crawledAt.addingTimeInterval(expiration),
                              attributes: attributes)
    }

    /// The page an item of the web store holds.
    init?(item: SearchableItem) {
        guard case .data(let data)? = item.attributes[Self.recordAttribute],
              let page = try? JSONDecoder().decode(WebPage.self, from: data) else { return nil }
        self = page
    }
}
