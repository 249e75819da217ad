public import Foundation

/// The reference semantics of the query language (spec §4–§6, §9.1): decides
/// whether an item matches a ``QueryExpression``.
///
/// ```swift
/// let evaluator = QueryEvaluator(now: Date(), timeZone: .current)
/// let query = try QueryParser.parse(#"title == "Paris"wc && contentCreationDate > $time.today(-7)"#)
/// let hits = items.filter { evaluator.matches(query, $0) }
/// ```
///
/// The rules:
/// * Strings: the pattern matches the **whole** value (`*` any run, `?` one
///   character; escaped ones are literal); `c` folds case, `d` removes
///   diacritics, `w` matches a run of whole words, `t` matches every token
///   of the value against words of the attribute in any order
///   (see ``fold(_:caseInsensitive:diacriticInsensitive:)`` and
///   `PatternMatcher`).
/// * `"*"` and `null` test presence (any kind of value).
/// * `!=` is the negation of `==` with the same modifiers: true when the
///   attribute is missing, and for an array only when no element matches.
/// * An array attribute matches `==`, `<`…`>=` and `InRange` when any element does.
/// * `<`, `>`, `<=`, `>=` compare numbers and dates only (strings: false;
///   missing: false). Numbers compare numerically; a plain number against a
///   date is seconds since 2001-01-01T00:00Z; a quoted value against a number
///   is read as a number (`rating == "4"`), and against a date as ISO-8601
///   (or a number of seconds). Modifiers do not apply to numbers and dates.
/// * `$time` values are resolved once per ``matches(_:_:)`` call (once per
///   ``filter(_:_:)`` call) from ``now`` in ``timeZone`` with ``firstWeekday``.
///   With `==` / `!=`, a period (`today`, `yesterday`, `this_week`,
///   `last_week`, `this_month`, `this_year`, with or without offset) means
///   "within [start, next start)"; `$time.now` and `$time.iso` are instants.
///   With ordering and `InRange` every `$time` value is its start instant.
/// * `InRange(a, min, max)`: `min ≤ value ≤ max`, any element, numbers and
///   dates; missing → false; `min > max` → false.
/// * `*` ranges over the item's ``QueryableItem/defaultSearchableAttributes``,
///   `**` over those plus ``QueryableItem/contentAttributes``; the
///   comparison holds when any of their values matches (`* != v` is the
///   negation of `* == v`).
/// * Unknown attributes are absent; type mismatches are false, never errors.
/// * A bare number compared with a string attribute is a type mismatch (false).
public struct QueryEvaluator: Sendable {
    /// The instant `$time` values are resolved against.
    public let now: Date
    /// The zone that defines days, weeks, months and years.
    public let timeZone: TimeZone
    /// First day of the week, 1 = Sunday … 7 = Saturday.
    public let firstWeekday: Int
    /// Gregorian, in ``timeZone``.
    let calendar: Calendar

    /// An evaluator with a fixed clock.
    ///
    /// ```swift
    /// let evaluator = QueryEvaluator(now: Date(), timeZone: TimeZone(identifier: "Europe/Paris")!, firstWeekday: 2)
    /// ```
    ///
    /// - Parameters:
    ///   - now: the query's start instant.
    ///   - timeZone: the device time zone.
    ///   - firstWeekday: 1 = Sunday (the default) … 7 = Saturday; other values wrap around.
    public init(now: Date, timeZone: TimeZone, firstWeekday: Int = 1) {
        self.now = now
        self.timeZone = timeZone
        self.firstWeekday = ((firstWeekday - 1) % 7 + 7) % 7 + 1
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.firstWeekday = self.firstWeekday
        self.calendar = calendar
    }

    /// Whether an item matches an expression.
    ///
    /// ```swift
    /// let query = try QueryParser.parse(#"keywords != "travel""#)
    /// evaluator.matches(query, item)   // true when no keyword is "travel"
    /// ```
    public func matches(_ expression: QueryExpression, _ item: some QueryableItem) -> Bool {
        var context = EvaluationContext()
        return evaluate(expression, item, &context)
    }

