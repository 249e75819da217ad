/// Matches a ``QueryPattern`` against attribute text with the `c`, `d`, `w`
/// and `t` modifiers (spec §4.1–§4.2).
///
/// * Without `w`/`t`: the pattern must match the whole value; `*` matches
///   any run of characters (also none), `?` exactly one `Character`
///   (of the folded text: with `c`, `ß` folds to `ss`, two characters).
/// * `w`: the pattern must match a run of whole words — it starts and ends
///   on word boundaries (see ``QueryTextFolding/isBoundary(between:and:)``):
///   `"Window"w` matches `MyWindowClass` and `Broken Window`, not `NSWindow`
///   or `Windows`; `"Win*"w` matches `Windows`. An empty pattern matches only
///   an empty value.
/// * `t`: the pattern is split into tokens at characters that are not
///   letters or digits (wildcards stay in their token); every token must
///   match, as with `w`, somewhere in the value, in any order. A pattern
///   without tokens falls back to the rules above.
///
/// Runs in O(text × pattern) time at worst (a simulated automaton, no
/// backtracking, where an active `*` state prunes all earlier states), in
/// practice close to linear.
struct PatternMatcher {
    enum Token: Equatable {
        case character(Character)
        case anyOne
        case anyRun
    }

    let caseInsensitive: Bool
    let diacriticInsensitive: Bool
    let wordBased: Bool
    /// One token list, or one per `t` token.
    let parts: [[Token]]
    /// The tokens as bytes (`anyOne` = -1, `anyRun` = -2) when every
    /// literal is ASCII and matching is not word based: ASCII values then
    /// match byte by byte, with no `Character` work.
    let asciiTokens: [Int16]?

    init(_ pattern: QueryPattern, modifiers: QueryModifiers) {
        let caseInsensitive = modifiers.contains(.caseInsensitive)
        let diacriticInsensitive = modifiers.contains(.diacriticInsensitive)
        self.caseInsensitive = caseInsensitive
        self.diacriticInsensitive = diacriticInsensitive
        func fold(_ character: Character, into tokens: inout [Token]) {
            var folded: [Character] = []
            QueryTextFolding.fold(
                character, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive, into: &folded)
            tokens.append(contentsOf: folded.map(Token.character))
        }
        if modifiers.contains(.tokenized) {
            var parts: [[Token]] = []
            var current: [Token] = []
            for element in pattern.elements {
                switch element {
                case .anyRun: current.append(.anyRun)
                case .anyOne: current.append(.anyOne)
                case .literal(let text):
                    for character in text {
                        if QueryTextFolding.isWordCharacter(character) {
                            fold(character, into: &current)
                        } else if !current.isEmpty {
                            parts.append(current)
                            current = []
                        }
                    }
                }
            }
            if !current.isEmpty { parts.append(current) }
            if !parts.isEmpty {
                self.parts = parts
                wordBased = true
                asciiTokens = nil
                return
            }
            // No tokens: match the pattern as written.
        }
        var tokens: [Token] = []
        for element in pattern.elements {
            switch element {
            case .anyRun: tokens.append(.anyRun)
            case .anyOne: tokens.append(.anyOne)
            case .literal(let text):
                for character in text { fold(character, into: &tokens) }
            }
        }
        parts = [tokens]
        wordBased = modifiers.contains(.wordBased)
        asciiTokens = wordBased ? nil : Self.asciiTokens(tokens)
    }

    private static func asciiTokens(_ tokens: [Token]) -> [Int16]? {
        var bytes: [Int16] = []
        for token in tokens {
            switch token {
            case .anyOne: bytes.append(-1)
            case .anyRun: bytes.append(-2)
            case .character(let character):
                guard character.utf8.count == 1, let byte = character.utf8.first else { return nil }
                bytes.append(Int16(byte))
            }
        }
        return bytes
    }

    /// Whether the pattern matches a string value.
    func matches(_ text: String) -> Bool {
        if let asciiTokens, let result = Self.matchASCII(asciiTokens, text, caseInsensitive: caseInsensitive) {
            return result
        }
        let folded = FoldedText(
            text, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive, findBoundaries: wordBased)
        return matches(folded)
    }

    /// Whether the pattern matches already folded text (folded with this matcher's `c`/`d`).
    func matches(_ text: FoldedText) -> Bool {
        parts.allSatisfy { Self.run($0, on: text, wordBased: wordBased) }
    }

