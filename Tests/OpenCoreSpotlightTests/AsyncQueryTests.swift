import Foundation
import Testing
@testable import OpenCoreSpotlight
@testable import SpotlightIndex

extension OpenCoreSpotlightTests {
    @Suite struct AsyncQueryTests {
        func indexTrips() async throws {
            try await CSSearchableIndex(name: "trips").indexSearchableItems([
                makeItem("a", title: "Paris travel") { $0.rankingHint = 10 },
                makeItem("b", title: "Paris trains") { $0.rankingHint = 90 },
                makeItem("c", title: "Rome"),
            ])
        }

        @Test func resultsYieldWhatTheHandlersWould() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try await indexTrips()
            let context = CSSearchQueryContext()
            context.fetchAttributes = ["title"]
            var found: [String: String] = [:]
            for try await result in CSSearchQuery(queryString: #"title == "paris*"cd"#, queryContext: context).results {
                found[result.id] = result.item.attributeSet.title
            }
            #expect(found == ["a": "Paris travel", "b": "Paris trains"])
        }

        @Test func resultsThrowTheQueryErrors() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try await indexTrips()
            await #expect(throws: CSSearchQueryError.self) {
                for try await _ in CSSearchQuery(queryString: #"title == "unterminated"#, queryContext: nil).results {}
            }
            do {
                for try await _ in CSSearchQuery(queryString: "title = (", queryContext: nil).results {}
                Issue.record("an invalid query must throw")
            } catch let error as CSSearchQueryError {
                #expect(error.code == .invalidQuery)
            }
            let started = CSSearchQuery(queryString: #"title == "*""#, queryContext: nil)
            _ = await run(started)
            do {
                for try await _ in started.results {}
                Issue.record("a query runs once")
            } catch let error as CSSearchQueryError {
                #expect(error.code == .unknown && "\(error)".contains("already started"))
            }
        }

        @Test func leavingTheLoopEarlyCancelsTheQuery() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let total = 3_000
            try await CSSearchableIndex(name: "many").indexSearchableItems((0..<total).map { makeItem("i\($0)", title: "item \($0)") })
            let query = CSSearchQuery(queryString: #"title == "item*""#, queryContext: nil)
            var seen = 0
            for try await _ in query.results {
                seen += 1
                if seen == 3 { break }
            }
            #expect(seen == 3)
            for _ in 0..<100 where !query.isCancelled && query.foundItemCount < total { try await Task.sleep(for: .milliseconds(10)) }
            // The query is cancelled, unless (on a loaded machine) it had already found
            // everything before the loop was left: then there was nothing left to cancel.
            #expect(query.isCancelled || query.foundItemCount == total)
        }

        @Test func userQueryResponsesAreItemsThenSuggestions() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try await indexTrips()
            let context = CSUserQueryContext()
            context.enableRankedResults = true
            context.maxSuggestionCount = 2
            var log: [String] = []
            for try await response in CSUserQuery(userQueryString: "paris tra", userQueryContext: context).responses {
                switch response {
                case .item(let found): log.append("item \(found.id)")
                case .suggestion(let completion): log.append("suggestion \(completion.id)")
                }
            }
            #expect(log == ["item b", "item a", "suggestion paris trains", "suggestion paris travel"])
            var suggested: [String] = []
            for try await suggestion in CSUserQuery(userQueryString: "paris tra", userQueryContext: context).suggestions {
                suggested.append(String(suggestion.suggestion.localizedAttributedSuggestion.characters))
            }
            #expect(suggested == ["paris trains", "paris travel"])
        }

        @Test func aSelectedResultGainsEngagementAndRank() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try await indexTrips()
            let context = CSUserQueryContext()
            context.enableRankedResults = true
            func ranked() async throws -> [CSUserQuery.Item] {
                var items: [CSUserQuery.Item] = []
                for try await case .item(let found) in CSUserQuery(userQueryString: "paris", userQueryContext: context).responses {
                    items.append(found)
                }
                return items
            }
            let first = try await ranked()
            #expect(first.map(\.id) == ["b", "a"])
            let query = CSUserQuery(userQueryString: "paris", userQueryContext: context)
            query.userEngaged(first[1], visibleItems: first, interaction: .focus)
            let store = try CSSearchableIndex(name: "trips").store()
            #expect(try store.engagement(ofItem: "a").selections == 0, "focus is not a selection")
            // What was visible counts as shown, once per query, focus or select.
            #expect(try ["a", "b"].map { try store.engagement(ofItem: $0).impressions } == [1, 1])
            for _ in 0..<5 { query.userEngaged(first[1], visibleItems: first, interaction: .select) }
            #expect(try store.engagement(ofItem: "a").selections == 5)
            #expect(try ["a", "b"].map { try store.engagement(ofItem: $0).impressions } == [1, 1])
            CSUserQuery(userQueryString: "paris", userQueryContext: context).userEngaged(first[0], visibleItems: [first[0]], interaction: .focus)
            #expect(try ["a", "b"].map { try store.engagement(ofItem: $0).impressions } == [1, 2], "another query shows b again")
            #expect(try await ranked().map(\.id) == ["a", "b"], "selections lift the chosen result above the hinted one")
        }

        @Test func onlyTheFirstMaxRankedResultsCarryARank() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try await indexTrips()
            let context = CSUserQueryContext()
            context.enableRankedResults = true
            context.maxRankedResultCount = 1
            #expect(CSUserQueryContext().maxRankedResultCount == 100 && !CSUserQueryContext().disableSemanticSearch)
            var items: [CSSearchableItem] = []
            for try await case .item(let found) in CSUserQuery(userQueryString: "paris", userQueryContext: context).responses {
                items.append(found.item)
            }
            #expect(items.map(\.uniqueIdentifier) == ["b", "a"])
            #expect(items[0].rank != nil && items[1].rank == nil)
            #expect(items[0].compare(byRank: items[1]) == .orderedAscending)
        }
}
}
