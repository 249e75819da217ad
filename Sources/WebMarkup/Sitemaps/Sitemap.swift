public import Foundation

/// A parsed sitemap: either a list of page URLs (`<urlset>`) or a sitemap index
/// listing further sitemaps (`<sitemapindex>`), as sitemaps.org defines them.
///
/// ```swift
/// switch try Sitemap.parse(body) {          // XML, gzip-compressed XML or plain text
/// case .urlSet(let pages):
///     for page in pages { print(page.location, page.lastModified as Any) }
/// case .index(let sitemaps):
///     for sitemap in sitemaps { enqueue(sitemap) }
/// }
/// ```
///
/// Three formats are read:
/// - XML `<urlset>` or `<sitemapindex>`, with or without the
///   `http://www.sitemaps.org/schemas/sitemap/0.9` namespace. Elements from other
///   namespaces (image, video, news, `xhtml:link` extensions) are ignored.
/// - The same, gzip-compressed (recognised by its first bytes `1f 8b`, whatever the
///   file name or `Content-Type`).
/// - Plain text, one absolute URL per line (UTF-8), which sitemaps.org also allows.
///
/// Safe on hostile input: libxml2 reads the XML with no network access and never
/// substitutes entities or loads a DTD, so neither external entities (XXE) nor
/// "billion laughs" expansions are possible; text is taken from text and CDATA
/// nodes only (an entity reference contributes nothing). Decompression stops at
/// `maximumBytes`.
///
/// Lenient where sitemaps are sloppy: whitespace around `<loc>` is trimmed, entries
/// whose `<loc>` is missing, not an absolute `http`/`https` URL or 2,048 characters
/// or longer are skipped, and a bad `<lastmod>`, `<changefreq>` or `<priority>` is
/// dropped (`nil`) without losing the URL.
///
/// See [sitemaps.org](https://www.sitemaps.org/protocol.html).
///
/// ## Topics
/// - ``parse(_:maximumURLs:maximumBytes:)``
/// - ``SitemapURL``
public enum Sitemap: Sendable, Equatable {
    /// A `<urlset>` or a plain-text sitemap: the pages it lists.
    case urlSet([SitemapURL])
    /// A `<sitemapindex>`: the `<loc>` of each of its `<sitemap>` entries.
    case index([URL])

    /// The XML namespace of sitemaps.org's protocol.
    public static let namespace = "http://www.sitemaps.org/schemas/sitemap/0.9"

    /// Parses a sitemap as fetched.
    ///
    /// - Parameters:
    ///   - data: the body as fetched: XML, gzip-compressed XML or plain text (one URL a line).
    ///   - maximumURLs: entries kept; a sitemap listing more keeps its first
    ///     `maximumURLs` valid entries and drops the rest without an error (sitemaps.org
    ///     allows 50,000 per file, the default).
    ///   - maximumBytes: the largest document read, after decompression (sitemaps.org
    ///     allows 50 MiB, the default).
    /// - Throws: ``WebMarkupError`` with
    ///   ``WebMarkupErrorCode/pageTooLarge`` when the document (or what it inflates to)
    ///   is over `maximumBytes`; ``WebMarkupErrorCode/invalidCompression`` for corrupt
    ///   gzip; ``WebMarkupErrorCode/invalidXML`` for XML that is not well-formed;
    ///   ``WebMarkupErrorCode/invalidFormat`` for well-formed XML whose root is neither
    ///   `<urlset>` nor `<sitemapindex>`, or text in which no line is a URL.
    public static func parse(_ data: Data, maximumURLs: Int = 50_000, maximumBytes: Int = 52_428_800) throws -> Sitemap {
        let body: Data
        if Gzip.isGzip(data) {
            body = try Gzip.decompress(data, maximumBytes: maximumBytes)
        } else {
            guard data.count <= maximumBytes else {
                throw WebMarkupError(.pageTooLarge, "the sitemap is \(data.count) bytes; at most \(maximumBytes) are read")
            }
            body = data
        }
        let bytes = [UInt8](body)
        if looksLikeXML(bytes) {
            return try SitemapXML.parse(bytes, maximumURLs: maximumURLs)
        }
        return try parseText(bytes, maximumURLs: maximumURLs)
    }

    /// Whether the document starts (after a byte-order mark and whitespace) with `<`.
    /// UTF-16 documents (a UTF-16 byte-order mark) are XML too.
    private static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return true }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "<")
    }

    /// A plain-text sitemap: one URL per line; blank lines and lines that are not URLs are skipped.
    private static func parseText(_ bytes: [UInt8], maximumURLs: Int) throws -> Sitemap {
        let text = String(decoding: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...], as: UTF8.self)
        var urls: [SitemapURL] = []
        var sawText = false
        for line in text.split(whereSeparator: \.isNewline) {
            guard urls.count < maximumURLs else { break }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { continue }
            sawText = true
            if let url = SitemapURL.location(trimmed) {
                urls.append(SitemapURL(location: url))
            }
        }
        if sawText && urls.isEmpty {
            throw WebMarkupError(.invalidFormat, "the sitemap is neither XML nor a plain-text list of absolute http(s) URLs")
        }
        return .urlSet(urls)
    }
}

/// One page listed in a sitemap's `<urlset>`: a `<url>` entry.
///
/// ```swift
/// let page = SitemapURL(location: URL(string: "https://example.com/recipes/pie")!,
///                       lastModified: nil, changeFrequency: "weekly", priority: 0.8)
/// ```
///
/// See [sitemaps.org's XML tag definitions](https://www.sitemaps.org/protocol.html#xmlTagDefinitions).
public struct SitemapURL: Sendable, Hashable {
    /// `<loc>`: the page's absolute `http` or `https` URL.
    public var location: URL
    /// `<lastmod>`, a W3C datetime (`2024-05-01`, `2024-05-01T10:30:00+02:00`, …);
    /// a date without a time is midnight UTC. `nil` when missing or unreadable.
    public var lastModified: Date?
    /// `<changefreq>`, lower-cased: `always`, `hourly`, `daily`, `weekly`, `monthly`,
    /// `yearly` or `never`; `nil` when missing or any other value.
    public var changeFrequency: String?
    /// `<priority>`, from 0.0 to 1.0; `nil` when missing or out of range.
    public var priority: Double?

    public init(location: URL, lastModified: Date? = nil, changeFrequency: String? = nil, priority: Double? = nil) {
        self.location = location
        self.lastModified = lastModified
        self.changeFrequency = changeFrequency
        self.priority = priority
    }

    /// The values `<changefreq>` may take.
    static let changeFrequencies: Set<String> = ["always", "hourly", "daily", "weekly", "monthly", "yearly", "never"]

    /// `text` (already trimmed) as a sitemap location: an absolute `http`/`https` URL with
    /// a host, shorter than 2,048 characters (sitemaps.org's limit); otherwise `nil`.
    static func location(_ text: String) -> URL? {
        guard !text.isEmpty, text.utf8.count < 2048, let url = URL(string: text),
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host(percentEncoded: true), !host.isEmpty
        else { return nil }
        return url
    }
}
