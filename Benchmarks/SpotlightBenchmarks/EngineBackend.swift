import Foundation
import SpotlightIndex

/// OpenSpotlight's engine: one `SpotlightStore` per scale, under the run's directory.
enum EngineStore {
    static let bundleIdentifier = "org.openspotlight.bench"

    static func open(directory: URL, scale: Int) throws -> SpotlightStore {
        var options = StoreOptions()
        options.checksIntegrityOnOpen = false
        return try SpotlightStore(bundleIdentifier: bundleIdentifier, indexName: "scale-\(scale)",
                                  location: .directory(directory), options: options)
    }

    /// A package as an app would give it to Core Spotlight.
    static func item(_ package: DebianPackage) -> SearchableItem {
        var attributes: [String: AttributeValue] = [:]
        if let title = package.title { attributes["title"] = .string(title) }
        if let summary = package.summary { attributes["contentDescription"] = .string(summary) }
        if let description = package.description { attributes["textContent"] = .string(description) }
        if let keywords = package.keywords { attributes["keywords"] = .strings(keywords) }
        if let section = package.section { attributes["section"] = .string(section) }
        if let size = package.installedSize { attributes["installedSize"] = .number(.int(size)) }
        if let version = package.version { attributes["version"] = .string(version) }
        return SearchableItem(uniqueIdentifier: package.id, contentType: "public.item",
                              expirationDate: Date.distantFuture, attributes: attributes)
    }
}

final class EngineIndexer: BenchIndexer {
    private let directory: URL
    private let scale: Int
    private var store: SpotlightStore?

    init(directory: URL, scale: Int) throws {
        self.directory = directory
        self.scale = scale
        self.store = try EngineStore.open(directory: directory, scale: scale)
    }

    func index(_ packages: [DebianPackage]) throws -> Int {
        guard let store else { throw BenchError.failed("the engine's store is closed") }
        let report = try store.index(packages.map(EngineStore.item))
        for refusal in report.refused.prefix(3) {
            log("engine refused \(refusal.itemIdentifier): \(refusal.error)")
        }
        return report.refused.count
    }

    /// Closes the store (SQLite checkpoints the WAL into the file), opens it
    /// again and asks its size.
    func finish() throws -> Int64 {
        store = nil
        let reopened = try EngineStore.open(directory: directory, scale: scale)
        return reopened.fileSize()
    }
}

final class EngineSearcher: BenchSearcher {
    private let store: SpotlightStore

    init(directory: URL, scale: Int) throws {
        store = try EngineStore.open(directory: directory, scale: scale)
    }

    /// The engine's query language has free text only, so far: substring
    /// and attribute queries wait for a later issue.
    func supports(_ kind: QueryKind) -> Bool {
        switch kind {
        case .word, .prefix, .multi: true
        case .substring, .attribute: false
        }
    }

    /// What a user types, as is: every word must match, the last as a prefix.
    func search(_ query: BenchQuery) throws -> [String] {
        try store.search(query.text, limit: Backends.limit).map(\.item.uniqueIdentifier)
    }
}
