/// What a search's IDF and BM25's average length are computed from: the
/// live items, their length, and per typed word the items holding it.
///
/// Each store's statistics for a text are summed over every store that
/// system search reads and handed back to each store's search, so that
/// every result's text score is on one scale: a word is as rare in a
/// one-item app as in the whole system, not "in every item" of that app.
///
/// ```swift
/// var all = SearchStatistics()
/// for store in stores { all.add(try store.searchStatistics("kiwi")) }
/// let results = try stores.flatMap { try $0.search("kiwi", limit: 3, statistics: all) }
/// ```
public struct SearchStatistics: Sendable, Hashable {
    /// Live items.
    public var documents: Double
    /// Their token occurrences, summed (BM25's average length is this ÷ ``documents``).
    public var totalLength: Double
    /// Per typed word, in order: items holding it (a prefix, its most
    /// frequent completion's).
    public var matching: [Double]

    public init(documents: Double = 0, totalLength: Double = 0, matching: [Double] = []) {
        self.documents = documents
        self.totalLength = totalLength
        self.matching = matching
    }

    /// Adds another store's statistics for the same text.
    public mutating func add(_ other: SearchStatistics) {
        documents += other.documents
        totalLength += other.totalLength
        if matching.isEmpty { matching = [Double](repeating: 0, count: other.matching.count) }
        for index in matching.indices where index < other.matching.count { matching[index] += other.matching[index] }
    }
}
