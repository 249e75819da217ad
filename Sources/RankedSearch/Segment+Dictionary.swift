import Foundation

/// A segment's term dictionary: terms by bytes, prefix and fragment, in
/// byte order, found through the term groups' first bytes.
extension Segment {
    /// The bytes of term `term`.
    @inline(__always)
    package func term(_ term: Int) throws(SegmentError) -> UnsafeRawBufferPointer {
        let start = termOffset(term), end = termOffset(term + 1)
        guard start >= 0, start <= end, end <= termBytesSize else { throw .corrupt("term \(term) out of its section") }
        return UnsafeRawBufferPointer(start: base.baseAddress! + termBytesAt + start, count: end - start)
    }

    /// The first term id whose bytes are not less than `key` (with
    /// `pastPrefix`, the first whose bytes do not start with `key` and are greater).
    ///
    /// The term groups are searched first, by the first 16 bytes of their
    /// first term kept in their entries (one compact section), then the one
    /// group's 64 terms: a binary search over the whole dictionary touched
    /// ~20 pages spread over two sections, and the kernel maps 64 KB around
    /// each page a query faults in (fault-around), so a single prefix query
    /// at 1M items made ~70 MB resident.
    @_spi(Inspection) public func lowerBound(_ key: [UInt8], pastPrefix: Bool = false) throws(SegmentError) -> Int {
        var failure: SegmentError?
        let found = key.withUnsafeBytes { (keyBytes: UnsafeRawBufferPointer) -> Int in
          do throws(SegmentError) {
            // Whether the term (or a term starting with `prefix`, of `length` bytes) lies before the answer.
            @inline(__always) func goesRight(_ bytes: UnsafeRawBufferPointer, length: Int) -> Bool? {
                let common = min(bytes.count, keyBytes.count)
                if common > 0 {
                    let order = memcmp(bytes.baseAddress!, keyBytes.baseAddress!, common)
                    if order != 0 { return order < 0 }
                }
                if bytes.count < length && bytes.count < keyBytes.count { return nil }   // the stored bytes end too soon to tell
                if pastPrefix, length >= keyBytes.count { return true }   // starts with key: before the end
                return length < keyBytes.count
            }
            @inline(__always) func termGoesRight(_ id: Int) throws(SegmentError) -> Bool {
                let bytes = try term(id)
                return goesRight(bytes, length: bytes.count)!
            }
            // The first group whose first term does not go right.
            let groups = Self.groupCount(terms: termCount)
            var low = 0, high = groups
            while low < high {
                let mid = (low + high) / 2
                let entry = at(.termGroups) + SegmentFormat.termGroupStride * mid
                let length = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: entry + SegmentFormat.termGroupKeyLengthOffset, as: UInt32.self)))
                let stored = UnsafeRawBufferPointer(start: base.baseAddress! + entry + SegmentFormat.termGroupKeyOffset,
                                                    count: min(length, SegmentFormat.termGroupKeySize))
                let right: Bool
                if let decided = goesRight(stored, length: length) { right = decided } else { right = try termGoesRight(mid * SegmentFormat.termGroupSize) }
                if right { low = mid + 1 } else { high = mid }
            }
            // Every term before group `low` goes right, and group `low`'s first does not:
            // the answer is in group `low - 1`, or is group `low`'s first term.
            var termLow = max(0, (low - 1) * SegmentFormat.termGroupSize)
            var termHigh = min(termCount, low * SegmentFormat.termGroupSize)
            while termLow < termHigh {
                let mid = (termLow + termHigh) / 2
                if try termGoesRight(mid) { termLow = mid + 1 } else { termHigh = mid }
            }
            return termLow
          } catch {
            failure = error
            return 0
          }
        }
        if let failure { throw failure }
        return found
    }

    /// The first term id after `start` that does not begin with `prefix`,
    /// given that term `start` does: galloping forward, then binary search,
    /// so that passing a few terms costs a few comparisons.
    func prefixEnd(_ prefix: UnsafeRawBufferPointer, from start: Int) throws(SegmentError) -> Int {
        // Compared from the prefix's end: a term past `start` shares the
        // start of `prefix` (the terms are sorted), so where it differs is
        // mostly late.
        @inline(__always) func begins(_ id: Int) throws(SegmentError) -> Bool {
            let bytes = try term(id)
            guard bytes.count >= prefix.count else { return false }
            var index = prefix.count
            while index > 0 {
                index -= 1
                if bytes[index] != prefix[index] { return false }
            }
            return true
        }
        return try firstTerm(from: start + 1, where: { id throws(SegmentError) in try !begins(id) })
    }

    /// The first term id from `start` on whose bytes are not less than
    /// `key`, given that term `start - 1` is: galloping forward, then binary
    /// search, so that a key a few terms ahead costs a few comparisons.
    @_spi(Inspection) public func lowerBound(_ key: UnsafeRawBufferPointer, from start: Int) throws(SegmentError) -> Int {
        @inline(__always) func isBelow(_ id: Int) throws(SegmentError) -> Bool {
            let bytes = try term(id)
            let common = min(bytes.count, key.count)
            var index = 0
            while index < common {
                if bytes[index] != key[index] { return bytes[index] < key[index] }
                index += 1
            }
            return bytes.count < key.count
        }
        return try firstTerm(from: start, where: { id throws(SegmentError) in try !isBelow(id) })
    }

    /// The first term id from `start` on for which `reached` holds (or
    /// `termCount`), given that it holds for every term after one it
    /// holds for: galloping forward, then binary search.
    @inline(__always)
    private func firstTerm(from start: Int, where reached: (Int) throws(SegmentError) -> Bool) throws(SegmentError) -> Int {
        var low = start, high = start, step = 1
        while high < termCount, try !reached(high) {
            low = high + 1
            high += step
            step *= 2
        }
        high = min(high, termCount)
        while low < high {
            let mid = (low + high) / 2
            if try reached(mid) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// Term ids equal to `token`, or starting with it for a prefix (words
    /// only: an empty prefix stops before the initials).
    @_spi(Inspection) public func terms(matching token: [UInt8], prefix: Bool) throws(SegmentError) -> Range<Int> {
        let low = min(try lowerBound(token), wordCount)
        if prefix { return low..<max(low, min(try lowerBound(token, pastPrefix: true), wordCount)) }
        guard low < wordCount, try term(low).elementsEqual(token) else { return low..<low }
        return low..<(low + 1)
    }

    /// The ids of the words among `words` that the dictionary holds,
    /// ascending. The words are put in byte order and each is looked up
    /// from where the one before it was (``lowerBound(_:from:)``): an
    /// infix fragment's thousand words cost a walk through the dictionary,
    /// not a thousand binary searches.
    @_spi(Inspection) public func terms(matchingAnyOf words: [String]) throws(SegmentError) -> [Int] {
        let keys = words.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        var out: [Int] = []
        var start = 0
        for (index, key) in keys.enumerated() where index == 0 || key != keys[index - 1] {
            var failure: SegmentError?
            let id = key.withUnsafeBytes { bytes -> Int in
                do throws(SegmentError) { return try lowerBound(bytes, from: start) } catch { failure = error; return wordCount }
            }
            if let failure { throw failure }
            guard id < wordCount else { break }
            if try term(id).elementsEqual(key) { out.append(id) }
            start = id
        }
        return out
    }

    /// Ids of the terms whose bytes contain `fragment`, ascending: one
    /// scan over the dictionary's bytes (terms are stored end to end),
    /// each hit mapped to its term by binary search. Stops after `limit` terms.
    @_spi(Inspection) public func terms(containing fragment: [UInt8], limit: Int = .max) throws(SegmentError) -> [Int] {
        guard !fragment.isEmpty, wordCount > 0, limit > 0 else { return [] }
        let start = at(.termBytes)
        func offset(_ term: Int) -> Int { termOffset(term) }
        guard offset(termCount) <= sectionEnd(.termBytes) - start, offset(wordCount) <= offset(termCount) else {
            throw .corrupt("the dictionary's bytes are out of their section")
        }
        // The words' bytes only: the initials follow them.
        let size = offset(wordCount)
        let haystack = base.baseAddress! + start
        var out: [Int] = []
        var position = 0, term = 0
        // The scan reads every term once: its pages leave resident memory after.
        defer { bytes.release(start..<(start + size)) }
        fragment.withUnsafeBytes { needle in
            while position < size, out.count < limit,
                  let at = Self.find(needle, in: haystack, from: position, size: size) {
                // The term holding byte `at`: the last whose start is ≤ at (from `term` on: hits ascend).
                var low = term, high = wordCount
                while high - low > 1 {
                    let mid = (low + high) / 2
                    if offset(mid) <= at { low = mid } else { high = mid }
                }
                term = low
                let end = offset(term + 1)
                if at + needle.count <= end {
                    out.append(term)
                    position = max(end, at + 1)
                    term += 1
                } else {
                    position = at + 1   // spans two terms: look again inside the next
                }
            }
        }
        return out
    }

    /// The first offset ≥ `from` where `needle` (not empty) starts in
    /// `haystack[..<size]`.
    ///
    /// Sixteen starting offsets at a time: vectors compare their first
    /// bytes with the needle's first byte, their second with its second
    /// and their bytes `count - 1` on with its last, and only offsets where
    /// all three agree are compared in full. A fragment's first letter
    /// alone is common in a dictionary (`memchr` for it, then `memcmp`,
    /// stopped every few bytes and made half of a `*ste*` query at 1M
    /// items), and so are first and last alone (`e?e`); all three together
    /// are rare. The last offsets, fewer than sixteen, are tried one by one.
    @_spi(Inspection) public static func find(_ needle: UnsafeRawBufferPointer, in haystack: UnsafeRawPointer, from: Int, size: Int) -> Int? {
        let count = needle.count
        let first = needle[0], last = needle[count - 1]
        let secondOffset = count > 2 ? 1 : 0
        @inline(__always) func matches(at position: Int) -> Bool {
            guard haystack.load(fromByteOffset: position, as: UInt8.self) == first,
                  haystack.load(fromByteOffset: position &+ count &- 1, as: UInt8.self) == last else { return false }
            // Fragments are short: the middle bytes compared in place cost
            // less than a call.
            guard count > 16 else {
                var index = 1
                while index < count &- 1 {
                    if haystack.load(fromByteOffset: position &+ index, as: UInt8.self) != needle[index] { return false }
                    index &+= 1
                }
                return true
            }
            return memcmp(haystack + position + 1, needle.baseAddress! + 1, count - 2) == 0
        }
        typealias Lanes = SIMD16<UInt8>
        let firsts = Lanes(repeating: first), seconds = Lanes(repeating: needle[secondOffset]), lasts = Lanes(repeating: last)
        var position = from
        // Offsets from here on leave room for a whole vector at `count - 1`.
        let lastVector = size - Lanes.scalarCount - count + 1
        while position <= lastVector {
            let starts = haystack.loadUnaligned(fromByteOffset: position, as: Lanes.self)
            let nexts = haystack.loadUnaligned(fromByteOffset: position &+ secondOffset, as: Lanes.self)
            let ends = haystack.loadUnaligned(fromByteOffset: position &+ count &- 1, as: Lanes.self)
            let all = (starts .== firsts) .& (nexts .== seconds) .& (ends .== lasts)
            if any(all) {
                for lane in 0..<Lanes.scalarCount where all[lane] && matches(at: position &+ lane) {
                    return position &+ lane
                }
            }
            position &+= Lanes.scalarCount
        }
        while position + count <= size {
            if matches(at: position) { return position }
            position += 1
        }
        return nil
    }
}
