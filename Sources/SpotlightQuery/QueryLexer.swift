/// The scanner under ``QueryParser``: a cursor over the query's Unicode
/// scalars with the context-dependent token readers the grammar needs
/// (identifiers, operators, quoted strings, bare words, modifier letters).
///
/// Working on scalars rather than `Character`s keeps a quote or `*` followed
/// by a combining mark a quote or `*`. Errors report `Character` offsets.
struct QueryLexer {
    /// One scanned character of a string value and whether a backslash escaped it.
    struct TextUnit {
        var scalar: Unicode.Scalar
        var isEscaped: Bool
    }

    /// The characters of a quoted string or bare word, escapes resolved.
    struct ScannedText {
        var units: [TextUnit] = []
        /// Scalar offset where the token starts (the opening quote for a quoted string).
        var start: Int = 0

        var hasEscape: Bool { units.contains { $0.isEscaped } }

        /// The text with escapes resolved (`\*` gives `*`).
        var text: String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: units.map(\.scalar))
            return String(view)
        }

        /// The text as a pattern: unescaped `*` / `?` are wildcards (runs of `*` collapse to one).
        var pattern: QueryPattern {
            var elements: [PatternElement] = []
            var literal = String.UnicodeScalarView()
            func flush() {
                if !literal.isEmpty {
                    elements.append(.literal(String(literal)))
                    literal = String.UnicodeScalarView()
                }
            }
            for unit in units {
                if !unit.isEscaped && unit.scalar == "*" {
                    flush()
                    if elements.last != .anyRun { elements.append(.anyRun) }
                } else if !unit.isEscaped && unit.scalar == "?" {
                    flush()
                    elements.append(.anyOne)
                } else {
                    literal.append(unit.scalar)
                }
            }
            flush()
            return QueryPattern(elements)
        }
    }

    let scalars: [Unicode.Scalar]
    private(set) var position = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    var isAtEnd: Bool { position >= scalars.count }

    func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        let index = position + ahead
        return index < scalars.count ? scalars[index] : nil
    }

    mutating func advance(_ count: Int = 1) {
        position = min(position + count, scalars.count)
    }

    mutating func reset(to offset: Int) {
        position = offset
    }

    /// Skips spaces, tabs and newlines; returns whether anything was skipped.
    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let start = position
        while let scalar = peek(), Self.isWhitespace(scalar) { position += 1 }
        return position > start
    }

    /// True when the scalars at the cursor spell `text`.
    func startsWith(_ text: String) -> Bool {
        var index = position
        for scalar in text.unicodeScalars {
            guard index < scalars.count, scalars[index] == scalar else { return false }
            index += 1
        }
        return true
    }

    // MARK: Character classes

    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace
    }

    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "A" && scalar <= "Z") || (scalar >= "a" && scalar <= "z") || scalar == "_"
    }

    static func isIdentifierContinue(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || (scalar >= "0" && scalar <= "9")
    }

    static func isQuote(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\"" || scalar == "'"
    }

    /// Characters that end a bare word (besides whitespace): quotes,
    /// parentheses, `&`, `|`, `,`, `=`, `!`, `<`, `>`.
    static func endsBareWord(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\"", "'", "(", ")", "&", "|", ",", "=", "!", "<", ">": true
        default: isWhitespace(scalar)
        }
    }

    // MARK: Token readers

    /// `[A-Za-z_][A-Za-z0-9_]*` at the cursor, or `nil` (cursor unchanged).
    mutating func scanIdentifier() -> String? {
        guard let first = peek(), Self.isIdentifierStart(first) else { return nil }
        var view = String.UnicodeScalarView()
        while let scalar = peek(), Self.isIdentifierContinue(scalar) {
            view.append(scalar)
            position += 1
        }
        return String(view)
    }

    /// A run of `[A-Za-z0-9_]` at the cursor (possibly empty), with its start offset.
    mutating func scanWordCharacters() -> (text: [Unicode.Scalar], start: Int) {
        let start = position
        while let scalar = peek(), Self.isIdentifierContinue(scalar) { position += 1 }
        return (Array(scalars[start..<position]), start)
    }

    /// `==`, `!=`, `<=`, `>=`, `<`, `>` or `=` at the cursor, or `nil` (cursor unchanged).
    mutating func scanOperator() -> ComparisonOperator? {
        let table: [(String, ComparisonOperator)] = [
            ("==", .equal), ("!=", .notEqual), ("<=", .lessOrEqual), (">=", .greaterOrEqual),
            ("<", .less), (">", .greater), ("=", .equal),
        ]
        for (spelling, op) in table where startsWith(spelling) {
            advance(spelling.unicodeScalars.count)
            return op
        }
        return nil
    }

    /// A `"…"` or `'…'` string starting at the cursor; `\` makes the next character literal.
    mutating func scanQuoted() throws(QuerySyntaxError) -> ScannedText {
        guard let quote = peek(), Self.isQuote(quote) else {
            throw error(at: position, expected: "a quoted string")
        }
        var result = ScannedText(start: position)
        position += 1
        while true {
            guard let scalar = peek() else {
                throw error(
                    at: result.start, expected: "closing \(quote)", found: "end of query",
                    reason: "unterminated string", hint: "no closing \(quote) before the end of the query")
            }
            position += 1
            if scalar == quote { return result }
            if scalar == "\\" {
                guard let escaped = peek() else {
                    throw error(
                        at: result.start, expected: "closing \(quote)", found: "end of query",
                        reason: "unterminated string", hint: "no closing \(quote) before the end of the query")
                }
                position += 1
                result.units.append(TextUnit(scalar: escaped, isEscaped: true))
            } else {
                result.units.append(TextUnit(scalar: scalar, isEscaped: false))
            }
        }
    }

    /// An unquoted value: characters up to whitespace, a quote, a parenthesis,
    /// `&`, `|`, `,`, `=`, `!`, `<` or `>`; `\` makes the next character literal.
    /// May be empty.
    mutating func scanBareWord() throws(QuerySyntaxError) -> ScannedText {
        var result = ScannedText(start: position)
        while let scalar = peek(), !Self.endsBareWord(scalar) {
            position += 1
            if scalar == "\\" {
                guard let escaped = peek() else {
                    throw error(
                        at: position - 1, expected: "a character after '\\'", found: "end of query",
                        reason: "dangling backslash", hint: "a backslash must be followed by the character it escapes")
                }
                position += 1
                result.units.append(TextUnit(scalar: escaped, isEscaped: true))
            } else {
                result.units.append(TextUnit(scalar: scalar, isEscaped: false))
            }
        }
        return result
    }

    // MARK: Errors

    /// The `Character` offset of a scalar offset.
    func characterOffset(ofScalar offset: Int) -> Int {
        let end = min(max(offset, 0), scalars.count)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[0..<end])
        return String(view).count
    }

    /// A short, readable rendering of what is at a scalar offset:
    /// `end of query`, `"Paris"`, `'&&'`, `'-onlyin'`.
    func describe(at offset: Int) -> String {
        guard offset < scalars.count else { return "end of query" }
        let limit = 24
        let first = scalars[offset]
        if Self.isWhitespace(first) { return first == " " ? "a space" : "whitespace" }
        var view = String.UnicodeScalarView()
        if Self.isQuote(first) {
            view.append(first)
            var index = offset + 1
            var escaped = false
            while index < scalars.count, view.count < limit {
                let scalar = scalars[index]
                view.append(scalar)
                index += 1
                if escaped { escaped = false } else if scalar == "\\" { escaped = true } else if scalar == first { break }
            }
            let truncated = index < scalars.count && view.last != first
            return String(view) + (truncated ? "…" : "")
        }
        func isSymbol(_ scalar: Unicode.Scalar) -> Bool { "&|=!<>".unicodeScalars.contains(scalar) }
        func isStop(_ scalar: Unicode.Scalar) -> Bool {
            Self.isWhitespace(scalar) || Self.isQuote(scalar) || "(),".unicodeScalars.contains(scalar)
        }
        var index = offset
        if isStop(first) {
            view.append(first)
            index += 1
        } else {
            let symbolic = isSymbol(first)
            while index < scalars.count, view.count < limit {
                let scalar = scalars[index]
                if isStop(scalar) || isSymbol(scalar) != symbolic { break }
                view.append(scalar)
                index += 1
            }
        }
        let truncated = index < scalars.count && view.count >= limit
        return "'" + String(view) + (truncated ? "…" : "") + "'"
    }

    /// An error at a scalar offset; `found` defaults to what is there.
    func error(
        at offset: Int, expected: String, found: String? = nil, reason: String? = nil, hint: String? = nil
    ) -> QuerySyntaxError {
        QuerySyntaxError(
            offset: characterOffset(ofScalar: offset), expected: expected, found: found ?? describe(at: offset),
            reason: reason, hint: hint)
    }

    /// The query ended before the `)` matching the `(` at `open`.
    func unclosedParenthesis(openedAt open: Int) -> QuerySyntaxError {
        error(at: open, expected: "')'", found: "end of query", reason: "unclosed parenthesis",
              hint: "no matching ')' before the end of the query")
    }
}
