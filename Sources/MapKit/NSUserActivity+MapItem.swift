import CoreLocation
import Foundation
public import OpenCoreSpotlight
import UniformTypeIdentifiers

extension NSUserActivity {
    /// The place the activity is about, as Apple's MapKit extension: setting
    /// it fills the activity's `contentAttributeSet` with the place's
    /// location attributes, which makes its street searchable and lets the
    /// system suggest the place elsewhere (`spotlight suggest places`).
    ///
    /// ```swift
    /// activity.mapItem = store.mapItem()
    /// let attributes = activity.contentAttributeSet ?? CSSearchableItemAttributeSet(contentType: .contact)
    /// attributes.contentDescription = "Open every day"   // added to what the map item gave
    /// activity.contentAttributeSet = attributes
    /// ```
    ///
    /// The attributes filled are `namedLocation` (the item's name),
    /// `thoroughfare`, `subThoroughfare`, `postalCode`, `city`,
    /// `stateOrProvince`, `country`, `fullyFormattedAddress`, `latitude` and
    /// `longitude` (when the coordinate is valid), `phoneNumbers`,
    /// `supportsNavigation` and `supportsPhoneCall` (with a phone number).
    /// Each is set only where the attribute set has no value yet, so what
    /// the app set itself is kept; an activity without an attribute set gets
    /// a new one (content type `public.content`). Reading the property before
    /// it was set gives an item with no place.
    public var mapItem: MKMapItem {
        get { mapItemStorage as? MKMapItem ?? MKMapItem() }
        set {
            mapItemStorage = newValue
            let attributes = contentAttributeSet ?? CSSearchableItemAttributeSet(contentType: .content)
            newValue.fill(attributes)
            contentAttributeSet = attributes
        }
    }
}

extension MKMapItem {
    /// Sets the place's location attributes that `attributes` lacks.
    func fill(_ attributes: CSSearchableItemAttributeSet) {
        let placemark = self.placemark
        func fill(_ key: ReferenceWritableKeyPath<CSSearchableItemAttributeSet, String?>, _ value: String?) {
            if attributes[keyPath: key] == nil, let value, !value.isEmpty { attributes[keyPath: key] = value }
        }
        fill(\.namedLocation, name)
        fill(\.thoroughfare, placemark.thoroughfare)
        fill(\.subThoroughfare, placemark.subThoroughfare)
        fill(\.postalCode, placemark.postalCode)
        fill(\.city, placemark.locality)
        fill(\.stateOrProvince, placemark.administrativeArea)
        fill(\.country, placemark.country)
        fill(\.fullyFormattedAddress, addressLine)
        if CLLocationCoordinate2DIsValid(placemark.coordinate), attributes.latitude == nil, attributes.longitude == nil {
            attributes.latitude = NSNumber(value: placemark.coordinate.latitude)
            attributes.longitude = NSNumber(value: placemark.coordinate.longitude)
        }
        if let phoneNumber, !phoneNumber.isEmpty {
            if attributes.phoneNumbers?.isEmpty ?? true { attributes.phoneNumbers = [phoneNumber] }
            if attributes.supportsPhoneCall == nil { attributes.supportsPhoneCall = 1 }
        }
        if attributes.supportsNavigation == nil, navigationAction != nil { attributes.supportsNavigation = 1 }
    }
}
