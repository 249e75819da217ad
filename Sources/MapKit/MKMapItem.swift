// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (Apple's global names, spelled as Apple spells them.)

import CoreLocation
public import Foundation
import Logging
package import SpotlightService

/// A place as an app hands it to Maps, as Apple's `MapKit.MKMapItem`: a
/// placemark with a name, a phone number and a web site.
///
/// ```swift
/// import MapKit
/// let item = MKMapItem(placemark: MKPlacemark(coordinate: store, addressDictionary: address))
/// item.name = "Ray's Fruit Emporium"
/// item.phoneNumber = "+1 212 555 0142"
/// activity.mapItem = item              // the activity's place: searchable, and suggested
/// item.openInMaps()                    // geo:40.7194,-73.997 to the desktop's maps
/// ```
///
/// On Linux "Maps" is whatever handles `geo:` URIs (GNOME Maps, a browser):
/// ``openInMaps(launchOptions:)`` hands the place's URI to OpenSpotlight's
/// action runner (`xdg-open`, or `$OPENSPOTLIGHT_OPEN_COMMAND`).
open class MKMapItem: NSObject, @unchecked Sendable {
    /// Where the place is, and its address.
    public let placemark: MKPlacemark
    /// Always false: there is no current-location item on Linux.
    public let isCurrentLocation = false
    /// The place's name.
    open var name: String?
    /// Its phone number.
    open var phoneNumber: String?
    /// Its web site.
    open var url: URL?
    /// Its time zone.
    open var timeZone: TimeZone?

    /// A map item for a placemark.
    public init(placemark: MKPlacemark) {
        self.placemark = placemark
        super.init()
    }

    /// A map item with no place (its coordinate is `kCLLocationCoordinate2DInvalid`).
    public override convenience init() {
        self.init(placemark: MKPlacemark(coordinate: kCLLocationCoordinate2DInvalid))
    }

    /// Opens the place in the desktop's maps: its coordinate (or, without
    /// one, its address) as a `geo:` URI through the action runner.
    /// - Returns: false when there is nothing to show or no application took the URI.
    @discardableResult
    open func openInMaps(launchOptions: [String: Any]? = nil) -> Bool {
        Self.open(self)
    }

    /// Opens the last of the items in the desktop's maps (with a directions
    /// mode, the destination; `geo:` URIs carry one place).
    @discardableResult
    open class func openMaps(with mapItems: [MKMapItem], launchOptions: [String: Any]? = nil) -> Bool {
        guard let destination = mapItems.last else { return false }
        return open(destination)
    }

    /// The action that shows the place: directions to its coordinate, else to its address.
    package var navigationAction: ResultAction? {
        if CLLocationCoordinate2DIsValid(placemark.coordinate), placemark.location != nil {
            return .navigate(latitude: placemark.coordinate.latitude, longitude: placemark.coordinate.longitude)
        }
        return addressLine.map(ResultAction.navigateToAddress)
    }

    /// "120 Mulberry Street, New York, NY 10013, United States", from the placemark's fields.
    package var addressLine: String? {
        let street = [placemark.subThoroughfare, placemark.thoroughfare].compactMap { $0 }.joined(separator: " ")
        let region = [placemark.administrativeArea, placemark.postalCode].compactMap { $0 }.joined(separator: " ")
        let parts = [street, placemark.locality ?? "", region, placemark.country ?? ""].filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    private static func open(_ item: MKMapItem) -> Bool {
        guard let action = item.navigationAction else {
            logger.error("MKMapItem \(item.name ?? "") has neither a coordinate nor an address to open")
            return false
        }
        do {
            try ActionRunner().perform(action)
            return true
        } catch {
            logger.error("MKMapItem \(item.name ?? "") was not opened: \(error)")
            return false
        }
    }

    static let logger = Logger(label: "openspotlight.mapkit")

    open override var description: String {
        "MKMapItem(\(name ?? "unnamed"), \(placemark.coordinate.latitude),\(placemark.coordinate.longitude))"
    }
}

/// The key of a launch option choosing how directions are given.
public let MKLaunchOptionsDirectionsModeKey = "MKLaunchOptionsDirectionsMode"
/// Directions by car.
public let MKLaunchOptionsDirectionsModeDriving = "MKLaunchOptionsDirectionsModeDriving"
/// Directions on foot.
public let MKLaunchOptionsDirectionsModeWalking = "MKLaunchOptionsDirectionsModeWalking"
/// Directions by public transport.
public let MKLaunchOptionsDirectionsModeTransit = "MKLaunchOptionsDirectionsModeTransit"
/// Directions in the user's usual mode.
public let MKLaunchOptionsDirectionsModeDefault = "MKLaunchOptionsDirectionsModeDefault"
