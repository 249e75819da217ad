import Foundation

extension CSSearchQuery {
    /// The query's results as an asynchronous sequence, Apple's Swift
    /// alternative to the handlers.
    ///
    /// ```swift
    /// let query = CSSearchQuery(queryString: #"title == "paris*"cd"#, queryContext: nil)
    /// for try await result in query.results {
    ///     print(result.id, result.item.attributeSet.title ?? "")
    /// }
    /// ```
    ///
    /// Iterating starts the query and takes over its handlers; leaving the
    /// loop early cancels it. An invalid query string throws
    /// ``CSSearchQueryError`` `.invalidQuery`; a query cancelled with
    /// ``cancel()`` throws `.cancelled`. A query runs once: iterating a
    /// started query throws `.unknown`.
    public var results: Results { Results(query: self) }

    /// The asynchronous sequence of a query's results.
    public struct Results: AsyncSequence, @unchecked Sendable {
        /// One result.
        public struct Item: Identifiable, @unchecked Sendable {
            /// The found item, with the fetched attributes.
            public let item: CSSearchableItem
            /// The item's unique identifier.
            public var id: String { item.uniqueIdentifier }
        }

        public typealias Element = Item
        let query: CSSearchQuery

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(stream: query.stream { items, continuation in
                for item in items { continuation.yield(Item(item: item)) }
            })
        }

        public struct AsyncIterator: AsyncIteratorProtocol {
            var iterator: AsyncThrowingStream<Item, any Error>.Iterator
            init(stream: AsyncThrowingStream<Item, any Error>) { iterator = stream.makeAsyncIterator() }
            public mutating func next() async throws -> Item? { try await iterator.next() }
        }
    }

    /// Starts the query with handlers that feed a stream; ending the stream cancels it.
    func stream<Element>(_ found: @escaping ([CSSearchableItem], AsyncThrowingStream<Element, any Error>.Continuation) -> Void,
                         suggestions: (([CSSuggestion], AsyncThrowingStream<Element, any Error>.Continuation) -> Void)? = nil)
        -> AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { continuation in
            guard claimStart() else {
                continuation.finish(throwing: CSSearchQueryError(.unknown, "this query was already started; a query runs once, make a new one"))
                return
            }
            foundItemsHandler = { found($0, continuation) }
            if let suggestions, let user = self as? CSUserQuery {
                user.foundSuggestionsHandler = { suggestions($0, continuation) }
            }
            completionHandler = { error in
                if let error { continuation.finish(throwing: error) } else { continuation.finish() }
            }
            continuation.onTermination = { [weak self] termination in
                if case .cancelled = termination { self?.cancel() }
            }
            runInBackground()
        }
    }
}
