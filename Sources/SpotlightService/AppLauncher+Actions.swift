import Foundation
import SpotlightIndex
import SpotlightSystem

extension AppLauncher {
    /// The actions a result offers: those its attributes allow
    /// (``ResultAction/actions(for:)``), and for a donated activity that
    /// describes a place, "Navigate" and "Call" as its place suggestion offers them.
    /// - Throws: ``SystemSearchError`` `.resultNotFound` when nothing is stored under the reference.
    public func actions(of reference: ResultReference) throws -> [ResultAction] {
        let (attributes, place) = try lookUp(reference)
        var actions = ResultAction.actions(for: attributes)
        for action in place?.actions ?? [] where !actions.contains(where: { $0.kind == action.kind }) {
            actions.append(action)
        }
        return actions
    }

    /// Carries out one of a result's actions ("call", "email", "navigate",
    /// "openURL") through `runner`, as tapping its button does, and counts a
    /// selection of the result.
    ///
    /// ```swift
    /// try AppLauncher().perform("navigate", of: ResultReference(parsing: "org.example.shop/.activities/3f2a…"))
    /// ```
    /// - Throws: ``SystemSearchError`` `.resultNotFound`; `.actionFailed` when the
    ///   result does not offer that action or the opener failed.
    @discardableResult
    public func perform(_ kind: String, of reference: ResultReference, runner: ActionRunner = ActionRunner()) throws -> ActionOutcome {
        let offered = try actions(of: reference)
        guard let action = offered.first(where: { $0.kind == kind.lowercased() || ($0.kind == "openURL" && kind.lowercased() == "open") }) else {
            let kinds = offered.map(\.kind)
            throw SystemSearchError(.actionFailed, "\(reference) offers no \(kind) action\(kinds.isEmpty ? "" : "; it offers \(kinds.joined(separator: ", "))")")
        }
        let outcome = try runner.perform(action)
        try store(of: reference).recordEngagement(.selection, itemIdentifier: reference.itemIdentifier)
        return outcome
    }

    /// The stored attributes of a reference and, for an activity, the place it describes.
    private func lookUp(_ reference: ResultReference) throws -> ([String: AttributeValue], PlaceSuggestion?) {
        let notFound = SystemSearchError(.resultNotFound, "\(reference) is not stored (deleted or expired?); search again")
        if reference.isActivity {
            let app = try registry.app(reference.bundleIdentifier)
            guard let app, UserActivityStore.exists(bundleIdentifier: app.bundleIdentifier, location: registry.location),
                  let activity = try UserActivityStore(bundleIdentifier: app.bundleIdentifier, location: registry.location, options: options)
                      .activity(withIdentifier: reference.itemIdentifier) else { throw notFound }
            return (activity.attributes, PlaceSuggestion(activity, app: app, weight: 1))
        }
        guard let item = try store(of: reference).item(withIdentifier: reference.itemIdentifier) else { throw notFound }
        return (item.item.attributes, nil)
    }

    private func store(of reference: ResultReference) throws -> SpotlightStore {
        let notFound = SystemSearchError(.resultNotFound, "\(reference) is not stored (deleted or expired?); search again")
        if reference.isActivity {
            guard UserActivityStore.exists(bundleIdentifier: reference.bundleIdentifier, location: registry.location) else { throw notFound }
            return try UserActivityStore(bundleIdentifier: reference.bundleIdentifier, location: registry.location, options: options).store
        }
        guard (try? StoreName.validateIndexName(reference.indexName)) != nil,
              SpotlightStore.exists(bundleIdentifier: reference.bundleIdentifier, indexName: reference.indexName, location: registry.location)
        else { throw notFound }
        return try SpotlightStore(bundleIdentifier: reference.bundleIdentifier, indexName: reference.indexName, location: registry.location, options: options)
    }
}
