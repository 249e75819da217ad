import Foundation
public import SpotlightIndex

/// Where "near me" is: a place, and optionally how far from it results may be.
///
/// ```swift
/// let here = GeoPoint(latitude: 40.7194, longitude: -73.9970)!
/// let found = try SystemSearch().search("grocer", near: SearchArea(center: here, radius: 2_000))
/// for result in found.groups.flatMap(\.results) { print(result.title, result.distance ?? 0) }
/// ```
///
/// Results with coordinates rank with a distance decay: their score is
/// multiplied by ``factor(distance:)``, 2 at the place, 1.5 at
/// ``decayDistance``, tending to 1 far away, so a nearby place is lifted
/// above an equal text match elsewhere without burying a much better match.
/// Results without coordinates keep their score (factor 1); with a
/// ``radius`` they are left out, as are places beyond it.
public struct SearchArea: Sendable, Hashable {
    /// The place results are ranked around.
    public var center: GeoPoint
    /// Only results within this many meters of ``center``; nil: no limit.
    public var radius: Double?

    /// The distance, in meters, at which the lift is half of what it is at the place.
    public static let decayDistance = 2_000.0
    /// The radius of a browse (empty text) when none is given, in meters.
    public static let defaultBrowseRadius = 50_000.0

    public init(center: GeoPoint, radius: Double? = nil) {
        self.center = center
        self.radius = radius
    }

    /// How much a result `distance` meters away is lifted: 1 + 1 / (1 + distance / ``decayDistance``).
    public static func factor(distance: Double) -> Double {
        1 + 1 / (1 + max(0, distance) / decayDistance)
    }

    /// The results ranked by distance: each located one gets its
    /// ``SystemSearchResult/distance`` and a lifted score; with a radius,
    /// the others are dropped.
    func rank(_ results: [SystemSearchResult]) -> [SystemSearchResult] {
        results.compactMap { result in
            var result = result
            guard let point = result.coordinate else { return radius == nil ? result : nil }
            let distance = center.distance(to: point)
            if let radius, distance > radius { return nil }
            let factor = Self.factor(distance: distance)
            result.distance = distance
            result.score *= factor
            result.appendToExplanation(String(format: " × distance %.0f m (×%.3f)", distance, factor))
            return result
        }
    }

    /// A query-language bounding box around the area: every place within
    /// the radius (``defaultBrowseRadius`` without one) is inside it, and
    /// ``rank(_:)`` then checks the true distance.
    var boundingBoxQuery: String {
        let meters = radius ?? Self.defaultBrowseRadius
        let latitudeSpan = meters / 111_194.9 // meters per degree of latitude on the mean sphere
        let lowest = max(-90, center.latitude - latitudeSpan), highest = min(90, center.latitude + latitudeSpan)
        var query = "InRange(latitude, \(lowest), \(highest))"
        let widest = max(abs(lowest), abs(highest))
        if widest < 89.9 {
            let longitudeSpan = latitudeSpan / cos(widest * .pi / 180)
            if longitudeSpan < 180 {
                let west = center.longitude - longitudeSpan, east = center.longitude + longitudeSpan
                if west >= -180 && east <= 180 {
                    query += " && InRange(longitude, \(west), \(east))"
                } else {
                    // The box crosses the antimeridian: two ranges.
                    let wrappedWest = west < -180 ? west + 360 : west, wrappedEast = east > 180 ? east - 360 : east
                    query += " && (InRange(longitude, \(max(-180, wrappedWest)), 180) || InRange(longitude, -180, \(min(180, wrappedEast))))"
                }
            }
        }
        return query
    }
}
