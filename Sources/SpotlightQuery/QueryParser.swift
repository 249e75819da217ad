/// Parses Spotlight query strings (`CSSearchQuery`, `mdfind`, `MDQueryCreate`)
/// into a ``QueryExpression`` — `shared/spec/query-language.md` §2–§3, §6–§8.
///
/// ```swift
/// let query = try QueryParser.parse(#"title == "Paris"wc && rating > 3"#)
/// let narrow = try QueryParser.parse("kMDItemDisplayName = *TCC.db")
/// let recent = try QueryParser.parse("InRange(completionDate, $time.today(-10), $time.today)")
/// ```
///
/// What it accepts:
/// * `attribute op value[modifiers]` with `==`, `!=`, `<`, `>`, `<=`, `>=`,
///   and `=` (read as `==`); `attribute` is a name, `*` or `**`.
/// * Modifiers `c d w t` right after a quoted value (`"Paris"wc`), in brackets
///   right after the operator (`==[cd]`), or after an unquoted value separated
///   by a space (`search* cdw`); the forms are merged.
/// * Values: `"…"` / `'…'` strings (a backslash makes the next character
///   literal, so `\*` and `\?` are literal text while bare `*` and `?` are
///   wildcards); unquoted words (`public.archive`, `*.ts`, `Paris`) — a word
///   that is number syntax is a ``QueryValue/number(_:)``, `null` is
///   ``QueryValue/null``, `*` is the presence pattern; runs of `*` collapse
///   to one; numbers with sign, fraction and exponent; `$time` expressions.
/// * `InRange(attribute, min, max)` (name case-insensitive) with numbers,
///   `$time` values or quoted strings; a quoted string without backslash
///   escapes that reads as ISO-8601 becomes `.time(.iso(date))`.
///   (`null` is also accepted there so that every printed query reads back.)
/// * `$time.now|today|this_week|this_month|this_year` with an optional
///   `(±N)` whole-number offset (`()` = no offset), `$time.yesterday`,
///   `$time.last_week`, `$time.iso(text)` with the text quoted or not.
///   ISO text without a zone — and a date alone — is read as UTC, since the
///   parser has no time zone.
/// * `!`, `&&`, `||`, parentheses: `!` binds tightest, then `&&`, then `||`,
///   all left-associative.
///
/// Quoted ISO dates compared with `==`, `<`, … stay patterns; the
/// ``QueryEvaluator`` reads them as dates when the attribute holds dates.
///
/// Limits: at most ``maximumLength`` UTF-8 bytes and ``maximumNesting`` levels
/// of parentheses and `!`; parsing is linear in the input. `&&`/`||` chains
/// become left-deep trees.
public enum QueryParser {
    /// The longest query accepted, in UTF-8 bytes (64 KiB).
    public static let maximumLength = 65_536

    /// The deepest nesting of parentheses and `!` accepted.
    public static let maximumNesting = 256

    /// Parses a query string.
    ///
    /// ```swift
    /// let query = try QueryParser.parse(#"(authorNames == "Tim"wc || authorNames == "Steve"wc) && rating >= 4"#)
    /// ```
    ///
    /// - Throws: ``QuerySyntaxError`` when the text is not a valid query.
    public static func parse(_ text: String) throws(QuerySyntaxError) -> QueryExpression {
        let length = text.utf8.count
        if length > maximumLength {
            throw QuerySyntaxError(
                offset: 0, expected: "a query of at most \(maximumLength) bytes", found: "\(length) bytes",
                reason: "query too long", hint: "\(length) bytes, the limit is \(maximumLength)")
        }
        var state = QueryParserState(text)
        return try state.parseQuery()
    }
}

/// The recursive-descent parser behind ``QueryParser``.
struct QueryParserState {
    var lexer: QueryLexer
    var depth = 0

    init(_ text: String) {
        lexer = QueryLexer(text)
    }

    static let comparisonStart = "a comparison"
    static let continuation = "'&&', '||' or end of query"

