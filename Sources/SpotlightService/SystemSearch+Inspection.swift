public import Foundation
public import SpotlightIndex
import SpotlightSystem

/// One result as `spotlight show` and the service's `/v1/show` give it: every
/// attribute, when it was indexed and how often it was viewed and chosen.
public struct ResultDetails: Sendable {
    /// Where it is stored.
    public var reference: ResultReference
    /// The stored item (an activity's searchable attributes, for an activity).
    public var item: StoredItem
    /// Views and selections counted for it.
    public var engagement: EngagementSummary
}

extension SystemSearch {
    /// The stored result a reference names, through the kept stores (nothing is
    /// created: an app or index that does not exist is `.resultNotFound`).
    ///
    /// ```swift
    /// let details = try SystemSearch().details(of: ResultReference(parsing: "com.example.trips/default/trip-1"))
    /// print(details.item.item.displayTitle ?? "", details.engagement.selections)
    /// ```
    public func details(of reference: ResultReference) throws -> ResultDetails {
        let store = try existingStore(reference)
        guard let stored = try store.item(withIdentifier: reference.itemIdentifier) else { throw notStored(reference) }
        return ResultDetails(reference: reference, item: stored, engagement: try store.engagement(ofItem: reference.itemIdentifier))
    }

    /// Why a result ranks where it does for `text` among its store's matches,
    /// or which words it lacks (the engine's explanation, through the kept
    /// stores). The score is the one system search ranks by: the text part
    /// on the scale of every registered store (their statistics summed), and
    /// the app's factor when its results are often passed over.
    ///
    /// ```swift
    /// let why = try SystemSearch().explain(ResultReference(parsing: "com.example.grocer/default/p-pear"), text: "pe")
    /// print(why.summary)
    /// ```
    public func explain(_ reference: ResultReference, text: String) throws -> SearchExplanation {
        let store = try existingStore(reference)
        let (apps, _) = try registered.scan()
        let statistics = try collectionStatistics(text, apps: apps, web: WebStore.exists(location: registry.location))
        var why: SearchExplanation
        do {
            why = try store.explain(itemIdentifier: reference.itemIdentifier, text: text, statistics: statistics)
        } catch let error as SpotlightIndexError where error.code == .itemNotFound {
            throw notStored(reference)
        }
        if why.score != nil, let app = apps.first(where: { $0.bundleIdentifier == reference.bundleIdentifier }) {
            let (factor, words) = try appFactor(app)
            if factor < 1, let total = why.score?.total {
                why.score?.total = total * factor
                why.summary += words + String(format: " = %.4g", total * factor)
            }
        }
        return why
    }

    /// The result's `thumbnailData`, when it has one.
    public func thumbnailData(of reference: ResultReference) throws -> Data? {
        let stored = try details(of: reference).item
        if case .data(let data)? = stored.item.attributes["thumbnailData"] { return data }
        return nil
    }

    /// The kept store a reference points into; it must exist and its app be registered.
    func existingStore(_ reference: ResultReference) throws -> SpotlightStore {
        guard try registry.app(reference.bundleIdentifier) != nil else {
            throw SystemSearchError(.appNotRegistered, "\(reference.bundleIdentifier) is not registered; register it with `spotlight apps register` first")
        }
        let location = registry.location
        if reference.isActivity {
            guard UserActivityStore.exists(bundleIdentifier: reference.bundleIdentifier, location: location) else { throw notStored(reference) }
        } else {
            guard (try? StoreName.validateIndexName(reference.indexName)) != nil,
                  SpotlightStore.exists(bundleIdentifier: reference.bundleIdentifier, indexName: reference.indexName, location: location) else {
                throw notStored(reference)
            }
        }
        return try store(reference.bundleIdentifier, reference.indexName)
    }

    private func notStored(_ reference: ResultReference) -> SystemSearchError {
        SystemSearchError(.resultNotFound, "\(reference) is not stored (deleted or expired?); search again")
    }
}

extension SystemSearch {
    /// Records that results were shown (impressions), one transaction per
    /// store through the kept stores. References to an app that is not
    /// registered or a store that does not exist are skipped (nothing is
    /// created); identifiers of no live item are ignored by the store.
    ///
    /// ```swift
    /// let shown = try SystemSearch().search("pear").groups.flatMap { $0.results.map(\.reference) }
    /// try SystemSearch().recordImpressions(shown)
    /// ```
    /// - Returns: how many references went to a store.
    @discardableResult
    public func recordImpressions(_ references: [ResultReference], at date: Date? = nil) throws -> Int {
        var byStore: [String: (reference: ResultReference, identifiers: [String])] = [:]
        for reference in references {
            byStore["\(reference.bundleIdentifier)/\(reference.indexName)", default: (reference, [])].identifiers.append(reference.itemIdentifier)
        }
        var recorded = 0
        for (_, entry) in byStore.sorted(by: { $0.key < $1.key }) {
            guard let store = try? existingStore(entry.reference) else { continue }
            try store.recordImpressions(itemIdentifiers: entry.identifiers, at: date)
            recorded += entry.identifiers.count
        }
        return recorded
    }
}
