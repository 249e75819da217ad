// The protocols the spec's class declarations list, checked by the compiler:
// each helper accepts only a type that conforms.
#if canImport(CoreSpotlight)
import CoreSpotlight
#else
import OpenCoreSpotlight
#endif
import Foundation
import Testing

extension AppleAPIConformance {
    /// §2, §5, §7, §8a, §9b: the classes conform as Apple's declare.
    @Test func protocolConformances() {
        isCSSearchableIndexDelegate(CSIndexExtensionRequestHandler.self)
        isNSCopying(CSSearchableItem.self)
        isNSCopying(CSSearchableItemAttributeSet.self)
        isNSCopying(CSSearchQueryContext.self)
        isNSCopying(CSUserQueryContext.self)
        isNSCopying(CSSuggestion.self)
        isNSCopying(CSPerson.self)
        isNSCopying(CSCustomAttributeKey.self)
        let subclass: CSSearchQueryContext.Type = CSUserQueryContext.self
        #expect(subclass == CSUserQueryContext.self)
    }
}

private func isNSCopying<T: NSCopying>(_ type: T.Type) {}
private func isCSSearchableIndexDelegate<T: CSSearchableIndexDelegate>(_ type: T.Type) {}
