import ArgumentParser
import Foundation
import OpenCoreSpotlight
import UniformTypeIdentifiers

/// `spotlight example-app NAME index|continue|extension`: the demo's two
/// example apps, as an app would be written with the Apple API (hidden).
struct ExampleApp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "example-app",
        abstract: "Run one of the demo's example apps (Colleagues, GreenGrocer).",
        discussion: """
            index      index the app's content with CSSearchableIndex and donate an NSUserActivity
            continue   what system search launches: continue the activity in $OPENSPOTLIGHT_ACTIVITY
            extension  the app's index extension: answer the request in $OPENSPOTLIGHT_INDEX_REQUEST

            Example:
              spotlight example-app GreenGrocer index
            """,
        shouldDisplay: false
    )

    enum Verb: String, ExpressibleByArgument, CaseIterable {
        case index, `continue`, `extension`
    }

    @Argument(help: "Colleagues or GreenGrocer.") var name: String
    @Argument(help: "index, continue or extension.") var verb: Verb

    func run() throws {
        guard let app = ExampleContent.apps.first(where: { $0.displayName.lowercased() == name.lowercased() }) else {
            throw ValidationError("no example app named \(name); use Colleagues or GreenGrocer")
        }
        OpenSpotlightConfiguration.configure(bundleIdentifier: app.bundleIdentifier)
        switch verb {
        case .index: try index(app)
        case .continue: try continueActivity(app)
        case .extension:
            final class Indexer: CSIndexExtensionRequestHandler, @unchecked Sendable {
                let app: ExampleContent.App
                init(_ app: ExampleContent.App) { self.app = app }
                override func searchableIndex(_ searchableIndex: CSSearchableIndex,
                                              reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping () -> Void) {
                    searchableIndex.indexSearchableItems(app.items(Date())) { _ in acknowledgementHandler() }
                }
                override func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String],
                                              acknowledgementHandler: @escaping () -> Void) {
                    let wanted = Set(identifiers)
                    searchableIndex.indexSearchableItems(app.items(Date()).filter { wanted.contains($0.uniqueIdentifier) }) { _ in acknowledgementHandler() }
                }
            }
            guard try CSIndexExtensionRequestHandler.handleLaunchRequest(with: Indexer(app)) else {
                print("\(app.displayName): no index request, or it was not acknowledged")
                throw ExitCode(1)
            }
            print("\(app.displayName): index request handled")
        }
    }

    /// The app indexes its content and the user looks at one thing.
    private func index(_ app: ExampleContent.App) throws {
        let items = app.items(Date())
        let done = DispatchSemaphore(value: 0)
        final class Failure: @unchecked Sendable { var error: (any Error)? }
        let failure = Failure()
        let index = CSSearchableIndex.default()
        index.deleteAllSearchableItems { _ in }
        NSUserActivity.deleteAllSavedUserActivities { done.signal() }
        done.wait()
        index.indexSearchableItems(items) { error in
            failure.error = error
            done.signal()
        }
        done.wait()
        if let error = failure.error { throw error }
        // The user opened the first item twice: a donated activity, tied to the item.
        let viewed = items[0]
        let activity = NSUserActivity(activityType: app.viewActivityType)
        activity.title = viewed.attributeSet.title ?? viewed.attributeSet.displayName
        activity.userInfo = ["id": viewed.uniqueIdentifier]
        activity.requiredUserInfoKeys = ["id"]
        activity.isEligibleForSearch = true
        let attributes = CSSearchableItemAttributeSet(contentType: .content)
        attributes.relatedUniqueIdentifier = viewed.uniqueIdentifier
        activity.contentAttributeSet = attributes
        activity.becomeCurrent()
        activity.becomeCurrent()
        activity.invalidate()
        print("\(app.displayName): indexed \(items.count) items")
    }

    /// `application(_:continue:restorationHandler:)`.
    private func continueActivity(_ app: ExampleContent.App) throws {
        guard let activity = try NSUserActivity.launchActivity() else {
            print("\(app.displayName): started without an activity")
            return
        }
        let items = Dictionary(app.items(Date()).map { ($0.uniqueIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
        func show(_ id: String) throws {
            guard let item = items[id] else {
                print("\(app.displayName): no item \(id)")
                throw ExitCode(1)
            }
            print("\(app.displayName): showing \(item.attributeSet.title ?? item.attributeSet.displayName ?? id) (\(id))")
        }
        switch activity.activityType {
        case CSSearchableItemActionType:
            try show(activity.userInfo?[CSSearchableItemActivityIdentifier] as? String ?? "")
        case CSQueryContinuationActionType:
            let text = activity.userInfo?[CSSearchQueryString] as? String ?? ""
            let matches = items.values.filter { item in
                [item.attributeSet.title, item.attributeSet.displayName, item.attributeSet.contentDescription].contains {
                    $0?.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil
                }
            }
            print("\(app.displayName): searching for \"\(text)\" in the app: \(matches.count) found")
        case app.viewActivityType:
            try show(activity.userInfo?["id"] as? String ?? "")
        default:
            print("\(app.displayName): cannot continue \(activity.activityType)")
            throw ExitCode(1)
        }
    }
}
