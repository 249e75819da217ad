import SpotlightIndex
import Synchronization

/// An index object's queued index requests: each prepared while the one
/// before it is written, and those made one right after another written
/// together.
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
/// Index requests waiting one right after another (no other request made
/// between them) are written in one transaction, up to ``groupItems``
/// items (``SpotlightIndex/SpotlightStore/index(preparedEach:)``): one
/// commit and segments by size instead of a commit, a segment and merges
/// for each (measured on the engine's calls, not through this queue: at
/// 63,666 items, calls of 16,000 items index 72,000–76,000 items/s against
/// 52,000–54,000 for calls of 1,000; BENCHMARKS.md).
/// Each request still gets its own report, in its turn; if the shared
/// transaction fails, each of them fails with its error and none of their
/// items is stored.
///
/// ```swift
/// let request = IndexingLookAhead.Request(items)
/// lookAhead.enqueue(request, number: submitted)   // when the app calls, in order
/// queue.async {                                     // in order, one at a time
///     let report = try request.writtenReport() ?? lookAhead.write(request, store: store)
/// }
/// ```
final class IndexingLookAhead: Sendable {
    /// Items written together at most.
    static let groupItems = 16_384

    /// One index request's items, and their preparation once started.
    final class Request: Sendable {
        let items: [SearchableItem]
        fileprivate let prepared = Mutex<PreparedItems?>(nil)
        /// The request's place among all the index object's requests.
        fileprivate let number = Atomic<Int>(0)
        /// Set when an earlier request wrote this one's items with its own.
        private let written = Mutex<Result<IndexReport, any Error>?>(nil)

        init(_ items: [SearchableItem]) { self.items = items }

        /// This request's report (or error), when an earlier request wrote
        /// its items with its own; nil otherwise.
        func writtenReport() throws -> IndexReport? {
            try written.withLock { $0 }?.get()
        }

        fileprivate func noteWritten(_ outcome: Result<IndexReport, any Error>) {
            written.withLock { $0 = outcome }
        }
    }

    /// Index requests made and not yet begun, in order.
    private let queued = Mutex<[Request]>([])

    /// Notes a request as it is made, with its place among all the index
    /// object's requests (`number`, one more for each request of any
    /// kind); ``write(_:store:)`` takes it in turn.
    func enqueue(_ request: Request, number: Int) {
        request.number.store(number, ordering: .relaxed)
        queued.withLock { $0.append(request) }
    }

    /// Writes the request's items, and those of the requests made right
    /// after it (each its report kept for its turn), with the next
    /// queued request's preparation started; returns this request's report.
    func write(_ request: Request, store: SpotlightStore) throws -> IndexReport {
        // In an open batch the store only checks and keeps each request's
        // items, and prepares them at the batch's end: nothing to prepare ahead.
        if store.isBatchOpen {
            queued.withLock { queued in
                if let position = queued.firstIndex(where: { $0 === request }) { queued.removeSubrange(...position) }
            }
            return try store.index(request.items)
        }
        let (group, next) = queued.withLock { queued -> ([Request], Request?) in
            // Requests run in the order they were made: those before this
            // one began, or failed before beginning (their store could not
            // be opened), and are dropped with it.
            if let position = queued.firstIndex(where: { $0 === request }) { queued.removeSubrange(...position) }
            var group = [request], count = request.items.count
            while let following = queued.first,
                  following.number.load(ordering: .relaxed) == group[group.count - 1].number.load(ordering: .relaxed) + 1,
                  count + following.items.count <= Self.groupItems {
                group.append(queued.removeFirst())
                count += following.items.count
            }
            return (group, queued.first)
        }
        if let next {
            next.prepared.withLock { ahead in
                if ahead == nil { ahead = store.prepare(next.items) }
            }
        }
        let preparations = group.map { member in { member.prepared.withLock { $0.take() } ?? store.prepare(member.items) } }
        guard group.count > 1 else { return try store.index(prepared: preparations[0]()) }
        let outcomes: [Result<IndexReport, any Error>]
        do {
            outcomes = try store.index(preparedEach: preparations).map { .success($0) }
        } catch {
            outcomes = Array(repeating: .failure(error), count: group.count)
        }
        for (member, outcome) in zip(group.dropFirst(), outcomes.dropFirst()) { member.noteWritten(outcome) }
        return try outcomes[0].get()
    }
}
