import Foundation
import SpotlightQuery

/// Turns a query into a *superset* of the rowids of the items it matches,
/// from the store's indexes; the evaluator then checks each candidate, so
/// results are exactly the evaluator's.
///
/// - word and prefix terms of a pattern are looked up in the ranked index
///   (``RankedDictionary/rowids(matching:columns:in:)``), limited to the
///   attribute's column; the index folds case, diacritics and width and
///   holds camelCase parts, so it finds every item the pattern can match,
///   whatever the modifiers. Its answer is a sorted list of rowids;
/// - numbers, dates and `$time` values, compared or in `InRange`, are
///   ranges of the ranked index's typed values (``RankedLookups``); a
///   quoted number or ISO date is looked up there too, since the evaluator
///   coerces it;
/// - a word that may continue left of a wildcard (`*brar`, `*brar*`)
///   becomes the indexed words containing it, found in the ranked index's
///   term dictionaries (``RankedDictionary``; up to ``maxInfixWords``);
/// - `==` a short ASCII string without wildcards or modifiers, in an
///   attribute the exact-value index lists (``NumericIndex/hasExactValues(_:)``),
///   is looked up there (``/RankedSearch/ExactValues``), not as words:
///   `section == "libs"` is not every item holding the word `libs`;
///   `uniqueIdentifier ==` an ASCII string is looked up by its hash in the
///   segments, which keep each document's identifier;
/// - `&&` intersects, `||` unions the sides' sorted rowid lists (one
///   wildcard pattern in two text attributes is looked up once, in both
///   columns); `!`, `!=`, presence tests, fragments found in too many
///   words and identifier attributes have no index: they yield `nil`,
///   "every item", and a conjunction keeps the other side's candidates.
///
/// Candidates are ``Candidates/exact`` when they are the matches
/// themselves, so that reading the rows to check them changes nothing
/// (``SpotlightStore/queryIdentifiers(_:limit:)`` then reads none): a
/// number compared with a named attribute (the typed values hold every
/// number, date and bool, as the evaluator compares them), a string the
/// exact-value index lists for every candidate document, an identifier,
/// and `&&` and `||` of exact sides. Some are ``Candidates/certain``
/// where the rest are not: `title == "*fragment*"c` (the fragment ASCII
/// letters and digits, `c` with or without `d`) in documents whose title
/// column holds only their title, in ASCII (``Segment/plainColumns(_:)``):
/// a word there containing the fragment means the title contains it,
/// whatever its case; `*` and `**` likewise in any such column. Expiry
/// is the caller's.
struct QueryPlanner {
    let evaluator: QueryEvaluator
    /// The indexed words containing a folded fragment, or nil when there
    /// are more than ``maxInfixWords``.
    let wordsContaining: (String) throws -> [String]?
    /// The rowids of the items holding every term in one of the columns
    /// (bits of ``TextColumns/bit(of:)``), ascending, and those certain in
    /// the second columns (``RankedDictionary/rowids(matching:columns:certainColumns:in:)``);
    /// nil when the index cannot say.
    let rowidsMatching: ([TextTerm], UInt8, UInt8) throws -> (rowids: [Int64], certain: [Int64])?
    /// The rowids of the items with a value of the attribute in the range,
    /// ascending; nil when the index cannot say.
    let rowidsInRange: (String, NumberRange) throws -> [Int64]?
    /// The rowids of the items whose unique identifier is the string, byte
    /// for byte, ascending; nil when the index cannot say.
    let rowidsWithIdentifier: (String) throws -> [Int64]?
    /// Whether the exact-value index lists every value of the attribute
    /// where candidates are looked for (``ExactValues/lists(attribute:in:)``).
    let listsExactValues: (String) throws -> Bool

    /// Most words an infix fragment expands to; past that the fragment is
    /// common enough that reading items in order finds matches fast.
    static let maxInfixWords = 1_024

    init(evaluator: QueryEvaluator, wordsContaining: @escaping (String) throws -> [String]? = { _ in nil },
         rowidsMatching: @escaping ([TextTerm], UInt8, UInt8) throws -> (rowids: [Int64], certain: [Int64])? = { _, _, _ in nil },
         rowidsWithIdentifier: @escaping (String) throws -> [Int64]? = { _ in nil },
         listsExactValues: @escaping (String) throws -> Bool = { _ in false },
         rowidsInRange: @escaping (String, NumberRange) throws -> [Int64]? = { _, _ in nil }) {
        self.evaluator = evaluator
        self.wordsContaining = wordsContaining
        self.rowidsMatching = rowidsMatching
        self.rowidsInRange = rowidsInRange
        self.rowidsWithIdentifier = rowidsWithIdentifier
        self.listsExactValues = listsExactValues
    }

    /// A text term of the query language's candidates (``RankedDictionary``).
    typealias TextTerm = RankedSearch.TextTerm

