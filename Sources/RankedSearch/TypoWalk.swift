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
package enum TypoWalk {
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
        // Another first letter, or one left out: each first letter the dictionary has.
        var id = 0
        while id < segment.wordCount {   // words only, not the initials after them
            let bytes = try segment.term(id)
            guard let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first else { id += 1; continue }
            if scalar != word[0], !RankedQuery.isDigit(scalar) {
                try find([scalar] + word.dropFirst(), edits: 0)
                try find([scalar] + word, edits: 0)
            }
            let next = try segment.prefixEnd(UnsafeRawBufferPointer(rebasing: bytes[..<min(UTF8.width(scalar), bytes.count)]), from: id)
            id = max(id + 1, next)   // a damaged dictionary out of order still moves on
        }
        return out
    }

    /// The walk over the terms starting with the word's first scalar.
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
        // Digits are never edited (``RankedQuery/Typo/lockDigits``).
        let lock = typo.lockDigits
        @inline(__always) func isDigit(_ scalar: UInt32) -> Bool { scalar &- 0x30 < 10 }
        for i in 0...min(m, k) {
            if lock, i > 0, isDigit(word[i - 1]) { break }
            rows[i] = i
        }
        smallest[0] = 0
        letters.initialize(from: word, count: m)
        var pathCount = 0
        var out: [Range<Int>] = []

        var id = candidates.lowerBound
        while id < candidates.upperBound {
            let bytes = try segment.term(id)
            var count = 0
            var ascii = true
            for byte in bytes {
                if byte >= 0x80 { ascii = false; break }
                if count == maxDepth { break }
                scalars[count] = UInt32(byte)
                count += 1
            }
            if !ascii {
                count = 0
                for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
                    if count == maxDepth { break }
                    scalars[count] = scalar.value
                    count += 1
                }
            }
            var common = 0
            let shared = min(pathCount, count)
            while common < shared, path[common] == scalars[common] { common += 1 }
            pathCount = common

            // Extend the rows along this term until it matches, dies, ends
            // or takes a letter that cannot follow.
            enum Stop { case matchesAll, dies; case needs(UInt32?) }
            var stop: (depth: Int, reason: Stop)?
            var depth = common
            extend: while depth < count {
                let scalar = scalars[depth]
                let previous = depth * width, current = previous + width
                if smallest[depth] == k {
                    // Every edit is spent: the next letter must be the word's
                    // letter after a cell at the bound (cells |i − depth| ≤ k),
                    // or swap back two letters: the word's letter before one
                    // that the previous letter of the term was, from a cell
                    // of the row before under the bound.
                    var fits = false
                    var next = UInt32.max
                    var i = max(0, depth - k)
                    while i < min(m, depth + k + 1) {
                        if rows[previous + i] == k {
                            let letter = letters[i]
                            if letter == scalar { fits = true; break }
                            if letter > scalar, letter < next { next = letter }
                        }
                        i += 1
                    }
                    if !fits, depth >= 1 {
                        let before = previous - width, last = path[depth - 1]
                        var i = max(0, depth - 1 - k)
                        while i < min(m - 1, depth + k) {
                            if rows[before + i] < k, letters[i + 1] == last {
                                let letter = letters[i]
                                if letter == scalar { fits = true; break }
                                if letter > scalar, letter < next { next = letter }
                            }
                            i += 1
                        }
                    }
                    if !fits { stop = (depth, .needs(next == .max ? nil : next)); break extend }
                }
                let j = depth + 1
                let low = max(1, j - k), high = min(m, j + k)
                rows[current] = j <= k && !(lock && (0..<j).contains { isDigit($0 == depth ? scalar : path[$0]) }) ? j : outside
                if low > 1 { rows[current + low - 1] = outside }
                var least = rows[current]
                if low <= high {
                    // Wrapping arithmetic: values stay within 0...m + k + 1.
                    var left = rows[current &+ low &- 1], diagonal = rows[previous &+ low &- 1]
                    // Damerau (optimal string alignment): two adjacent
                    // letters swapped are one edit, from the row before the
                    // previous one (in the band, as |i − j| is unchanged).
                    let swapRow = depth >= 1 ? previous &- width : -1
                    let last = depth >= 1 ? path[depth &- 1] : UInt32.max
                    if lock {
                        // As below, but no edit inserts, deletes, replaces or swaps a digit.
                        let termDigit = isDigit(scalar)
                        for i in low...high {
                            let up = rows[previous &+ i]
                            let letter = letters[i &- 1]
                            let wordDigit = isDigit(letter)
                            let cost = letter == scalar ? 0 : (termDigit || wordDigit ? outside : 1)
                            var value = min(min(termDigit ? outside : up, wordDigit ? outside : left) &+ 1, diagonal &+ cost)
                            if swapRow >= 0, i >= 2, letter == last, letters[i &- 2] == scalar, letter != scalar, !termDigit, !wordDigit {
                                value = min(value, rows[swapRow &+ i &- 2] &+ 1)
                            }
                            value = min(value, outside)
                            rows[current &+ i] = value
                            least = min(least, value)
                            left = value
                            diagonal = up
                        }
                    } else {
                    for i in low...high {
                        let up = rows[previous &+ i]
                        let letter = letters[i &- 1]
                        let cost = letter == scalar ? 0 : 1
                        var value = min(min(up, left) &+ 1, diagonal &+ cost)
                        // (`letter == last` first: it is false for almost every cell.)
                        if letter == last, letter != scalar, i >= 2, swapRow >= 0, letters[i &- 2] == scalar {
                            value = min(value, rows[swapRow &+ i &- 2] &+ 1)
                        }
                        rows[current &+ i] = value
                        least = min(least, value)
                        left = value
                        diagonal = up
                    }
                    }
                }
                if high < m { rows[current + high + 1] = outside }
                smallest[j] = least
                path[depth] = scalar
                depth = j
                pathCount = j
                if typo.isPrefix, abs(m - j) <= k, rows[current + m] <= k { stop = (j, .matchesAll); break extend }
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
            var prefixLength = depth
            if !ascii {
                prefixLength = 0
                for index in 0..<depth { prefixLength += UTF8.width(Unicode.Scalar(scalars[index])!) }
            }
            // (Damaged bytes decode to replacement characters wider than
            // what they stand for: never past the term.)
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
                var length = prefix.count
                if length > 0 { UnsafeMutableRawPointer(key).copyMemory(from: prefix.baseAddress!, byteCount: length) }
                for byte in String(Unicode.Scalar(letter)!).utf8 { key[length] = byte; length += 1 }
                id = try segment.lowerBound(UnsafeRawBufferPointer(start: key, count: length), from: id + 1)
            }
        }
        return out
    }
}
