import Foundation

/// The text normalization behind the `c` and `d` modifiers, and the word
/// boundaries behind `w` and `t`. ``QueryEvaluator/fold(_:caseInsensitive:diacriticInsensitive:)``
/// is the public face of it.
///
/// Folding works one `Character` at a time, so that word boundaries found
/// on the original text carry over to the folded text:
/// * `c`: Unicode full case folding (Foundation's
///   `folding(options: .caseInsensitive, locale: nil)`): `É` → `é`,
///   `ß` → `ss`, `ﬁ` → `fi`, `Σ`/`ς` → `σ`. ASCII takes a fast path.
/// * `d`: canonical decomposition, then the combining marks of the blocks
///   U+0300–036F, U+1AB0–1AFF, U+1DC0–1DFF, U+20D0–20FF and U+FE20–FE2F are
///   dropped (`é` → `e`, `ü` → `u`; `ø`, `ł` have no decomposition and stay).
/// * Always: the result is in Unicode Normalization Form C.
enum QueryTextFolding {
    /// Whether a scalar is a combining diacritical mark that `d` removes.
    static func isCombiningDiacritic(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F: true
        default: false
        }
    }

    /// Appends the folded form of one character (zero, one or more characters).
    ///
    /// Without `c` and `d` the character is appended as it is (character
    /// comparison is canonical-equivalence aware, so matching does not need
    /// normalization; ``fold(_:caseInsensitive:diacriticInsensitive:)`` normalizes its result).
    static func fold(
        _ character: Character, caseInsensitive: Bool, diacriticInsensitive: Bool, into output: inout [Character]
    ) {
        let utf8 = character.utf8
        if utf8.count == 1, let byte = utf8.first {
            // Plain ASCII: nothing to decompose.
            if caseInsensitive, byte >= 0x41, byte <= 0x5A {
                output.append(Character(Unicode.Scalar(byte + 0x20)))
            } else {
                output.append(character)
            }
            return
        }
        if !caseInsensitive && !diacriticInsensitive {
            output.append(character)
            return
        }
        let scalars = character.unicodeScalars
        if scalars.count == 1, let scalar = scalars.first, scalar.value < FoldingTable.limit {
            let table =
                switch (caseInsensitive, diacriticInsensitive) {
                case (true, true): FoldingTable.caseAndDiacritics
                case (true, false): FoldingTable.caseOnly
                default: FoldingTable.diacriticsOnly
                }
            output.append(contentsOf: table[Int(scalar.value)])
            return
        }
        output.append(contentsOf: foldedSlowly(character, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive))
    }

    /// Folding through Foundation, for any character.
    static func foldedSlowly(_ character: Character, caseInsensitive: Bool, diacriticInsensitive: Bool) -> [Character] {
        if character.unicodeScalars.allSatisfy(\.isASCII) {
            // Multi-scalar ASCII such as "\r\n".
            return [caseInsensitive ? Character(String(character).lowercased()) : character]
        }
        var text = String(character)
        if caseInsensitive {
            text = text.folding(options: .caseInsensitive, locale: nil)
        }
        if diacriticInsensitive {
            var view = String.UnicodeScalarView()
            for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars where !isCombiningDiacritic(scalar) {
                view.append(scalar)
            }
            text = String(view)
        }
        return Array(text.precomposedStringWithCanonicalMapping)
    }

    /// The folded characters of a string (not normalized when neither flag is set).
    static func fold(_ text: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> [Character] {
        var output: [Character] = []
        output.reserveCapacity(text.utf8.count)
        for character in text {
            fold(character, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive, into: &output)
        }
        return output
    }

    /// Letters and digits make words; everything else separates them.
    static func isWordCharacter(_ character: Character) -> Bool {
        CharacterClass(character).isWord
    }

    /// Whether there is a word boundary between two adjacent characters of
    /// the original text: a non-alphanumeric on either side, or a lower-case
    /// letter or digit followed by an upper-case letter (`myWindow`,
    /// `Base64Encoder`). `NSWindow` has none before `W`; `Window2` has none
    /// before `2`.
    static func isBoundary(between previous: Character, and next: Character) -> Bool {
        CharacterClass(previous).isBoundary(before: CharacterClass(next))
    }
}

/// What word segmentation needs to know about a character.
struct CharacterClass {
    var isWord: Bool
    var isLowerOrDigit: Bool
    var isUpper: Bool

    init(_ character: Character) {
        let utf8 = character.utf8
        if utf8.count == 1, let byte = utf8.first {
            let isUpper = byte >= 0x41 && byte <= 0x5A
            let isLower = byte >= 0x61 && byte <= 0x7A
            let isDigit = byte >= 0x30 && byte <= 0x39
            self.isWord = isUpper || isLower || isDigit
            self.isLowerOrDigit = isLower || isDigit
            self.isUpper = isUpper
            return
        }
        let isNumber = character.isNumber
        self.isWord = character.isLetter || isNumber
        self.isLowerOrDigit = character.isLowercase || isNumber
        self.isUpper = character.isUppercase
    }

    func isBoundary(before next: CharacterClass) -> Bool {
        if !isWord || !next.isWord { return true }
        return isLowerOrDigit && next.isUpper
    }
}

/// A string folded for matching, with the word boundaries of the original text.
struct FoldedText {
    /// The folded characters.
    var characters: [Character] = []
    /// `boundaries[i]`: a word boundary before `characters[i]` (`i == count`: the end).
    var boundaries: [Bool] = []

    /// Folds `text`; word boundaries are computed only when `findBoundaries`
    /// (otherwise only the start and the end are marked).
    init(_ text: String, caseInsensitive: Bool, diacriticInsensitive: Bool, findBoundaries: Bool = true) {
        guard findBoundaries else {
            characters = QueryTextFolding.fold(
                text, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive)
            boundaries = [Bool](repeating: false, count: characters.count + 1)
            boundaries[0] = true
            boundaries[characters.count] = true
            return
        }
        characters.reserveCapacity(text.utf8.count)
        boundaries.reserveCapacity(text.utf8.count + 1)
        var previous: CharacterClass?
        var pendingBoundary = true  // start of string
        for character in text {
            let current = CharacterClass(character)
            if let previous, previous.isBoundary(before: current) {
                pendingBoundary = true
            }
            let before = characters.count
            QueryTextFolding.fold(
                character, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive,
                into: &characters)
            if characters.count > before {
                boundaries.append(pendingBoundary)
                for _ in (before + 1)..<characters.count { boundaries.append(false) }
                pendingBoundary = false
            }
            previous = current
        }
        boundaries.append(true)  // end of string
    }
}

/// Precomputed folds of the single-scalar characters below U+0500 (Latin,
/// Greek, Cyrillic), so that common text does not go through Foundation.
enum FoldingTable {
    static let limit: UInt32 = 0x500

    static let caseAndDiacritics = build(caseInsensitive: true, diacriticInsensitive: true)
    static let caseOnly = build(caseInsensitive: true, diacriticInsensitive: false)
    static let diacriticsOnly = build(caseInsensitive: false, diacriticInsensitive: true)

    private static func build(caseInsensitive: Bool, diacriticInsensitive: Bool) -> [[Character]] {
        (0..<limit).map { value in
            guard let scalar = Unicode.Scalar(value) else { return [] }
            return QueryTextFolding.foldedSlowly(
                Character(scalar), caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive)
        }
    }
}
