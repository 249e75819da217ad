// `import MapKit` brings CoreLocation's and Contacts' types along, as Apple's
// MapKit does: `CLLocationCoordinate2D`, `CLLocation`, `CNPostalAddress`, and
// the address dictionary keys.
@_exported public import Contacts
@_exported public import CoreLocation
