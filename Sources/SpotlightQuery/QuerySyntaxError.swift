/// Why a query string could not be parsed, and where.
///
/// Thrown by ``QueryParser/parse(_:)``. The position is counted in
/// `Character`s (grapheme clusters) of the query string: ``offset`` is
/// 0-based, ``column`` is 1-based (`offset + 1`). The ``description`` is one
/// readable line:
///
/// ```swift
/// do {
///     _ = try QueryParser.parse(#"title == "apple"#)
/// } catch {
///     print(error)          // unterminated string at column 10; no closing " before the end of the query
///     print(error.column)   // 10
/// }
/// ```
///
/// Errors without a specific ``reason`` read
/// `expected a value at column 9, found end of query`.
public struct QuerySyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 0-based `Character` offset of the problem in the query string.
    public let offset: Int
    /// 1-based column of the problem (`offset + 1`).
    public let column: Int
    /// What the parser expected at that point, e.g. `a value` or `closing "`.
    public let expected: String
    /// What it found instead, e.g. `end of query`, `'&&'` or `"Paris"`.
    public let found: String
    /// A short name for a specific problem (`unterminated string`,
    /// `unknown modifier 'x'`), or `nil` for a plain "expected … found …" error.
    public let reason: String?
    /// Extra advice appended to the ``description`` after a semicolon, if any.
    public let hint: String?

    /// Creates an error at a 0-based `Character` offset.
    ///
    /// ```swift
    /// let error = QuerySyntaxError(offset: 8, expected: "a value", found: "end of query")
    /// error.description   // expected a value at column 9, found end of query
    /// ```
    public init(offset: Int, expected: String, found: String, reason: String? = nil, hint: String? = nil) {
        self.offset = offset
        self.column = offset + 1
        self.expected = expected
        self.found = found
        self.reason = reason
        self.hint = hint
    }

    /// One line: `<reason> at column N[; hint]`, or
    /// `expected <expected> at column N, found <found>`.
    public var description: String {
        if let reason {
            var text = "\(reason) at column \(column)"
            if let hint { text += "; \(hint)" }
            return text
        }
        var text = "expected \(expected) at column \(column), found \(found)"
        if let hint { text += "; \(hint)" }
        return text
    }
}
