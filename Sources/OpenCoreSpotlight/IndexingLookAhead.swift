import SpotlightIndex
import Synchronization

/// An index object's queued index requests, each prepared while the one
/// before it is written.
///
/// An app hands `indexSearchableItems` its batches one after another
/// without waiting (Apple's completion-handler form), and the index object
/// runs them one at a time. When a request starts, the next queued one
/// starts its preparation (``SpotlightIndex/SpotlightStore/prepare(_:)``:
/// checking, encoding, tokenizing), so on two cores it is tokenized while
/// this one is written, flushed and committed. One request at most is
/// prepared ahead: a flood of batches holds no more than one extra batch
/// of prepared items.
///
/// ```swift
/// let request = lookAhead.enqueue(items)    // when the app calls
/// queue.async {                              // in order, one at a time
///     let prepared = lookAhead.begin(request, store: store)
///     try store.index(prepared: prepared)
/// }
/// ```
final class IndexingLookAhead: Sendable {
    /// One index request's items, and their preparation once started.
    final class Request: Sendable {
        let items: [SearchableItem]
        fileprivate let prepared = Mutex<PreparedItems?>(nil)

        init(_ items: [SearchableItem]) { self.items = items }
    }

    /// Index requests made and not yet begun, in order.
    private let queued = Mutex<[Request]>([])

    /// Notes a request as it is made; ``begin(_:store:)`` takes it in turn.
    func enqueue(_ items: [SearchableItem]) -> Request {
        let request = Request(items)
        queued.withLock { $0.append(request) }
        return request
    }

    /// The request's items, prepared (or their preparation started) for
    /// `store`, and the next queued request's preparation started.
    func begin(_ request: Request, store: SpotlightStore) -> PreparedItems {
        let next = queued.withLock { queued -> Request? in
            // Requests run in the order they were made: those before this
            // one began, or failed before beginning (their store could not
            // be opened), and are dropped with it.
            if let position = queued.firstIndex(where: { $0 === request }) { queued.removeSubrange(...position) }
            return queued.first
        }
        let prepared = request.prepared.withLock { $0.take() } ?? store.prepare(request.items)
        if let next {
            next.prepared.withLock { ahead in
                if ahead == nil { ahead = store.prepare(next.items) }
            }
        }
        return prepared
    }
}
