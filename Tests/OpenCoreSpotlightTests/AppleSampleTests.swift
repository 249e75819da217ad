// Code written as Apple's documentation and samples write it, with the one
// changed import: it must compile against OpenCoreSpotlight unchanged
// (no @testable here: only the public API), then behave as on an iPhone.
#if canImport(CoreSpotlight)
import CoreSpotlight
#else
import OpenCoreSpotlight
#endif
import Foundation
import Testing
import UniformTypeIdentifiers

/// A recipes app's search code, in Apple's style.
final class RecipeSearchController {
    struct Recipe {
        var id: String
        var name: String
        var summary: String
        var cuisine: String
    }

    private(set) var openedRecipe: String?
    private(set) var searchInAppText: String?

    func index(_ recipes: [Recipe], completion: @escaping @Sendable ((any Error)?) -> Void) {
        var searchableItems: [CSSearchableItem] = []
        for recipe in recipes {
            let attributeSet = CSSearchableItemAttributeSet(contentType: UTType.text)
            attributeSet.title = recipe.name
            attributeSet.contentDescription = recipe.summary
            attributeSet.keywords = ["recipe", recipe.cuisine]
            attributeSet.displayName = recipe.name
            let item = CSSearchableItem(uniqueIdentifier: recipe.id, domainIdentifier: "recipes.\(recipe.cuisine)", attributeSet: attributeSet)
            item.expirationDate = Date.distantFuture
            searchableItems.append(item)
        }
        CSSearchableIndex.default().indexSearchableItems(searchableItems) { error in
            if let error = error {
                print("Indexing error: \(error.localizedDescription)")
            }
            completion(error)
        }
    }

    func userViewed(_ recipe: Recipe) -> NSUserActivity {
        let activity = NSUserActivity(activityType: "com.example.recipes.view")
        activity.title = recipe.name
        activity.userInfo = ["id": recipe.id]
        activity.requiredUserInfoKeys = ["id"]
        activity.isEligibleForSearch = true
        activity.isEligibleForPublicIndexing = false
        activity.keywords = Set([recipe.cuisine])
        let attributes = CSSearchableItemAttributeSet(contentType: UTType.content)
        attributes.relatedUniqueIdentifier = recipe.id
        attributes.contentDescription = recipe.summary
        activity.contentAttributeSet = attributes
        activity.becomeCurrent()
        return activity
    }

    func search(_ text: String) async throws -> [String] {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let queryString = "title == \"*\(escaped)*\"cd || keywords == \"\(escaped)*\"cd"
        let context = CSSearchQueryContext()
        context.fetchAttributes = ["title", "displayName"]
        let query = CSSearchQuery(queryString: queryString, queryContext: context)
        var names: [String] = []
        for try await result in query.results {
            names.append(result.item.attributeSet.title ?? result.item.uniqueIdentifier)
        }
        return names.sorted()
    }

    /// `application(_:continue:restorationHandler:)`, as Apple's guide writes it.
    func `continue`(_ userActivity: NSUserActivity) -> Bool {
        if userActivity.activityType == CSSearchableItemActionType {
            if let uniqueIdentifier = userActivity.userInfo?[CSSearchableItemActivityIdentifier] as? String {
                openedRecipe = uniqueIdentifier
                return true
            }
        } else if userActivity.activityType == CSQueryContinuationActionType {
            if let searchQuery = userActivity.userInfo?[CSSearchQueryString] as? String {
                searchInAppText = searchQuery
                return true
            }
        }
        return false
    }

    func forgetCuisine(_ cuisine: String) async throws {
        try await CSSearchableIndex.default().deleteSearchableItems(withDomainIdentifiers: ["recipes.\(cuisine)"])
    }
}

extension OpenCoreSpotlightTests {
    @Suite struct AppleSampleTests {
        @Test func appleStyleCodeRunsAsOnAnIPhone() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let controller = RecipeSearchController()
            let recipes = [
                RecipeSearchController.Recipe(id: "r1", name: "Tarte Tatin", summary: "Upside-down apple tart", cuisine: "french"),
                RecipeSearchController.Recipe(id: "r2", name: "Apple Crumble", summary: "Baked apples under a crumble", cuisine: "british"),
                RecipeSearchController.Recipe(id: "r3", name: "Ratatouille", summary: "Provençal vegetables", cuisine: "french"),
            ]
            let error: (any Error)? = await withCheckedContinuation { continuation in
                controller.index(recipes) { continuation.resume(returning: $0) }
            }
            #expect(error == nil)
            #expect(try await controller.search("apple") == ["Apple Crumble"])
            #expect(try await controller.search("TATIN") == ["Tarte Tatin"])
            #expect(try await controller.search("french") == ["Ratatouille", "Tarte Tatin"])

            _ = controller.userViewed(recipes[0])
            _ = controller.userViewed(recipes[0])

            let opened = NSUserActivity(activityType: CSSearchableItemActionType)
            opened.userInfo = [CSSearchableItemActivityIdentifier: "r1"]
            #expect(controller.continue(opened) && controller.openedRecipe == "r1")
            let searchInApp = NSUserActivity(activityType: CSQueryContinuationActionType)
            searchInApp.userInfo = [CSSearchQueryString: "crumble"]
            #expect(controller.continue(searchInApp) && controller.searchInAppText == "crumble")
            #expect(!controller.continue(NSUserActivity(activityType: "com.example.unknown")))

            try await controller.forgetCuisine("french")
            #expect(try await controller.search("a") == ["Apple Crumble"])
        }
    }
}
