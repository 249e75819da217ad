// Only the shim is imported here (besides Foundation and Testing): Apple's
// names must come through it.
import CoreSpotlightCompat
import Foundation
import Testing

extension OpenCoreSpotlightTests {
    @Suite struct ShimTests {
        @Test func theShimExportsTheFrameworkAndUTType() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let attributes = CSSearchableItemAttributeSet(contentType: UTType.text)
            attributes.title = "Through the shim"
            try await CSSearchableIndex(name: "shim").indexSearchableItems([
                CSSearchableItem(uniqueIdentifier: "s1", domainIdentifier: nil, attributeSet: attributes),
            ])
            var found: [String] = []
            for try await result in CSSearchQuery(queryString: #"title == "*shim*"c"#, queryContext: nil).results { found.append(result.id) }
            #expect(found == ["s1"])
            #expect(CSSearchableItemActionType == "com.apple.corespotlightitem")
        }
    }
}
