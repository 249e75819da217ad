// The spellings of older SDKs that Apple's iOS 9 sample code and the books
// of that time use: they compile (as deprecated renames, whose warning names
// today's spelling). The uses sit in a deprecated function, where Swift does
// not warn, so this target builds without warnings.
#if canImport(CoreSpotlight)
import CoreSpotlight
#else
import OpenCoreSpotlight
#endif
import Foundation
import Testing

extension AppleAPIConformance {
    /// The iOS 9 chapter's indexing code, as written for Swift 2.
    @available(*, deprecated, message: "uses the Swift 2 spellings on purpose")
    func swift2Spellings(_ items: [CSSearchableItem], state: Data) {
        let index = CSSearchableIndex()
        index.beginIndexBatch()
        index.indexSearchableItems(items) { error in print(error as Any) }
        index.endIndexBatchWithClientState(state) { error in print(error as Any) }
        index.fetchLastClientStateWithCompletionHandler { state, error in print(state as Any, error as Any) }
        let shared: CSSearchableIndex = CSSearchableIndex.defaultSearchableIndex()
        shared.deleteSearchableItemsWithIdentifiers(["a"]) { _ in }
        shared.deleteSearchableItemsWithDomainIdentifiers(["d"]) { _ in }
        shared.deleteAllSearchableItemsWithCompletionHandler { _ in }
        index.endIndexBatch(withClientState: state)

        let _: (String) -> CSSearchableItemAttributeSet = CSSearchableItemAttributeSet.init(itemContentType:)
        let _: (String, [String]?) -> CSSearchQuery = CSSearchQuery.init(queryString:attributes:)
        let _: () -> NSUserActivity = NSUserActivity.init
        let attributes = CSSearchableItemAttributeSet(itemContentType: kUTTypeText as String)
        attributes.title = "Paris"
        let activity = NSUserActivity(activityType: "com.example.view")
        activity.eligibleForSearch = true
        activity.eligibleForPublicIndexing = false
        activity.eligibleForHandoff = false
        let _ = CSSearchQuery(queryString: #"title == "Paris""#, attributes: ["title"])
    }

    /// The old spellings are the new ones: the flags they set are the flags.
    @available(*, deprecated, message: "uses the Swift 2 spellings on purpose")
    @Test func swift2SpellingsAreTheSameProperties() {
        let activity = NSUserActivity(activityType: "com.example.view")
        activity.eligibleForSearch = true
        activity.eligibleForPublicIndexing = true
        activity.eligibleForHandoff = false
        #expect(activity.isEligibleForSearch && activity.isEligibleForPublicIndexing && !activity.isEligibleForHandoff)
        #expect(CSSearchableItemAttributeSet(itemContentType: kUTTypeText as String).contentType == "public.text")
    }
}
