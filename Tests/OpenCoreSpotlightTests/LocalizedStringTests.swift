import Foundation
import Testing
import UniformTypeIdentifiers
@testable import OpenCoreSpotlight

@Suite struct LocalizedStringTests {
    @Test func theBestVariantForThePreferredLanguagesWins() {
        let strings = ["en": "Apple pie", "fr_FR": "Tarte aux pommes", "pt-BR": "Torta de maçã", "de": "Apfelkuchen"]
        let table: [([String], String)] = [
            (["fr-FR"], "Tarte aux pommes"),
            (["fr-CA"], "Tarte aux pommes"),          // same language
            (["FR"], "Tarte aux pommes"),             // any case
            (["pt-PT", "de"], "Torta de maçã"),       // a language match beats the next preference
            (["ja", "de-AT"], "Apfelkuchen"),         // the next preferred language
            (["ja"], "Apple pie"),                    // English as the fallback
            ([], "Apple pie"),
        ]
        for (preferred, expected) in table {
            #expect(CSLocalizedString.bestMatch(strings, preferredLanguages: preferred) == expected, "\(preferred)")
        }
        #expect(CSLocalizedString.bestMatch(["sv": "Äppelpaj", "da": "Æbletærte"], preferredLanguages: ["ja"]) == "Æbletærte",
                "no English: the first key in order")
        #expect(CSLocalizedString.bestMatch([:], preferredLanguages: ["en"]) == "")
    }

    @Test func itReadsAsAStringAndIgnoresNonStringEntries() {
        let text = CSLocalizedString(localizedStrings: ["en": "Zoë's café", "xx": 42, 7: "seven"])
        #expect(text.localizedStrings == ["en": "Zoë's café"])
        #expect(text.localizedString() == "Zoë's café")
        #expect(text.length == "Zoë's café".utf16.count)
        #expect(text.description == "Zoë's café")
        let attributes = CSSearchableItemAttributeSet(contentType: .text)
        attributes.title = text.localizedString()
        #expect(attributes.title == "Zoë's café")
    }
}
