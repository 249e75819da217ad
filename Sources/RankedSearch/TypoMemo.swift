import Synchronization

/// The typo walks one segment has made, kept for the keystrokes that
/// follow: a search resolves every word of the query again on every
/// keystroke, and the words before the one being typed have not changed.
///
/// A segment never changes, so a walk's answer stays right for as long as
/// the segment lives. The memo is small and per segment: it holds the last
/// ``capacity`` walks (first in, first out), enough for the words a few
/// people are typing into one store at once, not a whole query log. A walk
/// costs tens of microseconds per long word and segment (the first-letter
/// tier ~40 dictionary lookups more), and a system search makes it in every
/// store.
///
/// ```swift
/// let ids = try segment.typoMatches(typo)   // walked once, then remembered
/// ```
@_spi(Inspection) public final class TypoMemo: Sendable {
    /// Walks kept per segment.
    @_spi(Inspection) public static let capacity = 256

    private struct Kept {
        var matches: [RankedQuery.Typo: [Range<Int>]] = [:]
        /// Keys in the order they came, for eviction: `next` is the oldest once full.
        var order: [RankedQuery.Typo] = []
        var next = 0
    }

    private let kept = Mutex(Kept())

    /// How many walks are kept.
    var count: Int { kept.withLock { $0.matches.count } }

    /// `typo`'s matches: remembered, or walked by `walk` and kept.
    func matches(_ typo: RankedQuery.Typo, walk: () throws(SegmentError) -> [Range<Int>]) throws(SegmentError) -> [Range<Int>] {
        if let known = kept.withLock({ $0.matches[typo] }) { return known }
        let found = try walk()
        kept.withLock { kept in
            guard kept.matches[typo] == nil else { return }
            if kept.order.count < Self.capacity {
                kept.order.append(typo)
            } else {
                kept.matches[kept.order[kept.next]] = nil
                kept.order[kept.next] = typo
                kept.next = (kept.next + 1) % Self.capacity
            }
            kept.matches[typo] = found
        }
        return found
    }
}

extension Segment {
    /// ``TypoWalk/matches(_:in:)`` in this segment, remembered (``TypoMemo``).
    @_spi(Inspection) public func typoMatches(_ typo: RankedQuery.Typo) throws(SegmentError) -> [Range<Int>] {
        try typoMemo.matches(typo) { () throws(SegmentError) in try TypoWalk.matches(typo, in: self) }
    }

    /// How many typo walks this segment remembers (at most ``TypoMemo/capacity``).
    @_spi(Inspection) public var rememberedTypoWalks: Int { typoMemo.count }
}