    mutating func parseQuery() throws(QuerySyntaxError) -> QueryExpression {
        lexer.skipWhitespace()
        if lexer.isAtEnd {
            throw lexer.error(at: lexer.position, expected: Self.comparisonStart, found: "end of query", reason: "empty query")
        }
        let expression = try parseOr()
        lexer.skipWhitespace()
        if !lexer.isAtEnd {
            if lexer.peek() == ")" {
                throw lexer.error(
                    at: lexer.position, expected: Self.continuation, reason: "unmatched ')'",
                    hint: "there is no '(' for it to close")
            }
            throw lexer.error(at: lexer.position, expected: Self.continuation)
        }
        return expression
    }

    mutating func parseOr() throws(QuerySyntaxError) -> QueryExpression {
        var left = try parseAnd()
        while true {
            lexer.skipWhitespace()
            guard lexer.startsWith("||") else { return left }
            lexer.advance(2)
            let right = try parseAnd()
            left = .or(left, right)
        }
    }

    mutating func parseAnd() throws(QuerySyntaxError) -> QueryExpression {
        var left = try parseUnary()
        while true {
            lexer.skipWhitespace()
            guard lexer.startsWith("&&") else { return left }
            lexer.advance(2)
            let right = try parseUnary()
            left = .and(left, right)
        }
    }

    mutating func parseUnary() throws(QuerySyntaxError) -> QueryExpression {
        lexer.skipWhitespace()
        guard lexer.peek() == "!" else { return try parsePrimary() }
        try enterNesting(at: lexer.position)
        lexer.advance()
        let operand = try parseUnary()
        depth -= 1
        return .not(operand)
    }

    mutating func enterNesting(at offset: Int) throws(QuerySyntaxError) {
        depth += 1
        if depth > QueryParser.maximumNesting {
            throw lexer.error(
                at: offset, expected: "at most \(QueryParser.maximumNesting) nested levels", reason: "nesting too deep",
                hint: "more than \(QueryParser.maximumNesting) levels of parentheses or '!'")
        }
    }

    mutating func parsePrimary() throws(QuerySyntaxError) -> QueryExpression {
        lexer.skipWhitespace()
        let start = lexer.position
        guard let first = lexer.peek() else {
            throw lexer.error(at: start, expected: Self.comparisonStart, found: "end of query")
        }
        if first == "(" {
            try enterNesting(at: start)
            lexer.advance()
            let inner = try parseOr()
            lexer.skipWhitespace()
            if lexer.peek() == ")" {
                lexer.advance()
                depth -= 1
                return inner
            }
            if lexer.isAtEnd {
                throw lexer.unclosedParenthesis(openedAt: start)
            }
            throw lexer.error(at: lexer.position, expected: "'&&', '||' or ')'")
        }
        let attribute: QueryAttribute
        if first == "*" {
            lexer.advance()
            if lexer.peek() == "*" {
                lexer.advance()
                attribute = .anyAttributeOrContent
            } else {
                attribute = .anyAttribute
            }
        } else if let name = lexer.scanIdentifier() {
            if name.lowercased() == "inrange" {
                let afterName = lexer.position
                lexer.skipWhitespace()
                if lexer.peek() == "(" {
                    return .inRange(try parseInRange(nameStart: start))
                }
                lexer.reset(to: afterName)
            }
            attribute = .named(name)
        } else {
            // A value where the attribute should be: `"x" == title`, `3 == rating`.
            var word = String.UnicodeScalarView()
            word.append(contentsOf: lexer.scalars[start...].prefix { !QueryLexer.endsBareWord($0) })
            let looksLikeValue = QueryLexer.isQuote(first) || QueryNumberText.parse(String(word)) != nil
            let hint: String? = looksLikeValue ? "a comparison starts with the attribute name, as in title == \"Paris\"" : nil
            throw lexer.error(at: start, expected: Self.comparisonStart, hint: hint)
        }
        return .comparison(try parseComparison(attribute: attribute))
    }

    // MARK: Comparisons

