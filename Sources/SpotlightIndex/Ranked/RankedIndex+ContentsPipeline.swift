import Dispatch
import RankedSearch
import Synchronization

/// A write transaction's new segment, built while the transaction goes on.
///
/// A transaction's new items get their segment at its flush, before it
/// commits: interning every token of every document into the segment's
/// dictionary (``SegmentContents/Builder``) was a fifth of the writer's time
/// at 1,000 items a transaction, with the other core idle once the items
/// were prepared. So each chunk of items, once written
/// (``RankedIndex/handOff()``, called by ``SpotlightStore/index(_:)`` after
/// each chunk), goes to this builder, which adds them on a queue of its own
/// while the writer writes the next chunk; the flush hands over the last
/// chunk and finishes the contents.
///
/// Only a transaction that inserts new items and nothing else is built
/// this way, their rowids ascending as they are provided (a replaced,
/// deleted or re-ranked item, or everything deleted, leaves it to the
/// flush, which sorts and reads what it needs): the contents are then
/// exactly those the flush would build from the same documents.
final class ContentsPipeline: @unchecked Sendable {  // `builder` is touched on `queue` only
    private let queue = DispatchQueue(label: "org.openspotlight.ranked.contents", qos: .userInitiated)
    private var builder = SegmentContents.Builder()

    /// Documents handed over so far, by the writer (which alone calls this type).
    private(set) var handed = 0

    /// Adds `documents`, in order, on the builder's queue.
    func hand(_ documents: [RankedDocument]) {
        guard !documents.isEmpty else { return }
        handed += documents.count
        queue.async {
            for document in documents { self.builder.add(document) }
        }
    }

    /// The contents of every document handed over, once the queue has
    /// added them.
    func finish() -> SegmentContents {
        queue.sync {
            let built = builder
            builder = SegmentContents.Builder()
            return built.finish()
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

        /// Notes a document provided: pending, or the end of pipelining.
        mutating func provided(_ document: RankedDocument) {
            guard usable else { return }
            if let lastRowid, document.rowid <= lastRowid { return abandon() }
            pending.append(document)
            lastRowid = document.rowid
        }

        /// Leaves the transaction's segment to the flush.
        mutating func abandon() {
            usable = false
            pending = []
            pipeline = nil
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
            guard pipelinesContents, state.pipelining.usable, !state.pipelining.pending.isEmpty else { return (nil, []) }
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
        guard state.usable, let pipeline = state.pipeline, pipeline.handed + state.pending.count == documents else { return nil }
        pipeline.hand(state.pending)
        return pipeline.finish()
    }
}
