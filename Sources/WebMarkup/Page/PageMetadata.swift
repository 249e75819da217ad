public import Foundation

/// Everything Applebot reads from one page: title, description, image, canonical
/// URL, Open Graph, Twitter cards, App Links, the Smart App Banner, robots
/// directives and schema.org entities — each value with the tag it came from.
///
/// ```swift
/// let page = try HTMLDocument.parse(data, url: address)
/// let metadata = PageMetadata(page)
/// if metadata.isIndexable { print(metadata.title!.value, metadata.deepLinks[0].url) }
/// ```
///
/// Precedence where sources conflict (each ``SourcedValue`` records the winner):
/// title `og:title` → `twitter:title` → `<title>`; description `og:description` →
/// `twitter:description` → `<meta name=description>`; image the first `og:image`
/// (or `og:image:url`/`og:image:secure_url`) → `twitter:image`; canonical
/// `<link rel=canonical>` only, with `og:url` kept apart (``canonicalMismatch``).
/// URLs resolve against the document base (`<base href>`, else the fetched address).
public struct PageMetadata: Sendable {
    /// A value and the tag it was read from (`og:title`, `title`, `link rel=canonical`…).
    public struct SourcedValue: Sendable, Hashable, Codable {
        public var value: String
        public var source: String
        public init(_ value: String, source: String) {
            self.value = value
            self.source = source
        }
    }

    /// One `og:image` with the structured properties that follow it.
    public struct OpenGraphImage: Sendable, Hashable, Codable {
        public var url: String
        public var secureURL: String?
        public var type: String?
        public var width: String?
        public var height: String?
        public var alt: String?
    }

    public var title: SourcedValue?
    public var description: SourcedValue?
    public var image: SourcedValue?
    public var canonical: SourcedValue?
    public var openGraphURL: SourcedValue?
    /// Every `og:image`, in order; the first is the primary.
    public var openGraphImages: [OpenGraphImage]
    /// Every `og:*`, `article:*`, `product:*` tag in order (`og:type`, `og:site_name`…).
    public var openGraph: [(property: String, content: String)]
    /// Every `twitter:*` tag, name → first content.
    public var twitterCard: [String: String]
    public var smartAppBanner: SmartAppBanner?
    public var deepLinks: [DeepLink]
    public var robots: RobotsDirectives
    public var entities: [SchemaEntity]
    public var structuredDataProblems: [StructuredDataProblem]
    /// The address the page was fetched from, if known.
    public var url: URL?
    /// The base relative URLs resolved against (`<base href>`, else ``url``).
    public var baseURL: URL?

    /// Applebot's minimum: not `noindex`, and a deep link, a title and a description.
    public var isIndexable: Bool {
        !robots.noindex && !deepLinks.isEmpty && title != nil && description != nil
    }

    /// The page's identity: its canonical URL, else the address it was fetched from.
    public var identity: URL? {
        canonical.flatMap { URL(string: $0.value) } ?? url
    }

    /// True when the canonical URL and `og:url` are both given and differ.
    public var canonicalMismatch: Bool {
        guard let canonical, let openGraphURL else { return false }
        return Self.comparable(canonical.value) != Self.comparable(openGraphURL.value)
    }

    /// Reads a parsed page.
    public init(_ document: HTMLDocument) {
        let tags = MetaTags(document)
        let resolve: (String) -> String? = { document.resolve($0)?.absoluteString }
        url = document.url

        title = Self.firstSourced(tags, ["og:title", "twitter:title"]) ?? tags.title.flatMap {
            $0.isEmpty ? nil : SourcedValue($0, source: "title")
        }
        description = Self.firstSourced(tags, ["og:description", "twitter:description", "description"])
            .map { SourcedValue($0.value.markupCollapsed, source: $0.source == "description" ? "meta description" : $0.source) }

        openGraphImages = Self.openGraphImages(tags, resolve: resolve)
        openGraph = tags.tags.filter { ["og:", "article:", "product:"].contains(where: $0.key.hasPrefix) }.map { ($0.key, $0.content.markupTrimmed) }
        var twitter: [String: String] = [:]
        for tag in tags.tags where tag.key.hasPrefix("twitter:") && twitter[tag.key] == nil { twitter[tag.key] = tag.content.markupTrimmed }
        twitterCard = twitter

        if let first = openGraphImages.first {
            image = SourcedValue(first.url, source: "og:image")
        } else if let twitterImage = tags.first("twitter:image") ?? tags.first("twitter:image:src"), let url = resolve(twitterImage) {
            image = SourcedValue(url, source: "twitter:image")
        }
        canonical = tags.links.first { $0.rels.contains("canonical") }.flatMap { resolve($0.href) }
            .map { SourcedValue($0, source: "link rel=canonical") }
        openGraphURL = tags.first("og:url").flatMap(resolve).map { SourcedValue($0, source: "og:url") }

        smartAppBanner = tags.tags.first { $0.key == "apple-itunes-app" && $0.inHead }.map { SmartAppBanner(content: $0.content) }
        deepLinks = Self.deepLinks(tags, banner: smartAppBanner, resolve: resolve)
        robots = RobotsDirectives(contents: tags.all("robots"))
        let structured = StructuredData.extract(from: document)
        entities = structured.entities
        structuredDataProblems = structured.problems
        baseURL = document.baseURL
    }

