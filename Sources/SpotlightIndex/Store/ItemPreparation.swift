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
    static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
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
                for index in stride(from: worker, to: items.count, by: workers) {
                    slots.set(index, one(items[base + index], validator))
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

    static func one(_ item: SearchableItem, _ validator: ItemValidator) -> Result<PreparedItem, ItemRefusal> {
        do {
            return .success(try validator.prepare(item))
        } catch let error as SpotlightIndexError {
            return .failure(ItemRefusal(itemIdentifier: item.uniqueIdentifier, error: error))
        } catch {
            return .failure(ItemRefusal(itemIdentifier: item.uniqueIdentifier, error: SpotlightIndexError(.invalidItem, "\(error)")))
        }
    }

    /// Chunks of prepared items, the next one prepared in the background
    /// while the caller writes the current one. Used by one caller.
    final class Pipeline: Sendable {
        private let items: [SearchableItem]
        private let validator: ItemValidator
        /// Where each chunk starts, and `items.count` last.
        private let bounds: [Int]
        private var chunkCount: Int { bounds.count - 1 }
        private let delivered = Atomic<Int>(0)
        private let pending = Mutex<([PreparedItem], [ItemRefusal])?>(nil)
        private let ready = DispatchSemaphore(value: 0)

        init(_ items: [SearchableItem], validator: ItemValidator) {
            self.items = items
            self.validator = validator
            var bounds = [0]
            if !items.isEmpty { bounds.append(min(items.count, ItemPreparation.firstChunkSize)) }
            while bounds.last! < items.count { bounds.append(min(items.count, bounds.last! + ItemPreparation.chunkSize)) }
            self.bounds = bounds
            if chunkCount > 0 { start(0) }
        }

        /// Prepares a chunk in the background; the first uses every core,
        /// the others leave one core to the writer.
        private func start(_ index: Int) {
            let slice = items[bounds[index]..<bounds[index + 1]]
            let threads = index == 0 ? ItemPreparation.cores : max(1, ItemPreparation.cores - 1)
            DispatchQueue.global().async {
                let result = ItemPreparation.prepare(slice, validator: self.validator, threads: threads)
                self.pending.withLock { $0 = result }
                self.ready.signal()
            }
        }

        /// The next chunk, in order, waiting for it if needed; nil after the last.
        func next() -> ([PreparedItem], [ItemRefusal])? {
            let index = delivered.load(ordering: .relaxed)
            guard index < chunkCount else { return nil }
            ready.wait()
            let result = pending.withLock { value in
                defer { value = nil }
                return value!
            }
            delivered.store(index + 1, ordering: .relaxed)
            if index + 1 < chunkCount { start(index + 1) }
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
