// Spec/apple-api-mapkit.md: the MapKit, CoreLocation and Contacts members that
// app code setting NSUserActivity.mapItem uses, as Apple's SDK spells them.
#if canImport(CoreSpotlight)
import CoreSpotlight
#else
import OpenCoreSpotlight
#endif
import Contacts
import CoreLocation
import Foundation
import MapKit
import Testing

extension AppleAPIConformance {
    /// M1–M3: MKMapItem, MKPlacemark, NSUserActivity.mapItem.
    @Test func mapKit() {
        let _: (MKPlacemark) -> MKMapItem = MKMapItem.init(placemark:)
        let _: KeyPath<MKMapItem, MKPlacemark> = \.placemark
        let _: KeyPath<MKMapItem, Bool> = \.isCurrentLocation
        let _: ReferenceWritableKeyPath<MKMapItem, String?> = \.name
        let _: ReferenceWritableKeyPath<MKMapItem, String?> = \.phoneNumber
        let _: ReferenceWritableKeyPath<MKMapItem, URL?> = \.url
        let _: ReferenceWritableKeyPath<MKMapItem, TimeZone?> = \.timeZone
        let _: (MKMapItem) -> ([String: Any]?) -> Bool = MKMapItem.openInMaps(launchOptions:)
        let _: ([MKMapItem], [String: Any]?) -> Bool = MKMapItem.openMaps(with:launchOptions:)
        let _: [String] = [MKLaunchOptionsDirectionsModeKey, MKLaunchOptionsDirectionsModeDriving, MKLaunchOptionsDirectionsModeWalking,
                           MKLaunchOptionsDirectionsModeTransit, MKLaunchOptionsDirectionsModeDefault]

        let _: (CLLocationCoordinate2D) -> MKPlacemark = MKPlacemark.init(coordinate:)
        let _: (CLLocationCoordinate2D, [String: Any]?) -> MKPlacemark = MKPlacemark.init(coordinate:addressDictionary:)
        let _: (CLLocationCoordinate2D, CNPostalAddress) -> MKPlacemark = MKPlacemark.init(coordinate:postalAddress:)
        let _: KeyPath<MKPlacemark, CLLocationCoordinate2D> = \.coordinate
        let _: KeyPath<MKPlacemark, String?> = \.countryCode
        let _: KeyPath<MKPlacemark, String?> = \.title

        let _: ReferenceWritableKeyPath<NSUserActivity, MKMapItem> = \.mapItem

        // As app code writes it: default arguments, a trailing discardable result.
        let item = MKMapItem(placemark: MKPlacemark(coordinate: CLLocationCoordinate2D(latitude: 40.7194, longitude: -73.997)))
        func openLater() {
            item.openInMaps()
            MKMapItem.openMaps(with: [item], launchOptions: [MKLaunchOptionsDirectionsModeKey: MKLaunchOptionsDirectionsModeDriving])
        }
        _ = openLater
    }

    /// M4–M5: CoreLocation and Contacts.
    @Test func coreLocationAndContacts() {
        let _: (CLLocationDegrees, CLLocationDegrees) -> CLLocationCoordinate2D = CLLocationCoordinate2D.init(latitude:longitude:)
        let _: WritableKeyPath<CLLocationCoordinate2D, CLLocationDegrees> = \.latitude
        let _: WritableKeyPath<CLLocationCoordinate2D, CLLocationDegrees> = \.longitude
        let _: (CLLocationCoordinate2D) -> Bool = CLLocationCoordinate2DIsValid
        let _: (CLLocationDegrees, CLLocationDegrees) -> CLLocationCoordinate2D = CLLocationCoordinate2DMake
        let _: CLLocationCoordinate2D = kCLLocationCoordinate2DInvalid
        let _: (CLLocationDegrees, CLLocationDegrees) -> CLLocation = CLLocation.init(latitude:longitude:)
        let _: (CLLocationCoordinate2D, CLLocationDistance, CLLocationAccuracy, CLLocationAccuracy, Date) -> CLLocation =
            CLLocation.init(coordinate:altitude:horizontalAccuracy:verticalAccuracy:timestamp:)
        let _: (CLLocation) -> (CLLocation) -> CLLocationDistance = CLLocation.distance(from:)
        let _: [KeyPath<CLPlacemark, String?>] = [\.name, \.thoroughfare, \.subThoroughfare, \.locality, \.subLocality, \.administrativeArea,
                                                  \.subAdministrativeArea, \.postalCode, \.isoCountryCode, \.country]
        let _: KeyPath<CLPlacemark, CLLocation?> = \.location
        let _: KeyPath<CLPlacemark, CNPostalAddress?> = \.postalAddress

        let _: [KeyPath<CNPostalAddress, String>] = [\.street, \.subLocality, \.city, \.subAdministrativeArea, \.state, \.postalCode,
                                                     \.country, \.isoCountryCode]
        let _: () -> CNMutablePostalAddress = CNMutablePostalAddress.init
        let _: [ReferenceWritableKeyPath<CNMutablePostalAddress, String>] = [\.street, \.city, \.state, \.postalCode, \.country]
        let _: [String] = [CNPostalAddressStreetKey, CNPostalAddressCityKey, CNPostalAddressStateKey, CNPostalAddressPostalCodeKey,
                           CNPostalAddressCountryKey, CNPostalAddressISOCountryCodeKey, CNPostalAddressSubLocalityKey,
                           CNPostalAddressSubAdministrativeAreaKey]
        #expect(CNPostalAddressStreetKey == "street" && CNPostalAddressISOCountryCodeKey == "ISOCountryCode", "Apple's values")
    }
}
