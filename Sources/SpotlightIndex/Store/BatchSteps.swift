import Dispatch

/// A batch's writes read back from its ``BatchSpill`` as the writer applies
/// them, one step ahead: while the writer writes a run of items, the next
/// run is read, decoded and its preparation started (``PreparedItems``),
/// so at the batch's end, as in a call, one core tokenizes while the other
/// writes.
///
/// ```swift
/// let steps = BatchSteps(try spill.reader(), store: store)
/// while let step = try steps.next() {
///     switch step {
///     case .index(let prepared): _ = prepared       // written as a call's items
///     case .other(let pending): _ = pending        // a delete, in its turn
///     }
/// }
/// ```
///
/// Used by one writer. The reader is used by one step at a time: a step
/// is started only once the one before it is taken.
final class BatchSteps: @unchecked Sendable {
    enum Step {
        /// Items in the order kept, at most ``runItems`` of them, preparing.
        case index(PreparedItems)
        /// A delete.
        case other(PendingWrite)
    }

    /// Items a run holds at most: the preparation pipeline's chunks
    /// overlap with writing inside a run, and runs with each other.
    static let runItems = 4_096

    private let store: SpotlightStore
    private var reader: BatchSpill.Reader
    /// A delete read after a run of items, for the next step.
    private var held: BatchSpill.Write?
    /// The next step, being read; nil after the last.
    private var ahead: Ahead?

    init(_ reader: BatchSpill.Reader, store: SpotlightStore) {
        self.reader = reader
        self.store = store
        ahead = start()
    }

    /// The next step, waiting for it to be read; nil after the last.
    /// - Throws: what reading the spill threw.
    func next() throws -> Step? {
        guard let current = ahead else { return nil }
        let step = try current.value()
        ahead = step == nil ? nil : start()
        return step
    }

    private func start() -> Ahead {
        Ahead { try self.read() }
    }

    /// Reads a run of items (decoded, their preparation started) or a delete.
    private func read() throws -> Step? {
        var items: [SearchableItem] = []
        reading: while items.count < Self.runItems {
            guard let write = try held.take() ?? reader.next() else { break }
            switch write {
            case .index(let kept):
                items.reserveCapacity(items.count + kept.count)
                for item in kept { items.append(try item.searchableItem()) }
            case .deleteIdentifiers, .deleteDomains, .deleteAll:
                if !items.isEmpty {
                    held = write
                    break reading
                }
                return .other(Self.pending(write))
            }
        }
        return items.isEmpty ? nil : .index(store.prepare(items))
    }

    private static func pending(_ write: BatchSpill.Write) -> PendingWrite {
        switch write {
        case .index: .index([])
        case .deleteIdentifiers(let identifiers): .deleteIdentifiers(identifiers)
        case .deleteDomains(let domains): .deleteDomains(domains)
        case .deleteAll: .deleteAll
        }
    }

    /// One step read on another thread.
    private final class Ahead: @unchecked Sendable {
        // Unchecked: `result` is set once, before `done` is signalled, and read after waiting for it.
        private var result: Result<Step?, any Error>?
        private let done = DispatchSemaphore(value: 0)

        init(_ read: @escaping @Sendable () throws -> Step?) {
            DispatchQueue.global().async {
                self.result = Result { try read() }
                self.done.signal()
            }
        }

        func value() throws -> Step? {
            done.wait()
            return try result!.get()
        }
    }
}
