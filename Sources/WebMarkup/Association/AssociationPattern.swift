// The applinks pattern language, compiled once and matched without backtracking.
//
// Syntax: `*` any run of characters (crossing `/`), `?` exactly one character,
// `$(name)` one of a substitution variable's values; everything else is literal
// (there is no escape). A pattern matches the whole component.
//
// Matching is a simulation of the pattern's automaton: it carries the set of
// input positions reachable after each piece (a bitset), so the cost is
// O(pieces × input length) whatever the pattern — `*a*a*a*a*b` against a long
// URL is as cheap as `/buy/*`. Apple itself warns that these patterns have
// exponential cost under a backtracking matcher.
//
// Path patterns are normalised as Apple's matcher does [oracle-reported]: the
// leading run of `/` is optional, trailing `/` runs are dropped on both sides,
// and a pattern ending `/*` also matches the bare parent (`/buy/*` matches
// `/buy`), without ever appending a `/` to the URL (`/id/????` does not match
// `/id/481`).

struct AssociationPattern: Sendable {
    enum Piece: Sendable {
        case scalar(UInt32)
        case any
        case star
        case characterClass(AssociationCharacterClass)
        /// One of several alternatives: literal words, or patterns made of the other pieces.
        case alternatives(words: AssociationWordSet, patterns: [[Piece]])
    }

    let pieces: [Piece]
    /// For a path pattern ending `/*`: the index of that `/` piece. Reaching the
    /// end of the input just before it also counts as a match.
    let optionalTrailingSlash: Int?

    /// Compiles a query or fragment pattern, or (with `isPath`) a path pattern.
    /// `variables` nil leaves `$(…)` literal, as in legacy `paths`.
    init(_ text: String, caseSensitive: Bool, variables: AssociationVariables?, isPath: Bool = false) {
        let source = isPath ? Self.normalizedPath(text) : text
        let pieces = Self.pieces(of: source, caseSensitive: caseSensitive, variables: variables)
        self.pieces = pieces
        if isPath, pieces.count >= 2, case .star = pieces[pieces.count - 1],
           case .scalar(let slash) = pieces[pieces.count - 2], slash == 0x2F {
            optionalTrailingSlash = pieces.count - 2
        } else {
            optionalTrailingSlash = nil
        }
    }

    /// Drops the leading and trailing runs of `/` (both are insignificant in a path).
    static func normalizedPath(_ path: String) -> String {
        var scalars = Substring(path).unicodeScalars
        while scalars.first == "/" { scalars.removeFirst() }
        while scalars.last == "/" { scalars.removeLast() }
        return String(scalars)
    }

    /// Splits a pattern into pieces. Runs of `*` collapse into one.
    static func pieces(of text: String, caseSensitive: Bool, variables: AssociationVariables?) -> [Piece] {
        let scalars = Array(text.unicodeScalars)
        var pieces: [Piece] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "*":
                if case .star = pieces.last {} else { pieces.append(.star) }
                index += 1
            case "?":
                pieces.append(.any)
                index += 1
            case "$" where variables != nil && index + 1 < scalars.count && scalars[index + 1] == "(":
                if let close = scalars[(index + 2)...].firstIndex(of: ")") {
                    let name = String(String.UnicodeScalarView(scalars[(index + 2)..<close]))
                    pieces.append(variables!.piece(named: name, caseSensitive: caseSensitive))
                    index = close + 1
                } else {
                    pieces.append(.scalar(scalar.value))
                    index += 1
                }
            default:
                pieces.append(.scalar(caseSensitive ? scalar.value : AssociationCaseFolding.fold(scalar.value)))
                index += 1
            }
        }
        return pieces
    }

    /// Whether the pattern matches the whole subject.
    func matches(_ subject: AssociationSubject) -> Bool {
        var reachable = AssociationPositionSet(count: subject.scalars.count + 1)
        reachable.insert(0)
        let end = subject.scalars.count
        var beforeTrailingSlash = false
        for (index, piece) in pieces.enumerated() {
            if index == optionalTrailingSlash, reachable.contains(end) { beforeTrailingSlash = true }
            reachable = Self.advance(reachable, over: piece, in: subject)
            if reachable.isEmpty { return beforeTrailingSlash }
        }
        return reachable.contains(end) || beforeTrailingSlash
    }

    /// Convenience for tests and one-off checks.
    func matches(_ text: String, caseSensitive: Bool = true) -> Bool {
        matches(AssociationSubject(text, caseSensitive: caseSensitive))
    }

    private static func advance(_ reachable: AssociationPositionSet, over piece: Piece, in subject: AssociationSubject) -> AssociationPositionSet {
        switch piece {
        case .scalar(let value) where value < 128:
            guard let occurrences = subject.asciiOccurrences[Int(value)] else { return AssociationPositionSet(count: reachable.count) }
            return reachable.intersection(occurrences).shiftedByOne()
        case .scalar(let value):
            var result = AssociationPositionSet(count: reachable.count)
            let scalars = subject.scalars
            // swift-format-ignore: ReplaceForEachWithForLoop
            // (AssociationPositionSet.forEach visits set bits; the set is not a Sequence.)
            reachable.forEach { position in
                if position < scalars.count, scalars[position] == value { result.insert(position + 1) }
            }
            return result
        case .any:
            return reachable.shiftedByOne()
        case .star:
            return reachable.fromLowest()
        case .characterClass(let characterClass):
            var occurrences = AssociationPositionSet(count: reachable.count)
            for (value, positions) in subject.asciiOccurrences.enumerated() where characterClass.contains(UInt32(value)) {
                if let positions { occurrences.formUnion(positions) }
            }
            return reachable.intersection(occurrences).shiftedByOne()
        case .alternatives(let words, let patterns):
            var result = AssociationPositionSet(count: reachable.count)
            if !words.isEmpty {
                let scalars = subject.scalars
                // swift-format-ignore: ReplaceForEachWithForLoop
                reachable.forEach { start in
                    for length in words.lengths {
                        guard start + length <= scalars.count else { break }
                        if words.words[length]!.contains(scalars[start..<start + length]) {
                            result.insert(start + length)
                        }
                    }
                }
            }
            for alternative in patterns {
                var positions = reachable
                for piece in alternative where !positions.isEmpty {
                    positions = advance(positions, over: piece, in: subject)
                }
                result.formUnion(positions)
            }
            return result
        }
    }
}

