// §8–§9 of the spec: CSSearchQuery and its context, CSUserQuery, its
// context and suggestions, with Apple's Swift overlay (async sequences).
#if canImport(CoreSpotlight)
import CoreSpotlight
#else
import OpenCoreSpotlight
#endif
import Foundation
import Testing

extension AppleAPIConformance {
    /// §8: CSSearchQuery.
    @Test func searchQuery() {
        let _: (String, CSSearchQueryContext?) -> CSSearchQuery = CSSearchQuery.init(queryString:queryContext:)
        let _: ReferenceWritableKeyPath<CSSearchQuery, (([CSSearchableItem]) -> Void)?> = \.foundItemsHandler
        let _: ReferenceWritableKeyPath<CSSearchQuery, (((any Error)?) -> Void)?> = \.completionHandler
        let _: (CSSearchQuery) -> () -> Void = CSSearchQuery.start
        let _: (CSSearchQuery) -> () -> Void = CSSearchQuery.cancel
        let _: KeyPath<CSSearchQuery, Bool> = \.isCancelled
        let _: KeyPath<CSSearchQuery, Int> = \.foundItemCount
        let _: ReferenceWritableKeyPath<CSSearchQuery, [FileProtectionType]> = \.protectionClasses
        let _: KeyPath<CSSearchQuery, CSSearchQuery.Results> = \.results
        let _: KeyPath<CSSearchQuery.Results.Item, CSSearchableItem> = \.item
        let _: KeyPath<CSSearchQuery.Results.Item, String> = \.id

        let query = CSSearchQuery(queryString: #"title == "x""#, queryContext: nil)
        #expect(!query.isCancelled && query.foundItemCount == 0)
        query.cancel()
        #expect(query.isCancelled)
    }

    /// `results`, as Apple's sample iterates it.
    func resultsAsTheSampleIteratesThem() async throws {
        let query = CSSearchQuery(queryString: #"title == "x*"cd"#, queryContext: CSSearchQueryContext())
        for try await result in query.results {
            let _: CSSearchableItem = result.item
        }
    }

    /// §8a: CSSearchQueryContext.
    @Test func searchQueryContext() {
        let context: any NSCopying = CSSearchQueryContext()
        #expect(context is CSSearchQueryContext)
        let _: ReferenceWritableKeyPath<CSSearchQueryContext, [String]> = \.fetchAttributes
        let _: ReferenceWritableKeyPath<CSSearchQueryContext, [String]> = \.filterQueries
        let _: ReferenceWritableKeyPath<CSSearchQueryContext, String?> = \.keyboardLanguage
        let _: ReferenceWritableKeyPath<CSSearchQueryContext, CSSearchQueryContext.SourceOptions> = \.sourceOptions
        #expect(CSSearchQueryContext.SourceOptions.default.rawValue == 0)
        #expect(CSSearchQueryContext.SourceOptions.allowMail.rawValue == 1 << 0)
        #expect(CSSearchQueryContext().sourceOptions == .default)
    }

    /// §9: CSUserQuery.
    @Test func userQuery() {
        let _: (String?, CSUserQueryContext?) -> CSUserQuery = CSUserQuery.init(userQueryString:userQueryContext:)
        let _: () -> Void = CSUserQuery.prepare
        let _: ([FileProtectionType]) -> Void = CSUserQuery.prepareProtectionClasses(_:)
        let _: ReferenceWritableKeyPath<CSUserQuery, (([CSSuggestion]) -> Void)?> = \.foundSuggestionsHandler
        let _: KeyPath<CSUserQuery, Int> = \.foundSuggestionCount
        let _: KeyPath<CSUserQuery, CSUserQuery.Responses> = \.responses
        let _: KeyPath<CSUserQuery, CSUserQuery.Suggestions> = \.suggestions
        let _: (CSUserQuery) -> (CSUserQuery.Item, [CSUserQuery.Item], CSUserQuery.UserInteractionKind) -> Void =
            CSUserQuery.userEngaged(_:visibleItems:interaction:)
        let _: (CSUserQuery) -> (CSUserQuery.Suggestion, [CSUserQuery.Suggestion], CSUserQuery.UserInteractionKind) -> Void =
            CSUserQuery.userEngaged(_:visibleSuggestions:interaction:)
        let _: KeyPath<CSUserQuery.Item, CSSearchableItem> = \.item
        let _: KeyPath<CSUserQuery.Suggestion, CSSuggestion> = \.suggestion
        let query: CSSearchQuery = CSUserQuery(userQueryString: nil, userQueryContext: nil)
        #expect(query is CSUserQuery)

        #expect(CSUserQuery.UserInteractionKind.select.rawValue == 0)
        #expect(CSUserQuery.UserInteractionKind.default == .select)
        #expect(CSUserQuery.UserInteractionKind.focus.rawValue == 1)
    }

    /// `responses` and `suggestions`, as Apple's "Building a search interface" sample reads them.
    func responsesAsTheSampleReadsThem() async throws {
        let context = CSUserQueryContext()
        context.maxSuggestionCount = 3
        let query = CSUserQuery(userQueryString: "tar", userQueryContext: context)
        for try await response in query.responses {
            switch response {
            case .item(let item): _ = item.item.attributeSet.title
            case .suggestion(let suggestion): _ = suggestion.suggestion.localizedAttributedSuggestion
            }
        }
        for try await suggestion in CSUserQuery(userQueryString: "tar", userQueryContext: context).suggestions {
            _ = suggestion.suggestion.suggestionKind
        }
    }

    /// §9a: CSUserQueryContext.
    @Test func userQueryContext() {
        let context: CSSearchQueryContext = CSUserQueryContext()
        #expect(context is CSUserQueryContext)
        let _: () -> CSUserQueryContext = CSUserQueryContext.init
        let _: (CSSuggestion?) -> CSUserQueryContext = CSUserQueryContext.init(currentSuggestion:)
        let _: ReferenceWritableKeyPath<CSUserQueryContext, Bool> = \.enableRankedResults
        let _: ReferenceWritableKeyPath<CSUserQueryContext, Int> = \.maxResultCount
        let _: ReferenceWritableKeyPath<CSUserQueryContext, Int> = \.maxSuggestionCount
        let _: ReferenceWritableKeyPath<CSUserQueryContext, Int> = \.maxRankedResultCount
        let _: ReferenceWritableKeyPath<CSUserQueryContext, Bool> = \.disableSemanticSearch
        // The defaults the spec gives.
        let defaults = CSUserQueryContext()
        #expect(!defaults.enableRankedResults && defaults.maxResultCount == 0 && defaults.maxSuggestionCount == 0)
        #expect(defaults.maxRankedResultCount == 100 && !defaults.disableSemanticSearch)
    }

    /// §9b: CSSuggestion.
    @Test func suggestion() {
        let _: KeyPath<CSSuggestion, AttributedString> = \.localizedAttributedSuggestion
        let _: KeyPath<CSSuggestion, CSSuggestion.Kind> = \.suggestionKind
        let _: (CSSuggestion) -> (CSSuggestion) -> ComparisonResult = CSSuggestion.compare(byRank:)
        let _: (CSSuggestion) -> (CSSuggestion) -> ComparisonResult = CSSuggestion.compare(_:)
        let _: NSAttributedString.Key = CSSuggestionHighlightAttributeName
        #expect(CSSuggestion.Kind.none.rawValue == 0 && CSSuggestion.Kind.custom.rawValue == 1 && CSSuggestion.Kind.default.rawValue == 2)
    }
}
