import Foundation

/// The words of a snapshot's segment dictionaries: what infix wildcards
/// (`*brar*` → `library`, `libraries`) and completions read, instead of a
/// separate vocabulary written beside the items.
///
/// ```swift
/// let words = try RankedDictionary.words(containing: "brar", limit: 128, in: segments)
/// ```
package enum RankedDictionary {
    /// The distinct words containing `fragment` (already folded), sorted;
    /// nil when there are more than `limit`. A word whose every document
    /// was deleted may still be listed until a merge drops it.
    package static func words(containing fragment: String, limit: Int, in segments: [SegmentSnapshot]) throws -> [String]? {
        let needle = Array(fragment.utf8)
        var found = Set<String>()
        for snapshot in segments {
            for id in try snapshot.segment.terms(containing: needle, limit: limit + 1) {
                found.insert(String(decoding: try snapshot.segment.term(id), as: UTF8.self))
                if found.count > limit { return nil }
            }
        }
        return found.sorted()
    }

    /// The distinct words starting with `prefix` (already folded), sorted.
    package static func words(startingWith prefix: String, in segments: [SegmentSnapshot]) throws -> [String] {
        let key = Array(prefix.utf8)
        var found = Set<String>()
        for snapshot in segments {
            for id in try snapshot.segment.terms(matching: key, prefix: true) {
                found.insert(String(decoding: try snapshot.segment.term(id), as: UTF8.self))
            }
        }
        return found.sorted()
    }

    /// How many documents hold `word` that are neither deleted nor expired at `now`.
    package static func liveDocuments(holding word: String, now: Double, in segments: [SegmentSnapshot]) throws -> Int {
        let key = Array(word.utf8)
        var count = 0
        let buffers = BlockBuffers()
        for snapshot in segments {
            let segment = snapshot.segment
            for id in try segment.terms(matching: key, prefix: false) {
                for block in try segment.blocks(of: id) {
                    for index in 0..<(try segment.unpackDocs(block, into: buffers)) {
                        let doc = Int(buffers.docs[index])
                        if !snapshot.deleted.contains(doc) && segment.expires(doc) > now { count += 1 }
                    }
                }
            }
        }
        return count
    }
}

extension RankedDictionary {
    /// The rowids of the live documents holding every term in one of
    /// `columns` (bits of ``TextColumns/bit(of:)``), ascending: the
    /// query language's candidates. Each segment answers with a bitmap per
    /// term (its postings whose column bits meet `columns`), and'ed, less
    /// its deleted documents. Expiry is not checked here.
    package static func rowids(matching terms: [TextTerm], columns: UInt8, in segments: [SegmentSnapshot]) throws -> [Int64] {
        try rowids(matching: terms, columns: columns, certainColumns: 0, in: segments).rowids
    }

    /// ``rowids(matching:columns:in:)``, and among them the certain: those
    /// holding the one term in one of `certainColumns` where the column is
    /// plain (``Segment/plainColumns(_:)``), both ascending. The caller
    /// asks for certain columns only where a token there containing the
    /// term means the attribute matches (``TextColumns/primaryAttributes``;
    /// a `*fragment*` of ASCII letters and digits compared with `c`).
    ///
    /// ```swift
    /// let (rowids, certain) = try RankedDictionary.rowids(matching: [.anyOf(words)], columns: 1, certainColumns: 1, in: segments)
    /// ```
    package static func rowids(matching terms: [TextTerm], columns: UInt8, certainColumns: UInt8,
                               in segments: [SegmentSnapshot]) throws -> (rowids: [Int64], certain: [Int64]) {
        var out: [Int64] = [], certain: [Int64] = []
        for snapshot in segments {
            let all = 0..<snapshot.segment.documentCount
            guard let result = try documents(matching: terms, columns: columns, certainColumns: certainColumns, in: snapshot, docs: all) else { continue }
            snapshot.appendLiveRowids(of: result.bits, to: &out)
            if let sure = result.certain { snapshot.appendLiveRowids(of: sure, to: &certain) }
        }
        out.sort()
        certain.sort()
        return (out, certain)
    }

