/// A set of a segment's doc ids as bits (64 a word): what conjunctions
/// and candidate checks build when many documents are involved.
///
/// ```swift
/// var bits = DocumentBitmap(documentCount: segment.documentCount)
/// bits.insert(7)
/// bits.isEmpty(from: 0, through: 127)   // false
/// ```
@_spi(Inspection) public struct DocumentBitmap {
    var words: [UInt64]

    package init(documentCount: Int) {
        words = [UInt64](repeating: 0, count: (documentCount + 63) / 64)
    }

    @inline(__always)
    package mutating func insert(_ doc: Int) { words[doc >> 6] |= 1 << UInt64(doc & 63) }

    @inline(__always)
    package func contains(_ doc: Int) -> Bool { words[doc >> 6] & (1 << UInt64(doc & 63)) != 0 }

    /// True when no document from `first` through `last` is in the set (a
    /// block's documents, after the previous block's last): its postings
    /// need not be read.
    package func isEmpty(from first: Int, through last: Int) -> Bool {
        guard first <= last, first >= 0, last >> 6 < words.count else { return false }
        for index in (first >> 6)...(last >> 6) {
            var word = words[index]
            if index == first >> 6 { word &= ~0 << UInt64(first & 63) }
            if index == last >> 6, last & 63 < 63 { word &= (1 << UInt64(last & 63 + 1)) - 1 }
            if word != 0 { return false }
        }
        return true
    }
}
