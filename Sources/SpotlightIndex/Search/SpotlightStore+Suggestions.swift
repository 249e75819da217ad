import Foundation
import GRDB

extension SpotlightStore {
    /// Completions of what a user is typing: the text with its last word
    /// completed from the indexed words, the words found in most items first.
    ///
    /// ```swift
    /// try store.suggestions(completing: "paris tra", limit: 3)  // ["paris travel", "paris trains"]
    /// ```
    ///
    /// The last word is folded as search folds it; a word that is already
    /// complete and indexed comes first. At most 64 candidate words are
    /// counted, the shortest first.
    public func suggestions(completing text: String, limit: Int = 5) throws -> [String] {
        guard limit > 0 else { return [] }
        let trimmed = text.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        guard let lastTerm = TextTokenizer.queryTerms(trimmed).last, lastTerm.tokens.count == 1 else { return [] }
        let prefix = lastTerm.tokens[0]
        let head = String(trimmed.dropLast(trimmed.reversed().prefix { !$0.isWhitespace }.count))
        return try read { db in
            let segments = try ranked.snapshot(db)
            let words = try RankedDictionary.words(startingWith: prefix, in: segments)
            let candidates = words.sorted { ($0.count, $0) < ($1.count, $1) }.prefix(64)
            let now = self.now.timeIntervalSince1970
            var counted: [(word: String, count: Int)] = []
            for word in candidates {
                let count = try RankedDictionary.liveDocuments(holding: word, now: now, in: segments)
                if count > 0 { counted.append((word, count)) }
            }
            counted.sort { ($0.word == prefix ? 1 : 0, $0.count, $1.word) > ($1.word == prefix ? 1 : 0, $1.count, $0.word) }
            return counted.prefix(limit).map { head + $0.word }
        }
    }
}
