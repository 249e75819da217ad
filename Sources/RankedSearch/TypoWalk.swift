import Foundation

/// Finds a segment's tokens within a typo's edits of its word by walking
/// the sorted dictionary as a trie: terms that share a prefix with the
/// previous one reuse its edit-distance rows (Damerau–Levenshtein as
/// optimal string alignment: insertions, deletions, substitutions and
/// swaps of two adjacent letters, each one edit), and once no continuation of a
/// prefix can come back under the bound (or, for a prefix typo, every
/// continuation matches) the walk jumps past all terms with that prefix by
/// galloping search. Once a row has spent every edit (no cell below the
/// bound), only a letter of the word can follow, where a cell sits at the
/// bound (or the letter a swap brings back): the walk seeks the next such letter among a prefix's children
/// instead of visiting each child (after `la`, `library` with one edit
/// wants `lai…` or `lab…`, not the 20-odd `la?` the dictionary holds).
/// The cost grows with the prefixes near the word, not with the
/// dictionary.
///
/// A walk runs in every segment for every long word of a query, so it is
/// kept lean: rows are computed only in the band of cells within `edits`
/// of the diagonal (a cell further away is more than `edits` anyway), in
/// one flat buffer, along the first scalars of each term that can matter.
///
/// ```swift
/// let ids = try TypoWalk.matches(typo, in: segment)   // ranges of term ids
/// ```
@_spi(Inspection) public enum TypoWalk {
    package static func matches(_ typo: RankedQuery.Typo, in segment: Segment) throws(SegmentError) -> [Range<Int>] {
        guard typo.firstLetter else { return try walk(typo, in: segment) }
        return try walk(typo, in: segment) + firstLetterMatches(typo, in: segment)
    }

    /// Tokens whose first letter is the typo: the first two letters
    /// swapped or a letter typed before the first (the rest within the
    /// edits left), a first letter typed wrong or left out (the rest exact:
    /// one lookup per first letter the dictionary holds, so no walk runs
    /// per letter). Digits are never the edited letter.
    package static func firstLetterMatches(_ typo: RankedQuery.Typo, in segment: Segment) throws(SegmentError) -> [Range<Int>] {
        let word = typo.word
        guard word.count >= 2, !RankedQuery.isDigit(word[0]) else { return [] }
        var out: [Range<Int>] = []
        var rest = typo
        rest.firstLetter = false
        rest.edits = typo.edits - 1
        func find(_ scalars: [Unicode.Scalar], edits: Int) throws(SegmentError) {
            if edits > 0 {
                var variant = rest
                variant.word = scalars
                variant.edits = edits
                out += try walk(variant, in: segment)
            } else {
                out.append(try segment.terms(matching: Array(String(String.UnicodeScalarView(scalars)).utf8), prefix: typo.isPrefix))
            }
        }
        // Swapped: `yphton` is `python`; an extra first letter: `ypython`.
        if word[1] != word[0] { try find([word[1], word[0]] + word.dropFirst(2), edits: rest.edits) }
        try find(Array(word.dropFirst()), edits: rest.edits)
        // Another first letter, or one left out: each first letter the
        // dictionary has, looked up as bytes (the letter's, then the
        // word's or all but its first letter's), not as scalars made into
        // a string per lookup: at 10,000 items that was a third of a
        // typo's cost, and typos are looked for in most multi-word searches there.
        let wordBytes = Array(String(String.UnicodeScalarView(word)).utf8)
        let restBytes = Array(String(String.UnicodeScalarView(word.dropFirst())).utf8)
        var key: [UInt8] = []
        key.reserveCapacity(wordBytes.count + 4)
        func findAfter(_ scalar: Unicode.Scalar, _ bytes: [UInt8]) throws(SegmentError) {
            key.removeAll(keepingCapacity: true)
            UTF8.encode(scalar) { key.append($0) }
            key.append(contentsOf: bytes)
            out.append(try segment.terms(matching: key, prefix: typo.isPrefix))
        }
        var id = 0
        while id < segment.wordCount {   // words only, not the initials after them
            let bytes = try segment.term(id)
            guard let scalar = firstScalar(of: bytes) else { id += 1; continue }
            if scalar != word[0], !RankedQuery.isDigit(scalar) {
                try findAfter(scalar, restBytes)
                try findAfter(scalar, wordBytes)
            }
            let next = try segment.prefixEnd(UnsafeRawBufferPointer(rebasing: bytes[..<min(UTF8.width(scalar), bytes.count)]), from: id)
            id = max(id + 1, next)   // a damaged dictionary out of order still moves on
        }
        return out
    }

