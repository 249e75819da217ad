import Foundation
import GRDB
import SpotlightQuery

/// Turns a query into SQL that selects a *superset* of the rowids of the
/// items it matches, from the store's indexes; the evaluator then checks
/// each candidate, so results are exactly the evaluator's.
///
/// - word and prefix terms of a pattern go through the full-text index
///   (`fts`), limited to the attribute's column; the index folds case,
///   diacritics and width and holds camelCase parts, so it finds every item
///   the pattern can match, whatever the modifiers;
/// - numbers, dates and `$time` values, compared or in `InRange`, are range
///   scans of the typed attribute index (`attr_numbers`); a quoted number
///   or ISO date is looked up there too, since the evaluator coerces it;
/// - a word that may continue left of a wildcard (`*brar`, `*brar*`)
///   becomes the indexed words containing it, found in the ranked index's
///   term dictionaries (``RankedDictionary``; up to ``maxInfixWords``);
/// - `&&` intersects, `||` unions; `!`, `!=`, presence tests, fragments
///   found in too many words and identifier attributes have no index:
///   they yield `nil`, "every item", and a conjunction keeps the other
///   side's candidates.
struct QueryPlanner {
    let evaluator: QueryEvaluator
    /// The indexed words containing a folded fragment, or nil when there
    /// are more than ``maxInfixWords``.
    let wordsContaining: (String) throws -> [String]?

    /// Most words an infix fragment expands to; past that the fragment is
    /// common enough that reading items in order finds matches fast.
    static let maxInfixWords = 128

    init(evaluator: QueryEvaluator, wordsContaining: @escaping (String) throws -> [String]? = { _ in nil }) {
        self.evaluator = evaluator
        self.wordsContaining = wordsContaining
    }

    /// A candidate set as SQL (`SELECT rowid …`); `arguments` are bound in order.
    struct Candidates {
        var sql: String
        var arguments: [DatabaseValue]
        /// True when the SQL is one plain `SELECT rowid` (a full-text match)
        /// that can take `ORDER BY rowid` at no cost (FTS5 walks rowids in
        /// order), so that candidates can be read as they come: the first
        /// batch then costs its own candidates, not all of them.
        var isOrdered = false
        /// The FTS5 expression, when the candidates are one full-text match:
        /// `&&` and `||` of two such combine into one match.
        var ftsMatch: String?
        /// For a conjunction: its ordered side (a full-text match), a
        /// superset that can be streamed before the conjunction is computed
        /// (see ``probeLimit``).
        var probe: Probe?

        /// Conditions every match satisfies that can be checked for one
        /// rowid without reading the item (a typed value in range).
        var itemChecks: [ItemCheck] = []

        /// An ordered superset of a conjunction's candidates.
        struct Probe {
            var sql: String
            var arguments: [DatabaseValue]
        }
    }

    /// `SELECT 1 … WHERE item = ? AND …`: true when one item can match; the
    /// rowid is the first argument, then `arguments`.
    struct ItemCheck {
        var sql: String
        var arguments: [DatabaseValue]
    }

    /// How many of a conjunction's streamed candidates are checked before
    /// the conjunction itself is computed for the rest: enough for the
    /// first batches of a query whose matches are common among them, few
    /// enough (a few milliseconds) when they are not.
    static let probeLimit = 2_048

    func candidates(_ expression: QueryExpression) throws -> Candidates? {
        switch expression {
        case .and(let left, let right):
            switch (try candidates(left), try candidates(right)) {
            case let (l?, r?):
                if let lm = l.ftsMatch, let rm = r.ftsMatch { return Self.fts("(\(lm)) AND (\(rm))") }
                let ordered = [l, r].first(where: \.isOrdered).map { Candidates.Probe(sql: $0.sql, arguments: $0.arguments) }
                return Candidates(sql: "SELECT * FROM (\(l.sql) INTERSECT \(r.sql))", arguments: l.arguments + r.arguments,
                                  probe: ordered ?? l.probe ?? r.probe, itemChecks: l.itemChecks + r.itemChecks)
            case let (l?, nil): return l
            case let (nil, r?): return r
            case (nil, nil): return nil
            }
        case .or(let left, let right):
            guard let l = try candidates(left), let r = try candidates(right) else { return nil }
            if let lm = l.ftsMatch, let rm = r.ftsMatch { return Self.fts("(\(lm)) OR (\(rm))") }
            return Candidates(sql: "SELECT * FROM (\(l.sql) UNION \(r.sql))", arguments: l.arguments + r.arguments)
        case .not:
            return nil
        case .inRange(let range):
            guard case .named(let name) = range.attribute,
                  let lower = instant(range.lower), let upper = instant(range.upper) else { return nil }
            return numbers(name, "value >= ? AND value <= ?", [lower, upper])
        case .comparison(let comparison):
            return try candidates(comparison)
        }
    }

