import Dispatch
import Foundation
import Synchronization

/// Checking, encoding and tokenizing items off the write lock.
///
/// `Pipeline` hands the writer chunks of prepared items while the next
/// chunk is prepared on another thread, so on two cores tokenizing and
/// SQLite's work overlap instead of adding up. Outcomes keep the order of
/// the items.
enum ItemPreparation {
    /// Items per chunk; the first chunk of a call is small, so the writer
    /// starts soon, and the rest overlap with writing.
    static let firstChunkSize = 64
    static let chunkSize = 256

    /// Prepares `items` on up to `threads` threads.
    static func prepare(_ items: ArraySlice<SearchableItem>, validator: ItemValidator, threads: Int) -> ([PreparedItem], [ItemRefusal]) {
        let workers = max(1, min(threads, items.count / 64))
        var outcomes = [Result<PreparedItem, ItemRefusal>?](repeating: nil, count: items.count)
        let base = items.startIndex
        outcomes.withUnsafeMutableBufferPointer { buffer in
            let slots = SlotBuffer(buffer)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                // Each worker writes its own stride of slots: no two share one.
                let tokens = DocumentTokens.Builder(weights: validator.columnWeights)
                for index in stride(from: worker, to: items.count, by: workers) {
                    slots.set(index, one(items[base + index], validator, tokens))
                }
            }
        }
        var prepared: [PreparedItem] = []
        var refused: [ItemRefusal] = []
        prepared.reserveCapacity(items.count)
        for outcome in outcomes {
            switch outcome! {
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

    /// Chunks of prepared items, prepared in order in the background, all
    /// of them as fast as the cores allow, while the caller writes the
    /// ones ready. Each chunk uses every core: when the writer works, the
    /// scheduler shares the cores; when it waits, none is idle (with one
    /// worker per chunk the writer waited ~0.4 s of 2.2 s at 63,666 items).
    /// Used by one caller.
    final class Pipeline: Sendable {
        private let items: [SearchableItem]
        private let validator: ItemValidator
        /// Where each chunk starts, and `items.count` last.
        private let bounds: [Int]
        private var chunkCount: Int { bounds.count - 1 }
        private let delivered = Atomic<Int>(0)
        /// Prepared chunks not yet taken, in order.
        private let ready = Mutex<[([PreparedItem], [ItemRefusal])]>([])
        private let available = DispatchSemaphore(value: 0)

        init(_ items: [SearchableItem], validator: ItemValidator) {
            self.items = items
            self.validator = validator
            var bounds = [0]
            if !items.isEmpty { bounds.append(min(items.count, ItemPreparation.firstChunkSize)) }
            while bounds.last! < items.count { bounds.append(min(items.count, bounds.last! + ItemPreparation.chunkSize)) }
            self.bounds = bounds
            if chunkCount > 0 {
                DispatchQueue.global().async {
                    for index in 0..<self.chunkCount {
                        let slice = self.items[self.bounds[index]..<self.bounds[index + 1]]
                        let result = WriteProfile.measure("prepare (background)") { ItemPreparation.prepare(slice, validator: self.validator, threads: Parallelism.cores) }
                        self.ready.withLock { $0.append(result) }
                        self.available.signal()
                    }
                }
            }
        }

        /// The next chunk, in order, waiting for it if needed; nil after the last.
        func next() -> ([PreparedItem], [ItemRefusal])? {
            let index = delivered.load(ordering: .relaxed)
            guard index < chunkCount else { return nil }
            available.wait()
            let result = ready.withLock { $0.removeFirst() }
            delivered.store(index + 1, ordering: .relaxed)
            return result
        }
    }
}

/// Lets concurrent workers fill disjoint slots of one buffer.
private struct SlotBuffer<Element>: @unchecked Sendable { // @unchecked: each slot has one writer
    let buffer: UnsafeMutableBufferPointer<Element?>
    init(_ buffer: UnsafeMutableBufferPointer<Element?>) { self.buffer = buffer }
    func set(_ index: Int, _ value: Element) { buffer[index] = value }
}
