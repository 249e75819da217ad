import Foundation

/// A place on Earth in WGS 84 degrees, and the great-circle distance between two.
///
/// ```swift
/// let paris = GeoPoint(latitude: 48.8566, longitude: 2.3522)!
/// let london = GeoPoint(latitude: 51.5074, longitude: -0.1278)!
/// print(paris.distance(to: london))   // ≈ 343,500 m
/// ```
///
/// Distances use the haversine formula on a sphere of the Earth's mean
/// radius (6,371,008.8 m): within 0.5% of the ellipsoid's geodesic
/// everywhere, which is what ranking by distance and "within 5 km" need.
public struct GeoPoint: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Degrees north of the equator, −90…90.
    public let latitude: Double
    /// Degrees east of Greenwich, −180…180.
    public let longitude: Double

    /// The Earth's mean radius in meters (IUGG).
    public static let earthRadius = 6_371_008.8

    /// A point, or nil when a coordinate is out of range or not a number.
    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Parses `"LAT,LON"` in decimal degrees (`"48.8647,2.3470"`), or nil.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }

    /// The point of an item's `latitude` and `longitude` attributes, if it has both and they are valid.
    public init?(attributes: [String: AttributeValue]) {
        guard let latitude = attributes["latitude"]?.doubleValue, let longitude = attributes["longitude"]?.doubleValue else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }

    // swift-format-ignore: IdentifiersMustBeASCII
    // (φ latitude, λ longitude: the formula's own letters.)
    /// The great-circle distance to `other`, in meters (haversine).
    public func distance(to other: GeoPoint) -> Double {
        let radians = Double.pi / 180
        let φ1 = latitude * radians, φ2 = other.latitude * radians
        let Δφ = (other.latitude - latitude) * radians
        let Δλ = (other.longitude - longitude) * radians
        let a = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * Self.earthRadius * asin(min(1, sqrt(a)))
    }

    /// `"48.8647,2.347"`: the form `geo:` URIs and `--near` use.
    public var description: String { "\(latitude),\(longitude)" }
}
