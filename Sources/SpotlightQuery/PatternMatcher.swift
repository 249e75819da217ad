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
    }

    /// Whether the pattern matches a string value.
    func matches(_ text: String) -> Bool {
        let folded = FoldedText(
            text, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive, findBoundaries: wordBased)
        return matches(folded)
    }

    /// Whether the pattern matches already folded text (folded with this matcher's `c`/`d`).
    func matches(_ text: FoldedText) -> Bool {
        parts.allSatisfy { Self.run($0, on: text, wordBased: wordBased) }
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
