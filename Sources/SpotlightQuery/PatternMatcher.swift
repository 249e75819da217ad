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
/// Runs in time linear in the text (times ⌈segment / 64⌉ for a segment
/// between two `*` longer than 64 characters) and memory independent of
/// it, whatever the pattern (``WildcardSearch``); a ``QueryBudget`` stops a
/// long match.
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
    let asciiTokens: [Int32]?
    /// `asciiTokens` holds no wildcard: a value matches when its bytes,
    /// folded, are these (`section == "libs"`), compared without the
    /// wildcard search.
    let isASCIILiteral: Bool

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
                isASCIILiteral = false
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
        isASCIILiteral = asciiTokens?.allSatisfy { $0 >= 0 } ?? false
    }

    private static func asciiTokens(_ tokens: [Token]) -> [Int32]? {
        var bytes: [Int32] = []
        for token in tokens {
            switch token {
            case .anyOne: bytes.append(-1)
            case .anyRun: bytes.append(-2)
            case .character(let character):
                guard character.utf8.count == 1, let byte = character.utf8.first else { return nil }
                bytes.append(Int32(byte))
            }
        }
        return bytes
    }

    /// Whether the pattern matches a string value; false once `budget` runs out.
    func matches(_ text: String, budget: QueryBudget? = nil) -> Bool {
        if let asciiTokens,
           let result = Self.matchASCII(asciiTokens, text, caseInsensitive: caseInsensitive, isLiteral: isASCIILiteral, budget: budget) {
            return result
        }
        let folded = FoldedText(
            text, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive, findBoundaries: wordBased)
        return matches(folded, budget: budget)
    }

    /// Whether the pattern matches already folded text (folded with this matcher's `c`/`d`).
    func matches(_ text: FoldedText, budget: QueryBudget? = nil) -> Bool {
        parts.allSatisfy { Self.run($0, on: text, wordBased: wordBased, budget: budget) }
    }

    /// Byte matching of ASCII text; nil when the text is not plain ASCII
    /// (any byte ≥ 0x80, or a CR, which joins a following LF into one
    /// `Character`). Case folding of ASCII is A–Z → a–z; `d` changes nothing.
    /// `isLiteral` (no wildcard in `tokens`): the bytes are compared in
    /// one pass, linear, so no budget is charged.
    static func matchASCII(_ tokens: [Int32], _ text: String, caseInsensitive: Bool, isLiteral: Bool = false,
                           budget: QueryBudget? = nil) -> Bool? {
        var text = text
        return text.withUTF8 { utf8 -> Bool? in
            for byte in utf8 where byte >= 0x80 || byte == 0x0D { return nil }
            @inline(__always) func symbol(_ byte: UInt8) -> Int32 {
                Int32(caseInsensitive && byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
            }
            if isLiteral {
                guard utf8.count == tokens.count else { return false }
                for index in 0..<utf8.count where symbol(utf8[index]) != tokens[index] { return false }
                return true
            }
            let symbols = WildcardSearch.Text(count: utf8.count, symbol: { symbol(utf8[$0]) }, isBoundary: nil, budget: budget)
            return WildcardSearch.matchesWhole(tokens, symbols)
        }
    }

    /// Matches tokens against folded text (``WildcardSearch``: linear in the
    /// text). Whole-value: from the start to the end. Word-based: a run
    /// starting and ending at boundaries.
    static func run(_ tokens: [Token], on text: FoldedText, wordBased: Bool, budget: QueryBudget? = nil) -> Bool {
        // Characters as symbols: ASCII ones their byte, the pattern's others
        // a number of their own, any other character one no literal matches.
        var ids: [Character: Int32] = [:]
        let symbols: [Int32] = tokens.map { token in
            switch token {
            case .anyRun: return WildcardSearch.anyRun
            case .anyOne: return WildcardSearch.anyOne
            case .character(let character):
                if let byte = character.asciiValue, character.utf8.count == 1 { return Int32(byte) }
                if let id = ids[character] { return id }
                let id = Int32(256 + ids.count)
                ids[character] = id
                return id
            }
        }
        let characters = text.characters
        let other = Int32.max
        let textSymbols = WildcardSearch.Text(count: characters.count, symbol: { index in
            let character = characters[index]
            if let byte = character.asciiValue, character.utf8.count == 1 { return Int32(byte) }
            return ids[character] ?? other
        }, isBoundary: wordBased ? { text.boundaries[$0] } : nil, budget: budget)
        return wordBased ? WildcardSearch.matchesWords(symbols, textSymbols) : WildcardSearch.matchesWhole(symbols, textSymbols)
    }
}
