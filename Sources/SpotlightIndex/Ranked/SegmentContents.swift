import Foundation

/// One item as the ranked index sees it: its rowid, its tokens by column
/// and the signals of its static factor.
struct RankedDocument: Sendable {
    var rowid: Int64
    var expires: Double
    var hint: Double
    var recency: Double?
    var engagement: Double
    var engagedAt: Double
    var columns: TextColumns
}

/// A segment before encoding: documents in doc-id order, terms in byte
/// order, postings as flat arrays. Made from documents
/// (``init(documents:scoring:)``) or by merging segments (``SegmentMerger``).
struct SegmentContents {
    var rowids: [Int64] = []
    var expires: [Double] = []
    var hints: [Double] = []
    var recency: [Double] = []      // NaN: none
    var engagement: [Double] = []
    var engagedAt: [Double] = []
    var lengths: [UInt32] = []
    /// Term t is `termBytes[termStart[t]..<termStart[t+1]]`.
    var termStart: [Int] = [0]
    var termBytes: [UInt8] = []
    /// Term t's postings are `postingDocs[postingStart[t]..<postingStart[t+1]]` (ascending).
    var postingStart: [Int] = [0]
    var postingDocs: [UInt32] = []
    var postingFrequencies: [UInt32] = []
    /// The columns holding the token, a bit each (``SegmentFormat/columnBits``).
    var postingColumns: [UInt8] = []

    var documentCount: Int { rowids.count }
    var termCount: Int { termStart.count - 1 }

    init() {}

    /// Tokenized documents into a segment; documents are ordered by rowid.
    ///
    /// One pass interns tokens (``TokenTable``, no `String` per token) and
    /// sums each document's weighted frequencies in place (column weights
    /// in sixteenths); then term ids are renumbered in byte order and the
    /// postings laid out by counting.
    init(documents: [RankedDocument], scoring: RankedScoring) {
        let documents = documents.sorted { $0.rowid < $1.rowid }
        let w = scoring.weights
        let columnWeights = [w.titleWeight, w.keywordsWeight, w.descriptionWeight, w.otherTextWeight]
            .map { UInt32(max(0, min(4_096, ($0 * SegmentFormat.tfScale).rounded()))) }
        var table = TokenTable()
        var occurrenceStart: [Int] = [0]
        var occurrenceTerm: [Int32] = []
        var occurrenceFrequency: [UInt32] = []
        var occurrenceColumns: [UInt8] = []
        var lastDocument: [Int32] = []
        var slot: [Int32] = []
        occurrenceTerm.reserveCapacity(documents.count * 64)
        occurrenceFrequency.reserveCapacity(documents.count * 64)
        occurrenceColumns.reserveCapacity(documents.count * 64)
        for (doc, document) in documents.enumerated() {
            var length = 0
            let texts = [document.columns.title, document.columns.keywords, document.columns.description, document.columns.other]
            for (column, text) in texts.enumerated() where !text.isEmpty {
                let weight = columnWeights[column]
                let bit = UInt8(1) << UInt8(column)
                var text = text
                text.withUTF8 { bytes in
                    var index = 0
                    let count = bytes.count
                    while index < count {
                        while index < count && bytes[index] == 0x20 { index += 1 }
                        let start = index
                        while index < count && bytes[index] != 0x20 { index += 1 }
                        guard index > start else { continue }
                        length += 1
                        let id = table.intern(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                        if id == lastDocument.count {
                            lastDocument.append(-1)
                            slot.append(0)
                        }
                        if lastDocument[id] != Int32(doc) {
                            lastDocument[id] = Int32(doc)
                            slot[id] = Int32(occurrenceTerm.count)
                            occurrenceTerm.append(Int32(id))
                            occurrenceFrequency.append(0)
                            occurrenceColumns.append(0)
                        }
                        let at = Int(slot[id])
                        occurrenceColumns[at] |= bit
                        let (sum, overflow) = occurrenceFrequency[at].addingReportingOverflow(weight)
                        occurrenceFrequency[at] = overflow ? UInt32.max : sum
                    }
                }
            }
            occurrenceStart.append(occurrenceTerm.count)
            rowids.append(document.rowid)
            expires.append(document.expires)
            hints.append(document.hint)
            recency.append(document.recency ?? .nan)
            engagement.append(document.engagement)
            engagedAt.append(document.engagedAt)
            lengths.append(UInt32(min(length, Int(UInt32.max))))
        }
        // Term ids in byte order of the tokens.
        let order = table.sortedIDs()
        var rank = [Int32](repeating: 0, count: table.count)
        termBytes.reserveCapacity(table.byteCount)
        for (position, id) in order.enumerated() {
            rank[id] = Int32(position)
            table.appendBytes(of: id, to: &termBytes)
            termStart.append(termBytes.count)
        }
        // Postings by counting (documents in order, so each list ascends).
        var counts = [Int](repeating: 0, count: table.count + 1)
        for term in occurrenceTerm { counts[Int(rank[Int(term)]) + 1] += 1 }
        for index in 1..<counts.count { counts[index] += counts[index - 1] }
        postingStart = counts
        postingDocs = [UInt32](repeating: 0, count: occurrenceTerm.count)
        postingFrequencies = [UInt32](repeating: 0, count: occurrenceTerm.count)
        postingColumns = [UInt8](repeating: 0, count: occurrenceTerm.count)
        var fill = counts
        for doc in 0..<documents.count {
            for index in occurrenceStart[doc]..<occurrenceStart[doc + 1] {
                let term = Int(rank[Int(occurrenceTerm[index])])
                let at = fill[term]
                postingDocs[at] = UInt32(doc)
                postingFrequencies[at] = max(1, occurrenceFrequency[index])
                postingColumns[at] = occurrenceColumns[index]
                fill[term] = at + 1
            }
        }
    }
}

/// Interns tokens given as bytes: an open-addressing table over one
/// buffer holding every distinct token once.
struct TokenTable {
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]
    private var hashes: [UInt64] = []
    private var slots = [Int32](repeating: -1, count: 1_024)

