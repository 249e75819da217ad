import Foundation
import SpotlightIndex

/// An app known to system search: who it is, how to launch it, and what it
/// continues — on an iPhone, what its `Info.plist` tells the system.
///
/// ```swift
/// let app = AppRegistration(
///     bundleIdentifier: "com.example.recipes", displayName: "Recipes",
///     launchCommand: ["/usr/bin/recipes", "--continue", "{activity}"],
///     activityTypes: ["com.example.recipes.view"], supportsSearchContinuation: true)
/// try AppRegistry().register(app)
/// ```
///
/// Its JSON form is also the manifest an app installs; the Info.plist key
/// names `NSUserActivityTypes` and `CoreSpotlightContinuation` are accepted
/// in place of `activityTypes` and `supportsSearchContinuation`:
/// ```json
/// {"bundleIdentifier": "com.example.recipes", "displayName": "Recipes",
///  "icon": "/usr/share/icons/hicolor/64x64/apps/recipes.png",
///  "launchCommand": ["/usr/bin/recipes", "--continue", "{activity}"],
///  "NSUserActivityTypes": ["com.example.recipes.view"], "CoreSpotlightContinuation": true}
/// ```
public struct AppRegistration: Sendable, Hashable, Codable {
    /// In ``launchCommand``: replaced by the activity as JSON.
    public static let activityPlaceholder = "{activity}"
    /// In ``launchCommand``: replaced by the path of a file holding the activity as JSON.
    public static let activityFilePlaceholder = "{activity-file}"
    /// In ``indexExtensionCommand``: replaced by the ``IndexRequest`` as JSON.
    public static let requestPlaceholder = "{request}"

    /// The app's reverse-DNS identifier; its stores live under it.
    public var bundleIdentifier: String
    /// The name results are grouped under.
    public var displayName: String
    /// A path or icon name for front ends.
    public var icon: String?
    /// The program and its arguments; ``activityPlaceholder`` and
    /// ``activityFilePlaceholder`` are replaced when it is launched. The
    /// activity is also in the environment, `OPENSPOTLIGHT_ACTIVITY`.
    public var launchCommand: [String]
    /// The activity types the app continues (`NSUserActivityTypes`). Core
    /// Spotlight's own two types need not be listed.
    public var activityTypes: [String]
    /// Whether results offer "Search in App" (`CoreSpotlightContinuation`).
    public var supportsSearchContinuation: Bool
    /// The app's index extension: the command run with an ``IndexRequest``
    /// (in ``requestPlaceholder`` and `OPENSPOTLIGHT_INDEX_REQUEST`) when its
    /// store was lost or items are about to expire. Nil: no extension; the
    /// requests wait for the app's own delegate.
    public var indexExtensionCommand: [String]?
    /// The app's import extension (`CSImportExtension`): the command run
    /// with a ``FileImportRequest`` (in ``requestPlaceholder`` and
    /// `OPENSPOTLIGHT_IMPORT_REQUEST`) for a file of one of ``importedContentTypes``.
    public var importerCommand: [String]?
    /// The content types the importer describes (a file whose type conforms to one is the app's).
    public var importedContentTypes: [String]
    /// The app's application identifier, `TEAMID.bundle` (the entitlement's
    /// `application-identifier`): web results whose site's apple-app-site-association
    /// hands the page to this identifier open in the app (universal links).
    public var applicationIdentifier: String?
    /// The app's numeric App Store id: web results whose Smart App Banner, App Links
    /// or Twitter app card name it open in the app.
    public var appStoreID: String?

    public init(bundleIdentifier: String, displayName: String, icon: String? = nil, launchCommand: [String],
                activityTypes: [String] = [], supportsSearchContinuation: Bool = false, indexExtensionCommand: [String]? = nil,
                importerCommand: [String]? = nil, importedContentTypes: [String] = [],
                applicationIdentifier: String? = nil, appStoreID: String? = nil) {
        self.applicationIdentifier = applicationIdentifier
        self.appStoreID = appStoreID
        self.indexExtensionCommand = indexExtensionCommand
        self.importerCommand = importerCommand
        self.importedContentTypes = importedContentTypes
        self.bundleIdentifier = bundleIdentifier
        self.displayName = displayName
        self.icon = icon
        self.launchCommand = launchCommand
        self.activityTypes = activityTypes
        self.supportsSearchContinuation = supportsSearchContinuation
    }

    /// Whether the app continues activities of this type.
    public func continues(activityType: String) -> Bool {
        activityType == UserActivityRecord.searchableItemActionType
            || (activityType == UserActivityRecord.queryContinuationActionType && supportsSearchContinuation)
            || activityTypes.contains(activityType)
            || (activityType == UserActivityRecord.browsingWebActivityType && (applicationIdentifier != nil || appStoreID != nil))
    }

