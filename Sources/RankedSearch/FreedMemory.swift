import CMalloc

/// Gives the pages the process's threads have freed back to the system.
///
/// glibc keeps what a thread frees in that thread's arena, and raises its
/// trim threshold to twice the largest block it has handed back (up to
/// 64 MB), so after a few flushes the preparation threads' arenas and the
/// writer's hold tens of megabytes of free pages that a merge running on
/// another thread cannot reuse: at 63,666 items they were ~22 MB of the
/// indexing peak, which is the last merge. `malloc_trim(0)` returns the
/// free pages of every arena (`MADV_DONTNEED` inside them, the tops
/// released) without changing any setting of the host process, which a
/// library must not (`mallopt`, `MALLOC_ARENA_MAX`).
///
/// It walks every arena's free lists, so it is called where memory is
/// about to grow a lot and rarely: before a merge streamed to a file.
///
/// ```swift
/// FreedMemory.returnToSystem()
/// let merged = try SegmentMerger.mergeEncoded(inputs, scoring: scoring, buildTime: now, streamingTo: file)
/// ```
package enum FreedMemory {
    package static func returnToSystem() {
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
    }
}
