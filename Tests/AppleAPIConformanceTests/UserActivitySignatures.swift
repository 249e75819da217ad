// §12 of the spec: NSUserActivity's search side, and its delegate.
#if canImport(CoreSpotlight)
import CoreSpotlight
#else
import OpenCoreSpotlight
#endif
import Foundation
import Testing

extension AppleAPIConformance {
    /// §12: NSUserActivity.
    @Test func userActivity() {
        let _: (String) -> NSUserActivity = NSUserActivity.init(activityType:)
        let _: KeyPath<NSUserActivity, String> = \.activityType
        let _: ReferenceWritableKeyPath<NSUserActivity, String?> = \.title
        let _: ReferenceWritableKeyPath<NSUserActivity, [AnyHashable: Any]?> = \.userInfo
        let _: (NSUserActivity) -> ([AnyHashable: Any]) -> Void = NSUserActivity.addUserInfoEntries(from:)
        let _: ReferenceWritableKeyPath<NSUserActivity, Set<String>?> = \.requiredUserInfoKeys
        let _: ReferenceWritableKeyPath<NSUserActivity, Set<String>> = \.keywords
        let _: ReferenceWritableKeyPath<NSUserActivity, Bool> = \.isEligibleForSearch
        let _: ReferenceWritableKeyPath<NSUserActivity, Bool> = \.isEligibleForPublicIndexing
        let _: ReferenceWritableKeyPath<NSUserActivity, Bool> = \.isEligibleForHandoff
        let _: ReferenceWritableKeyPath<NSUserActivity, Bool> = \.isEligibleForPrediction
        let _: ReferenceWritableKeyPath<NSUserActivity, NSUserActivityPersistentIdentifier?> = \.persistentIdentifier
        let _: ([NSUserActivityPersistentIdentifier], @escaping @Sendable () -> Void) -> Void =
            NSUserActivity.deleteSavedUserActivities(withPersistentIdentifiers:completionHandler:)
        let _: ([NSUserActivityPersistentIdentifier]) async -> Void = NSUserActivity.deleteSavedUserActivities(withPersistentIdentifiers:)
        let _: (@escaping @Sendable () -> Void) -> Void = NSUserActivity.deleteAllSavedUserActivities(completionHandler:)
        let _: () async -> Void = NSUserActivity.deleteAllSavedUserActivities
        let _: ReferenceWritableKeyPath<NSUserActivity, Date?> = \.expirationDate
        let _: ReferenceWritableKeyPath<NSUserActivity, URL?> = \.webpageURL
        let _: ReferenceWritableKeyPath<NSUserActivity, URL?> = \.referrerURL
        let _: ReferenceWritableKeyPath<NSUserActivity, String?> = \.targetContentIdentifier
        let _: ReferenceWritableKeyPath<NSUserActivity, CSSearchableItemAttributeSet?> = \.contentAttributeSet
        let _: (NSUserActivity) -> () -> Void = NSUserActivity.becomeCurrent
        let _: (NSUserActivity) -> () -> Void = NSUserActivity.resignCurrent
        let _: (NSUserActivity) -> () -> Void = NSUserActivity.invalidate
        let _: ReferenceWritableKeyPath<NSUserActivity, Bool> = \.needsSave
        let _: ReferenceWritableKeyPath<NSUserActivity, Bool> = \.supportsContinuationStreams
        let _: ReferenceWritableKeyPath<NSUserActivity, (any NSUserActivityDelegate)?> = \.delegate

        func delegateMembers(_ delegate: any NSUserActivityDelegate) {
            let _: (NSUserActivity) -> Void = delegate.userActivityWillSave(_:)
            let _: (NSUserActivity) -> Void = delegate.userActivityWasContinued(_:)
            let _: (NSUserActivity, InputStream, OutputStream) -> Void = delegate.userActivity(_:didReceive:outputStream:)
        }
        delegateMembers(ScreenDelegate())

        // Apple's defaults.
        let activity = NSUserActivity(activityType: "com.example.view")
        #expect(!activity.isEligibleForSearch && !activity.isEligibleForPublicIndexing && activity.isEligibleForHandoff)
        activity.addUserInfoEntries(from: ["id": "r7"])
        #expect(activity.userInfo?["id"] as? String == "r7")
    }

    /// The class-level deletes, as app code calls them (with a trailing closure, and awaited).
    func deletingDonations() async {
        NSUserActivity.deleteSavedUserActivities(withPersistentIdentifiers: ["r7"]) { print("deleted") }
        NSUserActivity.deleteAllSavedUserActivities { print("all deleted") }
        await NSUserActivity.deleteSavedUserActivities(withPersistentIdentifiers: ["r7"])
        await NSUserActivity.deleteAllSavedUserActivities()
    }
}

/// A view controller's activity delegate: every member is optional.
final class ScreenDelegate: NSObject, NSUserActivityDelegate {}
