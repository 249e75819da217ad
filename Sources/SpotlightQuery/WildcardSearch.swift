/// Whole-value and word-bounded matching of `*`/`?` patterns in time linear
/// in the text and memory independent of it (beyond the text itself).
///
/// A pattern is cut at its `*`s into segments of literals and `?`s. A
/// whole-value match anchors the first segment at the start and the last at
/// the end; each segment between is found leftmost after the one before
/// (taking the leftmost occurrence never loses a match: what follows only
/// gets more room). With word boundaries the match must start and end on a
/// boundary: the leftmost start that works is as good as any later one, for
/// the same reason, so only it is tried; the last segment then needs one
/// occurrence ending on a boundary. Segments are found by a bit-parallel
/// shift-and over 64-symbol words: O(text × ⌈segment / 64⌉) for the whole
/// scan, each part of the text scanned once.
///
/// Symbols are `Int32`: a literal is ≥ 0, `?` is ``anyOne``, `*` ``anyRun``.
/// ```swift
/// let tokens: [Int32] = [97, WildcardSearch.anyRun, 98]             // a*b
/// WildcardSearch.matchesWhole(tokens, count: text.count) { text[$0] }
/// ```
enum WildcardSearch {
    static let anyOne: Int32 = -1
    static let anyRun: Int32 = -2
    /// How often (in symbols scanned) a long search checks its budget.
    static let budgetStride = 1 << 16

    /// The symbols of the text, by position.
    struct Text {
        let count: Int
        let symbol: (Int) -> Int32
        /// Whether position `i` (0…count) is a word boundary; nil for whole-value matching.
        let isBoundary: ((Int) -> Bool)?
        let budget: QueryBudget?
    }

    /// Whether `tokens` match all of the text.
    static func matchesWhole(_ tokens: [Int32], _ text: Text) -> Bool {
        let segments = split(tokens)
        if segments.count == 1 { return text.count == segments[0].count && matches(segments[0], at: 0, text) }
        let first = segments[0], last = segments[segments.count - 1]
        guard first.count + last.count <= text.count, matches(first, at: 0, text),
              matches(last, at: text.count - last.count, text) else { return false }
        var position = first.count
        for segment in segments.dropFirst().dropLast() {
            guard let found = Finder(segment).first(in: text, from: position, to: text.count - last.count) else { return false }
            position = found + segment.count
        }
        return true
    }

    /// Whether `tokens` match a run of the text that starts and ends on word
    /// boundaries (the text's start and end are boundaries). An empty
    /// pattern matches only an empty text.
    static func matchesWords(_ tokens: [Int32], _ text: Text) -> Bool {
        if tokens.isEmpty { return text.count == 0 }
        let isBoundary = { (i: Int) in i == 0 || i == text.count || (text.isBoundary?(i) ?? false) }
        let segments = split(tokens)
        let first = segments[0]
        let finder = Finder(first)
        if segments.count == 1 {
            var from = 0
            while let start = finder.first(in: text, from: from, to: text.count) {
                if isBoundary(start) && isBoundary(start + first.count) { return true }
                from = start + 1
            }
            return false
        }
        // The leftmost start on a boundary where the first segment matches.
        var from = 0
        var start: Int?
        while let found = finder.first(in: text, from: from, to: text.count) {
            if isBoundary(found) { start = found; break }
            from = found + 1
        }
        guard let start else { return false }
        var position = start + first.count
        for segment in segments.dropFirst().dropLast() {
            guard let found = Finder(segment).first(in: text, from: position, to: text.count) else { return false }
            position = found + segment.count
        }
        let last = segments[segments.count - 1]
        if last.isEmpty {
            // A trailing `*`: any boundary at or after the position ends the run (the text's end is one).
            return true
        }
        let lastFinder = Finder(last)
        from = position
        while let found = lastFinder.first(in: text, from: from, to: text.count) {
            if isBoundary(found + last.count) { return true }
            from = found + 1
        }
        return false
    }

