import Foundation
import MapKit
import Testing
import TestSupport
import UniformTypeIdentifiers
@testable import OpenCoreSpotlight
import SpotlightIndex
import SpotlightSystem
import SpotlightService

extension OpenCoreSpotlightTests {
    @Suite struct MapKitTests {
        static let mulberry = CLLocationCoordinate2D(latitude: 40.7194, longitude: -73.997)

        static func shop(phone: String? = "+1 212 555 0142", coordinate: CLLocationCoordinate2D = mulberry,
                         address: [String: Any]? = [CNPostalAddressStreetKey: "120 Mulberry Street", CNPostalAddressCityKey: "New York",
                                                    CNPostalAddressStateKey: "NY", CNPostalAddressPostalCodeKey: "10013",
                                                    CNPostalAddressCountryKey: "United States"]) -> MKMapItem {
            let item = MKMapItem(placemark: MKPlacemark(coordinate: coordinate, addressDictionary: address))
            item.name = "Ray's Fruit Emporium"
            item.phoneNumber = phone
            return item
        }

        @Test(arguments: [
            ([CNPostalAddressStreetKey: "120 Mulberry Street", CNPostalAddressCityKey: "New York", CNPostalAddressStateKey: "NY",
              CNPostalAddressPostalCodeKey: "10013", CNPostalAddressCountryKey: "United States", CNPostalAddressISOCountryCodeKey: "US"],
             ["120", "Mulberry Street", "New York", "NY", "10013", "United States", "US", "120 Mulberry Street"]),
            (["Street": "Hauptstraße 5a", "City": "Berlin", "ZIP": "10115", "Country": "Germany", "CountryCode": "DE"],
             ["5a", "Hauptstraße", "Berlin", nil, "10115", "Germany", "DE", "Hauptstraße 5a"]),
            (["Street": "Rue Montorgueil\nBâtiment B", "City": "Paris", "Name": "Stohrer"],
             [nil, "Rue Montorgueil", "Paris", nil, nil, nil, nil, "Stohrer"]),
            (["Thoroughfare": "Baker Street", "SubThoroughfare": "221B", "Street": "ignored 1"],
             ["221B", "Baker Street", nil, nil, nil, nil, nil, "ignored 1"]),
            ([CNPostalAddressStreetKey: "12-14 High St,", CNPostalAddressCityKey: "  "],
             ["12-14", "High St,", nil, nil, nil, nil, nil, "12-14 High St,"]),
            ([:], [nil, nil, nil, nil, nil, nil, nil, nil]),
        ] as [([String: String], [String?])])
        func placemarksReadAddressDictionaries(address: [String: String], expected: [String?]) {
            let placemark = MKPlacemark(coordinate: Self.mulberry, addressDictionary: address)
            #expect([placemark.subThoroughfare, placemark.thoroughfare, placemark.locality, placemark.administrativeArea,
                     placemark.postalCode, placemark.country, placemark.countryCode, placemark.name] == expected)
        }

        @Test func placemarksFromPostalAddressesAndCoordinates() {
            let address = CNMutablePostalAddress()
            address.street = "120 Mulberry Street"
            address.city = "New York"
            address.postalCode = "10013"
            let placemark = MKPlacemark(coordinate: Self.mulberry, postalAddress: address)
            #expect(placemark.thoroughfare == "Mulberry Street" && placemark.subThoroughfare == "120" && placemark.locality == "New York")
            #expect(placemark.postalAddress == address.copy() as? CNPostalAddress, "an immutable copy, equal by value")
            #expect(placemark.location?.coordinate.latitude == 40.7194)
            #expect(MKPlacemark(coordinate: kCLLocationCoordinate2DInvalid).location == nil)
            #expect(!CLLocationCoordinate2DIsValid(kCLLocationCoordinate2DInvalid) && CLLocationCoordinate2DIsValid(CLLocationCoordinate2DMake(-90, 180)))
            #expect(MKMapItem().placemark.location == nil && !MKMapItem().isCurrentLocation)
        }

        @Test func locationsMeasureGreatCircleDistances() {
            let table: [((Double, Double), (Double, Double), Double)] = [
                ((51.5074, -0.1278), (48.8566, 2.3522), 343_500),
                ((40.7128, -74.0060), (34.0522, -118.2437), 3_944_000),
                ((0, 0), (0, 180), 20_015_087),
                ((40.7194, -73.997), (40.7580, -73.9855), 4_390),
            ]
            for (a, b, expected) in table {
                let here = CLLocation(latitude: a.0, longitude: a.1), there = CLLocation(latitude: b.0, longitude: b.1)
                let distance = here.distance(from: there)
                #expect(abs(distance - expected) <= expected * 0.005, "\(a)–\(b): \(distance) m")
                let engine = GeoPoint(latitude: a.0, longitude: a.1)!.distance(to: GeoPoint(latitude: b.0, longitude: b.1)!)
                #expect(abs(distance - engine) <= 1e-6 * expected, "CoreLocation and the engine agree")
            }
        }

        @Test func mapItemFillsTheActivitysLocationAttributes() {
            let activity = NSUserActivity(activityType: "com.example.grocer.store")
            #expect(activity.contentAttributeSet == nil)
            activity.mapItem = Self.shop()
            let set = activity.contentAttributeSet
            #expect(set?.namedLocation == "Ray's Fruit Emporium")
            #expect([set?.subThoroughfare, set?.thoroughfare, set?.postalCode, set?.city, set?.stateOrProvince, set?.country]
                == ["120", "Mulberry Street", "10013", "New York", "NY", "United States"])
            #expect(set?.fullyFormattedAddress == "120 Mulberry Street, New York, NY 10013, United States")
            #expect(set?.latitude == 40.7194 && set?.longitude == -73.997)
            #expect(set?.phoneNumbers == ["+1 212 555 0142"] && set?.supportsPhoneCall == 1 && set?.supportsNavigation == 1)
            #expect(activity.mapItem.name == "Ray's Fruit Emporium", "the item set is the item read")
        }

        /// What the app set stays; the map item fills only what is missing.
        @Test(arguments: [
            ("namedLocation", "Ray's", "Ray's"), ("thoroughfare", "Mulberry St", "Mulberry St"), ("city", "NYC", "NYC"),
            ("phoneNumbers", "+1 000", "+1 000"), ("supportsPhoneCall", "0", "0"), ("supportsNavigation", "0", "0"),
            ("latitude", "1.5", "1.5"),
        ])
        func whatTheAppSetIsKept(attribute: String, appValue: String, expected: String) {
            let activity = NSUserActivity(activityType: "com.example.grocer.store")
            let set = CSSearchableItemAttributeSet(contentType: .contact)
            switch attribute {
            case "phoneNumbers": set.phoneNumbers = [appValue]
            case "supportsPhoneCall": set.supportsPhoneCall = NSNumber(value: Int(appValue)!)
            case "supportsNavigation": set.supportsNavigation = NSNumber(value: Int(appValue)!)
            case "latitude": set.latitude = NSNumber(value: Double(appValue)!)
            case "namedLocation": set.namedLocation = appValue
            case "thoroughfare": set.thoroughfare = appValue
            default: set.city = appValue
            }
            activity.contentAttributeSet = set
            activity.mapItem = Self.shop()
            #expect(activity.contentAttributeSet === set, "the app's attribute set is filled in, not replaced")
            let value: String? = switch attribute {
            case "phoneNumbers": set.phoneNumbers?.joined()
            case "supportsPhoneCall": set.supportsPhoneCall?.stringValue
            case "supportsNavigation": set.supportsNavigation?.stringValue
            case "latitude": set.latitude?.stringValue
            case "namedLocation": set.namedLocation
            case "thoroughfare": set.thoroughfare
            default: set.city
            }
            #expect(value == expected)
            if attribute == "latitude" { #expect(set.longitude == nil, "a coordinate is set whole or not at all") }
            if attribute != "thoroughfare" { #expect(set.thoroughfare == "Mulberry Street") }
        }

        @Test func placesWithoutPhoneOrCoordinate() {
            let noPhone = NSUserActivity(activityType: "t")
            noPhone.mapItem = Self.shop(phone: nil)
            #expect(noPhone.contentAttributeSet?.phoneNumbers == nil && noPhone.contentAttributeSet?.supportsPhoneCall == nil)
            let noCoordinate = NSUserActivity(activityType: "t")
            noCoordinate.mapItem = Self.shop(coordinate: kCLLocationCoordinate2DInvalid)
            #expect(noCoordinate.contentAttributeSet?.latitude == nil && noCoordinate.contentAttributeSet?.supportsNavigation == 1)
            let nowhere = NSUserActivity(activityType: "t")
            nowhere.mapItem = Self.shop(phone: nil, coordinate: kCLLocationCoordinate2DInvalid, address: nil)
            #expect(nowhere.contentAttributeSet?.supportsNavigation == nil && nowhere.contentAttributeSet?.namedLocation == "Ray's Fruit Emporium")
        }

        /// The chapter's flow: the map item, then `contentAttributeSet ?? …` adding
        /// the app's own; the donated activity is found by its street and suggested.
        @Test func theChaptersFlowMakesTheStreetSearchableAndThePlaceSuggested() throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let registry = AppRegistry(location: .directory(app.directory))
            try registry.register(AppRegistration(bundleIdentifier: app.bundleIdentifier, displayName: "GreenGrocer", launchCommand: ["/bin/true"],
                                                  activityTypes: ["com.example.grocer.store"]))
            let activity = NSUserActivity(activityType: "com.example.grocer.store")
            activity.title = "Ray's Fruit Emporium"
            activity.isEligibleForSearch = true
            activity.mapItem = Self.shop()
            let attributeSet = activity.contentAttributeSet ?? CSSearchableItemAttributeSet(contentType: .contact)
            attributeSet.contentDescription = "Fresh fruit"
            activity.contentAttributeSet = attributeSet
            activity.becomeCurrent()

            let found = try SystemSearch(registry: registry).search("mulberry street").groups.flatMap(\.results)
            #expect(found.map(\.title) == ["Ray's Fruit Emporium"])
            #expect(found.first?.description == "Fresh fruit")
            let places = try LocationSuggestions(registry: registry).suggestions(context: "meet me at").suggestions
            #expect(places.map(\.attribution) == ["From GreenGrocer"])
        }

        @Test func openInMapsHandsAGeoURIToTheOpener() throws {
            let scratch = try ScratchDirectory("mapkit-open")
            defer { scratch.cleanUp() }
            let directory = scratch.url
            let log = directory.appendingPathComponent("log"), script = directory.appendingPathComponent("open.sh")
            try Data("#!/bin/sh\nprintf '%s\\n' \"$1\" >> '\(log.path)'\n".utf8).write(to: script)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
            setenv(ActionRunner.commandVariable, script.path, 1)
            defer { unsetenv(ActionRunner.commandVariable) }

            #expect(Self.shop().openInMaps())
            #expect(Self.shop(coordinate: kCLLocationCoordinate2DInvalid).openInMaps(launchOptions: [MKLaunchOptionsDirectionsModeKey: MKLaunchOptionsDirectionsModeWalking]))
            #expect(MKMapItem.openMaps(with: [MKMapItem(), Self.shop()]))
            #expect(!MKMapItem().openInMaps(), "no coordinate and no address: nothing to open")
            let opened = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(opened == ["geo:40.7194,-73.997", "geo:0,0?q=120%20Mulberry%20Street,%20New%20York,%20NY%2010013,%20United%20States",
                               "geo:40.7194,-73.997"])
            setenv(ActionRunner.commandVariable, "/bin/false", 1)
            #expect(!Self.shop().openInMaps(), "an opener that fails is false")
        }
    }
}
