/// Terms' list bounds (G×S with or without the exact-title share, and S)
/// read in ascending order of id, as a search weighs a prefix's tokens
/// or opens a term group: a term of more than one block finds its maxima
/// at its rank among such terms (``SegmentFormat``), which consecutive
/// terms count as they pass instead of from their group each time.
///
/// ```swift
/// var maxima = TermMaxima(segment)
/// for id in range { let (maxGS, maxS) = maxima.bounds(id, wholeWord: false) }
/// ```
struct TermMaxima {
    let segment: Segment
    /// The term after the last one read, and the count of terms of more
    /// than one block before it (-1: unknown).
    private var next = -1, rank = 0

    init(_ segment: Segment) { self.segment = segment }

    /// Term `term`'s largest G×S (with the exact-title share for a whole
    /// word typed, without it for a completion) and largest S: as
    /// ``Segment/termMaxGS(_:wholeWord:)`` and ``Segment/termMaxS(_:)``.
    @inline(__always)
    mutating func bounds(_ term: Int, wholeWord: Bool) -> (maxGS: Double, maxS: Double) {
        let documents = segment.termDocumentCount(term)
        if documents <= SegmentFormat.blockSize {
            // Its block's; the count before the next term is the count before this one.
            next = term == next ? term + 1 : -1
            let block = segment.firstBlock(of: term)
            guard documents > 0, block < segment.blockCount else { return (0, 0) }
            return (segment.blockMaxGS(block, wholeWord: wholeWord), segment.blockMaxS(block))
        }
        let before = term == next ? rank : segment.multiBlockCount(before: term)
        (next, rank) = (term + 1, before + 1)
        return (segment.ownMaximum(wholeWord ? .termMaxGS : .termMaxGSPart, rank: before), segment.ownMaximum(.termMaxS, rank: before))
    }
}
