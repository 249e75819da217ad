// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (Apple's global names, spelled as Apple spells them.)

public import Foundation

/// A postal address, as Apple's `Contacts.CNPostalAddress`: the small part
/// of the Contacts framework that MapKit's placemarks and app code building
/// an address dictionary use, so that such code compiles unchanged on Linux.
///
/// ```swift
/// import Contacts
/// let address = CNMutablePostalAddress()
/// address.street = "120 Mulberry Street"
/// address.city = "New York"
/// let placemark = MKPlacemark(coordinate: store, postalAddress: address)
/// ```
///
/// Immutable, as Apple's; ``CNMutablePostalAddress`` is the one to fill in.
/// Every field is "" when not given.
open class CNPostalAddress: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    var fields: [String]

    /// The street, with the house number as the country writes it ("120 Mulberry Street").
    public var street: String { fields[0] }
    /// The district within the city.
    public var subLocality: String { fields[1] }
    /// The city.
    public var city: String { fields[2] }
    /// The county or region within the state.
    public var subAdministrativeArea: String { fields[3] }
    /// The state or province.
    public var state: String { fields[4] }
    /// The postal code.
    public var postalCode: String { fields[5] }
    /// The country's name.
    public var country: String { fields[6] }
    /// The country's ISO 3166-1 alpha-2 code ("us").
    public var isoCountryCode: String { fields[7] }

    /// An empty address.
    public override init() {
        fields = Array(repeating: "", count: Self.keys.count)
        super.init()
    }

    init(fields: [String]) {
        self.fields = fields
        super.init()
    }

    /// An immutable copy.
    open func copy(with zone: NSZone? = nil) -> Any { CNPostalAddress(fields: fields) }

    /// A mutable copy.
    open func mutableCopy(with zone: NSZone? = nil) -> Any { CNMutablePostalAddress(fields: fields) }

    open override func isEqual(_ object: Any?) -> Bool {
        (object as? CNPostalAddress)?.fields == fields
    }

    open override var hash: Int { fields.hashValue }

    /// The fields by their `CNPostalAddress…Key` names, empty ones left out:
    /// the address dictionary MapKit reads.
    package var dictionary: [String: String] {
        Dictionary(uniqueKeysWithValues: zip(Self.keys, fields).filter { !$0.1.isEmpty })
    }

    static let keys = [CNPostalAddressStreetKey, CNPostalAddressSubLocalityKey, CNPostalAddressCityKey,
                       CNPostalAddressSubAdministrativeAreaKey, CNPostalAddressStateKey, CNPostalAddressPostalCodeKey,
                       CNPostalAddressCountryKey, CNPostalAddressISOCountryCodeKey]

    open override var description: String {
        "CNPostalAddress(" + dictionary.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")"
    }
}

/// A postal address to fill in, as Apple's `CNMutablePostalAddress`.
///
/// ```swift
/// let address = CNMutablePostalAddress()
/// address.postalCode = "10013"
/// ```
open class CNMutablePostalAddress: CNPostalAddress, @unchecked Sendable {
    public override var street: String { get { fields[0] } set { fields[0] = newValue } }
    public override var subLocality: String { get { fields[1] } set { fields[1] = newValue } }
    public override var city: String { get { fields[2] } set { fields[2] = newValue } }
    public override var subAdministrativeArea: String { get { fields[3] } set { fields[3] = newValue } }
    public override var state: String { get { fields[4] } set { fields[4] = newValue } }
    public override var postalCode: String { get { fields[5] } set { fields[5] = newValue } }
    public override var country: String { get { fields[6] } set { fields[6] = newValue } }
    public override var isoCountryCode: String { get { fields[7] } set { fields[7] = newValue } }
}

/// The keys of an address dictionary (`MKPlacemark(coordinate:addressDictionary:)`),
/// with Apple's values.
public let CNPostalAddressStreetKey = "street"
/// The district key of an address dictionary.
public let CNPostalAddressSubLocalityKey = "subLocality"
/// The city key of an address dictionary.
public let CNPostalAddressCityKey = "city"
/// The county key of an address dictionary.
public let CNPostalAddressSubAdministrativeAreaKey = "subAdministrativeArea"
/// The state key of an address dictionary.
public let CNPostalAddressStateKey = "state"
/// The postal code key of an address dictionary.
public let CNPostalAddressPostalCodeKey = "postalCode"
/// The country key of an address dictionary.
public let CNPostalAddressCountryKey = "country"
/// The ISO country code key of an address dictionary.
public let CNPostalAddressISOCountryCodeKey = "ISOCountryCode"
