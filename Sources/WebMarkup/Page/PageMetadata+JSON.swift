extension PageMetadata {
    /// The shape `spotlight markup --json` prints, key for key; absent values are `null`.
    ///
    /// ```swift
    /// let json = try JSONEncoder().encode(PageMetadata(page).summary)
    /// // {"title":"…","description":"…","image":null,"canonical":"…","og_url":null,"app_banner":{…},
    /// //  "deep_links":[{"source":"apple-itunes-app","url":"…","app_store_id":"…"}],"entities":[…],
    /// //  "robots":{"noindex":false,"nofollow":false,"nosnippet":false},"indexable":true}
    /// ```
    public var summary: MarkupSummary { MarkupSummary(self) }
}

/// ``PageMetadata`` as `spotlight markup --json` prints it: a stable shape for programs.
public struct MarkupSummary: Sendable, Encodable {
    let metadata: PageMetadata

    init(_ metadata: PageMetadata) { self.metadata = metadata }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // (the JSON's own key names.)
    private enum Key: String, CodingKey {
        case title, description, image, canonical, og_url, app_banner, deep_links, entities, robots, indexable
        case app_id, app_argument, affiliate_data, app_clip_bundle_id, app_clip_display
        case source, url, app_store_id
        case type, syntax, properties
        case noindex, nofollow, nosnippet
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(metadata.title?.value, forKey: .title)
        try container.encode(metadata.description?.value, forKey: .description)
        try container.encode(metadata.image?.value, forKey: .image)
        try container.encode(metadata.canonical?.value, forKey: .canonical)
        try container.encode(metadata.openGraphURL?.value, forKey: .og_url)
        if let banner = metadata.smartAppBanner {
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: .app_banner)
            try nested.encode(banner.appID, forKey: .app_id)
            try nested.encode(banner.appArgument, forKey: .app_argument)
            try nested.encode(banner.affiliateData, forKey: .affiliate_data)
            try nested.encode(banner.appClipBundleID, forKey: .app_clip_bundle_id)
            try nested.encode(banner.appClipDisplay, forKey: .app_clip_display)
        } else {
            try container.encodeNil(forKey: .app_banner)
        }
        var links = container.nestedUnkeyedContainer(forKey: .deep_links)
        for link in metadata.deepLinks {
            var nested = links.nestedContainer(keyedBy: Key.self)
            try nested.encode(link.source.rawValue, forKey: .source)
            try nested.encode(link.url, forKey: .url)
            try nested.encode(link.appStoreID, forKey: .app_store_id)
        }
        var entities = container.nestedUnkeyedContainer(forKey: .entities)
        for entity in metadata.entities {
            var nested = entities.nestedContainer(keyedBy: Key.self)
            try nested.encode(entity.type, forKey: .type)
            try nested.encode(entity.syntax.rawValue, forKey: .syntax)
            try nested.encode(entity.properties, forKey: .properties)
        }
        var robots = container.nestedContainer(keyedBy: Key.self, forKey: .robots)
        try robots.encode(metadata.robots.noindex, forKey: .noindex)
        try robots.encode(metadata.robots.nofollow, forKey: .nofollow)
        try robots.encode(metadata.robots.nosnippet, forKey: .nosnippet)
        try container.encode(metadata.isIndexable, forKey: .indexable)
    }
}
