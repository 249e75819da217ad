/// Which segments to merge, and when: the shape of the index over time.
/// Segments of a similar size merge eight at a time, so a document is
/// merged about log₈(documents) times over its life; a segment more than a
/// third deleted is merged alone, so deleted documents do not pile up.
///
/// ```swift
/// let sizes = (1...8).map { MergePolicy.SegmentSize(id: Int64($0), live: 500, deleted: 0) }
/// MergePolicy.plan(sizes)                                                    // [1, 2, 3, 4, 5, 6, 7, 8]
/// MergePolicy.plan([MergePolicy.SegmentSize(id: 9, live: 1_000, deleted: 600)])   // [9]
/// ```
package enum MergePolicy {
    /// Segments merged at once, and the ratio between size classes.
    static let factor = 8

    /// A segment as the policy sees it: its live and deleted documents.
    package struct SegmentSize: Equatable, Sendable {
        var id: Int64
        var live: Int
        package var deleted: Int

        package init(id: Int64, live: Int, deleted: Int) {
            self.id = id
            self.live = live
            self.deleted = deleted
        }
    }

    /// Which segments to merge now: eight (``factor``) whose live
    /// documents fall in the same power-of-eight class, or a segment more
    /// than a third deleted. Nil when nothing needs merging.
    package static func plan(_ sizes: [SegmentSize]) -> [Int64]? {
        if let worn = sizes.first(where: { $0.deleted * 3 > $0.live + $0.deleted && $0.live + $0.deleted > 1_000 }) {
            return [worn.id]
        }
        var classes: [Int: [SegmentSize]] = [:]
        for size in sizes {
            var level = 0, capacity = 1_000
            while size.live > capacity { capacity *= factor; level += 1 }
            classes[level, default: []].append(size)
        }
        for level in classes.keys.sorted() {
            if let members = classes[level], members.count >= factor {
                return members.sorted { $0.id < $1.id }.prefix(factor).map(\.id)
            }
        }
        return nil
    }

    /// Which segments to merge when the store is idle, so that a search
    /// reads one segment (`SpotlightStore.mergeSegments()`,
    /// as Lucene's `forceMerge(1)`): all of them when there are two or more,
    /// or a lone one with a tenth of its documents deleted. Nil when the
    /// index is already one segment with few deletions.
    ///
    /// ```swift
    /// MergePolicy.consolidation([.init(id: 1, live: 40_000, deleted: 0), .init(id: 2, live: 5, deleted: 0)])   // [1, 2]
    /// MergePolicy.consolidation([.init(id: 3, live: 900, deleted: 100)])                                     // [3]
    /// ```
    package static func consolidation(_ sizes: [SegmentSize]) -> [Int64]? {
        if sizes.count >= 2 { return sizes.map(\.id).sorted() }
        if let lone = sizes.first, lone.deleted > 0, lone.deleted * 10 >= lone.live + lone.deleted { return [lone.id] }
        return nil
    }
}