    private func candidates(_ comparison: Comparison) throws -> Candidates? {
        switch comparison.value {
        case .number(let number):
            guard case .named(let name) = comparison.attribute else { return nil }
            return numeric(name, comparison.op, start: number, end: nil)
        case .time(let time):
            guard case .named(let name) = comparison.attribute else { return nil }
            let (start, end) = evaluator.resolve(time)
            return numeric(name, comparison.op, start: start.timeIntervalSinceReferenceDate, end: end?.timeIntervalSinceReferenceDate)
        case .null:
            return nil
        case .pattern(let pattern):
            guard comparison.op == .equal, !pattern.isPresenceTest else { return nil }
            let column: String?
            switch comparison.attribute {
            case .anyAttribute, .anyAttributeOrContent:
                column = nil
            case .named(let name):
                guard FullTextIndex.isSearched(name), !QueryPlanner.itemFields.contains(name) else { return nil }
                column = FullTextIndex.column(of: name)
            }
            var text: Candidates
            switch try QueryPlanner.ftsMatch(pattern, wordsContaining: wordsContaining) {
            case .unconstrained:
                return nil
            case .impossible:
                text = Candidates(sql: "SELECT rowid FROM items WHERE 0", arguments: [], isOrdered: true)
            case .match(let match):
                text = Self.fts(column.map { "\($0) : (\(match))" } ?? match)
            }
            // A quoted number or ISO date also matches numeric and date values.
            if case .named(let name) = comparison.attribute, let literal = QueryPlanner.literalText(pattern) {
                var values: [Double] = []
                if let number = Double(literal.trimmingCharacters(in: .whitespacesAndNewlines)) { values.append(number) }
                if let date = TimeExpression.parseISO8601(literal) { values.append(date.timeIntervalSinceReferenceDate) }
                for value in values {
                    let rows = numbers(name, "value = ?", [value])
                    text = Candidates(sql: "SELECT * FROM (\(text.sql) UNION \(rows.sql))", arguments: text.arguments + rows.arguments)
                }
            }
            return text
        }
    }

    /// The candidates of one full-text match, in rowid order.
    static func fts(_ match: String) -> Candidates {
        Candidates(sql: "SELECT rowid FROM fts WHERE fts MATCH ?", arguments: [match.databaseValue], isOrdered: true, ftsMatch: match)
    }

    /// Attributes that come from the item rather than its attribute set.
    static let itemFields: Set<String> = ["uniqueIdentifier", "domainIdentifier", "contentType", "contentTypeTree"]

    private func numeric(_ name: String, _ op: ComparisonOperator, start: Double, end: Double?) -> Candidates? {
        switch op {
        case .equal:
            if let end { return numbers(name, "value >= ? AND value < ?", [start, end]) }
            return numbers(name, "value = ?", [start])
        case .less: return numbers(name, "value < ?", [start])
        case .lessOrEqual: return numbers(name, "value <= ?", [start])
        case .greater: return numbers(name, "value > ?", [start])
        case .greaterOrEqual: return numbers(name, "value >= ?", [start])
        case .notEqual: return nil
        }
    }

    private func numbers(_ name: String, _ condition: String, _ values: [Double]) -> Candidates {
        let arguments = [name.databaseValue] + values.map(\.databaseValue)
        return Candidates(sql: "SELECT item FROM attr_numbers WHERE name = ? AND \(condition)", arguments: arguments,
                          itemChecks: [ItemCheck(sql: "SELECT 1 FROM attr_numbers WHERE item = ? AND name = ? AND \(condition)",
                                                 arguments: arguments)])
    }

    /// The instant of a range bound, as seconds since 2001; nil for a pattern.
    private func instant(_ value: QueryValue) -> Double? {
        switch value {
        case .number(let number): return number
        case .time(let time): return evaluator.resolve(time).start.timeIntervalSinceReferenceDate
        case .pattern, .null: return nil
        }
    }

    // MARK: - Patterns as full-text terms

    /// The text of a pattern without wildcards, or nil when it has one.
    static func literalText(_ pattern: QueryPattern) -> String? {
        var text = ""
        for element in pattern.elements {
            guard case .literal(let literal) = element else { return nil }
            text += literal
        }
        return text
    }

    /// What the full-text index can say about a pattern.
    enum FTSMatch: Equatable {
        /// An FTS5 expression every item matching the pattern satisfies.
        case match(String)
        /// No item can match (a fragment no indexed word contains).
        case impossible
        /// No usable term: every item is a candidate.
        case unconstrained
    }

    /// The FTS5 expression every item matching the pattern satisfies.
    ///
    /// Each literal run between wildcards is tokenized as queries are. A
    /// token touching a wildcard on its left may be the end (or the middle)
    /// of a longer word: it becomes the indexed words containing it, or is
    /// left out when `wordsContaining` finds too many (CJK n-grams are
    /// taken as they are: any substring's are indexed). One touching a
    /// wildcard on its right is a prefix. A token the evaluator may align
    /// inside a camelCase word (`w`, `t`) is a run of that word's parts,
    /// which the tokenizer indexes.
    static func ftsMatch(_ pattern: QueryPattern, wordsContaining: (String) throws -> [String]? = { _ in nil }) rethrows -> FTSMatch {
        var terms: [String] = []
        let elements = pattern.elements
        for (index, element) in elements.enumerated() {
            guard case .literal(let literal) = element else { continue }
            let wildcardBefore = index > 0
            let wildcardAfter = index < elements.count - 1
            let startsInWord = literal.unicodeScalars.first.map(TextFolding.isWordScalar) ?? false
            let endsInWord = literal.unicodeScalars.last.map(TextFolding.isWordScalar) ?? false
            let segmentTerms = TextTokenizer.queryTerms(literal)
            for (position, term) in segmentTerms.enumerated() {
                let isCJK = term.tokens.first?.unicodeScalars.first.map { TextFolding.isCJK($0.value) } ?? false
                if position == 0, wildcardBefore, startsInWord, !isCJK {
                    guard term.tokens.count == 1, let words = try wordsContaining(term.tokens[0]) else { continue }
                    if words.isEmpty { return .impossible }
                    terms.append("(" + words.map { "\"" + $0 + "\"" }.joined(separator: " OR ") + ")")
                    continue
                }
                let prefix = position == segmentTerms.count - 1 && wildcardAfter && endsInWord && !isCJK
                terms.append("\"" + term.tokens.joined(separator: " ") + "\"" + (prefix ? "*" : ""))
            }
        }
        return terms.isEmpty ? .unconstrained : .match(terms.joined(separator: " AND "))
    }
}
