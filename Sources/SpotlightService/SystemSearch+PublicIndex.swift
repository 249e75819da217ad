public import Foundation
import NIOCore
import PublicIndexProtocol
import SpotlightIndex
import SpotlightSystem

extension SystemSearch {
    /// System search with the public index: the device's results as
    /// ``search(_:resultsPerApp:webResults:near:)`` gives them, then — when
    /// the device opted in (``PublicIndexSettings``) — up to `publicResults`
    /// results of the public index under them, leaving out what the device
    /// already has (a result, a web page or an activity with the same URL).
    ///
    /// ```swift
    /// let found = try await SystemSearch().search("tarte tatin", publicResults: 3)
    /// for result in found.publicResults { print(result.title, result.app?.displayName ?? "") }
    /// ```
    ///
    /// The public index is asked for at most `timeout`; when it does not
    /// answer the device's results come alone, with the reason in
    /// ``SystemSearchResults/problems``.
    public func search(_ text: String, resultsPerApp: Int = 3, webResults: Int = 3, publicResults: Int, near: SearchArea? = nil,
                       client: PublicIndexClient? = nil, timeout: TimeInterval = 2) async throws -> SystemSearchResults {
        var results = try search(text, resultsPerApp: resultsPerApp, webResults: webResults, near: near)
        let settings = PublicIndexSettings.load(location: registry.location)
        guard publicResults > 0, settings.isEnabled, let url = settings.serviceURL,
              !text.trimmingCharacters(in: .whitespaces).isEmpty else { return results }
        let client = client ?? PublicIndexClient(serviceURL: url, timeout: .milliseconds(Int64(timeout * 1_000)))
        do {
            let found = try await client.search(text, limit: min(50, publicResults * 3))
            let known = try deviceURLs(of: results, among: found.results)
            let apps = (try? registry.scan().0) ?? []
            results.publicResults = Array(found.results
                .filter { hit in hit.url.map { !known.contains(PublicActivityContent.normalizedURL($0)) } ?? true }
                .prefix(publicResults)
                .map { PublicResult($0, apps: apps) })
            if found.partial { results.problems.append("the public index answered without \(found.missingShards.joined(separator: ", "))") }
        } catch {
            results.problems.append("the public index: \(error)")
        }
        return results
    }

    /// The normalized URLs, among the public hits', that the device already
    /// shows or holds: its web results, its web store, its apps' results
    /// (an item's `url`, an activity's `webpageURL`).
    func deviceURLs(of results: SystemSearchResults, among hits: [PublicSearchHit]) throws -> Set<String> {
        var known = Set(results.web.map { PublicActivityContent.normalizedURL($0.url) })
        for group in results.groups {
            for result in group.results {
                let reference = result.reference
                guard let item = try? store(reference.bundleIdentifier, reference.indexName).item(withIdentifier: reference.itemIdentifier)?.item else { continue }
                if case .url(let url)? = item.attributes["url"] { known.insert(PublicActivityContent.normalizedURL(url)) }
                if reference.isActivity, let url = UserActivityStore.record(of: item)?.webpageURL {
                    known.insert(PublicActivityContent.normalizedURL(url))
                }
            }
        }
        if WebStore.exists(location: registry.location) {
            for hit in hits {
                if let url = hit.url, (try? webStore().page(at: url)) != nil { known.insert(PublicActivityContent.normalizedURL(url)) }
            }
        }
        return known
    }
}