    var count: Int { hashes.count }
    var byteCount: Int { bytes.count }

    /// The id of `token`, adding it if new (ids count up from 0).
    mutating func intern(_ token: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in token { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        var mask = slots.count - 1
        var position = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        while true {
            let id = Int(slots[position])
            if id < 0 { break }
            if hashes[id] == hash, equals(id, token) { return id }
            position = (position + 1) & mask
        }
        let id = hashes.count
        hashes.append(hash)
        bytes.append(contentsOf: token)
        starts.append(bytes.count)
        if hashes.count * 2 > slots.count {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            mask = slots.count - 1
            for (other, otherHash) in hashes.enumerated() {
                var at = Int(truncatingIfNeeded: otherHash ^ (otherHash >> 29)) & mask
                while slots[at] >= 0 { at = (at + 1) & mask }
                slots[at] = Int32(other)
            }
        } else {
            slots[position] = Int32(id)
        }
        return id
    }

    private func equals(_ id: Int, _ token: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = starts[id], end = starts[id + 1]
        guard end - start == token.count else { return false }
        return bytes.withUnsafeBufferPointer { all in
            token.isEmpty || memcmp(all.baseAddress! + start, token.baseAddress!, token.count) == 0
        }
    }

    /// Every id, ordered by the bytes of its token.
    func sortedIDs() -> [Int] {
        bytes.withUnsafeBufferPointer { all in
            (0..<count).sorted { a, b in
                let aStart = starts[a], aCount = starts[a + 1] - aStart
                let bStart = starts[b], bCount = starts[b + 1] - bStart
                let common = min(aCount, bCount)
                if common > 0 {
                    let order = memcmp(all.baseAddress! + aStart, all.baseAddress! + bStart, common)
                    if order != 0 { return order < 0 }
                }
                return aCount < bCount
            }
        }
    }

    func appendBytes(of id: Int, to out: inout [UInt8]) {
        out.append(contentsOf: bytes[starts[id]..<starts[id + 1]])
    }
}
