import Foundation
import OpenCoreSpotlight
import UniformTypeIdentifiers

/// The two example apps of the demo, written as an iPhone app writes its
/// Core Spotlight code: a contacts app and a grocery app, with the text
/// shapes real apps have (diacritics, full-width, Chinese, Japanese and
/// Korean names, keywords, hints, dates).
enum ExampleContent {
    struct App: Sendable {
        var bundleIdentifier: String
        var displayName: String
        var viewActivityType: String
        var supportsSearchContinuation: Bool
        var items: @Sendable (Date) -> [CSSearchableItem]
    }

    static let colleagues = App(
        bundleIdentifier: "org.openspotlight.examples.Colleagues", displayName: "Colleagues",
        viewActivityType: "org.openspotlight.examples.Colleagues.view-contact", supportsSearchContinuation: false,
        items: { now in
            func contact(_ id: String, _ name: String, _ role: String, _ keywords: [String], phone: String, email: String,
                         hint: Int, lastUsed: Double) -> CSSearchableItem {
                let attributes = CSSearchableItemAttributeSet(contentType: .contact)
                attributes.displayName = name
                attributes.contentDescription = role
                attributes.keywords = keywords
                attributes.phoneNumbers = [phone]
                attributes.emailAddresses = [email]
                attributes.supportsPhoneCall = 1
                attributes.rankingHint = NSNumber(value: hint)
                attributes.lastUsedDate = now.addingTimeInterval(-lastUsed * 86_400)
                return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: "people.\(keywords.first ?? "team")", attributeSet: attributes)
            }
            return [
                contact("c-zoe", "Zoë Martin", "Product designer, Paris office", ["design", "paris"], phone: "+33 1 42 68 53 00", email: "zoe@example.com", hint: 80, lastUsed: 1),
                contact("c-francois", "François Dupont", "Ingénieur logiciel, équipe moteur", ["engineering", "paris"], phone: "+33 1 42 68 53 01", email: "francois@example.com", hint: 60, lastUsed: 10),
                contact("c-marta", "Marta Kowalczyk", "Marketing lead for Apple platforms", ["marketing", "warsaw"], phone: "+48 22 123 45 67", email: "marta@example.com", hint: 50, lastUsed: 40),
                contact("c-yamada", "山田太郎", "東京オフィスのエンジニア", ["engineering", "tokyo"], phone: "+81 3 1234 5678", email: "yamada@example.com", hint: 55, lastUsed: 3),
                contact("c-li", "李小龙", "上海办公室的产品经理", ["product", "shanghai"], phone: "+86 21 1234 5678", email: "li@example.com", hint: 40, lastUsed: 90),
                contact("c-kim", "김민준", "서울 사무실에서 일하는 디자이너", ["design", "seoul"], phone: "+82 2 1234 5678", email: "kim@example.com", hint: 45, lastUsed: 5),
                contact("c-mark", "Mark Ｍａｒｔｉｎｅｚ", "Support engineer (full-width name from an old CRM)", ["support"], phone: "+1 415 555 0100", email: "mark@example.com", hint: 30, lastUsed: 200),
                contact("c-ana", "Ana Müller-Lüdenscheidt", "Finance, approves apple orders", ["finance"], phone: "+49 30 1234 567", email: "ana@example.com", hint: 35, lastUsed: 20),
            ]
        })

    static let greenGrocer = App(
        bundleIdentifier: "org.openspotlight.examples.GreenGrocer", displayName: "GreenGrocer",
        viewActivityType: "org.openspotlight.examples.GreenGrocer.view-product", supportsSearchContinuation: true,
        items: { now in
            let price = CSCustomAttributeKey(keyName: "price")!
            func produce(_ id: String, _ title: String, _ description: String, _ keywords: [String], euros: Double, hint: Int) -> CSSearchableItem {
                let attributes = CSSearchableItemAttributeSet(contentType: .item)
                attributes.title = title
                attributes.contentDescription = description
                attributes.keywords = keywords
                attributes.rankingHint = NSNumber(value: hint)
                attributes.contentModificationDate = now.addingTimeInterval(-Double(hint % 7) * 86_400)
                attributes.setValue(NSNumber(value: euros), forCustomKey: price)
                return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: "produce", attributeSet: attributes)
            }
            return [
                produce("p-apple", "Apple", "Crisp Normandy apples, sweet and tart", ["fruit", "pomme"], euros: 2.40, hint: 90),
                produce("p-applesauce", "Apple sauce", "Stewed apples with cinnamon, no added sugar", ["jar", "dessert"], euros: 3.10, hint: 40),
                produce("p-pear", "Pear", "Williams pears, ripe this week", ["fruit", "poire"], euros: 2.90, hint: 60),
                produce("p-kiwi", "Kiwi", "Green kiwis from the Adour valley", ["fruit"], euros: 0.50, hint: 30),
                produce("p-mango", "Mango", "Alphonso mangoes, limited season", ["fruit", "tropical"], euros: 1.90, hint: 70),
                produce("p-martini", "Martini Rosso", "Vermouth for the aperitif (not produce, but customers ask)", ["drinks"], euros: 12.00, hint: 10),
                produce("p-jalapeno", "Jalapeño peppers", "Hot green chili peppers", ["vegetable", "spicy"], euros: 4.20, hint: 20),
                produce("p-yuzu", "柚子 (yuzu)", "日本の柑橘、香りが強い", ["fruit", "citrus"], euros: 6.00, hint: 25),
                produce("p-baechu", "배추 (napa cabbage)", "김치를 만들기 위한 배추", ["vegetable"], euros: 3.50, hint: 25),
                produce("p-endive", "Endive", "Belgian endives, crème fraîche recipe inside", ["vegetable", "chicon"], euros: 2.20, hint: 15),
            ]
        })

    static let apps = [colleagues, greenGrocer]

    /// What the demo searches, as a person would type it.
    static let queries = ["ma", "apple", "paris des", "zoe", "東京", "디자이너", "jalapeno", "martinez"]
}