    private static func firstSourced(_ tags: MetaTags, _ keys: [String]) -> SourcedValue? {
        for key in keys {
            if let value = tags.first(key) { return SourcedValue(value, source: key) }
        }
        return nil
    }

    private static func openGraphImages(_ tags: MetaTags, resolve: (String) -> String?) -> [OpenGraphImage] {
        var images: [OpenGraphImage] = []
        for tag in tags.tags {
            let content = tag.content.markupTrimmed
            switch tag.key {
            case "og:image", "og:image:url":
                // `og:image:url` right after `og:image` is the same image spelled twice.
                if tag.key == "og:image:url", let last = images.last, last.url == resolve(content) { continue }
                if let url = resolve(content) { images.append(OpenGraphImage(url: url)) }
            case "og:image:secure_url":
                if images.isEmpty, let url = resolve(content) { images.append(OpenGraphImage(url: url)) }
                images[images.count - 1].secureURL = resolve(content)
            case "og:image:type" where !images.isEmpty: images[images.count - 1].type = content
            case "og:image:width" where !images.isEmpty: images[images.count - 1].width = content
            case "og:image:height" where !images.isEmpty: images[images.count - 1].height = content
            case "og:image:alt" where !images.isEmpty: images[images.count - 1].alt = content
            default: break
            }
        }
        return images
    }

    /// The Smart App Banner's argument, then App Links (device groups before `al:ios`,
    /// each platform's groups in document order: a repeated property starts the next group),
    /// then Twitter's app card.
    private static func deepLinks(_ tags: MetaTags, banner: SmartAppBanner?, resolve: (String) -> String?) -> [DeepLink] {
        var links: [DeepLink] = []
        if let banner, let argument = banner.appArgument {
            links.append(DeepLink(source: .smartAppBanner, url: linkURL(argument, resolve: resolve), appStoreID: banner.appID))
        }
        for (platform, source) in [("al:iphone:", DeepLink.Source.appLinksIPhone), ("al:ipad:", .appLinksIPad), ("al:ios:", .appLinksIOS)] {
            var groups: [[String: String]] = []
            for tag in tags.tags where tag.key.hasPrefix(platform) {
                let property = String(tag.key.dropFirst(platform.count))
                if groups.isEmpty || groups[groups.count - 1][property] != nil { groups.append([:]) }
                groups[groups.count - 1][property] = tag.content.markupTrimmed
            }
            for group in groups {
                guard let url = group["url"], !url.isEmpty else { continue }
                links.append(DeepLink(source: source, url: linkURL(url, resolve: resolve),
                                      appStoreID: group["app_store_id"], appName: group["app_name"]))
            }
        }
        for (device, source) in [("iphone", DeepLink.Source.twitterIPhone), ("ipad", .twitterIPad)] {
            guard let url = tags.first("twitter:app:url:\(device)") else { continue }
            links.append(DeepLink(source: source, url: linkURL(url, resolve: resolve),
                                  appStoreID: tags.first("twitter:app:id:\(device)"), appName: tags.first("twitter:app:name:\(device)")))
        }
        return links
    }

    /// A custom-scheme link is kept as written; anything else resolves like a page link.
    private static func linkURL(_ written: String, resolve: (String) -> String?) -> String {
        let trimmed = written.markupTrimmed
        if let scheme = trimmed.split(separator: ":", maxSplits: 1).first, trimmed.contains(":"),
           scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }), scheme.first?.isLetter == true {
            return trimmed
        }
        return resolve(trimmed) ?? trimmed
    }

    private static func comparable(_ url: String) -> String {
        var text = url.lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
