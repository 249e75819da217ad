public import Foundation
import SpotlightIndex
import SpotlightQuery
import Synchronization

/// Options of a query, as Apple's `CSSearchQueryContext`.
open class CSSearchQueryContext: NSObject, NSCopying, @unchecked Sendable {
    /// Attributes to return in each result's attribute set (none when empty).
    open var fetchAttributes: [String] = []
    /// More query strings, each of which results must also match.
    open var filterQueries: [String] = []
    /// The language of the keyboard the query was typed with.
    open var keyboardLanguage: String?
    /// Which sources to include. Linux has no Mail store: `.allowMail` adds nothing.
    open var sourceOptions: SourceOptions = []

    /// Apple's `CSSearchQueryContext.SourceOptions`.
    public struct SourceOptions: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The app's own items only (no option).
        public static let `default`: SourceOptions = []
        /// Include Mail's items (an entitlement on macOS).
        public static let allowMail = SourceOptions(rawValue: 1 << 0)
    }

    public override init() { super.init() }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = Self.makeCopy(of: self)
        return copy
    }

    class func makeCopy(of context: CSSearchQueryContext) -> CSSearchQueryContext {
        let copy = CSSearchQueryContext()
        copy.fetchAttributes = context.fetchAttributes
        copy.filterQueries = context.filterQueries
        copy.keyboardLanguage = context.keyboardLanguage
        copy.sourceOptions = context.sourceOptions
        return copy
    }
}

/// A query-language search over the app's own items, as Apple's `CSSearchQuery`.
///
/// ```swift
/// let context = CSSearchQueryContext()
/// context.fetchAttributes = ["title", "contentDescription"]
/// let query = CSSearchQuery(queryString: #"title == "*paris*"cd"#, queryContext: context)
/// query.foundItemsHandler = { items in for item in items { print(item.attributeSet.title ?? "") } }
/// query.completionHandler = { error in print(error ?? "done", query.foundItemCount) }
/// query.start()
/// ```
///
/// It searches every index of the app. Results come in batches, in the
/// order items were indexed, each with its identifiers and the fetched
/// attributes; an invalid query string completes with
/// `CSSearchQueryError.invalidQuery` (−2002), an unknown attribute matches
/// nothing. Attributes may be named as in Swift (`title`, `url`), in
/// Objective-C (`URL`) or in Spotlight's `kMDItem` form (`kMDItemTitle`).
/// `cancel()` stops it between two batches and completes it with
/// `.cancelled`. A query runs once.
open class CSSearchQuery: NSObject, @unchecked Sendable {
    /// Called with each batch of results, one call at a time.
    open var foundItemsHandler: (([CSSearchableItem]) -> Void)?
    /// Called once, at the end: nil, or a ``CSSearchQueryError``.
    open var completionHandler: (((any Error)?) -> Void)?
    /// Which protected indexes to search (kept for compatibility).
    open var protectionClasses: [FileProtectionType] = []

    /// The query string.
    public let queryString: String
    /// The query's options.
    public let queryContext: CSSearchQueryContext

    private let cancellation = QueryCancellation()
    private let count = Atomic<Int>(0)
    private let started = Atomic<Bool>(false)
    let bundleIdentifier = OpenSpotlightConfiguration.bundleIdentifier
    let location = OpenSpotlightConfiguration.location

    /// Results found so far (all of them once complete).
    open var foundItemCount: Int { count.load(ordering: .relaxed) }
    /// True once ``cancel()`` was called.
    open var isCancelled: Bool { cancellation.isCancelled }

    public init(queryString: String, queryContext: CSSearchQueryContext?) {
        self.queryString = queryString
        self.queryContext = (queryContext?.copy() as? CSSearchQueryContext) ?? CSSearchQueryContext()
    }

    /// The older form: `attributes` are the attributes to fetch.
    @available(*, deprecated, message: "use init(queryString:queryContext:)")
    public convenience init(queryString: String, attributes: [String]?) {
        let context = CSSearchQueryContext()
        context.fetchAttributes = attributes ?? []
        self.init(queryString: queryString, queryContext: context)
    }

    /// Runs the query in the background; a second call does nothing.
    open func start() {
        guard claimStart() else { return }
        runInBackground()
    }

    /// True for the one caller that may start the query.
    func claimStart() -> Bool { !started.exchange(true, ordering: .relaxed) }

    func runInBackground() { DispatchQueue.global().async { self.run() } }

    /// Stops the query; it completes with `.cancelled`.
    open func cancel() { cancellation.cancel() }

    func addFound(_ delta: Int) { count.add(delta, ordering: .relaxed) }

    func complete(_ error: (any Error)?) {
        completionHandler?(error)
    }

    /// The stores of the app's indexes (opened once per process, ``ReadingStores``),
    /// or nil after completing with an error.
    func stores() -> [SpotlightStore]? {
        do {
            return try SpotlightStore.indexNames(bundleIdentifier: bundleIdentifier, location: location).map {
                try ReadingStores.store(bundleIdentifier: bundleIdentifier, indexName: $0, location: location)
            }
        } catch {
            complete(CSSearchQueryError(.indexUnreachable, "cannot open the app's indexes: \(error)"))
            return nil
        }
    }

    func run() {
        var expression: QueryExpression
        do {
            expression = try QueryParser.parse(queryString)
            for filter in queryContext.filterQueries {
                expression = .and(expression, try QueryParser.parse(filter))
            }
        } catch {
            complete(CSSearchQueryError(.invalidQuery, "invalid query: \(error)"))
            return
        }
        expression = expression.renamingAttributes { CSSearchableItemAttributeSet.queryAliases[$0] }
        guard let stores = stores() else { return }
        let fetch = Set(queryContext.fetchAttributes)
        do {
            for store in stores {
                try store.query(expression, batchSize: 64, cancellation: cancellation, fetching: fetch) { batch in
                    let items = batch.map { CSSearchableItem($0, expiresAt: nil, fetching: fetch) }
                    addFound(items.count)
                    foundItemsHandler?(items)
                }
                if isCancelled { break }
            }
        } catch let error as SpotlightIndexError where error.code == .queryTooExpensive {
            // Apple has no code for it: .unknown, saying why.
            complete(CSSearchQueryError(.unknown, "query too expensive: \(error.message)"))
            return
        } catch {
            complete(CSSearchQueryError(.indexUnreachable, "the query failed: \(error)"))
            return
        }
        complete(isCancelled ? CSSearchQueryError(.cancelled, "the query was cancelled") : nil)
    }
}
