import Foundation
import PublicIndex
import PublicIndexProtocol
import Testing

/// Popularity and the engagement ratio in the public index's ranking.
@Suite(.timeLimit(.minutes(10)))
struct EngagementTests {
    static func content(_ title: String) -> PublicActivityContent {
        PublicActivityContent(activityType: "com.example.recipes.view", app: "com.example.recipes", title: title,
                              webpageURL: URL(string: "https://recipes.example.com/\(title.lowercased().replacingOccurrences(of: " ", with: "-"))"))
    }

    static func makePublic(_ index: PublicIndex, _ content: PublicActivityContent, devices: Int) async throws {
        for _ in 0..<devices {
            _ = try await index.donate(DonationBatch(token: .random(), donations: [Donation(app: content.app, hash: ActivityHash(of: content))]))
        }
        _ = try await index.submitContent(content, for: ActivityHash(of: content), token: .random())
    }

    @Test func moreDevicesRankHigherAndResultsOpenedOftenBeatThoseOnlyShown() async throws {
        try await TestClusters.withIndex(threshold: 2) { index, clusters in
            try await Self.makePublic(index, Self.content("Plum tart"), devices: 2)
            try await Self.makePublic(index, Self.content("Plum cake"), devices: 12)
            #expect(try await index.search("plum").results.map(\.title) == ["Plum cake", "Plum tart"])
            #expect(try await index.search("plum").results.map(\.users) == [12, 2])

            // Shown 200 times (impressions are what the service returned), never opened: the cake sinks;
            // the tart, opened 20 times, rises.
            for _ in 0..<98 { _ = try await index.search("plum") }
            for _ in 0..<20 { index.noteOpen(site: "com.example.recipes", key: ActivityHash(of: Self.content("Plum tart")).hex) }
            try await index.flushEngagement()
            #expect(try TestClusters.psql(clusters[0], "SELECT title, impressions, opens FROM items ORDER BY title")
                    == "Plum cake|100|0\nPlum tart|100|20")
            #expect(try await index.search("plum").results.map(\.title) == ["Plum tart", "Plum cake"])
        }
    }
}
