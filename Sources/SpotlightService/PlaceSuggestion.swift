public import Foundation
public import SpotlightIndex
import SpotlightSystem

/// A place the user looked at in an app, offered back in another context —
/// the app switcher's "Directions to…", a maps app's suggestions, the
/// keyboard after "Meet me at" — tagged with the app it came from.
///
/// ```swift
/// for place in try LocationSuggestions().suggestions(context: "meet me at").suggestions {
///     print(place.name, place.attribution)          // Ray's Fruit Emporium  From GreenGrocer
///     for action in place.actions { print("  \(action.label): \(action.uri)") }
/// }
/// ```
public struct PlaceSuggestion: Sendable, Hashable, Encodable {
    /// The activity the place comes from; ``AppLauncher/open(_:)`` opens it in its app.
    public var reference: ResultReference
    /// The app it comes from.
    public var bundleIdentifier: String
    /// The app's name, as the suggestion's tag says it.
    public var appName: String
    /// The place's name: `namedLocation`, else the activity's title, else its street.
    public var name: String
    /// One line of address, when the activity gave one.
    public var address: String?
    /// Where it is, when the activity gave `latitude` and `longitude`.
    public var coordinate: GeoPoint?
    /// The number "Call" dials, when the activity gave one.
    public var phoneNumber: String?
    /// "Navigate" (a `geo:` URI with the coordinates when known, else the
    /// address) and "Call" (when there is a phone number); carried out by ``ActionRunner``.
    public var actions: [ResultAction]
    /// When the user last viewed it (the activity last became current).
    public var lastViewed: Date
    /// How strongly it is offered, 1 just after the view, halving every
    /// ``LocationSuggestions/halfLife``.
    public var weight: Double

    /// "From GreenGrocer", as Apple tags a suggestion.
    public var attribution: String
}

extension PlaceSuggestion {
    /// The place an activity's attributes describe, or nil when they name
    /// none: a place needs coordinates, a street (`thoroughfare`) or a
    /// formatted address, as Apple asks of location activities.
    init?(_ activity: StoredActivity, app: AppRegistration, weight: Double) {
        let attributes = activity.attributes
        func text(_ name: String) -> String? { attributes[name]?.texts?.first { !$0.isEmpty } }
        let coordinate = GeoPoint(attributes: attributes)
        let street = [text("subThoroughfare"), text("thoroughfare")].compactMap { $0 }.joined(separator: " ")
        let region = [text("stateOrProvince"), text("postalCode")].compactMap { $0 }.joined(separator: " ")
        let composed = [street, text("city") ?? "", region, text("country") ?? ""].filter { !$0.isEmpty }.joined(separator: ", ")
        let address = text("fullyFormattedAddress") ?? (composed.isEmpty ? nil : composed)
        guard coordinate != nil || text("thoroughfare") != nil || text("fullyFormattedAddress") != nil else { return nil }
        reference = ResultReference(bundleIdentifier: app.bundleIdentifier, indexName: UserActivityStore.indexName,
                                    itemIdentifier: activity.identifier)
        bundleIdentifier = app.bundleIdentifier
        appName = app.displayName
        attribution = "From \(app.displayName)"
        name = text("namedLocation") ?? activity.record.title ?? text("title") ?? address ?? coordinate?.description ?? ""
        self.address = address
        self.coordinate = coordinate
        phoneNumber = attributes["phoneNumbers"]?.texts?.first { !$0.isEmpty }
        var actions: [ResultAction] = []
        if let coordinate {
            actions.append(.navigate(latitude: coordinate.latitude, longitude: coordinate.longitude))
        } else if let address {
            actions.append(.navigateToAddress(address))
        }
        if let phoneNumber { actions.append(.call(phoneNumber: phoneNumber)) }
        self.actions = actions
        lastViewed = activity.indexedAt
        self.weight = weight
    }

    /// Two suggestions of one place (same coordinates to ~10 m, or same name and address).
    func isSamePlace(as other: PlaceSuggestion) -> Bool {
        if let here = coordinate, let there = other.coordinate { return here.distance(to: there) < 10 }
        return name == other.name && address == other.address
    }

    /// The words a typed fragment is matched against: name and address.
    var searchableWords: [String] {
        ([name] + [address].compactMap { $0 }).flatMap { PlaceContext.words($0) }
    }
}

/// Suggestions for one context.
public struct PlaceSuggestionList: Sendable, Hashable, Encodable {
    /// The context asked about (nil: no context, every recent place).
    public var context: String?
    /// The places, most recently viewed first.
    public var suggestions: [PlaceSuggestion]
    /// Apps whose activities could not be read (the rest were used).
    public var problems: [String]
}
