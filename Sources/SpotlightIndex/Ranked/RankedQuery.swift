import Foundation

/// What the ranked index looks for: terms that must all match, each one
/// or more whole tokens and at most one prefix; CJK phrases whose bigrams
/// are among the terms are checked on the item afterwards.
struct RankedQuery: Sendable {
    struct Term: Sendable, Hashable {
        /// Whole tokens, any of which satisfies the term.
        var exact: [[UInt8]] = []
        /// A prefix: any token starting with it satisfies the term.
        var prefix: [UInt8]?
    }

    var terms: [Term]
    /// Runs of CJK text longer than two characters: the item must hold
    /// each as one run (the terms hold their bigrams).
    var phrases: [String]

    /// The terms a user typed (``TextTokenizer/queryTerms(_:)``).
    init(_ queryTerms: [TextTokenizer.QueryTerm]) {
        terms = []
        phrases = []
        for term in queryTerms {
            if term.tokens.count > 1 {
                for bigram in term.tokens { terms.append(Term(exact: [Array(bigram.utf8)])) }
                var run = term.tokens[0]
                for bigram in term.tokens.dropFirst() { run.unicodeScalars.append(bigram.unicodeScalars.last!) }
                phrases.append(run)
            } else if let token = term.tokens.first {
                var ranked = Term(exact: term.alternatives.map { Array($0.utf8) })
                if term.isPrefix { ranked.prefix = Array(token.utf8) } else { ranked.exact.insert(Array(token.utf8), at: 0) }
                terms.append(ranked)
            }
        }
    }
}

/// Documents of a segment that a later write replaced or deleted.
struct DeletionSet: Sendable {
    private(set) var words: [UInt64]
    private(set) var count: Int

    init(documentCount: Int, deleted: some Sequence<UInt32>) {
        words = [UInt64](repeating: 0, count: (documentCount + 63) / 64)
        count = 0
        for doc in deleted where Int(doc) < documentCount {
            let (word, bit) = (Int(doc) / 64, UInt64(1) << UInt64(doc % 64))
            if words[word] & bit == 0 { words[word] |= bit; count += 1 }
        }
    }

    @inline(__always)
    func contains(_ doc: Int) -> Bool { words[doc / 64] & (UInt64(1) << UInt64(doc % 64)) != 0 }

    /// The deleted doc ids, ascending.
    var documents: [UInt32] {
        var out: [UInt32] = []
        for (index, word) in words.enumerated() where word != 0 {
            for bit in 0..<64 where word & (UInt64(1) << UInt64(bit)) != 0 { out.append(UInt32(index * 64 + bit)) }
        }
        return out
    }

    /// Packs doc ids as varint deltas, for the `ranked_segments.deleted` column.
    static func encode(_ docs: [UInt32]) -> [UInt8] {
        var writer = ByteWriter()
        var previous: UInt32 = 0
        for doc in docs.sorted() {
            writer.appendVarint(UInt64(doc - previous))
            previous = doc
        }
        return writer.bytes
    }

    static func decode(_ bytes: [UInt8]) throws(SegmentError) -> [UInt32] {
        var out: [UInt32] = []
        var failure: SegmentError?
        bytes.withUnsafeBytes { raw in
            var reader = VarintReader(base: raw, position: 0, end: raw.count)
            var doc: UInt64 = 0
            while !reader.isAtEnd {
                do { doc &+= try reader.next() } catch { failure = (error as? SegmentError) ?? .corrupt("\(error)"); return }
                guard doc <= UInt64(UInt32.max) else { failure = .corrupt("a deleted document out of range"); return }
                out.append(UInt32(doc))
            }
        }
        if let failure { throw failure }
        return out
    }
}
