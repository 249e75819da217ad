public import Foundation

/// A parsed Spotlight query: Apple's `CSSearchQuery` / `mdfind` query language.
///
/// ```swift
/// let query = try QueryParser.parse(#"title == "Paris"wc && rating > 3"#)
/// // .and(.comparison(title == "Paris" [w, c]), .comparison(rating > 3))
/// print(QueryPrinter.print(query))        // title == "Paris"cw && rating > 3
/// ```
///
/// `!` binds tightest, then `&&`, then `||`, all left-associative
/// (`shared/spec/query-language.md` §3).
public indirect enum QueryExpression: Sendable, Hashable {
    case comparison(Comparison)
    case inRange(InRange)
    case not(QueryExpression)
    case and(QueryExpression, QueryExpression)
    case or(QueryExpression, QueryExpression)
}

/// What a comparison or `InRange` looks at.
public enum QueryAttribute: Sendable, Hashable {
    /// A property or custom key name, case-sensitive (`title`, `kMDItemFSName`).
    case named(String)
    /// `*`: any string attribute except content text (see ``QueryEvaluator``).
    case anyAttribute
    /// `**`: any string attribute including content text.
    case anyAttributeOrContent
}

/// `==`, `!=`, `<`, `>`, `<=`, `>=` (a single `=` parses as `==`).
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case greater = ">"
    case lessOrEqual = "<="
    case greaterOrEqual = ">="
}

/// The modifier letters `c` (case-insensitive), `d` (diacritic-insensitive),
/// `w` (word-based) and `t` (tokenized), in any order, after the value or in
/// brackets after the operator (the two forms are merged).
public struct QueryModifiers: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let caseInsensitive = QueryModifiers(rawValue: 1)
    public static let diacriticInsensitive = QueryModifiers(rawValue: 2)
    public static let wordBased = QueryModifiers(rawValue: 4)
    public static let tokenized = QueryModifiers(rawValue: 8)
}

/// One piece of a string pattern: wildcards are `*` and `?`; a
/// backslash-escaped `\*` or `\?` is literal text.
public enum PatternElement: Sendable, Hashable {
    /// Literal text (never empty; adjacent literals are merged).
    case literal(String)
    /// `*`: zero or more characters.
    case anyRun
    /// `?`: exactly one character.
    case anyOne
}

/// A string value as a pattern. Quoted and bare spellings of the same
/// text give the same pattern; `"*"` (or a bare `*`) is the presence test.
public struct QueryPattern: Sendable, Hashable {
    public var elements: [PatternElement]
    public init(_ elements: [PatternElement]) { self.elements = elements }

    /// True for `"*"`: the attribute exists.
    public var isPresenceTest: Bool { elements == [.anyRun] }
}

/// A `$time` expression, resolved against the clock when the query starts.
public enum TimeExpression: Sendable, Hashable {
    /// `$time.now(N)`: now + N seconds.
    case now(offsetSeconds: Int)
    /// `$time.today(N)`: the day N days from today (a period).
    case today(offsetDays: Int)
    /// `$time.yesterday`: the previous day (a period).
    case yesterday
    /// `$time.this_week(N)`: the week N weeks away (a period).
    case thisWeek(offsetWeeks: Int)
    /// `$time.last_week`: `this_week(-1)`.
    case lastWeek
    /// `$time.this_month(N)` (a period).
    case thisMonth(offsetMonths: Int)
    /// `$time.this_year(N)` (a period).
    case thisYear(offsetYears: Int)
    /// `$time.iso(S)`, or a quoted ISO-8601 date compared with a date: an instant.
    case iso(Date)
}

/// The right-hand side of a comparison.
public enum QueryValue: Sendable, Hashable {
    /// A quoted or bare string, as a pattern.
    case pattern(QueryPattern)
    /// A number (also a date as seconds since 2001-01-01 00:00 UTC).
    case number(Double)
    /// A `$time` expression.
    case time(TimeExpression)
    /// The bare word `null`: the presence pattern `"*"` (spec §2).
    case null
}

/// `attribute op value[modifiers]`.
public struct Comparison: Sendable, Hashable {
    public var attribute: QueryAttribute
    public var op: ComparisonOperator
    public var value: QueryValue
    public var modifiers: QueryModifiers

    public init(attribute: QueryAttribute, op: ComparisonOperator, value: QueryValue, modifiers: QueryModifiers = []) {
        self.attribute = attribute
        self.op = op
        self.value = value
        self.modifiers = modifiers
    }
}

/// `InRange(attribute, min, max)`: inclusive at both ends.
public struct InRange: Sendable, Hashable {
    public var attribute: QueryAttribute
    public var lower: QueryValue
    public var upper: QueryValue

    public init(attribute: QueryAttribute, lower: QueryValue, upper: QueryValue) {
        self.attribute = attribute
        self.lower = lower
        self.upper = upper
    }
}

/// A value of an item's attribute, as the evaluator sees it.
public enum QueryItemValue: Sendable, Hashable {
    case string(String)
    case number(Double)
    case date(Date)
}

/// What the evaluator needs of an item: its attributes' values (an array
/// attribute gives several; a missing one gives none) and which attributes
/// `*` and `**` range over.
public protocol QueryableItem {
    /// The values of an attribute; empty when the item does not have it.
    func values(of attribute: String) -> [QueryItemValue]
    /// The string attributes `*` ranges over (not content text).
    var defaultSearchableAttributes: [String] { get }
    /// The content text attributes `**` adds (`textContent`, …).
    var contentAttributes: [String] { get }
}
