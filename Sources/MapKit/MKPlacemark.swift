public import Contacts
public import CoreLocation
import Foundation

/// A place at a coordinate with its address, as Apple's `MapKit.MKPlacemark`.
///
/// ```swift
/// import MapKit
/// import Contacts
/// let placemark = MKPlacemark(coordinate: CLLocationCoordinate2D(latitude: 40.7194, longitude: -73.9970),
///                             addressDictionary: [CNPostalAddressStreetKey: "120 Mulberry Street",
///                                                 CNPostalAddressCityKey: "New York",
///                                                 CNPostalAddressStateKey: "NY",
///                                                 CNPostalAddressPostalCodeKey: "10013"])
/// placemark.thoroughfare      // "Mulberry Street"
/// placemark.subThoroughfare   // "120"
/// ```
///
/// An address dictionary takes the Contacts keys (`CNPostalAddressStreetKey`…)
/// and the older Address Book ones (`Street`, `City`, `State`, `ZIP`,
/// `Country`, `CountryCode`, `Thoroughfare`, `SubThoroughfare`, `Name`). A
/// street is split into ``subThoroughfare`` (the house number, leading as
/// "120 Mulberry Street" or trailing as "Hauptstraße 5") and ``thoroughfare``.
open class MKPlacemark: CLPlacemark, @unchecked Sendable {
    /// Where the place is.
    public let coordinate: CLLocationCoordinate2D

    /// A placemark with a coordinate and no address.
    public convenience init(coordinate: CLLocationCoordinate2D) {
        self.init(coordinate: coordinate, addressDictionary: nil)
    }

    /// A placemark with a coordinate and an address dictionary.
    public init(coordinate: CLLocationCoordinate2D, addressDictionary: [String: Any]?) {
        self.coordinate = coordinate
        var fields = Self.fields(addressDictionary ?? [:])
        if CLLocationCoordinate2DIsValid(coordinate) {
            fields.location = CLLocation(latitude: coordinate.latitude, longitude: coordinate.longitude)
        }
        super.init(fields: fields)
    }

    /// A placemark with a coordinate and a Contacts postal address.
    public convenience init(coordinate: CLLocationCoordinate2D, postalAddress: CNPostalAddress) {
        self.init(coordinate: coordinate, addressDictionary: postalAddress.dictionary)
    }

    /// The country's ISO code (``isoCountryCode``).
    open var countryCode: String? { isoCountryCode }

    /// The name shown for the place on a map (its ``name``).
    open var title: String? { name }

    /// The fields of an address dictionary, whichever keys it uses.
    static func fields(_ dictionary: [String: Any]) -> CLPlacemark.Fields {
        func text(_ keys: String...) -> String? {
            for key in keys {
                let value = dictionary[key]
                let text = (value as? String) ?? (value as? [String])?.first ?? (value as? NSString).map { String($0) }
                if let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty { return text }
            }
            return nil
        }
        var fields = CLPlacemark.Fields()
        let street = text(CNPostalAddressStreetKey, "Street").map { String($0.split(whereSeparator: \.isNewline).first ?? "") }
        let split = street.map(StreetAddress.split)
        fields.thoroughfare = text("Thoroughfare") ?? split?.thoroughfare
        fields.subThoroughfare = text("SubThoroughfare") ?? split?.number
        fields.locality = text(CNPostalAddressCityKey, "City")
        fields.subLocality = text(CNPostalAddressSubLocalityKey, "SubLocality")
        fields.administrativeArea = text(CNPostalAddressStateKey, "State")
        fields.subAdministrativeArea = text(CNPostalAddressSubAdministrativeAreaKey, "SubAdministrativeArea")
        fields.postalCode = text(CNPostalAddressPostalCodeKey, "ZIP", "PostalCode")
        fields.country = text(CNPostalAddressCountryKey, "Country")
        fields.isoCountryCode = text(CNPostalAddressISOCountryCodeKey, "CountryCode")
        fields.name = text("Name") ?? street
        return fields
    }
}

/// A street line split into its house number and street name.
enum StreetAddress {
    /// `"120 Mulberry Street"` → ("120", "Mulberry Street"); `"Hauptstraße 5a"` → ("5a", "Hauptstraße");
    /// a line with no number is all street.
    static func split(_ line: String) -> (number: String?, thoroughfare: String) {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard words.count >= 2 else { return (nil, line) }
        if isHouseNumber(words[0]) {
            return (words[0].trimmingCharacters(in: CharacterSet(charactersIn: ",")), words.dropFirst().joined(separator: " "))
        }
        if let last = words.last, isHouseNumber(last) {
            return (last, words.dropLast().joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: ",")))
        }
        return (nil, line)
    }

    /// "120", "12B", "12-14", "7/1", "42,": digits first, then at most a letter or a range.
    static func isHouseNumber(_ word: String) -> Bool {
        let word = word.hasSuffix(",") ? String(word.dropLast()) : word
        guard let first = word.unicodeScalars.first, ("0"..."9").contains(first) else { return false }
        let allowed = CharacterSet(charactersIn: "0123456789-–/").union(.letters)
        let letters = word.unicodeScalars.filter { CharacterSet.letters.contains($0) }.count
        return letters <= 2 && word.unicodeScalars.allSatisfy(allowed.contains)
    }
}
