public import Foundation
public import SpotlightIndex
public import SpotlightSystem

/// Opens results in their app, as tapping a result on an iPhone does: the
/// app's registered command is launched with the `NSUserActivity` to
/// continue, and a result the app handled counts as a selection.
///
/// ```swift
/// let launcher = AppLauncher()
/// let outcome = try launcher.open(reference: "com.example.recipes/default/r7")
/// print(outcome.output)
/// try launcher.searchInApp("com.example.recipes", text: "tart")
/// ```
///
/// What the app receives (as JSON in the `{activity}` argument, in a file
/// for `{activity-file}`, and in `OPENSPOTLIGHT_ACTIVITY`):
/// - an item: `CSSearchableItemActionType` with the item's identifier under
///   `CSSearchableItemActivityIdentifier`;
/// - a donated activity: the activity itself;
/// - "Search in App": `CSQueryContinuationActionType` with the text under
///   `CSSearchQueryString`.
///
/// Exit status 0 means the app handled it; anything else is
/// ``SystemSearchErrorCode/notHandled`` and no selection is recorded.
public struct AppLauncher: Sendable {
    /// Where apps and stores are.
    public let registry: AppRegistry
    /// How long the app's command may run, in seconds (default 30).
    public var timeout: TimeInterval
    /// What runs the app's command (a process of its own, by default).
    public let processRunner: any ProcessRunning
    let options: StoreOptions

    /// - Parameter processRunner: what runs the app's command: ``AppProcessRunner`` (a process), or a test's stand-in.
    public init(registry: AppRegistry = AppRegistry(), timeout: TimeInterval = 30, options: StoreOptions = StoreOptions(),
                processRunner: any ProcessRunning = AppProcessRunner()) {
        self.registry = registry
        self.timeout = timeout
        self.options = options
        self.processRunner = processRunner
    }

    /// What happened when an app was launched.
    public struct Outcome: Sendable, Encodable {
        /// The app launched.
        public var app: AppRegistration
        /// The activity it was given.
        public var activity: UserActivityRecord
        /// What it printed (standard output, then standard error).
        public var output: String
        /// Whether a selection was recorded as engagement.
        public var recordedSelection: Bool
    }

    /// Opens a result of ``SystemSearch``.
    @discardableResult
    public func open(_ result: SystemSearchResult) throws -> Outcome {
        try open(reference: result.reference)
    }

    /// Opens the item or activity a reference names (`<bundle>/<index>/<id>`).
    @discardableResult
    public func open(reference text: String) throws -> Outcome {
        try open(reference: try ResultReference(parsing: text))
    }

    /// Opens the item or activity a reference names.
    @discardableResult
    public func open(reference: ResultReference) throws -> Outcome {
        let app = try registeredApp(reference.bundleIdentifier)
        let location = registry.location
        let notFound = SystemSearchError(.resultNotFound, "\(reference) is not stored (deleted or expired?); search again")
        let record: UserActivityRecord
        let store: SpotlightStore
        if reference.isActivity {
            guard UserActivityStore.exists(bundleIdentifier: app.bundleIdentifier, location: location) else { throw notFound }
            let activities = try UserActivityStore(bundleIdentifier: app.bundleIdentifier, location: location, options: options)
            guard let activity = try activities.activity(withIdentifier: reference.itemIdentifier) else { throw notFound }
            record = activity.record
            store = activities.store
        } else {
            guard (try? StoreName.validateIndexName(reference.indexName)) != nil,
                  SpotlightStore.exists(bundleIdentifier: app.bundleIdentifier, indexName: reference.indexName, location: location) else { throw notFound }
            store = try SpotlightStore(bundleIdentifier: app.bundleIdentifier, indexName: reference.indexName, location: location, options: options)
            guard try store.containsItem(withIdentifier: reference.itemIdentifier) else { throw notFound }
            record = .openingItem(reference.itemIdentifier)
        }
        var outcome = try launch(app, record)
        try store.recordEngagement(.selection, itemIdentifier: reference.itemIdentifier)
        outcome.recordedSelection = true
        return outcome
    }

