public import Foundation
public import SpotlightIndex
public import SpotlightSystem

/// Proactive location suggestions: the places of the activities the user
/// viewed last, offered back with the app they come from, as iOS offers
/// them in the app switcher, in Maps and after "Meet me at".
///
/// ```swift
/// let places = try LocationSuggestions().suggestions(context: "meet me at")
/// for place in places.suggestions {
///     print("\(place.name) — \(place.address ?? "") — \(place.attribution)")
///     try ActionRunner().perform(place.actions[0])      // Navigate
/// }
/// ```
///
/// A place is an activity of a registered app (eligible for search or for
/// prediction, not expired) whose content attributes give coordinates, a
/// street or a formatted address — what `NSUserActivity.mapItem` fills in.
/// The most recently viewed come first; each weighs 1 when just viewed and
/// half as much every ``halfLife``, and is no longer offered past
/// ``maximumAge``. Deleting the activity (or letting it expire) removes its
/// suggestion. With a context, places are offered only when the text ends
/// in a phrase asking for one ("meet me at", "directions to", …), and the
/// words typed after it narrow them ("meet me at ray" → Ray's Fruit Emporium).
public final class LocationSuggestions: Sendable {
    /// The apps whose activities are read.
    public let registry: AppRegistry
    /// How long a view takes to count half as much: 2 days.
    public static let halfLife: TimeInterval = 2 * 86_400
    /// Views older than this are not offered: 14 days.
    public static let maximumAge: TimeInterval = 14 * 86_400
    private let options: StoreOptions

    public init(registry: AppRegistry = AppRegistry(), options: StoreOptions = StoreOptions()) {
        self.registry = registry
        self.options = options
    }

    /// The places to offer, most recently viewed first, one per place.
    /// - Parameters:
    ///   - context: the text being typed, or nil for every recent place.
    ///   - limit: at most this many (iOS offers one to three).
    /// - Throws: ``SystemSearchError`` `.registryUnavailable`; an app whose
    ///   activities cannot be read is named in ``PlaceSuggestionList/problems``.
    public func suggestions(context: String? = nil, limit: Int = 3) throws -> PlaceSuggestionList {
        var list = PlaceSuggestionList(context: context, suggestions: [], problems: [])
        let wanted: PlaceContext?
        if let context {
            guard let parsed = PlaceContext(context) else { return list }
            wanted = parsed
        } else {
            wanted = nil
        }
        let (apps, problems) = try registry.scan()
        list.problems = problems
        let now = options.clock()
        var places: [PlaceSuggestion] = []
        for app in apps where UserActivityStore.exists(bundleIdentifier: app.bundleIdentifier, location: registry.location) {
            do {
                let activities = try UserActivityStore(bundleIdentifier: app.bundleIdentifier, location: registry.location, options: options)
                for activity in try activities.allActivities() {
                    let age = max(0, now.timeIntervalSince(activity.indexedAt))
                    guard age <= Self.maximumAge, activity.expiresAt > now,
                          activity.record.isEligibleForSearch || activity.record.isEligibleForPrediction,
                          let place = PlaceSuggestion(activity, app: app, weight: exp2(-age / Self.halfLife)),
                          wanted?.matches(place) ?? true else { continue }
                    places.append(place)
                }
            } catch {
                list.problems.append("\(app.displayName) (\(app.bundleIdentifier)): \(error)")
            }
        }
        places.sort { ($0.lastViewed, $1.reference.description) > ($1.lastViewed, $0.reference.description) }
        for place in places where !list.suggestions.contains(where: { $0.isSamePlace(as: place) }) {
            list.suggestions.append(place)
            if list.suggestions.count == max(1, limit) { break }
        }
        return list
    }
}
