extension QueryExpression {
    /// The expression with attribute names replaced: `rename` returns the
    /// new name, or nil to keep one. `*` and `**` are kept.
    ///
    /// ```swift
    /// let query = try QueryParser.parse(#"kMDItemTitle == "Paris""#)
    /// let renamed = query.renamingAttributes { $0 == "kMDItemTitle" ? "title" : nil }
    /// // title == "Paris"
    /// ```
    ///
    /// Long `&&`/`||` chains are walked without deep recursion.
    public func renamingAttributes(_ rename: (String) -> String?) -> QueryExpression {
        func renamed(_ attribute: QueryAttribute) -> QueryAttribute {
            if case .named(let name) = attribute, let new = rename(name) { return .named(new) }
            return attribute
        }
        switch self {
        case .comparison(var comparison):
            comparison.attribute = renamed(comparison.attribute)
            return .comparison(comparison)
        case .inRange(var range):
            range.attribute = renamed(range.attribute)
            return .inRange(range)
        case .not(let inner):
            return .not(inner.renamingAttributes(rename))
        case .and, .or:
            guard let (isOr, operands) = chain, let first = operands.first else { return self }
            return operands.dropFirst().reduce(first.renamingAttributes(rename)) { left, right in
                isOr ? .or(left, right.renamingAttributes(rename)) : .and(left, right.renamingAttributes(rename))
            }
        }
    }
}
