// The shim: `import CoreSpotlightCompat` gives Apple's Core Spotlight where it
// exists (macOS, iOS) and OpenCoreSpotlight everywhere else, so app code needs
// no `#if` of its own:
//
//     import CoreSpotlightCompat
//     let attributes = CSSearchableItemAttributeSet(contentType: .text)
//
// UniformTypeIdentifiers and MapKit come along: Apple's on its platforms,
// OpenSpotlight's small UTType and MapKit subset (with CoreLocation's and
// Contacts' types) here.
#if canImport(CoreSpotlight)
@_exported import CoreSpotlight
@_exported import UniformTypeIdentifiers
#if canImport(MapKit)
@_exported import MapKit
#endif
#else
@_exported import OpenCoreSpotlight
@_exported import UniformTypeIdentifiers
@_exported import MapKit
#endif
