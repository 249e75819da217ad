public import Contacts
public import Foundation

/// A place's name and address, as Apple's `CoreLocation.CLPlacemark`;
/// MapKit's `MKPlacemark` is the one apps make.
///
/// ```swift
/// let placemark = MKPlacemark(coordinate: store, addressDictionary: [CNPostalAddressStreetKey: "120 Mulberry Street"])
/// placemark.thoroughfare      // "Mulberry Street"
/// placemark.subThoroughfare   // "120"
/// ```
open class CLPlacemark: NSObject, NSCopying, @unchecked Sendable {
    /// The place's name ("Ray's Fruit Emporium"), else its street address.
    open var name: String? { fields.name }
    /// The street ("Mulberry Street").
    open var thoroughfare: String? { fields.thoroughfare }
    /// The house number ("120").
    open var subThoroughfare: String? { fields.subThoroughfare }
    /// The city.
    open var locality: String? { fields.locality }
    /// The district within the city.
    open var subLocality: String? { fields.subLocality }
    /// The state or province.
    open var administrativeArea: String? { fields.administrativeArea }
    /// The county or region within the state.
    open var subAdministrativeArea: String? { fields.subAdministrativeArea }
    /// The postal code.
    open var postalCode: String? { fields.postalCode }
    /// The country's ISO 3166-1 alpha-2 code.
    open var isoCountryCode: String? { fields.isoCountryCode }
    /// The country's name.
    open var country: String? { fields.country }
    /// Where it is, when known.
    open var location: CLLocation? { fields.location }
    /// The address as Contacts writes it.
    open var postalAddress: CNPostalAddress? {
        let address = CNMutablePostalAddress()
        address.street = [subThoroughfare, thoroughfare].compactMap { $0 }.joined(separator: " ")
        address.subLocality = subLocality ?? ""
        address.city = locality ?? ""
        address.subAdministrativeArea = subAdministrativeArea ?? ""
        address.state = administrativeArea ?? ""
        address.postalCode = postalCode ?? ""
        address.country = country ?? ""
        address.isoCountryCode = isoCountryCode ?? ""
        return address.dictionary.isEmpty ? nil : (address.copy() as? CNPostalAddress)
    }

    /// A copy of another placemark.
    public init(placemark: CLPlacemark) {
        fields = placemark.fields
        super.init()
    }

    /// A placemark of these fields (for MapKit's `MKPlacemark`).
    package init(fields: Fields) {
        self.fields = fields
        super.init()
    }

    open func copy(with zone: NSZone? = nil) -> Any { self }

    open override var description: String {
        ([name] + [postalAddress.map { "\($0.street), \($0.postalCode) \($0.city)" }]).compactMap { $0 }.joined(separator: ", ")
    }

    /// What a placemark holds.
    package struct Fields: Sendable {
        package var name: String?
        package var thoroughfare: String?
        package var subThoroughfare: String?
        package var locality: String?
        package var subLocality: String?
        package var administrativeArea: String?
        package var subAdministrativeArea: String?
        package var postalCode: String?
        package var isoCountryCode: String?
        package var country: String?
        package var location: CLLocation?

        package init() {}
    }

    package let fields: Fields
}
