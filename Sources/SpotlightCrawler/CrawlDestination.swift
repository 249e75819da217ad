public import Foundation
import SpotlightIndex
public import SpotlightSystem

/// Where a crawl puts the pages it indexes and forgets those now gone
/// (404, 410, `noindex`): the device's ``WebStore``, or the public index.
///
/// ```swift
/// let crawler = Crawler(destination: try WebStore())
/// ```
public protocol CrawlDestination: Sendable {
    /// Stores pages, replacing those with the same URL.
    func save(_ pages: [WebPage]) async throws
    /// Forgets the pages stored under these URLs; unknown ones are ignored.
    func deletePages(at urls: [URL]) async throws
}

extension WebStore: CrawlDestination {
    public func save(_ pages: [WebPage]) async throws {
        let _: IndexReport = try save(pages, lifetime: WebStore.defaultLifetime)
    }

    public func deletePages(at urls: [URL]) async throws {
        // The synchronous `deletePages(at:)`, spelled out: the same name would call this one.
        guard !urls.isEmpty else { return }
        try store.deleteItems(withIdentifiers: urls.map(\.absoluteString))
    }
}
