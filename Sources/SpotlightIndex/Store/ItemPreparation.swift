import Dispatch
import Foundation
import Synchronization

/// Checking, encoding and tokenizing items off the write lock.
///
/// `Pipeline` hands the writer chunks of prepared items while the next
/// chunks are prepared on other threads, so on two cores tokenizing and
/// SQLite's work overlap instead of adding up; ``PreparedItems`` starts it
/// before the write, even while another write goes on. Outcomes keep the
/// order of the items.
enum ItemPreparation {
    /// Items per chunk; the first chunk of a call is small, so the writer
    /// starts soon, and the rest overlap with writing.
    static let firstChunkSize = 64
    static let chunkSize = 256

    /// Prepares `items` on this thread, reusing `tokens`.
    static func prepare(_ items: ArraySlice<SearchableItem>, validator: ItemValidator, tokens: DocumentTokens.Builder) -> ([PreparedItem], [ItemRefusal]) {
        var prepared: [PreparedItem] = []
        var refused: [ItemRefusal] = []
        prepared.reserveCapacity(items.count)
        for item in items {
            switch one(item, validator, tokens) {
            case .success(let item): prepared.append(item)
            case .failure(let refusal): refused.append(refusal)
            }
        }
        return (prepared, refused)
    }

    static func one(_ item: SearchableItem, _ validator: ItemValidator, _ tokens: DocumentTokens.Builder) -> Result<PreparedItem, ItemRefusal> {
        do {
            return .success(try validator.prepare(item, tokens: tokens))
        } catch let error as SpotlightIndexError {
            return .failure(ItemRefusal(itemIdentifier: item.uniqueIdentifier, error: error))
        } catch {
            return .failure(ItemRefusal(itemIdentifier: item.uniqueIdentifier, error: SpotlightIndexError(.invalidItem, "\(error)", subject: item.uniqueIdentifier)))
        }
    }

    /// Chunks of prepared items, prepared in the background as fast as
    /// the cores allow, at most ``lookahead`` chunks ahead of the caller,
    /// who writes the ones ready, in order. Each worker (one a core) takes
    /// the next chunk not taken and prepares it alone, on a thread behind
    /// the writer's (``Parallelism/behind(_:)``): when the writer works,
    /// it has the cores first; when it waits, none is idle. A worker that
    /// is that far ahead stops, and the caller starts one again as it
    /// takes chunks. Used by one caller.
    final class Pipeline: Sendable {
        private let items: [SearchableItem]
        private let validator: ItemValidator
        /// Where each chunk starts, and `items.count` last.
        private let bounds: [Int]
        private var chunkCount: Int { bounds.count - 1 }
        private let delivered = Atomic<Int>(0)
        private let claimed = Atomic<Int>(0)
        /// Workers running.
        private let active = Atomic<Int>(0)
        /// Each chunk once prepared, until taken.
        private let prepared: Mutex<[([PreparedItem], [ItemRefusal])?]>
        /// Signalled once for each chunk, when it is prepared.
        private let ready: [DispatchSemaphore]

        init(_ items: [SearchableItem], validator: ItemValidator) {
            self.items = items
            self.validator = validator
            var bounds = [0]
            if !items.isEmpty { bounds.append(min(items.count, ItemPreparation.firstChunkSize)) }
            while bounds.last! < items.count { bounds.append(min(items.count, bounds.last! + ItemPreparation.chunkSize)) }
            self.bounds = bounds
            prepared = Mutex(Array(repeating: nil, count: bounds.count - 1))
            ready = (0..<bounds.count - 1).map { _ in DispatchSemaphore(value: 0) }
            startWorkers()
        }

        /// Chunks prepared ahead of the caller at most: ~2,000 items
        /// (~4 KB each, prepared), so that a call of a hundred thousand
        /// items holds a few thousand of them prepared, not all.
        static let lookahead = 8

        /// Chunks taken by workers (or the caller) and not yet delivered.
        var takenAhead: Int { claimed.load(ordering: .relaxed) - delivered.load(ordering: .relaxed) }

        /// Whether a chunk not taken yet is within ``lookahead`` of the caller.
        private var hasChunkAhead: Bool {
            let next = claimed.load(ordering: .relaxed)
            return next < chunkCount && next - delivered.load(ordering: .relaxed) < Self.lookahead
        }

        /// Starts workers up to one a core while there are chunks to take.
        private func startWorkers() {
            while hasChunkAhead {
                let running = active.load(ordering: .relaxed)
                guard running < Parallelism.cores else { return }
                if active.compareExchange(expected: running, desired: running + 1, ordering: .relaxed).exchanged {
                    Parallelism.behind { self.work() }
                }
            }
        }

        /// One worker: the chunks not taken yet, one at a time, while they
        /// are within ``lookahead`` of the caller.
        private func work() {
            defer { active.wrappingSubtract(1, ordering: .relaxed) }
            let tokens = DocumentTokens.Builder(weights: validator.columnWeights)
            while true {
                let index = claimed.load(ordering: .relaxed)
                guard index < chunkCount, index - delivered.load(ordering: .relaxed) < Self.lookahead else { return }
                if claimed.compareExchange(expected: index, desired: index + 1, ordering: .relaxed).exchanged {
                    prepare(index, tokens)
                }
            }
        }

        /// Prepares chunk `index`, which the caller took.
        private func prepare(_ index: Int, _ tokens: DocumentTokens.Builder) {
            let result = WriteProfile.measure("prepare (background)") {
                ItemPreparation.prepare(items[bounds[index]..<bounds[index + 1]], validator: validator, tokens: tokens)
            }
            prepared.withLock { $0[index] = result }
            ready[index].signal()
        }

        /// The next chunk, in order, waiting for it if needed; nil after the last.
        ///
        /// A chunk no worker took yet the caller prepares itself, at its own
        /// priority: on a machine busy with other processes the workers, 10
        /// nice values behind, may barely run, and a caller that only waited
        /// would wait on them. (Taking chunks further ahead while it waits
        /// for one a worker has cost the benchmark's writer ~5%.)
        func next() -> ([PreparedItem], [ItemRefusal])? {
            let index = delivered.load(ordering: .relaxed)
            guard index < chunkCount else { return nil }
            if claimed.compareExchange(expected: index, desired: index + 1, ordering: .relaxed).exchanged {
                prepare(index, DocumentTokens.Builder(weights: validator.columnWeights))
            }
            ready[index].wait()
            let result = prepared.withLock { prepared in
                defer { prepared[index] = nil }
                return prepared[index]!
            }
            delivered.store(index + 1, ordering: .relaxed)
            startWorkers()
            return result
        }
    }
}
