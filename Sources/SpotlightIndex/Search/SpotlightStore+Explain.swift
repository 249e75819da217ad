import Foundation
import GRDB

/// Why an item ranks where it does for what a user typed, or why it does
/// not match: ``SpotlightStore/explain(itemIdentifier:text:statistics:)``.
public struct SearchExplanation: Sendable, Hashable {
    /// One word of what was typed, and where the item has it.
    public struct Term: Sendable, Hashable {
        /// The word as matched (folded), `*` marking a prefix.
        public var text: String
        /// The item's attributes holding it; empty when none does.
        public var foundIn: [String]
        /// Its IDF in this search (this store's statistics, or those given).
        public var idf: Double = 0
    }

    /// The item.
    public var itemIdentifier: String
    /// What was typed.
    public var text: String
    /// Whether the item is a result.
    public var matches: Bool
    /// Its position among all results (1 is first); nil when it does not match.
    public var rank: Int?
    /// How many items match.
    public var matchCount: Int
    /// Its score, when it matches.
    public var score: ScoreBreakdown?
    /// Each word typed and where the item has it.
    public var terms: [Term]
    /// A sentence saying why.
    public var summary: String
}

extension SpotlightStore {
    /// Explains an item's place in the results for `text`: its rank among
    /// every match and its score's factors, or which typed words it lacks.
    ///
    /// ```swift
    /// let why = try store.explain(itemIdentifier: "p-pear", text: "pear")
    /// print(why.summary)   // "p-pear is result 1 of 1: 3.1 = text 2.4 × …"
    /// ```
    /// - Parameter itemIdentifier: the item's unique identifier.
    /// - Parameter text: what the user typed, as ``search(_:limit:statistics:fetching:)`` takes it.
    /// - Parameter statistics: as ``search(_:limit:statistics:fetching:)`` (system
    ///   search's, over every store): the same scores as there.
    /// - Throws: `.itemNotFound` when no live item has the identifier.
    public func explain(itemIdentifier: String, text: String, statistics: SearchStatistics? = nil) throws -> SearchExplanation {
        guard let stored = try item(withIdentifier: itemIdentifier) else {
            throw SpotlightIndexError(.itemNotFound, "no item \(StoreName.quoted(itemIdentifier)) in this store (deleted or expired?)", subject: itemIdentifier)
        }
        let queryTerms = TextTokenizer.queryTerms(text)
        var tokensByAttribute: [(String, [String])] = stored.item.attributes.keys.sorted().compactMap { name in
            guard FullTextIndex.isSearched(name), let texts = stored.item.attributes[name]?.texts else { return nil }
            return (name, texts.flatMap(TextTokenizer.indexTokens(of:)))
        }
        if let type = stored.item.contentType { tokensByAttribute.append(("contentType", TextTokenizer.indexTokens(of: type))) }
        let terms = queryTerms.map { term -> SearchExplanation.Term in
            let found = tokensByAttribute.filter { Self.contains($0.1, term) }.map(\.0)
            return SearchExplanation.Term(text: term.tokens.joined(separator: " ") + (term.isPrefix ? "*" : ""), foundIn: found)
        }
        var explanation = SearchExplanation(itemIdentifier: itemIdentifier, text: text, matches: false, rank: nil,
                                            matchCount: 0, score: nil, terms: terms, summary: "")
        guard !queryTerms.isEmpty else {
            explanation.summary = "\"\(text)\" has no word to search for"
            return explanation
        }
        // Every match in the order of search(_:limit:), from the same index.
        let (hits, rowid, own) = try read { db in
            (try rankedHits(queryTerms, limit: Int.max, statistics: statistics, db),
             try liveRowid(uid: itemIdentifier, now: now.timeIntervalSince1970, db),
             try RankedSearcher(segments: try ranked.snapshot(db), scoring: ranked.scoring, now: now.timeIntervalSince1970)
                .statistics(of: RankedQuery(queryTerms)))
        }
        // Each typed word's IDF, as the search scored it (CJK runs: their first bigram's).
        let used = statistics.flatMap { $0.matching.count == own.matching.count ? $0 : nil } ?? own
        var position = 0
        for (index, term) in queryTerms.enumerated() where position < used.matching.count {
            explanation.terms[index].idf = ranked.scoring.idf(documents: used.documents, matching: used.matching[position])
            position += term.tokens.count > 1 ? term.tokens.count : 1
        }
        explanation.matchCount = hits.count
        if let index = hits.firstIndex(where: { $0.rowid == rowid }) {
            explanation.matches = true
            explanation.rank = index + 1
            explanation.score = hits[index].score
        }
        if let rank = explanation.rank, let score = explanation.score {
            explanation.summary = "\(itemIdentifier) is result \(rank) of \(explanation.matchCount): \(score.explanation)"
        } else {
            let missing = terms.filter(\.foundIn.isEmpty).map { "\"\($0.text)\"" }
            explanation.summary = missing.isEmpty
                ? "\(itemIdentifier) has every word but not as one match (a phrase split across attributes?)"
                : "\(itemIdentifier) does not match: no attribute has \(missing.joined(separator: ", ")); every word must be found, the last as a prefix"
        }
        return explanation
    }

    /// Whether an attribute's tokens satisfy a query term.
    static func contains(_ tokens: [String], _ term: TextTokenizer.QueryTerm) -> Bool {
        if term.alternatives.contains(where: tokens.contains) { return true }
        let count = term.tokens.count
        guard count > 0, tokens.count >= count else { return false }
        for start in 0...(tokens.count - count) {
            var all = true
            for offset in 0..<count {
                let token = tokens[start + offset], wanted = term.tokens[offset]
                let ok = offset == count - 1 && term.isPrefix ? token.hasPrefix(wanted) : token == wanted
                if !ok { all = false; break }
            }
            if all { return true }
        }
        return false
    }
}