    /// The segments between `*`s (empty ones at a leading or trailing `*`).
    static func split(_ tokens: [Int32]) -> [[Int32]] {
        var segments: [[Int32]] = [[]]
        for token in tokens {
            if token == anyRun {
                if !segments[segments.count - 1].isEmpty || segments.count == 1 { segments.append([]) }
            } else {
                segments[segments.count - 1].append(token)
            }
        }
        return segments
    }

    /// Whether `segment` matches the text at `start`.
    static func matches(_ segment: [Int32], at start: Int, _ text: Text) -> Bool {
        guard start >= 0, start + segment.count <= text.count else { return false }
        for (offset, token) in segment.enumerated() where token != anyOne && token != text.symbol(start + offset) {
            return false
        }
        return true
    }

    /// Leftmost occurrences of one segment, by shift-and over ⌈length / 64⌉ words.
    struct Finder {
        let length: Int
        let words: Int
        /// Per symbol below 256, `words` masks: the positions it (or a `?`) may take.
        let small: [UInt64]
        /// The same for larger symbols.
        let large: [Int32: [UInt64]]
        /// Positions a `?` takes: what any other symbol may match.
        let anyMask: [UInt64]

        init(_ segment: [Int32]) {
            length = segment.count
            let words = max(1, (segment.count + 63) / 64)
            self.words = words
            var any = [UInt64](repeating: 0, count: words)
            for (position, token) in segment.enumerated() where token == WildcardSearch.anyOne {
                any[position / 64] |= 1 << UInt64(position % 64)
            }
            var small = [UInt64](repeating: 0, count: 256 * words)
            for symbol in 0..<256 { for word in 0..<words { small[symbol * words + word] = any[word] } }
            var large: [Int32: [UInt64]] = [:]
            for (position, token) in segment.enumerated() where token != WildcardSearch.anyOne {
                let bit = UInt64(1) << UInt64(position % 64)
                if token < 256 {
                    small[Int(token) * words + position / 64] |= bit
                } else {
                    large[token, default: any][position / 64] |= bit
                }
            }
            self.small = small
            self.large = large
            anyMask = any
        }

        /// The leftmost start in `from…(to − length)` where the segment matches
        /// (nil also when the budget ran out).
        func first(in text: Text, from: Int, to: Int) -> Int? {
            if length == 0 { return from <= to ? from : nil }
            guard from + length <= to else { return nil }
            var scanned = 0
            if words == 1 {
                var state: UInt64 = 0
                let top = UInt64(1) << UInt64(length - 1)
                for i in from..<to {
                    let symbol = text.symbol(i)
                    let mask = symbol >= 0 && symbol < 256 ? small[Int(symbol)] : (large[symbol]?[0] ?? anyMask[0])
                    state = ((state << 1) | 1) & mask
                    if state & top != 0 { return i - length + 1 }
                    scanned += 1
                    if scanned == WildcardSearch.budgetStride {
                        scanned = 0
                        if text.budget?.isExhausted == true { return nil }
                    }
                }
                return nil
            }
            var state = [UInt64](repeating: 0, count: words)
            let top = UInt64(1) << UInt64((length - 1) % 64)
            for i in from..<to {
                let symbol = text.symbol(i)
                let largeMask = symbol >= 0 && symbol < 256 ? nil : (large[symbol] ?? anyMask)
                // state = ((state << 1) | 1) & mask, across the words.
                var carry: UInt64 = 1
                for word in 0..<words {
                    let mask = largeMask?[word] ?? small[Int(symbol) * words + word]
                    let shifted = (state[word] << 1) | carry
                    carry = state[word] >> 63
                    state[word] = shifted & mask
                }
                if state[words - 1] & top != 0 { return i - length + 1 }
                scanned += words
                if scanned >= WildcardSearch.budgetStride {
                    scanned = 0
                    if text.budget?.isExhausted == true { return nil }
                }
            }
            return nil
        }
    }
}