    mutating func parseComparison(attribute: QueryAttribute) throws(QuerySyntaxError) -> Comparison {
        lexer.skipWhitespace()
        guard let op = lexer.scanOperator() else {
            throw lexer.error(at: lexer.position, expected: "a comparison operator (==, !=, <, >, <=, >=)")
        }
        var modifiers: QueryModifiers = []
        if lexer.peek() == "[" {
            modifiers = try parseBracketModifiers()
        }
        let (value, valueModifiers) = try parseValue()
        modifiers.formUnion(valueModifiers)
        return Comparison(attribute: attribute, op: op, value: value, modifiers: modifiers)
    }

    static func modifier(for scalar: Unicode.Scalar) -> QueryModifiers? {
        switch scalar {
        case "c": .caseInsensitive
        case "d": .diacriticInsensitive
        case "w": .wordBased
        case "t": .tokenized
        default: nil
        }
    }

    func unknownModifier(at offset: Int) -> QuerySyntaxError {
        let letter = lexer.scalars[offset]
        return lexer.error(
            at: offset, expected: "a modifier (c, d, w or t)", found: "'\(letter)'",
            reason: "unknown modifier '\(letter)'", hint: "modifiers are c, d, w and t")
    }

    /// `[cd]` right after the operator.
    mutating func parseBracketModifiers() throws(QuerySyntaxError) -> QueryModifiers {
        lexer.advance()  // [
        var modifiers: QueryModifiers = []
        var count = 0
        while let scalar = lexer.peek(), scalar != "]" {
            guard let modifier = Self.modifier(for: scalar) else {
                if QueryLexer.isIdentifierContinue(scalar) { throw unknownModifier(at: lexer.position) }
                throw lexer.error(at: lexer.position, expected: count == 0 ? "a modifier (c, d, w or t)" : "']'")
            }
            modifiers.insert(modifier)
            count += 1
            lexer.advance()
        }
        guard !lexer.isAtEnd else { throw lexer.error(at: lexer.position, expected: "']'") }
        if count == 0 { throw lexer.error(at: lexer.position, expected: "a modifier (c, d, w or t)") }
        lexer.advance()  // ]
        return modifiers
    }

    /// Modifier letters immediately after a closing quote or `)`.
    mutating func parseAttachedModifiers() throws(QuerySyntaxError) -> QueryModifiers {
        let (letters, start) = lexer.scanWordCharacters()
        var modifiers: QueryModifiers = []
        for (index, letter) in letters.enumerated() {
            guard let modifier = Self.modifier(for: letter) else { throw unknownModifier(at: start + index) }
            modifiers.insert(modifier)
        }
        return modifiers
    }

    /// `search* cdw`: modifier letters after an unquoted value, separated by
    /// whitespace, ending where a value would end. Cursor unchanged when absent.
    mutating func parseSeparatedModifiers() -> QueryModifiers {
        let start = lexer.position
        guard lexer.skipWhitespace() else { return [] }
        let (letters, _) = lexer.scanWordCharacters()
        var modifiers: QueryModifiers = []
        var valid = !letters.isEmpty
        for letter in letters {
            guard let modifier = Self.modifier(for: letter) else {
                valid = false
                break
            }
            modifiers.insert(modifier)
        }
        if valid, let next = lexer.peek() {
            valid = QueryLexer.isWhitespace(next) || next == ")" || next == "&" || next == "|"
        }
        if !valid {
            lexer.reset(to: start)
            return []
        }
        return modifiers
    }