    /// A candidate set: rowids, ascending and distinct, and whether they
    /// are exactly the items the expression matches (expiry aside), or
    /// which of them are.
    struct Candidates: Equatable {
        var rowids: [Int64]
        var exact: Bool
        /// Candidates that match (expiry aside), ascending: a subset of
        /// ``rowids``, empty when ``exact`` (then all of them match).
        var certain: [Int64]

        init(_ rowids: [Int64], exact: Bool = false, certain: [Int64] = []) {
            self.rowids = rowids
            self.exact = exact
            self.certain = exact ? [] : certain
        }

        /// The candidates known to match: all when exact, else the certain.
        var sure: [Int64] { exact ? rowids : certain }
    }

    /// The candidates of `expression`, nil for "every item".
    ///
    /// Recursive over `&&` and `||`, so its own frame holds only the
    /// recursion: each case's work is a function of its own. A chain of
    /// 5,000 conjunctions (`QueryBudgetTests`) recurses 5,000 deep, on a
    /// thread's 8 MB stack in a debug build too.
    func candidates(_ expression: QueryExpression) throws -> Candidates? {
        switch expression {
        case .and(let left, let right):
            return Self.both(try candidates(left), try candidates(right))
        case .or(let left, let right):
            if case .some(let shared) = try sharedPattern(left, right) { return shared }
            return Self.either(try candidates(left), try candidates(right))
        case .not:
            return nil
        case .inRange(let range):
            return try inRange(range)
        case .comparison(let comparison):
            return try candidates(comparison)
        }
    }

    /// `&&`: the candidates of both sides, certain where both are sure.
    @inline(never)
    private static func both(_ left: Candidates?, _ right: Candidates?) -> Candidates? {
        switch (left, right) {
        case (let l?, let r?):
            return Candidates(intersection(l.rowids, r.rowids), exact: l.exact && r.exact, certain: intersection(l.sure, r.sure))
        case (let l?, nil): return Candidates(l.rowids)
        case (nil, let r?): return Candidates(r.rowids)
        case (nil, nil): return nil
        }
    }

    /// `||`: the candidates of either side (every item when a side has no
    /// index), certain where either is sure.
    @inline(never)
    private static func either(_ left: Candidates?, _ right: Candidates?) -> Candidates? {
        guard let l = left, let r = right else { return nil }
        return Candidates(union(l.rowids, r.rowids), exact: l.exact && r.exact, certain: union(l.sure, r.sure))
    }

    /// One pattern in two text attributes (`title == "*ste*"c ||
    /// contentDescription == "*ste*"c`): its terms are read once, in both
    /// columns. Items holding each term in either column are a superset of
    /// those holding all of them in one. `.none` for any other `||`.
    @inline(never)
    private func sharedPattern(_ left: QueryExpression, _ right: QueryExpression) throws -> Candidates?? {
        guard let l = textComparison(left), let r = textComparison(right), l.pattern == r.pattern else { return nil }
        return .some(try textCandidates(l.pattern, columns: l.columns | r.columns, certainColumns: l.certainColumns | r.certainColumns))
    }

    /// `InRange` of a named attribute, through its typed values.
    @inline(never)
    private func inRange(_ range: InRange) throws -> Candidates? {
        guard case .named(let name) = range.attribute,
              let lower = instant(range.lower), let upper = instant(range.upper) else { return nil }
        // Numbers as bounds compare with numbers and dates alike; a `$time` bound only with dates.
        let numeric = Self.isNumber(range.lower) && Self.isNumber(range.upper)
        return try rowidsInRange(name, NumberRange(lower: lower, upper: upper)).map { Candidates($0, exact: numeric && Self.isTypedExactly(name)) }
    }

