extension QueryExpression {
    /// The operands of a left-deep chain of one operator, in order:
    /// `((a || b) || c)` gives `(isOr: true, [a, b, c])`. Parsed chains are
    /// left-deep and can be thousands long, so this walks the left spine
    /// iteratively instead of recursing. Nil for anything but `&&` and `||`.
    var chain: (isOr: Bool, operands: [QueryExpression])? {
        let isOr: Bool
        switch self {
        case .or: isOr = true
        case .and: isOr = false
        default: return nil
        }
        var rights: [QueryExpression] = []
        var current = self
        while true {
            if isOr, case .or(let left, let right) = current {
                rights.append(right)
                current = left
            } else if !isOr, case .and(let left, let right) = current {
                rights.append(right)
                current = left
            } else {
                break
            }
        }
        return (isOr, [current] + rights.reversed())
    }
}
