public import Foundation

/// A place on Earth and when it was there, as Apple's `CoreLocation.CLLocation`.
///
/// ```swift
/// let store = CLLocation(latitude: 40.7194, longitude: -73.9970)
/// let office = CLLocation(latitude: 40.7580, longitude: -73.9855)
/// print(store.distance(from: office))   // ≈ 4,440 m
/// ```
///
/// Distances are great-circle distances on a sphere of the Earth's mean
/// radius (6,371,008.8 m): within 0.5% of the ellipsoid's geodesic.
open class CLLocation: NSObject, NSCopying, @unchecked Sendable {
    /// Where.
    public let coordinate: CLLocationCoordinate2D
    /// Meters above sea level (0 when not known).
    public let altitude: CLLocationDistance
    /// How far the true position may be from ``coordinate``, in meters; negative when the coordinate is invalid.
    public let horizontalAccuracy: CLLocationDistance
    /// How far the true altitude may be from ``altitude``, in meters; negative when not known.
    public let verticalAccuracy: CLLocationDistance
    /// When the location was determined.
    public let timestamp: Date

    /// A location at a coordinate, now, with no altitude.
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        let coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
        self.coordinate = coordinate
        altitude = 0
        horizontalAccuracy = CLLocationCoordinate2DIsValid(coordinate) ? 0 : -1
        verticalAccuracy = -1
        timestamp = Date()
        super.init()
    }

    /// A location with every measurement given.
    public init(coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy hAccuracy: CLLocationAccuracy,
                verticalAccuracy vAccuracy: CLLocationAccuracy, timestamp: Date) {
        self.coordinate = coordinate
        self.altitude = altitude
        horizontalAccuracy = hAccuracy
        verticalAccuracy = vAccuracy
        self.timestamp = timestamp
        super.init()
    }

    // swift-format-ignore: IdentifiersMustBeASCII
    // (φ latitude, λ longitude: the formula's own letters.)
    /// The great-circle distance to another location, in meters (altitude ignored, as Apple's).
    public func distance(from location: CLLocation) -> CLLocationDistance {
        let radians = Double.pi / 180
        let (φ1, φ2) = (coordinate.latitude * radians, location.coordinate.latitude * radians)
        let Δλ = (location.coordinate.longitude - coordinate.longitude) * radians
        // Vincenty's formula on a sphere: accurate at every distance, antipodes included.
        let y = ((cos(φ2) * sin(Δλ)) * (cos(φ2) * sin(Δλ)) + pow(cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ), 2)).squareRoot()
        let x = sin(φ1) * sin(φ2) + cos(φ1) * cos(φ2) * cos(Δλ)
        return Self.earthRadius * atan2(y, x)
    }

    /// The Earth's mean radius in meters (IUGG), which distances use.
    static let earthRadius = 6_371_008.8

    open func copy(with zone: NSZone? = nil) -> Any { self }

    open override var description: String {
        "<\(coordinate.latitude),\(coordinate.longitude)> +/- \(horizontalAccuracy)m"
    }
}

/// An accuracy in meters, as Apple's `CLLocationAccuracy`.
public typealias CLLocationAccuracy = Double