    /// A matcher for one expression over many items: `$time` values are
    /// resolved, and patterns compiled, once for all of them.
    ///
    /// ```swift
    /// var matcher = evaluator.matcher(for: try QueryParser.parse(#"title == "*brar*"c"#))
    /// for item in items where matcher.matches(item) { print(item) }
    /// ```
    ///
    /// With a `budget`, a pattern match stops when it runs out (and answers
    /// false): check ``QueryBudget/isExhausted`` after each item, and treat
    /// the query as too expensive once it is.
    public func matcher(for expression: QueryExpression, budget: QueryBudget? = nil) -> Matcher {
        var matcher = Matcher(evaluator: self, expression: expression)
        matcher.context.budget = budget
        return matcher
    }

    /// See ``matcher(for:)``.
    public struct Matcher {
        let evaluator: QueryEvaluator
        /// The expression it decides.
        public let expression: QueryExpression
        var context = EvaluationContext()

        /// Whether an item matches ``expression``.
        public mutating func matches(_ item: some QueryableItem) -> Bool {
            evaluator.evaluate(expression, item, &context)
        }
    }

    /// The items that match, in order; `$time` values are resolved once for all of them.
    ///
    /// ```swift
    /// let hits = evaluator.filter(try QueryParser.parse("rating > 3"), items)
    /// ```
    public func filter<S: Sequence>(_ expression: QueryExpression, _ items: S) -> [S.Element]
    where S.Element: QueryableItem {
        var context = EvaluationContext()
        return items.filter { evaluate(expression, $0, &context) }
    }

    /// The folding behind the `c` and `d` modifiers, exactly as the evaluator
    /// applies it — for building folded indexes that agree with it.
    ///
    /// `c` is Unicode full case folding (Foundation's
    /// `folding(options: .caseInsensitive, locale: nil)`: `É` → `é`, `ß` → `ss`);
    /// `d` decomposes canonically and drops combining diacritical marks
    /// (`é` → `e`); the result is always in Normalization Form C. Folding is
    /// done character by character.
    ///
    /// ```swift
    /// QueryEvaluator.fold("Café Résumé", caseInsensitive: true, diacriticInsensitive: true)  // "cafe resume"
    /// QueryEvaluator.fold("Straße", caseInsensitive: true, diacriticInsensitive: false)     // "strasse"
    /// ```
    public static func fold(_ s: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
        String(QueryTextFolding.fold(s, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive))
            .precomposedStringWithCanonicalMapping
    }

    // MARK: Evaluation

    /// Per-call caches: resolved `$time` values and compiled patterns.
    struct EvaluationContext {
        struct PatternKey: Hashable {
            var pattern: QueryPattern
            var modifiers: QueryModifiers
        }
        var times: [TimeExpression: (start: Date, end: Date?)] = [:]
        var matchers: [PatternKey: PatternMatcher] = [:]
        /// Stops long pattern matches (they answer false once it is exhausted).
        var budget: QueryBudget?
    }

    func evaluate(_ expression: QueryExpression, _ item: some QueryableItem, _ context: inout EvaluationContext) -> Bool {
        switch expression {
        case .comparison(let comparison):
            return evaluate(comparison, item, &context)
        case .inRange(let range):
            return evaluate(range, item, &context)
        case .not(let operand):
            return !evaluate(operand, item, &context)
        case .and, .or:
            let (isOr, operands) = expression.chain!
            // Short-circuit: || stops at the first true, && at the first false.
            for operand in operands where evaluate(operand, item, &context) == isOr {
                return isOr
            }
            return !isOr
        }
    }

    func values(of attribute: QueryAttribute, _ item: some QueryableItem) -> [QueryItemValue] {
        switch attribute {
        case .named(let name):
            return item.values(of: name)
        case .anyAttribute:
            return item.defaultSearchableAttributes.flatMap { item.values(of: $0) }
        case .anyAttributeOrContent:
            return (item.defaultSearchableAttributes + item.contentAttributes).flatMap { item.values(of: $0) }
        }
    }

    func resolved(_ time: TimeExpression, _ context: inout EvaluationContext) -> (start: Date, end: Date?) {
        if let cached = context.times[time] { return cached }
        let value = resolve(time)
        context.times[time] = value
        return value
    }

