import Dispatch
import RankedSearch
import Synchronization

/// A write transaction's new segment, built while the transaction goes on.
///
/// A transaction's new items get their segment at its flush, before it
/// commits: interning every token of every document into the segment's
/// dictionary (``SegmentContents/Builder``) was a fifth of the writer's time
/// at 1,000 items a transaction, with the other core idle once the items
/// were prepared. So each chunk of new items goes to this builder, which
/// adds them on a queue of its own, and the flush finishes the contents.
///
/// A chunk is handed over before its rows are inserted
/// (``RankedIndex/handAhead(_:)``), so the builder adds it while the
/// writer inserts it, and the flush waits only for what is left of the
/// last chunk: its documents' rowids and expiries are filled in as the
/// writer inserts them (``confirm(_:rowid:expires:)``). A chunk that could
/// not be handed ahead (one with an update) goes over once written
/// (``RankedIndex/handOff()``, after each chunk): so the last chunk of each
/// 1,000-item transaction was ~4 ms of the writer's wait at its flush.
///
/// Only a transaction that inserts new items and nothing else is built
/// this way, their rowids ascending as they are provided (a replaced,
/// deleted or re-ranked item, an item refused, or everything deleted,
/// leaves it to the flush, which sorts and reads what it needs): the
/// contents are then exactly those the flush would build from the same
/// documents.
final class ContentsPipeline: @unchecked Sendable {  // `builder` is touched on `queue` only
    private let queue = DispatchQueue(label: "org.openspotlight.ranked.contents", qos: .userInitiated)
    private var builder = SegmentContents.Builder()

    /// Documents handed over so far, by the writer (which alone calls this type).
    private(set) var handed = 0
    /// Each handed document's rowid and expiry, in order (the writer's):
    /// for a document handed ahead of its row, filled in once inserted.
    private var rowids: [Int64] = []
    private var expires: [Double] = []

    /// Adds `documents`, in order, on the builder's queue.
    func hand(_ documents: [RankedDocument]) {
        guard !documents.isEmpty else { return }
        handed += documents.count
        for document in documents {
            rowids.append(document.rowid)
            expires.append(document.expires)
        }
        add(documents)
    }

    /// Adds `documents`, whose rows are not inserted yet, in order on the
    /// builder's queue, and returns the position of the first: each one's
    /// rowid and expiry come later, from ``confirm(_:rowid:expires:)``.
    func handAhead(_ documents: [RankedDocument]) -> Int {
        let first = handed
        handed += documents.count
        rowids.append(contentsOf: repeatElement(0, count: documents.count))
        expires.append(contentsOf: repeatElement(0, count: documents.count))
        add(documents)
        return first
    }

    /// The rowid and expiry of the document handed ahead at `position`.
    func confirm(_ position: Int, rowid: Int64, expires expiry: Double) {
        rowids[position] = rowid
        expires[position] = expiry
    }

    private func add(_ documents: [RankedDocument]) {
        queue.async {
            for document in documents { self.builder.add(document) }
        }
    }

    /// The contents of every document handed over, once the queue has
    /// added them.
    func finish() -> SegmentContents {
        let (rowids, expires) = (self.rowids, self.expires)
        (self.rowids, self.expires, handed) = ([], [], 0)
        return queue.sync {
            let built = builder
            builder = SegmentContents.Builder()
            return built.finish(rowids: rowids, expires: expires)
        }
    }
}

extension RankedIndex {
    /// What the contents pipeline knows of a transaction (in ``WriteState``).
    struct PipelineState {
        /// False once the transaction did anything but insert documents
        /// in ascending rowids: the flush builds its segment itself.
        var usable = true
        /// Documents provided and not yet handed to the builder, in order.
        var pending: [RankedDocument] = []
        var lastRowid: Int64?
        var pipeline: ContentsPipeline?
        /// The documents of the chunk handed ahead of its rows
        /// (``RankedIndex/handAhead(_:)``): each one's identifier hash
        /// and position in the pipeline, in order.
        var ahead: [(uidHash: UInt64, position: Int)] = []
        /// How many of ``ahead`` an inserted row has matched.
        var aheadMatched = 0
        /// The rowids matched since the last hand-off.
        var matched: [Int64] = []

