public import Foundation
public import PublicIndex
import PublicIndexProtocol
public import SpotlightCrawler
import SpotlightIndex
public import SpotlightSystem

/// The crawler's pages into the public index instead of the device's web
/// store: a page's site is its host; a recrawl that finds it gone (404,
/// 410) or `noindex` removes it.
///
/// ```swift
/// let crawler = Crawler(destination: PublicIndexCrawlDestination(index: index))
/// let report = try await crawler.crawl(from: [URL(string: "https://shop.example.com/")!])
/// ```
public struct PublicIndexCrawlDestination: CrawlDestination {
    public let index: PublicIndex

    public init(index: PublicIndex) {
        self.index = index
    }

    public func save(_ pages: [WebPage]) async throws {
        try await index.savePages(pages.map(Self.publicPage))
    }

    public func deletePages(at urls: [URL]) async throws {
        try await index.deletePages(at: urls)
    }

    /// What the public index keeps of a crawled page: entity names and types as keywords.
    static func publicPage(_ page: WebPage) -> PublicPage {
        let keywords = page.entityKeywords.filter { $0.utf8.count <= PublicActivityContent.Limits.keywordBytes }
        return PublicPage(url: page.url, title: page.title, description: page.description,
                          keywords: Array(keywords.prefix(PublicActivityContent.Limits.keywordCount)),
                          imageURL: page.imageURL,
                          deepLinks: page.deepLinks.map { PublicDeepLink(source: $0.source, url: $0.url, appStoreID: $0.appStoreID) },
                          applicationIdentifiers: page.applicationIdentifiers)
    }
}
