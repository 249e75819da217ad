extension QueryExpression {
    /// The attribute names the expression reads, or nil when it reads
    /// every attribute (`*` or `**` anywhere in it): what a store must
    /// decode of an item to evaluate it.
    ///
    /// ```swift
    /// try QueryParser.parse(#"section == "libs" && installedSize > 10"#).attributeNames   // ["section", "installedSize"]
    /// try QueryParser.parse(#"* == "paris"cd"#).attributeNames                              // nil
    /// ```
    ///
    /// Walked with a stack of its own: long `&&`/`||` chains nest deeply.
    public var attributeNames: Set<String>? {
        var names: Set<String> = []
        var pending: [QueryExpression] = [self]
        while let next = pending.popLast() {
            let attribute: QueryAttribute
            switch next {
            case .comparison(let comparison): attribute = comparison.attribute
            case .inRange(let range): attribute = range.attribute
            case .not(let inner):
                pending.append(inner)
                continue
            case .and(let left, let right), .or(let left, let right):
                pending.append(right)
                pending.append(left)
                continue
            }
            guard case .named(let name) = attribute else { return nil }
            names.insert(name)
        }
        return names
    }
}
