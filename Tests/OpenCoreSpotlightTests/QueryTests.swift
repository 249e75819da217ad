import Foundation
import Testing
@testable import OpenCoreSpotlight
import SpotlightIndex

extension OpenCoreSpotlightTests {
    @Suite struct QueryTests {
        @Test func invalidQueriesCompleteWithMinus2002() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try await CSSearchableIndex(name: "q").indexSearchableItems([makeItem("a", title: "apple")])
            let outcome = await run(CSSearchQuery(queryString: #"title == "apple"#, queryContext: nil))
            let error = try #require(outcome.error as? CSSearchQueryError)
            #expect(error.code == .invalidQuery && error.errorCode == -2002)
            #expect(error.message.contains("column 10"))
            #expect(outcome.ids.isEmpty)
        }

        @Test func aQueryPastItsTimeBudgetCompletesWithTheReason() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try await CSSearchableIndex(name: "budget").indexSearchableItems((0..<20).map { makeItem("i\($0)", title: "apple \($0)") })
            OpenSpotlightConfiguration.queryTimeBudget = 0
            defer { OpenSpotlightConfiguration.queryTimeBudget = 10 }
            let outcome = await run(CSSearchQuery(queryString: #"title == "*ppl*"c"#, queryContext: nil))
            let error = try #require(outcome.error as? CSSearchQueryError)
            #expect(error.code == .unknown && error.message.hasPrefix("query too expensive: the query ran past its time budget"))
        }

        @Test func queriesReuseStoresButSeeAStoreMadeAnew() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try await CSSearchableIndex(name: "kept").indexSearchableItems([makeItem("old", title: "apple")])
            #expect(await run(CSSearchQuery(queryString: #"title == "apple""#, queryContext: nil)).ids == ["old"])
            // Writes after the first query are seen through the same handle.
            try await CSSearchableIndex(name: "kept").indexSearchableItems([makeItem("more", title: "apple")])
            #expect(await run(CSSearchQuery(queryString: #"title == "apple""#, queryContext: nil)).ids.sorted() == ["more", "old"])
            let first = try ReadingStores.store(bundleIdentifier: app.bundleIdentifier, indexName: "kept", location: .directory(app.directory))
            let again = try ReadingStores.store(bundleIdentifier: app.bundleIdentifier, indexName: "kept", location: .directory(app.directory))
            #expect(first === again)

            // The store is lost and made anew by another object: the query reads the new file.
            let folder = app.directory.appendingPathComponent(app.bundleIdentifier)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasPrefix("kept.sqlite") {
                try FileManager.default.removeItem(at: folder.appendingPathComponent(file))
            }
            try await CSSearchableIndex(name: "kept").indexSearchableItems([makeItem("new", title: "apple")])
            #expect(await run(CSSearchQuery(queryString: #"title == "apple""#, queryContext: nil)).ids == ["new"])
        }

        @Test func queriesSpanTheAppsIndexesAndApplyFilterQueries() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try await CSSearchableIndex(name: "one").indexSearchableItems([makeItem("a", title: "apple pie") { $0.rankingHint = 10 }])
            try await CSSearchableIndex(name: "two").indexSearchableItems([makeItem("b", title: "apple tart") { $0.rankingHint = 90 }])
            #expect(await run(CSSearchQuery(queryString: #"title == "apple*"c"#, queryContext: nil)).ids.sorted() == ["a", "b"])
            let context = CSSearchQueryContext()
            context.filterQueries = ["rankingHint > 50"]
            let outcome = await run(CSSearchQuery(queryString: #"title == "apple*"c"#, queryContext: context))
            #expect(outcome.ids == ["b"] && outcome.count == 1)
            #expect(await run(CSSearchQuery(queryString: #"noSuchAttribute == "x""#, queryContext: nil)).ids.isEmpty)
        }

        @Test func cancellingCompletesWithMinus2003() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try await CSSearchableIndex(name: "many").indexSearchableItems((0..<500).map { makeItem("i\($0)", title: "item \($0)") })
            let query = CSSearchQuery(queryString: #"title == "item*""#, queryContext: nil)
            final class Box: @unchecked Sendable { var batches = 0 }
            let box = Box()
            query.foundItemsHandler = { _ in box.batches += 1; query.cancel() }
            let error: (any Error)? = await withCheckedContinuation { continuation in
                query.completionHandler = { continuation.resume(returning: $0) }
                query.start()
            }
            #expect((error as? CSSearchQueryError)?.code == .cancelled)
            #expect(query.isCancelled && box.batches == 1 && query.foundItemCount == 64)
        }

        @Test func userQueriesRankAndSuggest() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try await CSSearchableIndex(name: "u").indexSearchableItems([
                makeItem("low", title: "Paris travel") { $0.rankingHint = 0 },
                makeItem("high", title: "Paris trains") { $0.rankingHint = 100 },
                makeItem("other", title: "Paris travel guide") { $0.rankingHint = 50 },
                makeItem("none", title: "Rome"),
            ])
            let context = CSUserQueryContext()
            context.enableRankedResults = true
            context.maxSuggestionCount = 2
            let query = CSUserQuery(userQueryString: "paris tra", userQueryContext: context)
            final class Box: @unchecked Sendable { var items: [CSSearchableItem] = []; var suggestions: [CSSuggestion] = [] }
            let box = Box()
            query.foundItemsHandler = { box.items += $0 }
            query.foundSuggestionsHandler = { box.suggestions += $0 }
            let error: (any Error)? = await withCheckedContinuation { continuation in
                query.completionHandler = { continuation.resume(returning: $0) }
                query.start()
            }
            #expect(error == nil)
            #expect(box.items.map(\.uniqueIdentifier) == ["high", "other", "low"])
            #expect(box.items[0].compare(byRank: box.items[1]) == .orderedAscending)
            #expect(box.suggestions.map(\.text) == ["paris travel", "paris trains"])
            #expect(query.foundSuggestionCount == 2)
        }

        @Test func attributesAnswerToTheirObjectiveCAndSpotlightNames() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try await CSSearchableIndex(name: "names").indexSearchableItems([
                makeItem("tart", title: "Tarte Tatin") {
                    $0.contentDescription = "Upside-down apple tart"
                    $0.url = URL(string: "https://example.com/tatin")
                    $0.gpsDifferental = 1
                },
                makeItem("crumble", title: "Crumble"),
            ])
            let table: [(String, [String])] = [
                (#"title == "Tarte*""#, ["tart"]),
                (#"kMDItemTitle == "Tarte*""#, ["tart"]),
                (#"kMDItemDescription == "*apple*"cd"#, ["tart"]),
                (#"kMDItemContentDescription == "*apple*"cd"#, ["tart"]),
                (#"url == "https://*""#, ["tart"]),
                (#"URL == "https://*""#, ["tart"]),
                (#"kMDItemURL == "https://*""#, ["tart"]),
                (#"GPSDifferental == 1"#, ["tart"]),
                (#"kMDItemDisplayName == "*""#, []),
                (#"kMDItemTitle != "Tarte*" && kMDItemContentType == "public.text""#, ["crumble"]),
                (#"kmditemtitle == "Tarte*""#, []),
            ]
            for (query, expected) in table {
                #expect(await run(CSSearchQuery(queryString: query, queryContext: nil)).ids.sorted() == expected, "\(query)")
            }
        }
}
}