    func evaluate(_ comparison: Comparison, _ item: some QueryableItem, _ context: inout EvaluationContext) -> Bool {
        let values = values(of: comparison.attribute, item)
        switch comparison.op {
        case .equal:
            return values.contains { isEqual($0, comparison, &context) }
        case .notEqual:
            return !values.contains { isEqual($0, comparison, &context) }
        case .less, .greater, .lessOrEqual, .greaterOrEqual:
            return values.contains { isOrdered($0, comparison, &context) }
        }
    }

    /// `value == comparison.value` for one value of the attribute.
    func isEqual(_ value: QueryItemValue, _ comparison: Comparison, _ context: inout EvaluationContext) -> Bool {
        switch comparison.value {
        case .null:
            return true
        case .pattern(let pattern):
            if pattern.isPresenceTest { return true }
            switch value {
            case .string(let text):
                let key = EvaluationContext.PatternKey(pattern: pattern, modifiers: comparison.modifiers)
                let matcher: PatternMatcher
                if let cached = context.matchers[key] {
                    matcher = cached
                } else {
                    matcher = PatternMatcher(pattern, modifiers: comparison.modifiers)
                    context.matchers[key] = matcher
                }
                return matcher.matches(text, budget: context.budget)
            case .number(let number):
                return Self.number(pattern).map { number == $0 } ?? false
            case .date(let date):
                return Self.dateInterval(pattern).map { date.timeIntervalSinceReferenceDate == $0 } ?? false
            }
        case .number(let number):
            switch value {
            case .number(let other): return other == number
            case .date(let date): return date.timeIntervalSinceReferenceDate == number
            case .string: return false
            }
        case .time(let time):
            guard case .date(let date) = value else { return false }
            let (start, end) = resolved(time, &context)
            if let end { return start <= date && date < end }
            return date == start
        }
    }

    /// `value op comparison.value` for `<`, `>`, `<=`, `>=`.
    func isOrdered(_ value: QueryItemValue, _ comparison: Comparison, _ context: inout EvaluationContext) -> Bool {
        let left: Double
        let right: Double?
        switch value {
        case .string:
            return false
        case .number(let number):
            left = number
            right = numericBound(comparison.value)
        case .date(let date):
            left = date.timeIntervalSinceReferenceDate
            right = dateBound(comparison.value, &context)
        }
        guard let right else { return false }
        switch comparison.op {
        case .less: return left < right
        case .greater: return left > right
        case .lessOrEqual: return left <= right
        case .greaterOrEqual: return left >= right
        case .equal, .notEqual: return false
        }
    }

    func evaluate(_ range: InRange, _ item: some QueryableItem, _ context: inout EvaluationContext) -> Bool {
        values(of: range.attribute, item).contains { value in
            let x: Double
            let lower: Double?
            let upper: Double?
            switch value {
            case .string:
                return false
            case .number(let number):
                x = number
                lower = numericBound(range.lower)
                upper = numericBound(range.upper)
            case .date(let date):
                x = date.timeIntervalSinceReferenceDate
                lower = dateBound(range.lower, &context)
                upper = dateBound(range.upper, &context)
            }
            guard let lower, let upper else { return false }
            return lower <= x && x <= upper
        }
    }

    /// A query value as a number for a numeric attribute.
    func numericBound(_ value: QueryValue) -> Double? {
        switch value {
        case .number(let number): number
        case .pattern(let pattern): Self.number(pattern)
        case .time, .null: nil
        }
    }

    /// A query value as seconds since 2001 for a date attribute (`$time`: its start instant).
    func dateBound(_ value: QueryValue, _ context: inout EvaluationContext) -> Double? {
        switch value {
        case .number(let number): number
        case .time(let time): resolved(time, &context).start.timeIntervalSinceReferenceDate
        case .pattern(let pattern): Self.dateInterval(pattern)
        case .null: nil
        }
    }

    /// A wildcard-free pattern read as a number (`"4"`, `" 4.5 "`).
    static func number(_ pattern: QueryPattern) -> Double? {
        guard let text = pattern.literalText else { return nil }
        return QueryNumberText.parse(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A wildcard-free pattern read as an ISO-8601 date, else as a number of
    /// seconds since 2001; as seconds since 2001.
    static func dateInterval(_ pattern: QueryPattern) -> Double? {
        guard let text = pattern.literalText else { return nil }
        if let date = ISO8601Text.parse(text) { return date.timeIntervalSinceReferenceDate }
        return QueryNumberText.parse(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
