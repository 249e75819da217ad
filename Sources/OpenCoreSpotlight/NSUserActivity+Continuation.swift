public import Foundation
import SpotlightIndex

extension NSUserActivity {
    /// The environment variable through which system search hands a
    /// launched app the activity to continue, as JSON (OpenSpotlight's
    /// addition: on an iPhone the system calls the app delegate).
    public static let continuationEnvironmentKey = "OPENSPOTLIGHT_ACTIVITY"

    /// The activity this process was launched to continue, if any: what
    /// `application(_:continue:restorationHandler:)` receives on Apple's
    /// platforms. Exit with status 0 when you handled it, non-zero when you
    /// did not; system search reports the difference.
    ///
    /// ```swift
    /// if let activity = try NSUserActivity.launchActivity() {
    ///     guard appDelegate.continue(activity) else { exit(1) }
    /// }
    /// ```
    /// - Throws: `DecodingError` when the variable is set but is not an activity.
    public static func launchActivity(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> NSUserActivity? {
        guard let json = environment[continuationEnvironmentKey], !json.isEmpty else { return nil }
        return try NSUserActivity(jsonRepresentation: Data(json.utf8))
    }

    /// An activity from the JSON form system search hands to apps (see
    /// ``continuationEnvironmentKey``), or that ``jsonRepresentation()`` gives.
    public convenience init(jsonRepresentation: Data) throws {
        self.init(record: try UserActivityRecord(jsonData: jsonRepresentation))
    }

    /// The activity as JSON: its type, title, saved user info (property-list
    /// values with their types), keywords, URLs and eligibility.
    /// - Throws: when `userInfo` holds a value that cannot be saved.
    public func jsonRepresentation() throws -> Data {
        try record().jsonData()
    }
}