    mutating func parseValue() throws(QuerySyntaxError) -> (QueryValue, QueryModifiers) {
        lexer.skipWhitespace()
        let start = lexer.position
        guard let first = lexer.peek() else {
            throw lexer.error(at: start, expected: "a value", found: "end of query")
        }
        if QueryLexer.isQuote(first) {
            let text = try lexer.scanQuoted()
            let modifiers = try parseAttachedModifiers()
            if let next = lexer.peek(), next == "*" || next == "?" {
                throw lexer.error(
                    at: lexer.position, expected: Self.continuation, reason: "wildcard '\(next)' after a quoted string",
                    hint: "put it inside the quotes")
            }
            return (.pattern(text.pattern), modifiers)
        }
        if first == "$" {
            let time = try parseTime()
            var modifiers: QueryModifiers = []
            if lexer.scalars[lexer.position - 1] == ")" {
                modifiers = try parseAttachedModifiers()
            }
            modifiers.formUnion(parseSeparatedModifiers())
            return (.time(time), modifiers)
        }
        let word = try lexer.scanBareWord()
        if word.units.isEmpty {
            throw lexer.error(at: start, expected: "a value")
        }
        let value = try classifyBareWord(word)
        return (value, parseSeparatedModifiers())
    }

    /// `null`, a number, or a pattern.
    func classifyBareWord(_ word: QueryLexer.ScannedText) throws(QuerySyntaxError) -> QueryValue {
        guard !word.hasEscape else { return .pattern(word.pattern) }
        let text = word.text
        if text == "null" { return .null }
        if let number = QueryNumberText.parse(text) {
            guard number.isFinite else {
                throw lexer.error(at: word.start, expected: "a finite number", reason: "number out of range")
            }
            return .number(number)
        }
        return .pattern(word.pattern)
    }

    // MARK: InRange

    mutating func parseInRange(nameStart: Int) throws(QuerySyntaxError) -> InRange {
        lexer.advance()  // (
        let arityHint = "InRange(attribute, minimum, maximum)"
        lexer.skipWhitespace()
        let attribute: QueryAttribute
        if lexer.peek() == "*" {
            lexer.advance()
            if lexer.peek() == "*" {
                lexer.advance()
                attribute = .anyAttributeOrContent
            } else {
                attribute = .anyAttribute
            }
        } else if let name = lexer.scanIdentifier() {
            attribute = .named(name)
        } else {
            throw lexer.error(at: lexer.position, expected: "an attribute name", hint: "use \(arityHint)")
        }
        var bounds: [QueryValue] = []
        while bounds.count < 2 {
            lexer.skipWhitespace()
            guard lexer.peek() == "," else {
                if lexer.peek() == ")" {
                    throw lexer.error(
                        at: lexer.position, expected: "','", reason: "InRange needs 3 arguments",
                        hint: "found \(bounds.count + 1); use \(arityHint)")
                }
                throw lexer.error(at: lexer.position, expected: "','", hint: "use \(arityHint)")
            }
            lexer.advance()
            bounds.append(try parseRangeValue())
        }
        lexer.skipWhitespace()
        guard lexer.peek() == ")" else {
            if lexer.peek() == "," {
                throw lexer.error(
                    at: lexer.position, expected: "')'", reason: "InRange needs 3 arguments",
                    hint: "found more; use \(arityHint)")
            }
            if lexer.isAtEnd {
                throw lexer.error(
                    at: nameStart, expected: "')'", found: "end of query", reason: "unclosed InRange",
                    hint: "no ')' before the end of the query")
            }
            throw lexer.error(at: lexer.position, expected: "')'")
        }
        lexer.advance()
        return InRange(attribute: attribute, lower: bounds[0], upper: bounds[1])
    }

    mutating func parseRangeValue() throws(QuerySyntaxError) -> QueryValue {
        lexer.skipWhitespace()
        let start = lexer.position
        let expected = "a number, a $time value or a quoted string"
        guard let first = lexer.peek() else {
            throw lexer.error(at: start, expected: expected, found: "end of query")
        }
        if QueryLexer.isQuote(first) {
            let text = try lexer.scanQuoted()
            if !text.hasEscape, let date = ISO8601Text.parse(text.text) {
                return .time(.iso(date))
            }
            return .pattern(text.pattern)
        }
        if first == "$" {
            return .time(try parseTime())
        }
        let word = try lexer.scanBareWord()
        if !word.units.isEmpty, !word.hasEscape {
            let value = try classifyBareWord(word)
            switch value {
            case .number, .null: return value
            case .pattern, .time: break
            }
        }
        throw lexer.error(at: start, expected: expected)
    }
}
