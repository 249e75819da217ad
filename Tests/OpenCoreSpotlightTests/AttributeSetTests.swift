import Foundation
import Testing
import UniformTypeIdentifiers
@testable import OpenCoreSpotlight
@testable import SpotlightIndex

extension OpenCoreSpotlightTests {
    @Suite struct AttributeSetTests {
        @Test func all190PropertiesAreApplesAndTheEngineKnowsThem() {
            let names = CSSearchableItemAttributeSet.propertyNames
            #expect(names.count == 190)
            #expect(Set(names.map(\.swift)).count == 190)
            for (objc, swift) in names {
                #expect(AttributeVocabulary.kinds[swift] != nil || AttributeVocabulary.kinds[objc] != nil, "\(swift)")
            }
        }

        /// The two generated tables (Scripts/generate-attribute-set.py) name exactly the same
        /// properties: the engine knows every spelling of each, and nothing else.
        @Test func theEngineVocabularyNamesExactlyTheAppleLayersProperties() {
            let apple = Set(CSSearchableItemAttributeSet.propertyNames.flatMap { [$0.objectiveC, $0.swift] })
            #expect(Set(AttributeVocabulary.kinds.keys) == apple)
        }

        @Test func contentTypeSetsTheConformanceTree() {
            let set = CSSearchableItemAttributeSet(contentType: .jpeg)
            #expect(set.contentType == "public.jpeg")
            #expect(set.contentTypeTree == ["public.jpeg", "public.image", "public.data", "public.content", "public.item"])
            #expect(UTType.jpeg.conforms(to: .image) && !UTType.jpeg.conforms(to: .text))
            #expect(UTType("") == nil)
        }

        /// Every kind of Swift type Apple uses, stored and read back exactly through the index.
        @Test func typedValuesRoundTripThroughTheIndex() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let when = Date(timeIntervalSinceReferenceDate: 765_432_101.125)
            let ada = CSPerson(displayName: "Ada Lovelace", handles: ["ada@example.com"], handleIdentifier: "emailAddresses")
            ada.contactIdentifier = "contact-1"
            let set = CSSearchableItemAttributeSet(contentType: .emailMessage)
            set.title = "Engines"
            set.keywords = ["analytical", "engine"]
            set.rankingHint = 80
            set.latitude = 48.8566
            set.contentCreationDate = when
            set.contentURL = URL(string: "https://example.com/a?b=c")
            set.thumbnailData = Data([0, 1, 2, 255])
            set.authors = [ada]
            set.emailHeaders = ["subject": ["Hi"], "x-tag": ["a", "b"]]
            set.sharedItemContentType = .pdf
            set.actionIdentifiers = ["reply"]
            set.likelyJunk = NSNumber(value: true)
            set.importantDates = [when, when.addingTimeInterval(60)]
            let stars = CSCustomAttributeKey(keyName: "stars")!
            set.setValue(NSNumber(value: 4), forCustomKey: stars)
            let index = CSSearchableIndex(name: "typed")
            try await index.indexSearchableItems([CSSearchableItem(uniqueIdentifier: "m1", domainIdentifier: "mail", attributeSet: set)])

            let context = CSSearchQueryContext()
            context.fetchAttributes = CSSearchableItemAttributeSet.propertyNames.map(\.swift) + ["stars"]
            final class Box: @unchecked Sendable { var items: [CSSearchableItem] = [] }
            let box = Box()
            let query = CSSearchQuery(queryString: #"authors == "ada*"c && stars >= 4 && rankingHint == 80"#, queryContext: context)
            query.foundItemsHandler = { box.items += $0 }
            let outcome = await run(query)
            #expect(outcome.error == nil)
            let found = try #require(box.items.first)
            #expect(found.domainIdentifier == "mail")
            let back = found.attributeSet
            #expect(back.title == "Engines")
            #expect(back.keywords == ["analytical", "engine"])
            #expect(back.rankingHint == 80)
            #expect(back.latitude?.doubleValue == 48.8566)
            #expect(back.contentCreationDate == when)
            #expect(back.contentURL == URL(string: "https://example.com/a?b=c"))
            #expect(back.thumbnailData == Data([0, 1, 2, 255]))
            #expect(back.authors == [ada])
            #expect(back.authors?.first?.contactIdentifier == "contact-1")
            #expect(back.emailHeaders?["x-tag"] as? [String] == ["a", "b"])
            #expect(back.sharedItemContentType == .pdf)
            #expect(back.actionIdentifiers == ["reply"])
            #expect(back.likelyJunk.boolValue)
            #expect(back.importantDates == [when, when.addingTimeInterval(60)])
            #expect(back.contentType == "public.email-message")
            #expect((back.value(forCustomKey: stars) as? NSNumber)?.intValue == 4)
        }

        @Test func fetchAttributesLimitWhatResultsCarry() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            try await CSSearchableIndex(name: "fetch").indexSearchableItems([makeItem("a", title: "T") { $0.contentDescription = "D" }])
            let context = CSSearchQueryContext()
            context.fetchAttributes = ["contentDescription"]
            final class Box: @unchecked Sendable { var items: [CSSearchableItem] = [] }
            let box = Box()
            let query = CSSearchQuery(queryString: #"title == "T""#, queryContext: context)
            query.foundItemsHandler = { box.items += $0 }
            _ = await run(query)
            #expect(box.items.first?.attributeSet.title == nil)
            #expect(box.items.first?.attributeSet.contentDescription == "D")
        }

        @Test(arguments: [
            ("recipeCuisine", true), ("with_underscore_2", true), ("", false), ("has space", false),
            ("kMDItemTitle", false), ("dotted.name", false), ("title", false), ("émoji", false),
        ])
        func customKeyNames(name: String, valid: Bool) {
            #expect((CSCustomAttributeKey(keyName: name) != nil) == valid)
        }

        @Test func itemDefaults() {
            let item = CSSearchableItem(uniqueIdentifier: nil, domainIdentifier: nil, attributeSet: CSSearchableItemAttributeSet())
            #expect(UUID(uuidString: item.uniqueIdentifier) != nil)
            #expect(abs(item.expirationDate.timeIntervalSinceNow - 30 * 24 * 3600) < 60)
            item.expirationDate = .distantFuture
            #expect(item.expirationDate == .distantFuture)
            item.expirationDate = nil
            #expect(abs(item.expirationDate.timeIntervalSinceNow - 30 * 24 * 3600) < 60)
        }

        @Test func moveFromTakesEveryAttributeAndEmptiesTheSource() {
            let target = CSSearchableItemAttributeSet(contentType: .text)
            target.title = "Old title"
            target.keywords = ["kept"]
            let source = CSSearchableItemAttributeSet()
            source.title = "New title"
            source.textContent = String(repeating: "long text ", count: 1_000)
            source.authors = [CSPerson(displayName: "Zoë", handles: ["zoe@example.com"], handleIdentifier: "email")]
            target.moveFrom(source)
            #expect(target.title == "New title" && target.keywords == ["kept"])
            #expect(target.textContent?.count == 10_000 && target.authors?.first?.displayName == "Zoë")
            #expect(source.title == nil && source.textContent == nil && source.authors == nil)
            target.moveFrom(target)
            #expect(target.title == "New title", "moving a set into itself changes nothing")
        }
}
}
