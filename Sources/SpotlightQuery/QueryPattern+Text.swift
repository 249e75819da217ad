extension QueryPattern {
    /// A pattern that matches exactly `text` (no wildcards; `*` and `?` are literal).
    ///
    /// ```swift
    /// QueryPattern(literal: "Q*A")   // elements: [.literal("Q*A")]
    /// QueryPattern(literal: "")      // elements: []
    /// ```
    public init(literal text: String) {
        self.init(text.isEmpty ? [] : [.literal(text)])
    }

    /// The pattern's text when it has no wildcards (`""` for the empty
    /// pattern), else `nil`. This is the text the evaluator tries as a number
    /// or an ISO-8601 date against numeric and date attributes.
    ///
    /// ```swift
    /// try QueryParser.parse(#"rating == "4""#)   // pattern [.literal("4")] → literalText "4"
    /// QueryPattern([.literal("a"), .anyRun]).literalText   // nil
    /// ```
    public var literalText: String? {
        var text = ""
        for element in elements {
            guard case .literal(let piece) = element else { return nil }
            text += piece
        }
        return text
    }

    /// Whether the pattern has a `*` or `?` wildcard.
    ///
    /// ```swift
    /// QueryPattern([.literal("paris"), .anyRun]).hasWildcards   // true
    /// ```
    public var hasWildcards: Bool {
        elements.contains { element in
            if case .literal = element { return false }
            return true
        }
    }
}
