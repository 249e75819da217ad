// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (Apple's global names, spelled as Apple spells them.)

/// Degrees of latitude or longitude (WGS 84), as Apple's `CLLocationDegrees`.
public typealias CLLocationDegrees = Double
/// A distance in meters, as Apple's `CLLocationDistance`.
public typealias CLLocationDistance = Double

/// A latitude and longitude, as Apple's `CoreLocation.CLLocationCoordinate2D`.
///
/// ```swift
/// import CoreLocation
/// let store = CLLocationCoordinate2D(latitude: 40.7194, longitude: -73.9970)
/// CLLocationCoordinate2DIsValid(store)   // true
/// ```
public struct CLLocationCoordinate2D: Sendable {
    /// Degrees north of the equator, −90…90.
    public var latitude: CLLocationDegrees
    /// Degrees east of Greenwich, −180…180.
    public var longitude: CLLocationDegrees

    /// The coordinate 0, 0.
    public init() {
        latitude = 0
        longitude = 0
    }

    /// A coordinate; see ``CLLocationCoordinate2DIsValid(_:)`` for which are valid.
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The coordinate Apple uses for "no coordinate" (both parts −180).
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)

/// True when the latitude is within −90…90 and the longitude within −180…180.
public func CLLocationCoordinate2DIsValid(_ coord: CLLocationCoordinate2D) -> Bool {
    (-90...90).contains(coord.latitude) && (-180...180).contains(coord.longitude)
}

/// A coordinate, as the C function Apple's older code calls.
public func CLLocationCoordinate2DMake(_ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}
