import Foundation
import SpotlightIndex

/// The content of the two example apps the demo indexes: a contacts app
/// and a grocery app, with the text shapes real apps have (diacritics,
/// full-width, Chinese, Japanese and Korean names, keywords, hints, dates).
enum SampleData {
    struct App {
        var bundleIdentifier: String
        var displayName: String
        var items: [SearchableItem]
    }

    static func apps(now: Date) -> [App] {
        func daysAgo(_ days: Double) -> AttributeValue { .date(now.addingTimeInterval(-days * 86_400)) }
        func contact(_ id: String, _ name: String, _ role: String, _ keywords: [String], phone: String, email: String,
                     hint: Int, lastUsed: Double) -> SearchableItem {
            SearchableItem(uniqueIdentifier: id, domainIdentifier: "people.\(keywords.first ?? "team")", contentType: "public.contact",
                           attributes: ["displayName": .string(name), "contentDescription": .string(role), "keywords": .strings(keywords),
                                        "phoneNumbers": .strings([phone]), "emailAddresses": .strings([email]),
                                        "supportsPhoneCall": .bool(true), "rankingHint": .number(.int(Int64(hint))),
                                        "lastUsedDate": daysAgo(lastUsed)])
        }
        func produce(_ id: String, _ title: String, _ description: String, _ keywords: [String], price: Double, hint: Int) -> SearchableItem {
            SearchableItem(uniqueIdentifier: id, domainIdentifier: "produce", contentType: "public.item",
                           attributes: ["title": .string(title), "contentDescription": .string(description), "keywords": .strings(keywords),
                                        "rankingHint": .number(.int(Int64(hint))), "price": .number(.double(price)),
                                        "contentModificationDate": daysAgo(Double(hint % 7))])
        }
        return [
            App(bundleIdentifier: "org.openspotlight.examples.Colleagues", displayName: "Colleagues", items: [
                contact("c-zoe", "Zoë Martin", "Product designer, Paris office", ["design", "paris"], phone: "+33 1 42 68 53 00", email: "zoe@example.com", hint: 80, lastUsed: 1),
                contact("c-francois", "François Dupont", "Ingénieur logiciel, équipe moteur", ["engineering", "paris"], phone: "+33 1 42 68 53 01", email: "francois@example.com", hint: 60, lastUsed: 10),
                contact("c-marta", "Marta Kowalczyk", "Marketing lead for Apple platforms", ["marketing", "warsaw"], phone: "+48 22 123 45 67", email: "marta@example.com", hint: 50, lastUsed: 40),
                contact("c-yamada", "山田太郎", "東京オフィスのエンジニア", ["engineering", "tokyo"], phone: "+81 3 1234 5678", email: "yamada@example.com", hint: 55, lastUsed: 3),
                contact("c-li", "李小龙", "上海办公室的产品经理", ["product", "shanghai"], phone: "+86 21 1234 5678", email: "li@example.com", hint: 40, lastUsed: 90),
                contact("c-kim", "김민준", "서울 사무실에서 일하는 디자이너", ["design", "seoul"], phone: "+82 2 1234 5678", email: "kim@example.com", hint: 45, lastUsed: 5),
                contact("c-mark", "Mark Ｍａｒｔｉｎｅｚ", "Support engineer (full-width name from an old CRM)", ["support"], phone: "+1 415 555 0100", email: "mark@example.com", hint: 30, lastUsed: 200),
                contact("c-ana", "Ana Müller-Lüdenscheidt", "Finance, approves apple orders", ["finance"], phone: "+49 30 1234 567", email: "ana@example.com", hint: 35, lastUsed: 20),
            ]),
            App(bundleIdentifier: "org.openspotlight.examples.GreenGrocer", displayName: "GreenGrocer", items: [
                produce("p-apple", "Apple", "Crisp Normandy apples, sweet and tart", ["fruit", "pomme"], price: 2.40, hint: 90),
                produce("p-applesauce", "Apple sauce", "Stewed apples with cinnamon, no added sugar", ["jar", "dessert"], price: 3.10, hint: 40),
                produce("p-pear", "Pear", "Williams pears, ripe this week", ["fruit", "poire"], price: 2.90, hint: 60),
                produce("p-kiwi", "Kiwi", "Green kiwis from the Adour valley", ["fruit"], price: 0.50, hint: 30),
                produce("p-mango", "Mango", "Alphonso mangoes, limited season", ["fruit", "tropical"], price: 1.90, hint: 70),
                produce("p-martini", "Martini Rosso", "Vermouth for the aperitif (not produce, but customers ask)", ["drinks"], price: 12.00, hint: 10),
                produce("p-jalapeno", "Jalapeño peppers", "Hot green chili peppers", ["vegetable", "spicy"], price: 4.20, hint: 20),
                produce("p-yuzu", "柚子 (yuzu)", "日本の柑橘、香りが強い", ["fruit", "citrus"], price: 6.00, hint: 25),
                produce("p-baechu", "배추 (napa cabbage)", "김치를 만들기 위한 배추", ["vegetable"], price: 3.50, hint: 25),
                produce("p-endive", "Endive", "Belgian endives, crème fraîche recipe inside", ["vegetable", "chicon"], price: 2.20, hint: 15),
            ]),
        ]
    }

    /// What the demo searches, as a person would type it.
    static let queries = ["ma", "apple", "paris des", "zoe", "東京", "디자이너", "jalapeno", "martinez"]
}
