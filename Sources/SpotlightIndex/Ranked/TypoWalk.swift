import Foundation

/// Finds a segment's tokens within a typo's edits of its word by walking
/// the sorted dictionary as a trie: terms that share a prefix with the
/// previous one reuse its Levenshtein rows, and once no continuation of a
/// prefix can come back under the bound (or, for a prefix typo, every
/// continuation matches) the walk jumps past all terms with that prefix by
/// binary search. The cost grows with the prefixes near the word, not
/// with the dictionary.
///
/// ```swift
/// let ids = try TypoWalk.matches(typo, in: segment)   // ranges of term ids
/// ```
enum TypoWalk {
    static func matches(_ typo: RankedQuery.Typo, in segment: Segment) throws(SegmentError) -> [Range<Int>] {
        guard let first = typo.word.first else { return [] }
        let word = typo.word, m = word.count, maximum = typo.edits, width = m + 1
        let candidates = try segment.terms(matching: Array(String(first).utf8), prefix: true)

        // rows[d * width ..< (d + 1) * width]: the Levenshtein row after the
        // first d scalars of `path`.
        var rows = Array(0...m)
        var path: [Unicode.Scalar] = []
        var scalars: [Unicode.Scalar] = []
        var out: [Range<Int>] = []
        var id = candidates.lowerBound
        while id < candidates.upperBound {
            let bytes = try segment.term(id)
            scalars.removeAll(keepingCapacity: true)
            if bytes.allSatisfy({ $0 < 0x80 }) {
                for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
            } else {
                scalars.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars)
            }
            var common = 0
            let shared = min(path.count, scalars.count)
            while common < shared, path[common] == scalars[common] { common += 1 }
            path.removeLast(path.count - common)
            rows.removeLast(rows.count - (common + 1) * width)

            // Extend the rows along this term until it matches, dies or ends.
            var stop: (depth: Int, matchesAll: Bool)?
            var depth = common
            while depth < scalars.count {
                let scalar = scalars[depth]
                let previous = depth * width
                rows.append(depth + 1)
                var smallest = depth + 1
                for i in 1...m {
                    let cost = word[i - 1] == scalar ? 0 : 1
                    let value = min(rows[previous + i] + 1, rows[previous + width + i - 1] + 1, rows[previous + i - 1] + cost)
                    rows.append(value)
                    smallest = min(smallest, value)
                }
                path.append(scalar)
                depth += 1
                if typo.isPrefix, rows[depth * width + m] <= maximum { stop = (depth, true); break }
                if smallest > maximum { stop = (depth, false); break }
            }
            guard let (depth, matchesAll) = stop else {
                if !typo.isPrefix, rows[scalars.count * width + m] <= maximum { out.append(id..<(id + 1)) }
                id += 1
                continue
            }
            // Every term starting with the first `depth` scalars matches, or none does.
            var prefixLength = 0
            for scalar in scalars[..<depth] { prefixLength += UTF8.width(scalar) }
            let end = try segment.prefixEnd(UnsafeRawBufferPointer(rebasing: bytes[..<prefixLength]), from: id)
            if matchesAll { out.append(id..<end) }
            id = end
        }
        return out
    }
}
