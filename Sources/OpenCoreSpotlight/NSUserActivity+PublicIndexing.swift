import Foundation
import Logging
import PublicIndexProtocol
import SpotlightIndex

extension NSUserActivity {
    /// The activity's public form: what the public index may learn of it
    /// once enough devices donated it. Nil when it cannot be public: Apple
    /// requires a `webpageURL` or `requiredUserInfoKeys` so that others can
    /// open it (the public identifier is then the required `userInfo`, as
    /// canonical JSON), and a title to show.
    func publicContent(_ record: UserActivityRecord, bundleIdentifier: String) -> PublicActivityContent? {
        guard let title = record.title, !PublicActivityContent.normalizedText(title).isEmpty else { return nil }
        var publicIdentifier: String?
        if let required = record.requiredUserInfoKeys, !required.isEmpty {
            let values = record.userInfo.filter { required.contains($0.key) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            publicIdentifier = (try? encoder.encode(values)).map { String(decoding: $0, as: UTF8.self) }
        }
        guard record.webpageURL != nil || publicIdentifier != nil else { return nil }
        let keywords = Set(record.keywords).union(contentAttributeSet?.keywords ?? []).sorted()
        return PublicActivityContent(activityType: record.activityType, app: bundleIdentifier, title: title, webpageURL: record.webpageURL,
                                     publicIdentifier: publicIdentifier, contentDescription: contentAttributeSet?.contentDescription,
                                     keywords: Array(keywords.prefix(PublicActivityContent.Limits.keywordCount)),
                                     thumbnailURL: contentAttributeSet?.thumbnailURL)
    }

    /// When the device opted in to the public index (``PublicIndexSettings``),
    /// queues a donation of an activity marked `isEligibleForPublicIndexing`
    /// in the app's outbox: the hash of its public form, and that form for
    /// when the index asks. Nothing leaves the device here; the system's
    /// sender delivers the outbox.
    func queuePublicDonation(_ record: UserActivityRecord, in store: UserActivityStore) {
        guard record.isEligibleForPublicIndexing,
              PublicIndexSettings.load(location: OpenSpotlightConfiguration.location).isEnabled else { return }
        guard let content = publicContent(record, bundleIdentifier: store.bundleIdentifier) else {
            Self.logger.warning("NSUserActivity \(activityType) is eligible for public indexing but has no title, webpageURL or requiredUserInfoKeys; it is not donated")
            return
        }
        do {
            try content.validate()
            let json = try PublicIndexJSON.encoder().encode(content)
            try store.queuePublicDonation(hash: ActivityHash(of: content).hex, content: json)
        } catch {
            Self.logger.error("NSUserActivity \(activityType) was not queued for the public index: \(error)")
        }
    }
}
