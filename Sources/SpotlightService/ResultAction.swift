public import Foundation
public import SpotlightIndex

/// What a result row offers besides opening the app, from the item's
/// attributes as Spotlight derives them.
///
/// ```swift
/// for action in result.actions { print(action.label) }   // "Call +33 1 42 68 53 00"
/// ```
public enum ResultAction: Sendable, Hashable, Encodable {
    /// `supportsPhoneCall` and `phoneNumbers`: call the first number.
    case call(phoneNumber: String)
    /// `emailAddresses`: write to the first address.
    case email(address: String)
    /// `supportsNavigation` with `latitude` and `longitude`: directions there.
    case navigate(latitude: Double, longitude: Double)
    /// `supportsNavigation` with an address but no coordinates: directions to it.
    case navigateToAddress(String)
    /// `url` (or an http `contentURL`): open the web page.
    case openURL(URL)

    /// A short label for a result row.
    public var label: String {
        switch self {
        case .call(let number): "Call \(number)"
        case .email(let address): "Email \(address)"
        case .navigate(let latitude, let longitude): "Directions to \(latitude), \(longitude)"
        case .navigateToAddress(let address): "Directions to \(address)"
        case .openURL(let url): "Open \(url.absoluteString)"
        }
    }

    /// The actions an item's attributes allow, in this order: call, email, navigate, open URL.
    public static func actions(for attributes: [String: AttributeValue]) -> [ResultAction] {
        actions(for: ShownAttributes(attributes))
    }

    /// The actions of the attributes picked out already (`actions(for:)`).
    static func actions(for shown: ShownAttributes) -> [ResultAction] {
        var actions: [ResultAction] = []
        if shown.supportsPhoneCall, let number = ShownAttributes.firstText(shown.phoneNumbers) { actions.append(.call(phoneNumber: number)) }
        if let address = ShownAttributes.firstText(shown.emailAddresses) { actions.append(.email(address: address)) }
        if shown.supportsNavigation {
            if let latitude = shown.latitude, let longitude = shown.longitude, (-90...90).contains(latitude), (-180...180).contains(longitude) {
                actions.append(.navigate(latitude: latitude, longitude: longitude))
            } else if let address = ShownAttributes.firstText(shown.fullyFormattedAddress) ?? shown.addressLine {
                actions.append(.navigateToAddress(address))
            }
        }
        for value in [shown.url, shown.upperURL, shown.contentURL] {
            if case .url(let url)? = value, ["http", "https"].contains(url.scheme?.lowercased() ?? "") {
                actions.append(.openURL(url))
                break
            }
        }
        return actions
    }

    private enum CodingKeys: String, CodingKey { case kind, label, phoneNumber, address, latitude, longitude, url }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        switch self {
        case .call(let number):
            try container.encode("call", forKey: .kind)
            try container.encode(number, forKey: .phoneNumber)
        case .email(let address):
            try container.encode("email", forKey: .kind)
            try container.encode(address, forKey: .address)
        case .navigate(let latitude, let longitude):
            try container.encode("navigate", forKey: .kind)
            try container.encode(latitude, forKey: .latitude)
            try container.encode(longitude, forKey: .longitude)
        case .navigateToAddress(let address):
            try container.encode("navigate", forKey: .kind)
            try container.encode(address, forKey: .address)
        case .openURL(let url):
            try container.encode("openURL", forKey: .kind)
            try container.encode(url.absoluteString, forKey: .url)
        }
    }
}