/// A URL component prepared for matching: its scalars (folded when matching
/// case-insensitively) and, for each ASCII character in it, where it occurs.
/// (Memory stays within 16 bytes per input character; the rare non-ASCII
/// literals are matched position by position instead.)
struct AssociationSubject: Sendable {
    let scalars: [UInt32]
    let asciiOccurrences: [AssociationPositionSet?]

    init(_ text: String, caseSensitive: Bool) {
        let scalars = AssociationCaseFolding.scalars(of: text, caseSensitive: caseSensitive)
        var occurrences = [AssociationPositionSet?](repeating: nil, count: 128)
        for (position, value) in scalars.enumerated() where value < 128 {
            if occurrences[Int(value)] == nil { occurrences[Int(value)] = AssociationPositionSet(count: scalars.count + 1) }
            occurrences[Int(value)]!.insert(position)
        }
        self.scalars = scalars
        self.asciiOccurrences = occurrences
    }
}

/// A set of positions `0...n` in a subject of length n, as a bitset.
struct AssociationPositionSet: Sendable {
    private var words: [UInt64]
    /// How many positions the set can hold (n + 1).
    let count: Int

    init(count: Int) {
        self.count = count
        words = Array(repeating: 0, count: (count + 63) / 64)
    }

    mutating func insert(_ position: Int) {
        words[position >> 6] |= 1 << UInt64(position & 63)
    }

    func contains(_ position: Int) -> Bool {
        position < count && words[position >> 6] & (1 << UInt64(position & 63)) != 0
    }

    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    func intersection(_ other: AssociationPositionSet) -> AssociationPositionSet {
        var result = self
        for index in result.words.indices { result.words[index] &= other.words[index] }
        return result
    }

    mutating func formUnion(_ other: AssociationPositionSet) {
        for index in words.indices { words[index] |= other.words[index] }
    }

    /// Every position p + 1 for p in the set (positions past the end drop out).
    func shiftedByOne() -> AssociationPositionSet {
        var result = self
        var carry: UInt64 = 0
        for index in result.words.indices {
            let word = result.words[index]
            result.words[index] = word << 1 | carry
            carry = word >> 63
        }
        result.clearBeyondEnd()
        return result
    }

    /// Every position from the lowest member to the end (what `*` reaches).
    func fromLowest() -> AssociationPositionSet {
        var result = AssociationPositionSet(count: count)
        guard let first = words.firstIndex(where: { $0 != 0 }) else { return result }
        let lowest = words[first].trailingZeroBitCount
        result.words[first] = ~0 << UInt64(lowest)
        for index in (first + 1)..<result.words.count { result.words[index] = ~0 }
        result.clearBeyondEnd()
        return result
    }

    func forEach(_ body: (Int) -> Void) {
        for (index, word) in words.enumerated() {
            var remaining = word
            while remaining != 0 {
                body(index << 6 + remaining.trailingZeroBitCount)
                remaining &= remaining - 1
            }
        }
    }

    private mutating func clearBeyondEnd() {
        let used = count & 63
        if used != 0 { words[words.count - 1] &= (1 << UInt64(used)) - 1 }
    }
}