    /// Byte matching of ASCII text; nil when the text is not plain ASCII
    /// (any byte ≥ 0x80, or a CR, which joins a following LF into one
    /// `Character`). Case folding of ASCII is A–Z → a–z; `d` changes nothing.
    static func matchASCII(_ tokens: [Int16], _ text: String, caseInsensitive: Bool) -> Bool? {
        var text = text
        return text.withUTF8 { utf8 -> Bool? in
            for byte in utf8 where byte >= 0x80 || byte == 0x0D { return nil }
            @inline(__always) func at(_ index: Int) -> Int16 {
                let byte = utf8[index]
                return Int16(caseInsensitive && byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
            }
            return runBytes(tokens, count: utf8.count, at)
        }
    }

    /// The automaton of ``run(_:on:wordBased:)`` for whole-value matching over bytes.
    private static func runBytes(_ tokens: [Int16], count: Int, _ at: (Int) -> Int16) -> Bool {
        // `*literal*`, the commonest shape: a substring search.
        if tokens.count >= 2, tokens.first == -2, tokens.last == -2, !tokens.dropFirst().dropLast().contains(where: { $0 < 0 }) {
            let needle = tokens.dropFirst().dropLast()
            guard needle.count <= count else { return false }
            if needle.isEmpty { return true }
            let first = needle.first!
            for start in 0...(count - needle.count) where at(start) == first {
                var offset = 1
                var index = needle.index(after: needle.startIndex)
                while index < needle.endIndex, at(start + offset) == needle[index] {
                    offset += 1
                    index = needle.index(after: index)
                }
                if index == needle.endIndex { return true }
            }
            return false
        }
        let m = tokens.count
        if m == 0 { return count == 0 }
        var active = [Bool](repeating: false, count: m + 1)
        var next = active
        func close(_ states: inout [Bool]) {
            // A state before `*` also activates the state after it (the empty run).
            for state in 0..<m where states[state] && tokens[state] == -2 { states[state + 1] = true }
        }
        active[0] = true
        close(&active)
        for i in 0..<count {
            let byte = at(i)
            for state in 0...m { next[state] = false }
            var any = false
            for state in 0..<m where active[state] {
                switch tokens[state] {
                case -2: next[state] = true; any = true
                case -1: next[state + 1] = true; any = true
                case let expected where expected == byte: next[state + 1] = true; any = true
                default: break
                }
            }
            if !any { return false }
            close(&next)
            swap(&active, &next)
        }
        return active[m]
    }

    /// Simulates the pattern automaton. State `k` = the first `k` tokens matched.
    /// Whole-value: start at 0 and accept at the end only. Word-based: start
    /// at every boundary and accept at every boundary (non-empty matches).
    static func run(_ tokens: [Token], on text: FoldedText, wordBased: Bool) -> Bool {
        let characters = text.characters
        let count = characters.count
        let m = tokens.count
        if m == 0 { return count == 0 }
        var stamp = [Int](repeating: -1, count: m + 1)
        var current: [Int] = []
        var next: [Int] = []
        current.reserveCapacity(m + 1)
        next.reserveCapacity(m + 1)

        func add(_ state: Int, generation: Int, to list: inout [Int]) {
            var state = state
            while stamp[state] != generation {
                stamp[state] = generation
                list.append(state)
                guard state < m, tokens[state] == .anyRun else { return }
                state += 1
            }
        }

        // The states active at position i carry generation i. States below
        // `floor` are subsumed by an active `*` state (see below).
        var floor = 0
        for i in 0...count {
            if floor == 0, i == 0 || (wordBased && text.boundaries[i]) {
                add(0, generation: i, to: &current)
            }
            if stamp[m] == i, i == count || (wordBased && text.boundaries[i]) {
                return true
            }
            if i == count { break }
            if current.isEmpty {
                if !wordBased { return false }
                continue
            }
            let character = characters[i]
            next.removeAll(keepingCapacity: true)
            for state in current where state < m {
                switch tokens[state] {
                case .anyRun: add(state, generation: i + 1, to: &next)
                case .anyOne: add(state + 1, generation: i + 1, to: &next)
                case .character(let expected):
                    if expected == character { add(state + 1, generation: i + 1, to: &next) }
                }
            }
            // A `*` state subsumes every earlier state: whatever an earlier
            // state can still match passes through that `*`, which can be
            // reached at the same point. Dropping them keeps the active set
            // to one `*` and the literal run after it.
            var highestStar = -1
            for state in next where state < m && tokens[state] == .anyRun && state > highestStar {
                highestStar = state
            }
            if highestStar > 0 {
                next.removeAll { $0 < highestStar }
            }
            floor = max(highestStar, 0)
            swap(&current, &next)
        }
        return false
    }
}
