// The shim: `import CoreSpotlightCompat` gives Apple's Core Spotlight where it
// exists (macOS, iOS) and OpenCoreSpotlight everywhere else, so app code needs
// no `#if` of its own:
//
//     import CoreSpotlightCompat
//     let attributes = CSSearchableItemAttributeSet(contentType: .text)
//
// UniformTypeIdentifiers comes along: Apple's on its platforms, OpenSpotlight's
// small UTType here.
#if canImport(CoreSpotlight)
@_exported import CoreSpotlight
@_exported import UniformTypeIdentifiers
#else
@_exported import OpenCoreSpotlight
@_exported import UniformTypeIdentifiers
#endif