    /// The first scalar of UTF-8 `bytes` as `String(decoding:as:)` reads
    /// it (U+FFFD for a damaged sequence), without decoding the rest.
    @_spi(Inspection) public static func firstScalar(of bytes: UnsafeRawBufferPointer) -> Unicode.Scalar? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar): return scalar
        case .error: return "\u{FFFD}"
        case .emptyInput: return nil
        }
    }

    /// The walk over the terms starting with the word's first scalar, in
    /// dictionary order: each term extends the rows of the path it shares
    /// with the previous term (``fillRow(_:previous:scalar:last:depth:in:)``)
    /// until it matches, dies or needs a letter it does not have
    /// (``letterAfterSpentEdits(_:previous:depth:last:in:)``); then the walk
    /// jumps past every term sharing that prefix, or to the first that goes
    /// on with the letter needed.
    ///
    /// The steps are static functions inlined into this loop, taking the
    /// buffers as arguments: behind a type owning them (tried as
    /// `TypoRows`), a write through the rows' pointer could alias the
    /// type's fields, the optimizer reloaded them for every cell, and word
    /// p99 at 1M was 1.3× slower.
    static func walk(_ typo: RankedQuery.Typo, in segment: Segment) throws(SegmentError) -> [Range<Int>] {
        guard let first = typo.word.first else { return [] }
        let word = typo.word.map(\.value)
        let m = word.count, k = typo.edits, width = m + 1
        let outside = k + 1
        // Past this many scalars every cell is more than k: the row is dead.
        let maxDepth = m + k + 1
        let candidates = try segment.terms(matching: Array(String(first).utf8), prefix: true)

        // rows[d * width ..< (d + 1) * width]: the Levenshtein row after the
        // first d scalars of `path`; only the band |i − d| ≤ k is valid,
        // with `outside` just beyond it.
        let rows = UnsafeMutablePointer<Int>.allocate(capacity: (maxDepth + 1) * width)
        // The scalars the rows were computed along, and the current term's
        // first scalars (at most maxDepth of them).
        let path = UnsafeMutablePointer<UInt32>.allocate(capacity: maxDepth)
        let scalars = UnsafeMutablePointer<UInt32>.allocate(capacity: maxDepth)
        // The typed word's scalars.
        let letters = UnsafeMutablePointer<UInt32>.allocate(capacity: m)
        // The smallest cell of each row.
        let smallest = UnsafeMutablePointer<Int>.allocate(capacity: maxDepth + 1)
        // A prefix's bytes and the letter sought after it.
        let key = UnsafeMutablePointer<UInt8>.allocate(capacity: 4 * (maxDepth + 1))
        defer {
            rows.deallocate()
            path.deallocate()
            scalars.deallocate()
            letters.deallocate()
            smallest.deallocate()
            key.deallocate()
        }
        rows.initialize(repeating: outside, count: (maxDepth + 1) * width)
        letters.initialize(from: word, count: m)
        let band = Band(letters: letters, m: m, k: k, lock: typo.lockDigits)
        for i in 0...min(m, k) {
            // Digits are never edited (``RankedQuery/Typo/lockDigits``).
            if band.lock, i > 0, Band.isDigit(word[i - 1]) { break }
            rows[i] = i
        }
        smallest[0] = 0
        var pathCount = 0
        var out: [Range<Int>] = []

        var id = candidates.lowerBound
        while id < candidates.upperBound {
            let bytes = try segment.term(id)
            let (count, ascii) = leadingScalars(of: bytes, into: scalars, limit: maxDepth)
            var common = 0
            let shared = min(pathCount, count)
            while common < shared, path[common] == scalars[common] { common += 1 }
            pathCount = common

            // Extend the rows along this term until it matches, dies, ends
            // or takes a letter that cannot follow.
            var stop: (depth: Int, reason: Stop)?
            var depth = common
            extend: while depth < count {
                let scalar = scalars[depth]
                let previous = rows + depth * width, current = previous + width
                let last = depth >= 1 ? path[depth - 1] : UInt32.max
                if smallest[depth] == k {
                    let (fits, next) = letterAfterSpentEdits(scalar, previous: previous, depth: depth, last: last, in: band)
                    if !fits { stop = (depth, .needs(next == .max ? nil : next)); break extend }
                }
                // The row of the term's first j scalars.
                let j = depth + 1
                let headFits = j <= k && !(band.lock && (0..<j).contains { Band.isDigit($0 == depth ? scalar : path[$0]) })
                current[0] = headFits ? j : outside
                let least = fillRow(current, previous: previous, scalar: scalar, last: last, depth: depth, in: band)
                smallest[j] = least
                path[depth] = scalar
                depth = j
                pathCount = j
                if typo.isPrefix, abs(m - j) <= k, current[m] <= k { stop = (j, .matchesAll); break extend }
                if least > k { stop = (j, .dies); break extend }
            }
            guard let (depth, reason) = stop else {
                // The term ended alive (one cut at maxDepth scalars always dies first).
                if !typo.isPrefix, abs(m - count) <= k, rows[count * width + m] <= k { out.append(id..<(id + 1)) }
                id += 1
                continue
            }
            // The bytes of the term's first `depth` scalars: every term
            // starting with them matches, or none does, or (`needs`) only
            // those going on with a letter not below the one sought.
            // (Damaged bytes decode to replacement characters wider than
            // what they stand for: never past the term.)
            let prefixLength = ascii ? depth : (0..<depth).reduce(0) { $0 + UTF8.width(Unicode.Scalar(scalars[$1])!) }
            let prefix = UnsafeRawBufferPointer(rebasing: bytes[..<min(prefixLength, bytes.count)])
            switch reason {
            case .matchesAll:
                // (Each jump moves on by one term at least, even over a damaged dictionary.)
                let end = max(id + 1, try segment.prefixEnd(prefix, from: id))
                out.append(id..<end)
                id = end
            case .dies, .needs(nil):
                id = max(id + 1, try segment.prefixEnd(prefix, from: id))
            case .needs(let letter?):
                let length = seekKey(prefix, then: letter, into: key)
                id = try segment.lowerBound(UnsafeRawBufferPointer(start: key, count: length), from: id + 1)
            }
        }
        return out
    }

    /// Why extending the rows along a term stopped before its end.
    private enum Stop {
        /// The term's first scalars are within the edits of the whole word, as a prefix.
        case matchesAll
        /// Every cell is over the edits: no term with this prefix matches.
        case dies
        /// Every edit is spent: only a term going on with this letter (or
        /// one above it; nil: none) can match.
        case needs(UInt32?)
    }

    /// The typed word and its edits, as the row steps read them.
    private struct Band {
        /// The word's scalars (`m` of them).
        let letters: UnsafePointer<UInt32>
        let m: Int
        /// The edits allowed; a cell above is `outside`.
        let k: Int
        var outside: Int { k + 1 }
        /// Whether digits are locked (``RankedQuery/Typo/lockDigits``).
        let lock: Bool

        init(letters: UnsafeMutablePointer<UInt32>, m: Int, k: Int, lock: Bool) {
            self.letters = UnsafePointer(letters)
            self.m = m
            self.k = k
            self.lock = lock
        }

        @inline(__always) static func isDigit(_ scalar: UInt32) -> Bool { scalar &- 0x30 < 10 }
    }

    /// Copies the first scalars of a term (at most `limit`) into `scalars`:
    /// byte by byte while they are ASCII, else decoded. Returns how many,
    /// and whether the term is ASCII (a scalar is then a byte).
    @inline(__always)
    private static func leadingScalars(of bytes: UnsafeRawBufferPointer, into scalars: UnsafeMutablePointer<UInt32>, limit: Int) -> (count: Int, ascii: Bool) {
        var count = 0
        for byte in bytes {
            if byte >= 0x80 { break }
            if count == limit { return (count, true) }
            scalars[count] = UInt32(byte)
            count += 1
        }
        if count == bytes.count { return (count, true) }
        count = 0
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if count == limit { break }
            scalars[count] = scalar.value
            count += 1
        }
        return (count, false)
    }

    /// When every edit is spent (no cell of the row `previous` under the
    /// bound), the next letter must be the word's letter after a cell at
    /// the bound (cells |i − depth| ≤ k), or swap back two letters: the
    /// word's letter before one that the term's previous letter `last`
    /// was, from a cell of the row before under the bound. Returns whether
    /// `scalar` is such a letter, and otherwise the least such letter above
    /// it (`UInt32.max`: none).
    @inline(__always)
    private static func letterAfterSpentEdits(_ scalar: UInt32, previous: UnsafeMutablePointer<Int>, depth: Int, last: UInt32, in band: Band) -> (fits: Bool, next: UInt32) {
        let k = band.k, m = band.m, letters = band.letters
        var next = UInt32.max
        var i = max(0, depth - k)
        while i < min(m, depth + k + 1) {
            if previous[i] == k {
                let letter = letters[i]
                if letter == scalar { return (true, next) }
                if letter > scalar, letter < next { next = letter }
            }
            i += 1
        }
        guard depth >= 1 else { return (false, next) }
        let before = previous - (m + 1)
        i = max(0, depth - 1 - k)
        while i < min(m - 1, depth + k) {
            if before[i] < k, letters[i + 1] == last {
                let letter = letters[i]
                if letter == scalar { return (true, next) }
                if letter > scalar, letter < next { next = letter }
            }
            i += 1
        }
        return (false, next)
    }

    /// Fills the band of row `current` (the term's first `depth` + 1
    /// scalars, `scalar` the last of them, `current[0]` already set) from
    /// the row `previous` and, for a swap, the one before it; cells just
    /// outside the band are `outside`. Returns the row's smallest cell.
    @inline(__always)
    private static func fillRow(_ current: UnsafeMutablePointer<Int>, previous: UnsafeMutablePointer<Int>, scalar: UInt32, last: UInt32, depth: Int, in band: Band) -> Int {
        let k = band.k, m = band.m, outside = band.outside, letters = band.letters
        let j = depth + 1
        let low = max(1, j - k), high = min(m, j + k)
        if low > 1 { current[low - 1] = outside }
        var least = current[0]
        if low <= high {
            // Wrapping arithmetic: values stay within 0...m + k + 1.
            var left = current[low &- 1], diagonal = previous[low &- 1]
            // Damerau (optimal string alignment): two adjacent letters
            // swapped are one edit, from the row before the previous one
            // (in the band, as |i − j| is unchanged).
            let canSwap = depth >= 1
            let swapRow = canSwap ? previous - (m + 1) : previous
            if band.lock {
                // As below, but no edit inserts, deletes, replaces or swaps a digit.
                let termDigit = Band.isDigit(scalar)
                for i in low...high {
                    let up = previous[i]
                    let letter = letters[i &- 1]
                    let wordDigit = Band.isDigit(letter)
                    let cost = letter == scalar ? 0 : (termDigit || wordDigit ? outside : 1)
                    var value = min(min(termDigit ? outside : up, wordDigit ? outside : left) &+ 1, diagonal &+ cost)
                    if canSwap, i >= 2, letter == last, letters[i &- 2] == scalar, letter != scalar, !termDigit, !wordDigit {
                        value = min(value, swapRow[i &- 2] &+ 1)
                    }
                    value = min(value, outside)
                    current[i] = value
                    least = min(least, value)
                    left = value
                    diagonal = up
                }
            } else {
                for i in low...high {
                    let up = previous[i]
                    let letter = letters[i &- 1]
                    let cost = letter == scalar ? 0 : 1
                    var value = min(min(up, left) &+ 1, diagonal &+ cost)
                    // (`letter == last` first: it is false for almost every cell.)
                    if letter == last, letter != scalar, i >= 2, canSwap, letters[i &- 2] == scalar {
                        value = min(value, swapRow[i &- 2] &+ 1)
                    }
                    current[i] = value
                    least = min(least, value)
                    left = value
                    diagonal = up
                }
            }
        }
        if high < m { current[high + 1] = outside }
        return least
    }

    /// Writes `prefix` and then `letter`'s UTF-8 into `key`; returns the length.
    @inline(__always)
    private static func seekKey(_ prefix: UnsafeRawBufferPointer, then letter: UInt32, into key: UnsafeMutablePointer<UInt8>) -> Int {
        var length = prefix.count
        if length > 0 { UnsafeMutableRawPointer(key).copyMemory(from: prefix.baseAddress!, byteCount: length) }
        for byte in String(Unicode.Scalar(letter)!).utf8 { key[length] = byte; length += 1 }
        return length
    }
}
