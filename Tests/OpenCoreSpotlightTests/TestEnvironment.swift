import Foundation
import Testing
import TestSupport
import UniformTypeIdentifiers
@testable import OpenCoreSpotlight

/// Every OpenCoreSpotlight test runs in this serialized suite: the bundle
/// identifier and store directory are process-wide settings.
@Suite(.serialized) struct OpenCoreSpotlightTests {}

/// A fresh app (bundle identifier) with its stores in a fresh directory.
struct TestApp {
    let scratch: ScratchDirectory
    let bundleIdentifier: String
    var directory: URL { scratch.url }

    init() throws {
        scratch = try ScratchDirectory("ocs-tests")
        let directory = scratch.url
        bundleIdentifier = "org.openspotlight.test\(UUID().uuidString.prefix(8).lowercased())"
        OpenSpotlightConfiguration.configure(bundleIdentifier: bundleIdentifier, storeDirectory: directory)
    }

    func cleanUp() { scratch.cleanUp() }
}

/// Runs a query to the end: the identifiers found (in order), the count and the completion error.
func run(_ query: CSSearchQuery) async -> (ids: [String], count: Int, error: (any Error)?) {
    final class Box: @unchecked Sendable { var ids: [String] = [] }
    let box = Box()
    let previous = query.foundItemsHandler
    query.foundItemsHandler = { items in
        box.ids += items.map(\.uniqueIdentifier)
        previous?(items)
    }
    let error: (any Error)? = await withCheckedContinuation { continuation in
        query.completionHandler = { continuation.resume(returning: $0) }
        query.start()
    }
    return (box.ids, query.foundItemCount, error)
}

func makeItem(_ id: String, title: String, domain: String? = nil, _ configure: (CSSearchableItemAttributeSet) -> Void = { _ in }) -> CSSearchableItem {
    let set = CSSearchableItemAttributeSet(contentType: .text)
    set.title = title
    configure(set)
    return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: domain, attributeSet: set)
}