    /// A segment's documents holding a query's terms, and the certain among them.
    struct Found {
        var bits: DocumentBitmap
        /// Nil unless certain columns were asked for, with one term.
        var certain: DocumentBitmap?
    }

    /// The documents of one segment, among `window`, holding every term in
    /// one of `columns`, deleted ones included; nil when none can. Blocks
    /// wholly outside the window are not read.
    static func documents(matching terms: [TextTerm], columns: UInt8, in snapshot: SegmentSnapshot, docs window: Range<Int>) throws -> DocumentBitmap? {
        try documents(matching: terms, columns: columns, certainColumns: 0, in: snapshot, docs: window)?.bits
    }

    /// ``documents(matching:columns:in:docs:)``, and with one term and
    /// `certainColumns`, the documents holding it in one of those columns
    /// where the column is plain (``Segment/plainColumns(_:)``).
    static func documents(matching terms: [TextTerm], columns: UInt8, certainColumns: UInt8, in snapshot: SegmentSnapshot,
                          docs window: Range<Int>) throws -> Found? {
        let segment = snapshot.segment
        let certainColumns = terms.count == 1 ? certainColumns & columns : 0
        var docs: [UInt32] = [], frequencies: [UInt32] = [], bits: [UInt8] = []
        // The rarest terms first: the conjunction empties soonest.
        var resolved: [(ids: [Range<Int>], postings: Int)] = []
        for term in terms {
            var ids: [Range<Int>] = []
            switch term {
            case .word(let word): ids = [try segment.terms(matching: Array(word.utf8), prefix: false)]
            case .prefix(let prefix): ids = [try segment.terms(matching: Array(prefix.utf8), prefix: true)]
            case .anyOf(let words): ids = try segment.terms(matchingAnyOf: words).map { $0..<($0 + 1) }
            }
            let postings = ids.reduce(0) { sum, range in range.reduce(sum) { $0 + segment.termDocumentCount($1) } }
            resolved.append((ids, postings))
        }
        if resolved.contains(where: { $0.postings == 0 }) { return nil }
        resolved.sort { $0.postings < $1.postings }
        let whole = window.lowerBound <= 0 && window.upperBound >= segment.documentCount
        var result: DocumentBitmap?
        // Sized to the window's end: the first windows of a large segment stay small.
        var termBits = DocumentBitmap(documentCount: whole ? segment.documentCount : min(window.upperBound, segment.documentCount))
        var certain = certainColumns == 0 ? nil : Optional(termBits)
        for (ids, _) in resolved {
            for index in termBits.words.indices { termBits.words[index] = 0 }
            for range in ids {
                for id in range {
                    // A block holding no document still a candidate, or none
                    // of the window, is not read.
                    let blocks = try segment.blocks(of: id)
                    for block in blocks {
                        if !whole {
                            if Int(segment.blockLastDoc(block)) < window.lowerBound { continue }
                            if Int(segment.blockFirstDoc(block, of: blocks)) >= window.upperBound { break }
                        }
                        guard segment.block(block, of: blocks, mayHoldAnyOf: result) else { continue }
                        try segment.decodeBlock(block, docs: &docs, frequencies: &frequencies, columns: &bits)
                        for index in docs.indices where bits[index] & columns != 0 {
                            let doc = Int(docs[index])
                            guard whole || window.contains(doc) else { continue }
                            termBits.insert(doc)
                            if certainColumns != 0, bits[index] & certainColumns & segment.plainColumns(doc) != 0 { certain?.insert(doc) }
                        }
                    }
                }
            }
            if var current = result {
                var any: UInt64 = 0
                for index in current.words.indices { current.words[index] &= termBits.words[index]; any |= current.words[index] }
                result = current
                if any == 0 { return nil }
            } else {
                result = termBits
            }
        }
        return result.map { Found(bits: $0, certain: certain) }
    }
}
