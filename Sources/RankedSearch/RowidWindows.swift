import Synchronization

/// Whether a segment's doc ids follow its rowids, found once per segment.
///
/// A flush or a rebuild numbers documents in rowid order; a merge that
/// takes in replaced items may not. Checking reads every document's rowid
/// once, so the answer is kept for the segment's life (it never changes).
final class RowidOrderMemo: Sendable {
    /// 0: not yet known; 1: in rowid order; 2: not.
    private let state = Atomic<UInt8>(0)

    func isInRowidOrder(_ check: () -> Bool) -> Bool {
        switch state.load(ordering: .relaxed) {
        case 1: return true
        case 2: return false
        default:
            let ordered = check()
            state.store(ordered ? 1 : 2, ordering: .relaxed)
            return ordered
        }
    }
}

extension Segment {
    /// True when doc ids ascend with rowids, so the documents of a doc
    /// window are the segment's rowids in that stretch, in order: what
    /// lets the query language read its candidates a window at a time
    /// (``RankedDictionary/rowids(matching:columns:in:docs:)``).
    package var isInRowidOrder: Bool {
        rowidOrderMemo.isInRowidOrder {
            var previous = Int64.min
            for doc in 0..<documentCount {
                let rowid = rowid(doc)
                if rowid <= previous { return false }
                previous = rowid
            }
            return true
        }
    }
}

extension RankedDictionary {
    /// The rowids of one segment's live documents among `docs` that hold
    /// every term in one of `columns`, in doc order (ascending rowids in
    /// a segment ``Segment/isInRowidOrder``). Only the posting blocks that
    /// reach into the window are read: a query that wants its first
    /// matches reads the first blocks, not whole lists.
    ///
    /// ```swift
    /// let first = try RankedDictionary.rowids(matching: [.word("libs")], columns: bit, in: snapshot, docs: 0..<256)
    /// ```
    package static func rowids(matching terms: [TextTerm], columns: UInt8, in snapshot: SegmentSnapshot, docs: Range<Int>) throws -> [Int64] {
        try rowids(matching: terms, columns: columns, certainColumns: 0, in: snapshot, docs: docs).rowids
    }

    /// ``rowids(matching:columns:in:docs:)``, and the certain among them,
    /// as the same over every segment finds them.
    package static func rowids(matching terms: [TextTerm], columns: UInt8, certainColumns: UInt8, in snapshot: SegmentSnapshot,
                               docs: Range<Int>) throws -> (rowids: [Int64], certain: [Int64]) {
        var out: [Int64] = [], certain: [Int64] = []
        guard let found = try documents(matching: terms, columns: columns, certainColumns: certainColumns, in: snapshot, docs: docs) else {
            return (out, certain)
        }
        snapshot.appendLiveRowids(of: SegmentDocuments(bits: found.bits), docs: docs, to: &out)
        if let sure = found.certain { snapshot.appendLiveRowids(of: SegmentDocuments(bits: sure), docs: docs, to: &certain) }
        return (out, certain)
    }
}

/// Documents of one segment, found once and read a window at a time.
package struct SegmentDocuments {
    let bits: DocumentBitmap
}

extension RankedLookups {
    /// The documents of one segment with a value of `name` in `range`,
    /// deleted ones included; nil when there are none. A query reading
    /// windows builds this once and takes each window's part
    /// (``SegmentSnapshot/appendLiveRowids(of:docs:to:)``).
    package static func documents(named name: String, in range: NumberRange, snapshot: SegmentSnapshot) throws(SegmentError) -> SegmentDocuments? {
        let segment = snapshot.segment
        let values = try segment.numberValues(named: name, in: range)
        guard !values.isEmpty else { return nil }
        defer { segment.releaseNumbers(values) }
        var bits = DocumentBitmap(documentCount: segment.documentCount)
        for index in values {
            let doc = Int(segment.numberDoc(index))
            guard doc < segment.documentCount else { throw .corrupt("a typed value names document \(doc)") }
            bits.insert(doc)
        }
        return SegmentDocuments(bits: bits)
    }
}

extension SegmentSnapshot {
    /// Appends the rowids of the documents in `bits` within `docs` that
    /// are not deleted, in doc order.
    package func appendLiveRowids(of documents: SegmentDocuments, docs: Range<Int>, to out: inout [Int64]) {
        let bits = documents.bits
        let window = docs.clamped(to: 0..<min(segment.documentCount, bits.words.count << 6))
        guard !window.isEmpty else { return }
        for index in (window.lowerBound >> 6)...((window.upperBound - 1) >> 6) {
            var word = bits.words[index] & ~deleted.word(index)
            if index == window.lowerBound >> 6 { word &= ~0 << UInt64(window.lowerBound & 63) }
            if index == (window.upperBound - 1) >> 6, window.upperBound & 63 != 0 { word &= (1 << UInt64(window.upperBound & 63)) - 1 }
            while word != 0 {
                out.append(segment.rowid(index << 6 | word.trailingZeroBitCount))
                word &= word - 1
            }
        }
    }
}