    private func candidates(_ comparison: Comparison) throws -> Candidates? {
        switch comparison.value {
        case .number(let number):
            guard case .named(let name) = comparison.attribute else { return nil }
            return try numeric(name, comparison.op, start: number, end: nil).map { Candidates($0, exact: Self.isTypedExactly(name)) }
        case .time(let time):
            guard case .named(let name) = comparison.attribute else { return nil }
            let (start, end) = evaluator.resolve(time)
            return try numeric(name, comparison.op, start: start.timeIntervalSinceReferenceDate, end: end?.timeIntervalSinceReferenceDate)
                .map { Candidates($0) }
        case .null:
            return nil
        case .pattern(let pattern):
            guard comparison.op == .equal, !pattern.isPresenceTest else { return nil }
            // The item's identifier, always a string: its hash, each holder's bytes compared.
            if comparison.attribute == .named("uniqueIdentifier") {
                guard comparison.modifiers.isEmpty, let literal = QueryPlanner.literalText(pattern), literal.utf8.allSatisfy({ $0 < 0x80 }),
                      let rowids = try rowidsWithIdentifier(literal) else { return nil }
                return Candidates(rowids, exact: true)
            }
            let exactValue = try exactValueCandidates(comparison, pattern)
            var candidates: Candidates
            if let exactValue {
                candidates = exactValue
            } else {
                guard let columns = Self.textColumns(of: comparison.attribute),
                      let text = try textCandidates(pattern, columns: columns,
                                                    certainColumns: Self.certainColumns(comparison.attribute, pattern, comparison.modifiers))
                else { return nil }
                candidates = text
            }
            // A quoted number or ISO date also matches numeric and date values
            // (one without a digit is neither, or not finite: `inf`, `nan`).
            if case .named(let name) = comparison.attribute, let literal = QueryPlanner.literalText(pattern),
               literal.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) {
                var values: [Double] = []
                if let number = Double(literal.trimmingCharacters(in: .whitespacesAndNewlines)) { values.append(number) }
                if let date = TimeExpression.parseISO8601(literal) { values.append(date.timeIntervalSinceReferenceDate) }
                for value in values {
                    guard let rows = try rowidsInRange(name, .equal(value)) else { return nil }
                    candidates = Candidates(Self.union(candidates.rowids, rows), certain: candidates.sure)
                }
            }
            return candidates
        }
    }

    /// `attribute == "value"` from the exact-value index: the documents
    /// listing the value, exactly; nil when the comparison is not one it
    /// answers, or a segment looked in does not list the attribute.
    private func exactValueCandidates(_ comparison: Comparison, _ pattern: QueryPattern) throws -> Candidates? {
        // `ExactValues.name` is nil for a value the index does not list (not ASCII, too long).
        guard comparison.modifiers.isEmpty, case .named(let name) = comparison.attribute, NumericIndex.hasExactValues(name),
              let literal = QueryPlanner.literalText(pattern), let listed = ExactValues.name(attribute: name, value: literal),
              try listsExactValues(name), let matching = try rowidsInRange(listed, .equal(0)) else { return nil }
        return Candidates(matching, exact: true)
    }

    /// Whether the typed values of `name` are exactly the numbers and dates
    /// the evaluator compares: not one of the item's fields, which the
    /// evaluator reads from the item, nor a name the exact-value index reserves.
    private static func isTypedExactly(_ name: String) -> Bool {
        !itemFields.contains(name) && !ExactValues.isReservedName(name.utf8)
    }

    /// A bound the evaluator compares with numbers and dates alike.
    private static func isNumber(_ value: QueryValue) -> Bool {
        if case .number = value { return true }
        return false
    }

    /// The items whose text in `columns` may match `pattern`, from the
    /// ranked index; nil when it cannot say.
    private func textCandidates(_ pattern: QueryPattern, columns: UInt8, certainColumns: UInt8 = 0) throws -> Candidates? {
        switch try QueryPlanner.textMatch(pattern, wordsContaining: wordsContaining) {
        case .unconstrained: return nil
        case .impossible: return Candidates([])
        case .match(let terms): return try rowidsMatching(terms, columns, certainColumns).map { Candidates($0.rowids, certain: $0.certain) }
        }
    }

    /// The columns where a document holding a word that contains the
    /// pattern's fragment surely matches `attribute == pattern` with
    /// `modifiers` (where the column is plain: ``Segment/plainColumns(_:)``):
    /// the attribute's column when it is the column's own attribute
    /// (``TextColumns/primaryAttributes``), or all three such columns for
    /// `*` and `**` (each of those attributes is one they look at), when
    /// the pattern is `*fragment*` of ASCII letters and digits and the
    /// comparison ignores case (`c`, with or without `d`; `w` and `t`
    /// match words, not substrings); else 0.
    ///
    /// ```swift
    /// QueryPlanner.certainColumns(.named("title"), pattern, [.caseInsensitive])   // 1, for "*brar*"
    /// ```
    static func certainColumns(_ attribute: QueryAttribute, _ pattern: QueryPattern, _ modifiers: QueryModifiers) -> UInt8 {
        guard modifiers.contains(.caseInsensitive), modifiers.subtracting([.caseInsensitive, .diacriticInsensitive]).isEmpty,
              pattern.elements.count == 3, pattern.elements[0] == .anyRun, pattern.elements[2] == .anyRun,
              case .literal(let fragment) = pattern.elements[1], !fragment.isEmpty,
              fragment.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) })
        else { return 0 }
        switch attribute {
        case .anyAttribute, .anyAttributeOrContent:
            return TextColumns.primaryAttributes.reduce(0) { $0 | TextColumns.bit(of: $1) }
        case .named(let name):
            guard let column = TextColumns.column(of: name), TextColumns.isPrimary(name, column: column) else { return 0 }
            return TextColumns.bit(of: name)
        }
    }

    /// A comparison answered by text alone (`==` a pattern with a wildcard,
    /// in a searched attribute): its pattern and columns; nil for any other.
    private func textComparison(_ expression: QueryExpression) -> (pattern: QueryPattern, columns: UInt8, certainColumns: UInt8)? {
        guard case .comparison(let comparison) = expression, comparison.op == .equal,
              case .pattern(let pattern) = comparison.value, !pattern.isPresenceTest,
              QueryPlanner.literalText(pattern) == nil, let columns = Self.textColumns(of: comparison.attribute) else { return nil }
        return (pattern, columns, Self.certainColumns(comparison.attribute, pattern, comparison.modifiers))
    }

    /// The ranked index's columns holding an attribute's text (all of them
    /// for `*` and `**`); nil for one not searched or an item field.
    private static func textColumns(of attribute: QueryAttribute) -> UInt8? {
        switch attribute {
        case .anyAttribute, .anyAttributeOrContent:
            return TextColumns.allColumns
        case .named(let name):
            guard FullTextIndex.isSearched(name), !itemFields.contains(name) else { return nil }
            return TextColumns.bit(of: name)
        }
    }

    /// Sorted, distinct rowids in both lists.
    static func intersection(_ a: [Int64], _ b: [Int64]) -> [Int64] {
        var out: [Int64] = []
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if a[i] < b[j] { i += 1 } else if a[i] > b[j] { j += 1 } else { out.append(a[i]); i += 1; j += 1 }
        }
        return out
    }

    /// Sorted, distinct rowids in either list.
    static func union(_ a: [Int64], _ b: [Int64]) -> [Int64] {
        var out: [Int64] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i] < b[j]) { out.append(a[i]); i += 1 }
            else if i == a.count || b[j] < a[i] { out.append(b[j]); j += 1 }
            else { out.append(a[i]); i += 1; j += 1 }
        }
        return out
    }

    /// Attributes that come from the item rather than its attribute set.
    static let itemFields: Set<String> = ["uniqueIdentifier", "domainIdentifier", "contentType", "contentTypeTree"]

    private func numeric(_ name: String, _ op: ComparisonOperator, start: Double, end: Double?) throws -> [Int64]? {
        let range: NumberRange
        switch op {
        case .equal:
            if let end { range = NumberRange(lower: start, upper: end, upperInclusive: false) } else { range = .equal(start) }
        case .less: range = NumberRange(upper: start, upperInclusive: false)
        case .lessOrEqual: range = NumberRange(upper: start)
        case .greater: range = NumberRange(lower: start, lowerInclusive: false)
        case .greaterOrEqual: range = NumberRange(lower: start)
        case .notEqual: return nil
        }
        return try rowidsInRange(name, range)
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

    /// What the ranked index can say about a pattern.
    enum TextMatch: Equatable {
        /// Terms every item matching the pattern holds.
        case match([TextTerm])
        /// No item can match (a fragment no indexed word contains).
        case impossible
        /// No usable term: every item is a candidate.
        case unconstrained
    }

    /// The terms every item matching the pattern holds.
    ///
    /// Each literal run between wildcards is tokenized as queries are; a
    /// run of several tokens (a phrase, CJK bigrams) needs each of them. A
    /// token touching a wildcard on its left may be the end (or the middle)
    /// of a longer word: it becomes the indexed words containing it, or is
    /// left out when `wordsContaining` finds too many (CJK n-grams are
    /// taken as they are: any substring's are indexed). One touching a
    /// wildcard on its right is a prefix. A token the evaluator may align
    /// inside a camelCase word (`w`, `t`) is one of that word's parts,
    /// which the tokenizer indexes.
    static func textMatch(_ pattern: QueryPattern, wordsContaining: (String) throws -> [String]? = { _ in nil }) rethrows -> TextMatch {
        var terms: [TextTerm] = []
        // A term or fragment repeated (`a*a*a*…`) is needed once: asking the
        // dictionaries again would only copy the same words again.
        var seen: Set<TextTerm> = []
        var seenFragments: Set<String> = []
        func append(_ term: TextTerm) {
            if seen.insert(term).inserted { terms.append(term) }
        }
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
                    guard term.tokens.count == 1, seenFragments.insert(term.tokens[0]).inserted,
                          let words = try wordsContaining(term.tokens[0]) else { continue }
                    if words.isEmpty { return .impossible }
                    terms.append(.anyOf(words))
                    continue
                }
                let prefix = position == segmentTerms.count - 1 && wildcardAfter && endsInWord && !isCJK
                for (tokenIndex, token) in term.tokens.enumerated() {
                    append(prefix && tokenIndex == term.tokens.count - 1 ? .prefix(token) : .word(token))
                }
            }
        }
        return terms.isEmpty ? .unconstrained : .match(terms)
    }
}