    /// Opens a web result in the registered app that handles it (a universal link,
    /// or the app its Smart App Banner names), as `NSUserActivityTypeBrowsingWeb`.
    /// - Throws: `.notHandled` when no registered app handles the page (install the
    ///   app from the App Store id the result shows, or open the page in a browser).
    @discardableResult
    public func open(_ result: WebResult) throws -> Outcome {
        guard let app = result.app, let activity = result.activity else {
            let hint = result.appStoreID.map { "; get the app from the App Store (id \($0))" } ?? ""
            throw SystemSearchError(.notHandled, "no registered app opens \(result.url.absoluteString)\(hint); open it in a browser")
        }
        return try launch(try registeredApp(app.bundleIdentifier), activity)
    }

    /// Opens the stored web page at `url` (its canonical URL) in the app that handles it.
    @discardableResult
    public func openWebPage(_ url: URL) throws -> Outcome {
        let notFound = SystemSearchError(.resultNotFound, "\(url.absoluteString) is not in the public web index; crawl it first (spotlight crawl)")
        guard WebStore.exists(location: registry.location),
              let page = try WebStore(location: registry.location, options: options).page(at: url) else { throw notFound }
        let (apps, _) = try registry.scan()
        return try open(WebResult(page, score: 0, explanation: "", apps: apps))
    }

    /// "Search in App": hands the app what the user typed.
    /// - Throws: `.notContinuable` when the app does not accept search continuation.
    @discardableResult
    public func searchInApp(_ bundleIdentifier: String, text: String) throws -> Outcome {
        let app = try registeredApp(bundleIdentifier)
        return try launch(app, .continuingQuery(text))
    }

    private func registeredApp(_ bundleIdentifier: String) throws -> AppRegistration {
        guard let app = try registry.app(bundleIdentifier) else {
            throw SystemSearchError(.appNotRegistered, "\(bundleIdentifier) is not registered; register it with `spotlight apps register` first")
        }
        return app
    }

    /// Runs the app's command with the activity and waits for it.
    func launch(_ app: AppRegistration, _ activity: UserActivityRecord) throws -> Outcome {
        guard app.continues(activityType: activity.activityType) else {
            let why = activity.activityType == UserActivityRecord.queryContinuationActionType
                ? "does not accept search continuation (CoreSpotlightContinuation)"
                : "does not list the activity type \(activity.activityType) in its activity types (NSUserActivityTypes)"
            throw SystemSearchError(.notContinuable, "\(app.displayName) \(why)")
        }
        let json = String(decoding: try activity.jsonData(), as: UTF8.self)
        var activityFile: URL?
        defer { if let activityFile { try? FileManager.default.removeItem(at: activityFile) } }
        var arguments: [String] = []
        for argument in app.launchCommand {
            if argument.contains(AppRegistration.activityFilePlaceholder) {
                if activityFile == nil {
                    let file = FileManager.default.temporaryDirectory.appendingPathComponent("openspotlight-activity-\(UUID().uuidString).json")
                    guard FileManager.default.createFile(atPath: file.path, contents: Data(json.utf8), attributes: [.posixPermissions: 0o600]) else {
                        throw SystemSearchError(.launchFailed, "cannot write the activity file \(file.path) for \(app.displayName)")
                    }
                    activityFile = file
                }
                arguments.append(argument.replacingOccurrences(of: AppRegistration.activityFilePlaceholder, with: activityFile!.path))
            } else {
                arguments.append(argument.replacingOccurrences(of: AppRegistration.activityPlaceholder, with: json))
            }
        }
        var environment = registry.environment(for: app)
        environment["OPENSPOTLIGHT_ACTIVITY"] = json
        let result = try processRunner.run(arguments, environment: environment, timeout: timeout, what: app.displayName)
        guard result.status == 0 else {
            let said = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
            throw SystemSearchError(.notHandled, "\(app.displayName) did not handle the activity (exit status \(result.status))\(said.isEmpty ? "" : ": \(said.suffix(500))")")
        }
        return Outcome(app: app, activity: activity, output: result.output, recordedSelection: false)
    }
}
