public import Foundation
import SpotlightIndex
import Synchronization

/// Options of a user query, as Apple's `CSUserQueryContext`.
open class CSUserQueryContext: CSSearchQueryContext, @unchecked Sendable {
    /// Return results ranked by relevance (sort them with `compare(byRank:)`).
    open var enableRankedResults = false
    /// Most results; 0 means no limit.
    open var maxResultCount = 0
    /// Most suggestions; 0 asks for none.
    open var maxSuggestionCount = 0
    /// With ``enableRankedResults``: how many of the best results carry a
    /// rank (`compare(byRank:)`); the rest come after them, unranked. Default 100.
    open var maxRankedResultCount = 100
    /// Apple's switch for meaning-based matching. OpenSpotlight matches
    /// words only, so results are the same either way.
    open var disableSemanticSearch = false
    /// The suggestion the user picked, if the query runs one.
    public let currentSuggestion: CSSuggestion?

    public override init() {
        currentSuggestion = nil
        super.init()
    }

    public init(currentSuggestion: CSSuggestion?) {
        self.currentSuggestion = currentSuggestion
        super.init()
    }
}

/// Marks the runs of a suggestion that match what the user typed.
public enum CSSuggestionHighlightAttribute: AttributedStringKey {
    public typealias Value = Bool
    public static let name = "CSSuggestionHighlightAttributeName"
}

// swift-format-ignore: AlwaysUseLowerCamelCase
// (Apple's global name.)
/// The attribute name of ``CSSuggestionHighlightAttribute``.
public let CSSuggestionHighlightAttributeName = NSAttributedString.Key(CSSuggestionHighlightAttribute.name)

/// A completion of what the user typed, as Apple's `CSSuggestion`.
open class CSSuggestion: NSObject, NSCopying, @unchecked Sendable {
    /// Where a suggestion comes from.
    public enum Kind: Int, Sendable {
        case none = 0
        case custom = 1
        case `default` = 2
    }

    /// The suggested query text, with the typed part highlighted.
    public let localizedAttributedSuggestion: AttributedString
    /// Completions from the index are `.default`.
    public let suggestionKind: Kind
    let text: String
    let rank: Int

    init(text: String, typedLength: Int, rank: Int) {
        var attributed = AttributedString(text)
        let typed = attributed.characters.index(attributed.startIndex, offsetBy: min(typedLength, text.count))
        attributed[attributed.startIndex..<typed][CSSuggestionHighlightAttribute.self] = true
        localizedAttributedSuggestion = attributed
        suggestionKind = .default
        self.text = text
        self.rank = rank
        super.init()
    }

    /// Rank order: `.orderedAscending` when this one ranks higher.
    open func compare(byRank other: CSSuggestion) -> ComparisonResult {
        rank == other.rank ? .orderedSame : (rank < other.rank ? .orderedAscending : .orderedDescending)
    }

    /// Alphabetical order of the suggested text.
    open func compare(_ other: CSSuggestion) -> ComparisonResult {
        text == other.text ? .orderedSame : (text < other.text ? .orderedAscending : .orderedDescending)
    }

    open func copy(with zone: NSZone? = nil) -> Any { self }

    open override var description: String { "CSSuggestion(\(text))" }
}

/// What the user typed, ranked, with completions, as Apple's `CSUserQuery`.
///
/// ```swift
/// let context = CSUserQueryContext()
/// context.enableRankedResults = true
/// context.maxResultCount = 20
/// context.maxSuggestionCount = 3
/// let query = CSUserQuery(userQueryString: "par", userQueryContext: context)
/// query.foundItemsHandler = { items in … }
/// query.foundSuggestionsHandler = { suggestions in … }
/// query.start()
/// ```
///
/// Every typed word must match, the last as a prefix (unless a space
/// follows it); results are ranked
/// across the app's indexes by the engine's score (text, `rankingHint`,
/// engagement, recency) and come in one batch, best first.
open class CSUserQuery: CSSearchQuery, @unchecked Sendable {
    /// Called with the suggestions.
    open var foundSuggestionsHandler: (([CSSuggestion]) -> Void)?
    private(set) open var foundSuggestionCount = 0
    /// The text the user typed.
    public let userQueryString: String
    let userContext: CSUserQueryContext
    /// The results this query already counted as shown ("<index>/<id>"): a
    /// result counts once per query however often the user moves over it.
    let counted = Mutex<Set<String>>([])

    public init(userQueryString: String?, userQueryContext: CSUserQueryContext?) {
        self.userQueryString = userQueryContext?.currentSuggestion?.text ?? userQueryString ?? ""
        self.userContext = userQueryContext ?? CSUserQueryContext()
        super.init(queryString: self.userQueryString, queryContext: userContext)
    }

    /// Warms up before the first query (opening stores is already fast; nothing to do).
    open class func prepare() {}

    /// Same as ``prepare()``.
    open class func prepareProtectionClasses(_ protectionClasses: [FileProtectionType]) {}

    override func run() {
        guard let stores = stores() else { return }
        let limit = userContext.maxResultCount > 0 ? userContext.maxResultCount : 1_000
        let fetch = Set(userContext.fetchAttributes)
        do {
            // The app's stores are merged by score: one scale for all of them.
            var statistics = SearchStatistics()
            for store in stores { statistics.add(try store.searchStatistics(userQueryString)) }
            var results: [(index: String, result: SearchResult)] = []
            for store in stores where !isCancelled {
                // Only the attributes asked for are decoded (`contentType` is a column, always read).
                results += try store.search(userQueryString, limit: limit, statistics: statistics.documents > 0 ? statistics : nil, fetching: fetch)
                    .map { (store.indexName, $0) }
            }
            results.sort { $0.result.score.total > $1.result.score.total }
            let items = results.prefix(limit).map { found -> CSSearchableItem in
                let item = CSSearchableItem(found.result.item, expiresAt: nil, fetching: fetch)
                item.sourceIndexName = found.index
                return item
            }
            if userContext.enableRankedResults {
                for (position, item) in items.enumerated() where position < max(0, userContext.maxRankedResultCount) {
                    item.rank = results[position].result.score.total
                }
            }
            if !items.isEmpty && !isCancelled {
                addFound(items.count)
                foundItemsHandler?(Array(items))
            }
            if userContext.maxSuggestionCount > 0 && !isCancelled {
                var seen = Set<String>()
                var texts: [String] = []
                for store in stores {
                    for text in try store.suggestions(completing: userQueryString, limit: userContext.maxSuggestionCount)
                    where seen.insert(text).inserted { texts.append(text) }
                }
                let suggestions = texts.prefix(userContext.maxSuggestionCount).enumerated().map {
                    CSSuggestion(text: $0.element, typedLength: userQueryString.count, rank: $0.offset)
                }
                foundSuggestionCount = suggestions.count
                if !suggestions.isEmpty { foundSuggestionsHandler?(suggestions) }
            }
        } catch {
            complete(CSSearchQueryError(.indexUnreachable, "the query failed: \(error)"))
            return
        }
        complete(isCancelled ? CSSearchQueryError(.cancelled, "the query was cancelled") : nil)
    }
}
