import Foundation
import PublicIndex
import PublicIndexProtocol
import Testing

/// The protocol's rules on a real PostgreSQL (one node, threshold 3).
@Suite(.timeLimit(.minutes(10)))
struct DonationRulesTests {
    static let app = "com.example.recipes"
    static let content = PublicActivityContent(
        activityType: "com.example.recipes.view", app: app, title: "Tarte Tatin au caramel",
        webpageURL: URL(string: "https://recipes.example.com/tarte-tatin"), contentDescription: "Caramelised apples under pastry",
        keywords: ["dessert"], thumbnailURL: URL(string: "https://recipes.example.com/tarte.jpg"))
    static let hash = ActivityHash(of: content)

    static func donate(_ index: PublicIndex, _ token: DeviceToken, id: UUID = UUID(), hash: ActivityHash = hash) async throws -> DonationStatus {
        try await index.donate(DonationBatch(token: token, donations: [Donation(id: id, app: app, hash: hash)]))[0].status
    }

    @Test func distinctTokensCountOnceEachAndTheThresholdAsksForContent() async throws {
        try await TestClusters.withIndex(threshold: 3) { index, clusters in
            let (first, second, third) = (DeviceToken.random(), DeviceToken.random(), DeviceToken.random())
            #expect(try await Self.donate(index, first) == .counted)
            // The same device again, with new donation ids: one donor still.
            #expect(try await Self.donate(index, first) == .counted)
            #expect(try await Self.donate(index, first) == .counted)
            #expect(try TestClusters.psql(clusters[0], "SELECT users, views FROM tallies") == "1|3")
            // A retried donation (same id) changes nothing.
            let retried = UUID()
            #expect(try await Self.donate(index, second, id: retried) == .counted)
            #expect(try await Self.donate(index, second, id: retried) == .duplicate)
            #expect(try TestClusters.psql(clusters[0], "SELECT users, views FROM tallies") == "2|4")
            #expect(try await index.status().wantedHashes == 0)
            // The third distinct device reaches the threshold: its donation is answered "wanted", and later ones too.
            let crossing = UUID()
            #expect(try await Self.donate(index, third, id: crossing) == .wanted)
            // Sent again (its batch's answer was lost): counted once, and the content is still asked for.
            #expect(try await Self.donate(index, third, id: crossing) == .wanted)
            #expect(try await Self.donate(index, first) == .wanted)
            let status = try await index.status()
            #expect((status.countedHashes, status.wantedHashes, status.activities) == (1, 1, 0))
            // Nothing readable was stored on the way.
            #expect(try TestClusters.psql(clusters[0], "SELECT count(*) FROM items") == "0")
            #expect(try await index.submitContent(Self.content, for: Self.hash, token: third) == .stored)
            #expect(try await index.submitContent(Self.content, for: Self.hash, token: first) == .alreadyStored)
            #expect(try await Self.donate(index, third, id: crossing) == .duplicate, "stored: nothing more is asked")
            #expect(try await Self.donate(index, DeviceToken.random()) == .indexed)
            let after = try await index.status()
            #expect((after.countedHashes, after.wantedHashes, after.activities) == (1, 0, 1))
            #expect(try TestClusters.psql(clusters[0], "SELECT title, url, users, views, app FROM items")
                    == "Tarte Tatin au caramel|https://recipes.example.com/tarte-tatin|4|7|com.example.recipes")
        }
    }

    @Test func contentIsRefusedBelowTheThresholdAndWhenItDoesNotMatchItsHash() async throws {
        try await TestClusters.withIndex(threshold: 3) { index, clusters in
            let tokens = (0..<3).map { _ in DeviceToken.random() }
            _ = try await Self.donate(index, tokens[0])
            _ = try await Self.donate(index, tokens[1])
            await #expect(throws: PublicIndexError(.notWanted, "\(Self.hash.hex) has not been donated by 3 devices; its content is not accepted")) {
                try await index.submitContent(Self.content, for: Self.hash, token: tokens[0])
            }
            #expect(try await Self.donate(index, tokens[2]) == .wanted)
            var forged = Self.content
            forged.title = "Buy cheap watches"
            await #expect(throws: PublicIndexProtocolError.self) { try await index.submitContent(forged, for: Self.hash, token: tokens[2]) }
            var badURL = Self.content
            badURL.thumbnailURL = URL(string: "javascript:alert(1)")
            await #expect(throws: PublicIndexProtocolError(.invalidContent, "thumbnailURL must be an http or https URL with a host, at most 2048 bytes")) {
                try await index.submitContent(badURL, for: Self.hash, token: tokens[2])
            }
            #expect(try TestClusters.psql(clusters[0], "SELECT count(*) FROM items") == "0")
            #expect(try TestClusters.psql(clusters[0], "SELECT has_content FROM tallies") == "f")
            // The content that hashes to it is taken; description and keywords ride along (not hashed).
            #expect(try await index.submitContent(Self.content, for: Self.hash, token: tokens[2]) == .stored)
        }
    }

    @Test func donorsAreKeyedHashesUnlinkableAcrossActivities() async throws {
        try await TestClusters.withIndex(threshold: 3) { index, clusters in
            let token = DeviceToken.random()
            var other = Self.content
            other.title = "Clafoutis"
            _ = try await Self.donate(index, token)
            _ = try await Self.donate(index, token, hash: ActivityHash(of: other))
            let donors = try TestClusters.psql(clusters[0], "SELECT encode(donor, 'hex') FROM donors ORDER BY 1").split(separator: "\n").map(String.init)
            #expect(donors.count == 2)
            #expect(Set(donors).count == 2)
            #expect(donors.allSatisfy { $0.count == 32 })
            #expect(donors.contains(TestClusters.secret.donor(of: Self.hash, token: token).map { String(format: "%02x", $0) }.joined()))
        }
    }

    /// What the operator (or a thief) sees below the threshold: a whole dump of the database.
    @Test func aDumpBelowTheThresholdHoldsNoTitleURLOrToken() async throws {
        try await TestClusters.withIndex(threshold: 3) { index, clusters in
            let tokens = (0..<2).map { _ in DeviceToken.random() }
            for token in tokens { _ = try await Self.donate(index, token) }
            func dump() throws -> String {
                try LocalCluster.runTool("pg_dump", ["-h", "127.0.0.1", "-p", String(clusters[0].port), "-U", LocalCluster.role,
                                                     "--data-only", clusters[0].database], cluster: clusters[0])
            }
            let below = try dump()
            #expect(below.contains("COPY public.donors"))          // the dump did read the tables
            #expect(below.contains(Self.app))                       // the app is part of a donation
            for secret in ["Tarte", "tatin", "caramel", "recipes.example.com", "https://", "dessert", "Caramelised"] + tokens.map(\.text) {
                #expect(!below.lowercased().contains(secret.lowercased()), "the dump holds \(secret)")
            }
            // The same check fails once the content is public: the test can see a title when there is one.
            _ = try await Self.donate(index, DeviceToken.random())
            _ = try await index.submitContent(Self.content, for: Self.hash, token: tokens[0])
            let above = try dump()
            #expect(above.contains("Tarte Tatin au caramel"))
            #expect(above.contains("https://recipes.example.com/tarte-tatin"))
            for token in tokens { #expect(!above.contains(token.text)) }
        }
    }
}
