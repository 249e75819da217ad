import Foundation

/// What the ranked index looks for: terms that must all match, each one
/// or more whole tokens and at most one prefix; CJK phrases whose bigrams
/// are among the terms are checked on the item afterwards.
package struct RankedQuery: Sendable {
    struct Term: Sendable, Hashable {
        /// Whole tokens, any of which satisfies the term.
        var exact: [[UInt8]] = []
        /// A prefix: any token starting with it satisfies the term.
        var prefix: [UInt8]?
        /// Tokens a few edits away also satisfy the term (see ``allowingTypos()``).
        var typo: Typo?
    }

    /// A word typed, matched by tokens within `edits` edits (Damerau–
    /// Levenshtein: an insertion, a deletion, a substitution or a swap of
    /// two adjacent letters is one edit; over Unicode scalars, the first
    /// scalar kept); as a prefix, by tokens that start with something
    /// within `edits` edits of it.
    package struct Typo: Sendable, Hashable {
        var word: [Unicode.Scalar]
        var edits: Int
        var isPrefix: Bool
        /// No edit touches an ASCII digit (a word with digits: `pyhton3`
        /// finds `python3`, `batch4` never `batch5` or `batch14`).
        var lockDigits = false
        /// The first letter may be the typo too (``TypoWalk/firstLetterMatches(_:in:)``):
        /// tried only when the other typos find (almost) nothing.
        var firstLetter = false

        package init(word: [Unicode.Scalar], edits: Int, isPrefix: Bool, lockDigits: Bool = false, firstLetter: Bool = false) {
            self.word = word
            self.edits = edits
            self.isPrefix = isPrefix
            self.lockDigits = lockDigits
            self.firstLetter = firstLetter
        }
    }

    /// Words of this many letters or more get one typo…
    static let oneTypoLength = 4
    /// …and this many or more, two.
    static let twoTyposLength = 8

    var terms: [Term]
    /// Runs of CJK text longer than two characters: the item must hold
    /// each as one run (the terms hold their bigrams).
    package var phrases: [String]

    /// Positions in ``terms``, those without a typo first (each in its order).
    var termsTyposLast: [Int] {
        terms.indices.filter { terms[$0].typo == nil } + terms.indices.filter { terms[$0].typo != nil }
    }

    /// The terms a user typed (``TextTokenizer/queryTerms(_:)``).
    package init(_ queryTerms: [TextTokenizer.QueryTerm]) {
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

extension RankedQuery {
    /// The query again with each word of ``oneTypoLength`` letters or more
    /// also matching tokens one edit away (two from ``twoTyposLength``);
    /// nil when no word is that long. CJK runs never get typos, nor do
    /// digits (versions, codes: `batch4` is not a typo of `batch5`): in a
    /// word of letters and digits only the letters are counted and edited
    /// (`pyhton3` finds `python3`).
    /// - Parameter firstLetter: the first letter of a word may be wrong
    ///   too (``Typo/firstLetter``).
    package func allowingTypos(firstLetter: Bool = false) -> RankedQuery? {
        var copy = self
        var any = false
        for index in copy.terms.indices {
            let term = copy.terms[index]
            guard let word = term.prefix ?? term.exact.first else { continue }
            let scalars = Array(String(decoding: word, as: UTF8.self).unicodeScalars)
            guard !scalars.contains(where: { TextFolding.isCJK($0.value) }) else { continue }
            let letters = scalars.filter { !Self.isDigit($0) }.count
            guard letters >= Self.oneTypoLength else { continue }
            copy.terms[index].typo = Typo(word: scalars, edits: letters >= Self.twoTyposLength ? 2 : 1, isPrefix: term.prefix != nil,
                                          lockDigits: letters < scalars.count, firstLetter: firstLetter)
            any = true
        }
        return any ? copy : nil
    }

    /// A digit as typo walks lock them: ASCII only (other digits are rare
    /// in what is typed and walked like letters).
    @_spi(Inspection) public static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value &- 0x30 < 10 }
}

/// Damerau–Levenshtein distance (optimal string alignment) bounded by a
/// maximum, column by column over the candidate's scalars so that it stops
/// as soon as no prefix can come back under the bound: what ``TypoWalk``
/// computes along a dictionary, for one candidate.
@_spi(Inspection) public enum TypoDistance {
    /// Whether `candidate` (a prefix of it, for `isPrefix`) is within
    /// `maximum` edits of `word`.
    /// `lockDigits`: no edit inserts, deletes, replaces or swaps an ASCII digit.
    package static func matches(_ word: [Unicode.Scalar], _ candidate: some Sequence<Unicode.Scalar>, maximum: Int,
                        isPrefix: Bool, lockDigits: Bool = false, column: inout [Int], next: inout [Int]) -> Bool {
        let m = word.count
        let never = m + maximum + 2
        var before: [Int] = []
        var previous: Unicode.Scalar?
        func locked(_ scalar: Unicode.Scalar) -> Bool { lockDigits && RankedQuery.isDigit(scalar) }
        column.removeAll(keepingCapacity: true)
        column.append(0)
        for i in stride(from: 1, through: m, by: 1) { column.append(column[i - 1] >= never || locked(word[i - 1]) ? never : i) }
        if isPrefix && column[m] <= maximum { return true }
        var j = 0
        for scalar in candidate {
            j += 1
            next.removeAll(keepingCapacity: true)
            next.append(column[0] >= never || locked(scalar) ? never : j)
            var smallest = next[0]
            for i in 1...max(1, m) where m > 0 {
                let letter = word[i - 1]
                let cost = letter == scalar ? 0 : (locked(letter) || locked(scalar) ? never : 1)
                var value = min(locked(scalar) ? never : column[i] + 1, locked(letter) ? never : next[i - 1] + 1, column[i - 1] + cost)
                if i >= 2, let previous, !before.isEmpty, letter == previous, word[i - 2] == scalar, previous != scalar,
                   !locked(letter), !locked(scalar) {
                    value = min(value, before[i - 2] + 1)
                }
                value = min(value, never)
                next.append(value)
                smallest = min(smallest, value)
            }
            before = column
            swap(&column, &next)
            previous = scalar
            if isPrefix && column[m] <= maximum { return true }
            if smallest > maximum { return false }
        }
        return !isPrefix && column[m] <= maximum
    }
}

/// Documents of a segment that a later write replaced or deleted.
package struct DeletionSet: Sendable {
    private(set) var words: [UInt64]
    package private(set) var count: Int

    /// From any sequence of doc ids (copied to an array first: called from
    /// other modules, a generic loop is not specialized).
    package init(documentCount: Int, deleted: some Sequence<UInt32>) {
        self.init(documentCount: documentCount, deleted: Array(deleted))
    }

    package init(documentCount: Int, deleted: [UInt32]) {
        words = [UInt64](repeating: 0, count: (documentCount + 63) / 64)
        count = 0
        for doc in deleted where Int(doc) < documentCount {
            let (word, bit) = (Int(doc) / 64, UInt64(1) << UInt64(doc % 64))
            if words[word] & bit == 0 { words[word] |= bit; count += 1 }
        }
    }

    @inline(__always)
    package func contains(_ doc: Int) -> Bool { words[doc / 64] & (UInt64(1) << UInt64(doc % 64)) != 0 }

    /// The deleted documents among `64 × index ..< 64 × (index + 1)`, one bit each
    /// (0 past the end).
    @inline(__always)
    package func word(_ index: Int) -> UInt64 { index < words.count ? words[index] : 0 }

    /// The deleted doc ids, ascending.
    package var documents: [UInt32] {
        var out: [UInt32] = []
        for (index, word) in words.enumerated() where word != 0 {
            for bit in 0..<64 where word & (UInt64(1) << UInt64(bit)) != 0 { out.append(UInt32(index * 64 + bit)) }
        }
        return out
    }

    /// Packs doc ids as varint deltas, for the `ranked_segments.deleted` column.
    package static func encode(_ docs: [UInt32]) -> [UInt8] {
        var writer = ByteWriter()
        var previous: UInt32 = 0
        for doc in docs.sorted() {
            writer.appendVarint(UInt64(doc - previous))
            previous = doc
        }
        return writer.bytes
    }

    package static func decode(_ bytes: [UInt8]) throws(SegmentError) -> [UInt32] {
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
