import Foundation
import SpotlightIndex

/// The attributes a result row shows or acts on, picked out of an item's
/// attributes in one pass.
///
/// A system search makes a row for each app's best items on every
/// keystroke; looking each of these ~25 names up in the item's dictionary
/// hashed every name, present or not (6% of a keystroke that finds a rare
/// word over 20 apps). One walk over the item's own attributes, each name
/// looked up once among those wanted, finds the same values.
///
/// ```swift
/// let shown = ShownAttributes(item.attributes)
/// let title = shown.title ?? item.uniqueIdentifier
/// ```
struct ShownAttributes {
    var title: String?
    var displayName: String?
    var contentDescription: String?
    var thumbnailURL: AttributeValue?
    var hasThumbnailData = false
    var contentURL: AttributeValue?
    /// `url`, `URL`: the web page an item links to, in that order of preference.
    var url: AttributeValue?
    var upperURL: AttributeValue?
    var latitude: Double?
    var longitude: Double?
    var rating: Double?
    var ratingDescription: String?
    var price: Double?
    var fullyFormattedAddress: AttributeValue?
    var supportsPhoneCall = false
    var phoneNumbers: AttributeValue?
    var emailAddresses: AttributeValue?
    var supportsNavigation = false
    /// The address parts, in ``addressNames``' order (``addressLine``).
    var addressParts: [String?] = []

    /// The parts of an address, in the order they are joined.
    static let addressNames = ["thoroughfare", "subThoroughfare", "postalCode", "city", "stateOrProvince", "country", "namedLocation"]

    /// The names picked out, each to its field: an item's names are
    /// hashed once each, and those of other attributes find nothing.
    private enum Field {
        case title, displayName, contentDescription, thumbnailURL, thumbnailData, contentURL, url, upperURL
        case latitude, longitude, rating, ratingDescription, price, fullyFormattedAddress
        case supportsPhoneCall, phoneNumbers, emailAddresses, supportsNavigation
        case address(Int)
    }

    private static let fields: [String: Field] = {
        var fields: [String: Field] = [
            "title": .title, "displayName": .displayName, "contentDescription": .contentDescription,
            "thumbnailURL": .thumbnailURL, "thumbnailData": .thumbnailData, "contentURL": .contentURL, "url": .url, "URL": .upperURL,
            "latitude": .latitude, "longitude": .longitude, "rating": .rating, "ratingDescription": .ratingDescription,
            "price": .price, "fullyFormattedAddress": .fullyFormattedAddress, "supportsPhoneCall": .supportsPhoneCall,
            "phoneNumbers": .phoneNumbers, "emailAddresses": .emailAddresses, "supportsNavigation": .supportsNavigation,
        ]
        for (place, name) in addressNames.enumerated() { fields[name] = .address(place) }
        return fields
    }()

    /// Every name it picks out.
    static var names: Set<String> { Set(fields.keys) }

    init(_ attributes: [String: AttributeValue]) {
        for (name, value) in attributes {
            guard let field = Self.fields[name] else { continue }
            switch field {
            case .title: title = value.texts?.first
            case .displayName: displayName = value.texts?.first
            case .contentDescription: contentDescription = value.texts?.first
            case .thumbnailURL: thumbnailURL = value
            case .thumbnailData: hasThumbnailData = true
            case .contentURL: contentURL = value
            case .url: url = value
            case .upperURL: upperURL = value
            case .latitude: latitude = value.doubleValue
            case .longitude: longitude = value.doubleValue
            case .rating: rating = value.doubleValue
            case .ratingDescription: ratingDescription = value.texts?.first
            case .price: price = value.doubleValue
            case .fullyFormattedAddress: fullyFormattedAddress = value
            case .supportsPhoneCall: supportsPhoneCall = (value.doubleValue ?? 0) != 0
            case .phoneNumbers: phoneNumbers = value
            case .emailAddresses: emailAddresses = value
            case .supportsNavigation: supportsNavigation = (value.doubleValue ?? 0) != 0
            case .address(let place):
                if addressParts.isEmpty { addressParts = Array(repeating: nil, count: Self.addressNames.count) }
                addressParts[place] = value.texts?.first
            }
        }
    }

    /// `title`, else `displayName` (``SearchableItem/displayTitle``).
    var displayTitle: String? { title ?? displayName }

    /// The first non-empty text of an attribute.
    static func firstText(_ value: AttributeValue?) -> String? { value?.texts?.first { !$0.isEmpty } }

    /// The address parts the item has, joined; nil when it has none.
    var addressLine: String? {
        let parts = addressParts.compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// Where the item is, when it has both coordinates.
    var coordinate: GeoPoint? {
        guard let latitude, let longitude else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }
}