        /// Notes a document provided: the next of the chunk handed ahead,
        /// pending, or the end of pipelining.
        mutating func provided(_ document: RankedDocument) {
            guard usable else { return }
            if let lastRowid, document.rowid <= lastRowid { return abandon() }
            lastRowid = document.rowid
            if aheadMatched < ahead.count {
                // Items are inserted in the order handed; one refused or
                // dropped leaves a later one to meet the wrong entry, or
                // an entry unmatched at the hand-off.
                guard ahead[aheadMatched].uidHash == document.uidHash, let pipeline else { return abandon() }
                pipeline.confirm(ahead[aheadMatched].position, rowid: document.rowid, expires: document.expires)
                aheadMatched += 1
                matched.append(document.rowid)
                return
            }
            pending.append(document)
        }

        /// Leaves the transaction's segment to the flush.
        mutating func abandon() {
            usable = false
            pending = []
            pipeline = nil
            ahead = []
            aheadMatched = 0
            matched = []
        }
    }

    /// Hands a chunk's new documents to the contents pipeline before the
    /// writer inserts their rows (rowid and expiry unknown yet, filled
    /// in as each is provided), so the pipeline adds them while the rows
    /// are inserted (``ContentsPipeline``). Nothing is handed unless the
    /// transaction's segment is still pipelined and every document handed
    /// before has its row.
    func handAhead(_ documents: [RankedDocument]) {
        guard pipelinesContents, !documents.isEmpty else { return }
        writeState.withLock { state in
            guard state.pipelining.usable, state.pipelining.pending.isEmpty,
                  state.pipelining.aheadMatched == state.pipelining.ahead.count else { return }
            if state.pipelining.pipeline == nil { state.pipelining.pipeline = ContentsPipeline() }
            let first = state.pipelining.pipeline!.handAhead(documents)
            state.pipelining.ahead = documents.enumerated().map { (uidHash: $1.uidHash, position: first + $0) }
            state.pipelining.aheadMatched = 0
        }
    }

    /// Hands the documents provided since the last call to the contents
    /// pipeline, which adds them while the writer goes on
    /// (``ContentsPipeline``). Called after each chunk a transaction writes.
    ///
    /// The transaction lets go of the documents it hands over: the
    /// pipeline holds what the segment needs of them. Should the
    /// transaction then replace or delete an item, the flush reads the
    /// rows it needs again (``currentDocuments``).
    func handOff() {
        let (pipeline, documents) = writeState.withLock { state -> (ContentsPipeline?, [RankedDocument]) in
            guard pipelinesContents, state.pipelining.usable else { return (nil, []) }
            // A chunk handed ahead: every document of it has its row, or
            // the flush builds the segment.
            if state.pipelining.aheadMatched < state.pipelining.ahead.count {
                state.pipelining.abandon()
                return (nil, [])
            }
            state.pipelining.ahead = []
            state.pipelining.aheadMatched = 0
            for rowid in state.pipelining.matched { state.documents[rowid] = nil }
            state.pipelining.matched = []
            guard !state.pipelining.pending.isEmpty else { return (nil, []) }
            if state.pipelining.pipeline == nil { state.pipelining.pipeline = ContentsPipeline() }
            defer { state.pipelining.pending = [] }
            for document in state.pipelining.pending { state.documents[document.rowid] = nil }
            return (state.pipelining.pipeline, state.pipelining.pending)
        }
        pipeline?.hand(documents)
    }

    /// The contents of a flush's `documents` (every changed rowid's, in
    /// rowid order) from the pipeline when it built them, else nil.
    static func pipelinedContents(_ state: PipelineState, documents: Int) -> SegmentContents? {
        guard state.usable, let pipeline = state.pipeline, state.aheadMatched == state.ahead.count,
              pipeline.handed + state.pending.count == documents else { return nil }
        pipeline.hand(state.pending)
        return pipeline.finish()
    }
}
