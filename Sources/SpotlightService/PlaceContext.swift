import Foundation

/// When text being typed asks for a place, and what of it is typed so far:
/// QuickType offers a place after "Meet me at", not after "Thanks".
///
/// ```swift
/// PlaceContext("Meet me at")?.fragment        // ""      → every recent place
/// PlaceContext("see you at ray's")?.fragment  // "ray's" → places with a word starting "ray's"
/// PlaceContext("thanks")                      // nil     → no place
/// ```
struct PlaceContext: Equatable {
    /// What follows the phrase that asks for a place, folded.
    var fragment: String

    /// Phrases after which a person names a place (folded: lower case, no accents).
    static let phrases = [
        "meet me at", "meet me in", "meet you at", "meet at", "see you at", "see you in", "i'm at", "im at", "i am at",
        "let's go to", "lets go to", "directions to", "on my way to", "heading to", "i'll be at", "ill be at",
        "pick me up at", "the address is", "address:", "located at",
        "rendez-vous a", "rejoins-moi a", "retrouve-moi a", "on se voit a", "je suis a",
    ]

    /// Nil when the text does not end in a request for a place (a phrase,
    /// then at most a few words of the place itself).
    init?(_ text: String) {
        let folded = Self.fold(text)
        var best: Range<String.Index>?
        for phrase in Self.phrases {
            guard let range = folded.range(of: phrase, options: .backwards) else { continue }
            // The phrase must start a word, and the latest phrase wins.
            if range.lowerBound != folded.startIndex, folded[folded.index(before: range.lowerBound)].isLetter { continue }
            if best == nil || range.lowerBound > best!.lowerBound || (range.lowerBound == best!.lowerBound && range.upperBound > best!.upperBound) {
                best = range
            }
        }
        guard let best else { return nil }
        let after = folded[best.upperBound...]
        if let first = after.first, first.isLetter { return nil } // "meet atlas": not the phrase
        let fragment = after.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters.subtracting(["'", "’"])))
        // A place's name is a few words; a longer tail is a sentence that went on.
        guard Self.words(fragment).count <= 4 else { return nil }
        self.fragment = fragment
    }

    /// True when every word typed starts a word of the place (the last may be partial).
    func matches(_ place: PlaceSuggestion) -> Bool {
        let typed = Self.words(fragment)
        guard !typed.isEmpty else { return true }
        let words = place.searchableWords
        return typed.allSatisfy { piece in words.contains { $0.hasPrefix(piece) } }
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .replacingOccurrences(of: "’", with: "'")
    }

    static func words(_ text: String) -> [String] {
        fold(text).split { !($0.isLetter || $0.isNumber || $0 == "'") }.map(String.init)
    }
}