    /// Throws ``SystemSearchErrorCode/invalidRegistration`` saying what is wrong.
    public func validate() throws {
        func fail(_ why: String) -> SystemSearchError {
            SystemSearchError(.invalidRegistration, "app \(bundleIdentifier.debugDescription) cannot be registered: \(why)")
        }
        do { try StoreName.validateBundleIdentifier(bundleIdentifier) } catch let error as SpotlightIndexError {
            throw SystemSearchError(.invalidRegistration, error.message)
        }
        if bundleIdentifier == WebStore.bundleIdentifier { throw fail("\(WebStore.bundleIdentifier) is reserved for the public web index") }
        if displayName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw fail("its display name is empty") }
        if let applicationIdentifier, !Self.isApplicationIdentifier(applicationIdentifier) {
            throw fail("its application identifier \(applicationIdentifier.debugDescription) is not TEAMID.bundle (10 capitals or digits, a dot, the bundle id)")
        }
        if let appStoreID, appStoreID.isEmpty || !appStoreID.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw fail("its App Store id \(appStoreID.debugDescription) is not numeric")
        }
        if displayName.count > 100 { throw fail("its display name is longer than 100 characters") }
        guard let program = launchCommand.first, !program.isEmpty else {
            throw fail("it has no launch command; give the program and its arguments, with {activity} where the activity goes")
        }
        if launchCommand.contains(where: { $0.utf8.contains(0) }) { throw fail("its launch command contains a NUL character") }
        for (what, command) in [("index extension", indexExtensionCommand), ("importer", importerCommand)] {
            if let command, command.first?.isEmpty ?? true || command.contains(where: { $0.utf8.contains(0) }) {
                throw fail("its \(what) command is empty or contains a NUL character")
            }
        }
        if !importedContentTypes.isEmpty && importerCommand == nil {
            throw fail("it imports content types but has no importer command")
        }
        for type in activityTypes where type.isEmpty || type.utf8.count > 255 || type.contains(where: \.isWhitespace) {
            throw fail("activity type \(type.debugDescription) is not a reverse-DNS type")
        }
    }

    /// `^[A-Z0-9]{10}\.[A-Za-z0-9.-]+$`, as apple-app-site-association spells app ids.
    static func isApplicationIdentifier(_ value: String) -> Bool {
        let parts = value.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 10, !parts[1].isEmpty else { return false }
        return parts[0].allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) }
            && parts[1].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
    }

    // MARK: - JSON

    private enum CodingKeys: String, CodingKey {
        case bundleIdentifier, displayName, icon, launchCommand, activityTypes, supportsSearchContinuation, indexExtensionCommand
        case importerCommand, importedContentTypes, applicationIdentifier, appStoreID
        case infoPlistActivityTypes = "NSUserActivityTypes"
        case infoPlistContinuation = "CoreSpotlightContinuation"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        bundleIdentifier = try container.decode(String.self, forKey: .bundleIdentifier)
        displayName = try container.decode(String.self, forKey: .displayName)
        icon = try container.decodeIfPresent(String.self, forKey: .icon)
        launchCommand = try container.decode([String].self, forKey: .launchCommand)
        activityTypes = try container.decodeIfPresent([String].self, forKey: .activityTypes)
            ?? container.decodeIfPresent([String].self, forKey: .infoPlistActivityTypes) ?? []
        supportsSearchContinuation = try container.decodeIfPresent(Bool.self, forKey: .supportsSearchContinuation)
            ?? container.decodeIfPresent(Bool.self, forKey: .infoPlistContinuation) ?? false
        indexExtensionCommand = try container.decodeIfPresent([String].self, forKey: .indexExtensionCommand)
        importerCommand = try container.decodeIfPresent([String].self, forKey: .importerCommand)
        importedContentTypes = try container.decodeIfPresent([String].self, forKey: .importedContentTypes) ?? []
        applicationIdentifier = try container.decodeIfPresent(String.self, forKey: .applicationIdentifier)
        appStoreID = try container.decodeIfPresent(String.self, forKey: .appStoreID)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bundleIdentifier, forKey: .bundleIdentifier)
        try container.encode(displayName, forKey: .displayName)
        try container.encodeIfPresent(icon, forKey: .icon)
        try container.encode(launchCommand, forKey: .launchCommand)
        try container.encode(activityTypes, forKey: .activityTypes)
        try container.encode(supportsSearchContinuation, forKey: .supportsSearchContinuation)
        try container.encodeIfPresent(indexExtensionCommand, forKey: .indexExtensionCommand)
        try container.encodeIfPresent(importerCommand, forKey: .importerCommand)
        if !importedContentTypes.isEmpty { try container.encode(importedContentTypes, forKey: .importedContentTypes) }
        try container.encodeIfPresent(applicationIdentifier, forKey: .applicationIdentifier)
        try container.encodeIfPresent(appStoreID, forKey: .appStoreID)
    }
}
