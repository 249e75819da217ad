import Foundation
import PublicIndex
import PublicIndexProtocol
import SpotlightIndex
import SpotlightSystem
import SpotlightService
import Testing
import TestSupport

/// System search on a device asks the public index only when opted in, and
/// merges its results under the device's own without repeating them.
@Suite(.timeLimit(.minutes(10)))
struct SystemSearchPublicTests {
    static let app = "com.example.recipes"

    static func content(_ title: String, _ path: String) -> PublicActivityContent {
        PublicActivityContent(activityType: "com.example.recipes.view", app: app, title: title,
                              webpageURL: URL(string: "https://recipes.example.com/\(path)"))
    }

    static func makePublic(_ index: PublicIndex, _ content: PublicActivityContent) async throws {
        for _ in 0..<index.configuration.threshold {
            _ = try await index.donate(DonationBatch(token: .random(), donations: [Donation(app: app, hash: ActivityHash(of: content))]))
        }
        _ = try await index.submitContent(content, for: ActivityHash(of: content), token: .random())
    }

    @Test func publicResultsComeUnderTheDevicesOwnWithoutRepeats() async throws {
        try await TestClusters.withIndex(threshold: 2) { index, _ in
            let tatin = Self.content("Tarte Tatin", "tatin")
            let pommes = Self.content("Tarte aux pommes", "pommes")
            try await Self.makePublic(index, tatin)
            try await Self.makePublic(index, pommes)
            try await TestClusters.withServer(index) { base in
                let scratch = try TestClusters.directory("system-search")
                defer { scratch.cleanUp() }
                let root = scratch.url
                let location = StoreLocation.directory(root)
                let registry = AppRegistry(location: location)
                try registry.register(AppRegistration(bundleIdentifier: Self.app, displayName: "Recipes", launchCommand: ["/bin/true"],
                                                      activityTypes: ["com.example.recipes.view"]))
                // The device viewed Tarte Tatin itself.
                var record = UserActivityRecord(activityType: "com.example.recipes.view")
                record.title = "Tarte Tatin"
                record.webpageURL = URL(string: "https://recipes.example.com/tatin#top")
                record.isEligibleForSearch = true
                try UserActivityStore(bundleIdentifier: Self.app, location: location).donate(record)

                let search = SystemSearch(registry: registry)
                let offline = try await search.search("tarte", publicResults: 3)
                #expect(offline.publicResults.isEmpty)   // not opted in: the index is not asked
                #expect(offline.groups.flatMap(\.results).map(\.title) == ["Tarte Tatin"])

                var settings = PublicIndexSettings()
                settings.enable(serviceURL: base)
                try settings.save(location: location)
                let found = try await search.search("tarte", publicResults: 3)
                #expect(found.groups.flatMap(\.results).map(\.title) == ["Tarte Tatin"])
                #expect(found.publicResults.map(\.title) == ["Tarte aux pommes"])
                let pommesResult = try #require(found.publicResults.first)
                #expect(pommesResult.app?.bundleIdentifier == Self.app)
                #expect(pommesResult.activity?.activityType == "com.example.recipes.view")
                #expect(pommesResult.activity?.webpageURL == URL(string: "https://recipes.example.com/pommes"))
                #expect(found.problems.isEmpty)
            }
            // The service gone: the device's results alone, and why.
            let scratch = try TestClusters.directory("system-search-offline")
            defer { scratch.cleanUp() }
            let root = scratch.url
            var settings = PublicIndexSettings()
            settings.enable(serviceURL: URL(string: "http://127.0.0.1:\(try LocalCluster.freeLoopbackPort())")!)
            try settings.save(location: .directory(root))
            let alone = try await SystemSearch(registry: AppRegistry(location: .directory(root))).search("tarte", publicResults: 3, timeout: 1)
            #expect(alone.publicResults.isEmpty)
            #expect(alone.problems.count == 1 && alone.problems[0].hasPrefix("the public index: "))
        }
    }
}
