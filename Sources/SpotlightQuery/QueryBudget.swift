/// How long a query may run: a deadline that long matching checks as it
/// goes, so that no pattern or query string can hold a reader for longer
/// than its caller allows.
///
/// ```swift
/// let budget = QueryBudget(seconds: 2)
/// var matcher = evaluator.matcher(for: expression, budget: budget)
/// for item in items where matcher.matches(item) { … }
/// if budget.isExhausted { throw TooExpensive() }   // answers after the deadline are not to be trusted
/// ```
///
/// Once exhausted, a match in progress stops and says "no match": callers
/// check ``isExhausted`` after each item and report the query as too
/// expensive rather than returning what was decided before the stop.
public final class QueryBudget: Sendable {
    private let deadline: ContinuousClock.Instant
    /// The time it allows.
    public let seconds: Double

    /// A budget of `seconds` from now.
    public init(seconds: Double) {
        self.seconds = seconds
        deadline = ContinuousClock.now.advanced(by: .nanoseconds(Int64(min(seconds, 1e9) * 1e9)))
    }

    /// True once the deadline has passed.
    public var isExhausted: Bool { ContinuousClock.now >= deadline }
}
