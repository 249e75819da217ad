import Foundation
import Logging
import SpotlightIndex
import Synchronization

/// How the user engaged with a result, as Apple's `CSUserInteraction`.
public enum CSUserInteraction: Int, Sendable {
    /// The user chose the result.
    case select = 0
    /// The result had the focus (keyboard, hover).
    case focus = 1
    /// Apple's default: ``select``.
    public static let `default` = CSUserInteraction.select
}

extension CSUserQuery {
    /// Apple's Swift name for ``CSUserInteraction``.
    public typealias UserInteractionKind = CSUserInteraction

    /// A found item in ``responses``.
    public struct Item: Identifiable, @unchecked Sendable {
        /// The item, with the fetched attributes; ranked when the context asks for it.
        public let item: CSSearchableItem
        /// The item's unique identifier.
        public var id: String { item.uniqueIdentifier }
    }

    /// A suggestion in ``responses``.
    public struct Suggestion: Identifiable, @unchecked Sendable {
        /// The completion.
        public let suggestion: CSSuggestion
        /// The suggested text.
        public var id: String { suggestion.text }
    }

    /// One element of ``responses``.
    public enum Response: @unchecked Sendable {
        case item(Item)
        case suggestion(Suggestion)
    }

    /// The items then the suggestions of the query, as an asynchronous
    /// sequence (Apple's Swift interface).
    ///
    /// ```swift
    /// let context = CSUserQueryContext()
    /// context.maxSuggestionCount = 3
    /// for try await response in CSUserQuery(userQueryString: "tar", userQueryContext: context).responses {
    ///     switch response {
    ///     case .item(let found): print(found.item.attributeSet.title ?? "")
    ///     case .suggestion(let completion): print(completion.suggestion.localizedAttributedSuggestion)
    ///     }
    /// }
    /// ```
    /// Iterating starts the query; leaving the loop early cancels it.
    public var responses: Responses {
        Responses(stream: stream({ items, continuation in
            for item in items { continuation.yield(.item(Item(item: item))) }
        }, suggestions: { suggestions, continuation in
            for suggestion in suggestions { continuation.yield(.suggestion(Suggestion(suggestion: suggestion))) }
        }))
    }

    /// Only the suggestions of the query, as an asynchronous sequence.
    ///
    /// ```swift
    /// for try await suggestion in query.suggestions { print(suggestion.suggestion.localizedAttributedSuggestion) }
    /// ```
    public var suggestions: Suggestions {
        Suggestions(stream: stream({ _, _ in }, suggestions: { suggestions, continuation in
            for suggestion in suggestions { continuation.yield(Suggestion(suggestion: suggestion)) }
        }))
    }

    /// The asynchronous sequence of a user query's ``Response``s (Apple's `CSUserQuery.Responses`).
    public struct Responses: AsyncSequence, @unchecked Sendable {
        public typealias Element = Response
        let stream: AsyncThrowingStream<Response, any Error>

        public func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator()) }

        /// Produces the responses.
        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<Response, any Error>.Iterator
            public mutating func next() async throws -> Response? { try await base.next() }
        }
    }

    /// The asynchronous sequence of a user query's ``Suggestion``s (Apple's `CSUserQuery.Suggestions`).
    public struct Suggestions: AsyncSequence, @unchecked Sendable {
        public typealias Element = Suggestion
        let stream: AsyncThrowingStream<Suggestion, any Error>

        public func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator()) }

        /// Produces the suggestions.
        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<Suggestion, any Error>.Iterator
            public mutating func next() async throws -> Suggestion? { try await base.next() }
        }
    }

    // MARK: - Engagement

    /// Tells the index the user engaged with a result: a selection counts
    /// as engagement with the item and lifts its rank in later queries, as
    /// a result chosen in system search does. On any interaction, focus
    /// too, the visible results (the engaged one among them) count as shown
    /// (impressions: results shown often and never chosen sink), each once
    /// per query however often the user moves over it.
    ///
    /// ```swift
    /// query.userEngaged(chosen, visibleItems: onScreen, interaction: .select)
    /// ```
    public func userEngaged(_ item: CSSearchableItem, visibleItems: [CSSearchableItem], interaction: CSUserInteraction) {
        let fresh = counted.withLock { counted in
            (visibleItems + [item]).filter { counted.insert("\($0.sourceIndexName ?? "")/\($0.uniqueIdentifier)").inserted }
        }
        recordImpressions(of: fresh)
        guard interaction == .select else { return }
        let identifier = item.uniqueIdentifier
        do {
            let names = item.sourceIndexName.map { [$0] }
                ?? SpotlightStore.indexNames(bundleIdentifier: bundleIdentifier, location: location)
            for name in names {
                let store = try ReadingStores.store(bundleIdentifier: bundleIdentifier, indexName: name, location: location)
                if try store.containsItem(withIdentifier: identifier) {
                    try store.recordEngagement(.selection, itemIdentifier: identifier)
                    return
                }
            }
        } catch {
            Self.logger.error("the selection of \(identifier) was not recorded: \(error)")
        }
    }

    /// Impressions for results shown, one transaction per index; unknown
    /// items are ignored, a failure is logged.
    private func recordImpressions(of items: [CSSearchableItem]) {
        guard !items.isEmpty else { return }
        var byIndex: [String: [String]] = [:]
        for item in items { byIndex[item.sourceIndexName ?? "", default: []].append(item.uniqueIdentifier) }
        for (name, identifiers) in byIndex.sorted(by: { $0.key < $1.key }) {
            let names = name.isEmpty ? SpotlightStore.indexNames(bundleIdentifier: bundleIdentifier, location: location) : [name]
            for name in names {
                do {
                    let store = try ReadingStores.store(bundleIdentifier: bundleIdentifier, indexName: name, location: location)
                    try store.recordImpressions(itemIdentifiers: identifiers)
                } catch {
                    Self.logger.error("impressions in \(name) were not recorded: \(error)")
                }
            }
        }
    }

    /// Apple's Swift form of ``userEngaged(_:visibleItems:interaction:)-(CSSearchableItem,_,_)``.
    public func userEngaged(_ item: Item, visibleItems: [Item], interaction: UserInteractionKind) {
        userEngaged(item.item, visibleItems: visibleItems.map(\.item), interaction: interaction)
    }

    /// Tells the index the user engaged with a suggestion. Suggestions come
    /// from the indexed words and carry no per-item engagement: nothing is
    /// recorded.
    public func userEngaged(_ suggestion: Suggestion, visibleSuggestions: [Suggestion], interaction: UserInteractionKind) {}

    static let logger = Logger(label: "openspotlight.userquery")
}
