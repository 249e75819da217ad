public import Foundation
public import MapKit
public import OpenCoreSpotlight
import UniformTypeIdentifiers

/// A produce shop, after Apple's "Green Grocer" sample: the catalogue
/// indexed as items (every product has the keyword "fruit", as in the
/// sample), an in-app search built on `CSSearchQuery` with `**=='*text*'cd`,
/// "Search in App" continued from `CSSearchQueryString`, and a store page
/// whose activity carries the shop's map item (`activity.mapItem`), so that
/// searching the street finds it and the shop is suggested as a place.
///
/// ```sh
/// greengrocer index              # the catalogue into the index
/// greengrocer search pear        # the in-app search
/// greengrocer store              # the user looks at the store page
/// greengrocer continue           # what system search launches, with $OPENSPOTLIGHT_ACTIVITY
/// ```
public struct GreenGrocer: ExampleApp {
    public let displayName = "GreenGrocer"
    public let bundleIdentifier = "org.openspotlight.examples.GreenGrocer"
    public static let productActivityType = "org.openspotlight.examples.GreenGrocer.view-product"
    public static let storeActivityType = "org.openspotlight.examples.GreenGrocer.view-store"
    public var activityTypes: [String] { [Self.productActivityType, Self.storeActivityType] }
    public let supportsSearchContinuation = true
    public let usage = "greengrocer index · search TEXT · view ID · store · continue · extension · import · manifest"
    /// The file types its importer describes: plain-text shopping lists.
    public var importedContentTypes: [String] { ["public.plain-text"] }

    public init() {}

    public struct Product: Sendable {
        public var id: String
        public var name: String
        public var description: String
        public var keywords: [String]
        public var euros: Double
        public var hint: Int
    }

    public static let products: [Product] = [
        Product(id: "p-apple", name: "Apple", description: "Crisp Normandy apples, sweet and tart", keywords: ["pomme"], euros: 2.40, hint: 90),
        Product(id: "p-applesauce", name: "Apple sauce", description: "Stewed apples with cinnamon, no added sugar", keywords: ["jar", "dessert"], euros: 3.10, hint: 40),
        Product(id: "p-pear", name: "Pear", description: "Williams pears, ripe this week", keywords: ["poire"], euros: 2.90, hint: 60),
        Product(id: "p-kiwi", name: "Kiwi", description: "Green kiwis from the Adour valley", keywords: [], euros: 0.50, hint: 30),
        Product(id: "p-mango", name: "Mango", description: "Alphonso mangoes, limited season", keywords: ["tropical"], euros: 1.90, hint: 70),
        Product(id: "p-jalapeno", name: "Jalapeño peppers", description: "Hot green chili peppers", keywords: ["vegetable", "spicy"], euros: 4.20, hint: 20),
        Product(id: "p-yuzu", name: "柚子 (yuzu)", description: "日本の柑橘、香りが強い", keywords: ["citrus"], euros: 6.00, hint: 25),
        Product(id: "p-baechu", name: "배추 (napa cabbage)", description: "김치를 만들기 위한 배추", keywords: ["vegetable"], euros: 3.50, hint: 25),
        Product(id: "p-endive", name: "Endive", description: "Belgian endives, crème fraîche recipe inside", keywords: ["vegetable", "chicon"], euros: 2.20, hint: 15),
        Product(id: "p-banana", name: "Banana", description: "Fair-trade bananas from Martinique", keywords: ["tropical"], euros: 1.60, hint: 50),
    ]

    /// The shop, as its store page describes it (Ray's Fruit Emporium, as in
    /// the chapter this app follows).
    public enum Store {
        public static let name = "Ray's Fruit Emporium"
        public static let street = "120 Mulberry Street"
        public static let city = "New York"
        public static let state = "NY"
        public static let postalCode = "10013"
        public static let country = "United States"
        public static let phoneNumber = "+1 212 555 0142"
        public static let latitude = 40.7194
        public static let longitude = -73.9970
        public static let url = URL(string: "https://greengrocer.example.com/store")!

        /// The shop as a map item: its place, address, name, phone and site.
        public static func mapItem() -> MKMapItem {
            let coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
            let address: [String: Any] = [
                CNPostalAddressStreetKey: street, CNPostalAddressCityKey: city, CNPostalAddressStateKey: state,
                CNPostalAddressPostalCodeKey: postalCode, CNPostalAddressCountryKey: country,
            ]
            let mapItem = MKMapItem(placemark: MKPlacemark(coordinate: coordinate, addressDictionary: address))
            mapItem.name = name
            mapItem.phoneNumber = phoneNumber
            mapItem.url = url
            return mapItem
        }
    }

    /// The product as a Core Spotlight item.
    public static func item(_ product: Product) -> CSSearchableItem {
        let attributes = CSSearchableItemAttributeSet(contentType: .item)
        attributes.title = product.name
        attributes.contentDescription = product.description
        attributes.keywords = ["fruit"] + product.keywords
        attributes.rankingHint = NSNumber(value: product.hint)
        attributes.setValue(NSNumber(value: product.euros), forCustomKey: CSCustomAttributeKey(keyName: "price")!)
        return CSSearchableItem(uniqueIdentifier: product.id, domainIdentifier: "produce", attributeSet: attributes)
    }

    // MARK: - Commands

    public func run(_ arguments: [String], environment: [String: String], say: (String) -> Void) throws -> Bool {
        switch arguments.first {
        case "index":
            try waitFor { done in CSSearchableIndex.default().indexSearchableItems(Self.products.map(Self.item), completionHandler: done) }
            say("GreenGrocer: indexed \(Self.products.count) products")
            return true
        case "search":
            let text = arguments.dropFirst().joined(separator: " ")
            let found = try search(text)
            say("GreenGrocer: searching for \"\(text)\" in the app: \(found.count) found")
            for name in found { say("  \(name)") }
            return true
        case "view":
            guard let id = arguments.dropFirst().first, let product = Self.products.first(where: { $0.id == id }) else {
                say("GreenGrocer: no product \(arguments.dropFirst().first ?? "")")
                return false
            }
            say(page(product))
            viewProduct(product)
            return true
        case "store":
            say(storePage())
            viewStore()
            return true
        case "continue":
            return try continueActivity(environment: environment, say: say)
        case "extension":
            let handled = try CSIndexExtensionRequestHandler.handleLaunchRequest(
                with: ReindexingHandler({ Self.products.map(Self.item) }, provide: Self.data), environment: environment)
            say(handled ? "GreenGrocer: index request handled" : "GreenGrocer: no index request")
            return handled
        case "import":
            let handled = try CSImportExtension.handleLaunchRequest(with: ShoppingListImporter(), environment: environment)
            say(handled ? "GreenGrocer: shopping list imported" : "GreenGrocer: no import request")
            return handled
        default:
            say("usage: \(usage)")
            return false
        }
    }

    /// The in-app search: product names whose any attribute contains `text`.
    func search(_ text: String) throws -> [String] {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
            .replacingOccurrences(of: "*", with: "\\*").replacingOccurrences(of: "?", with: "\\?")
        let context = CSSearchQueryContext()
        context.fetchAttributes = ["title"]
        let query = CSSearchQuery(queryString: "**=='*\(escaped)*'cd", queryContext: context)
        final class Found: @unchecked Sendable { var names: [String] = [] }
        let found = Found()
        query.foundItemsHandler = { items in found.names += items.compactMap(\.attributeSet.title) }
        try waitFor { done in
            query.completionHandler = { done($0) }
            query.start()
        }
        return found.names.sorted()
    }

    /// A product's data for other apps: its description as text, or JSON.
    @Sendable static func data(_ id: String, _ type: String) throws -> Data {
        guard let product = products.first(where: { $0.id == id }) else { throw CSIndexError(.invalidItemError, "no product \(id)") }
        let requested = UTType(type) ?? .data
        if requested.conforms(to: .json) {
            return Data(#"{"id":"\#(product.id)","name":"\#(product.name)","euros":\#(product.euros)}"#.utf8)
        }
        if UTType.plainText.conforms(to: requested) || requested.conforms(to: .plainText) {
            return Data("\(product.name): \(product.description)".utf8)
        }
        throw CSIndexError(.invalidItemError, "GreenGrocer provides text or JSON, not \(type)")
    }

    func viewProduct(_ product: Product) {
        let activity = NSUserActivity(activityType: Self.productActivityType)
        activity.title = product.name
        activity.userInfo = ["product": product.id]
        activity.requiredUserInfoKeys = ["product"]
        activity.isEligibleForSearch = true
        let attributes = CSSearchableItemAttributeSet(contentType: .item)
        attributes.relatedUniqueIdentifier = product.id
        activity.contentAttributeSet = attributes
        activity.becomeCurrent()
    }

    /// The user looks at the store page: its activity, with the shop's map
    /// item, becomes current, so the street is searchable and the shop is
    /// offered as a place ("From GreenGrocer").
    func viewStore() {
        let activity = prepareUserActivity()
        updateUserActivityState(activity)
        activity.becomeCurrent()
    }

    /// The store page's activity, as the chapter's `prepareUserActivity()`
    /// makes it; its last line is the chapter's one line.
    func prepareUserActivity() -> NSUserActivity {
        let activity = NSUserActivity(activityType: Self.storeActivityType)
        activity.title = Store.name
        activity.userInfo = ["page": "store"]
        activity.isEligibleForSearch = true
        activity.isEligibleForPublicIndexing = true
        activity.webpageURL = Store.url
        activity.mapItem = Store.mapItem()
        return activity
    }

    /// The chapter's `updateUserActivityState(_:)`: it adds to the attribute
    /// set the map item filled in (`contentAttributeSet ??`) rather than
    /// replacing it, which would lose the address.
    func updateUserActivityState(_ activity: NSUserActivity) {
        let attributeSet = activity.contentAttributeSet ?? CSSearchableItemAttributeSet(contentType: .contact)
        attributeSet.contentDescription = "Fresh fruit and vegetables, open every day from 7 am"
        attributeSet.latitude = NSNumber(value: Store.latitude)
        attributeSet.longitude = NSNumber(value: Store.longitude)
        attributeSet.supportsNavigation = 1
        activity.contentAttributeSet = attributeSet
    }

    func page(_ product: Product) -> String {
        "GreenGrocer: showing \(product.name) (\(product.id)) — \(product.description), \(String(format: "%.2f", product.euros)) €"
    }

    func storePage() -> String {
        "GreenGrocer: showing the store page — \(Store.name), \(Store.street), \(Store.city), \(Store.state) \(Store.postalCode)"
    }

    /// `application(_:continue:restorationHandler:)`: an item, "Search in App", or one of its own activities.
    func continueActivity(environment: [String: String], say: (String) -> Void) throws -> Bool {
        guard let activity = try NSUserActivity.launchActivity(environment: environment) else {
            say("GreenGrocer: started without an activity")
            return false
        }
        switch activity.activityType {
        case CSSearchableItemActionType, Self.productActivityType:
            let id = activity.userInfo?[CSSearchableItemActivityIdentifier] as? String ?? activity.userInfo?["product"] as? String
            guard let product = Self.products.first(where: { $0.id == id }) else {
                say("GreenGrocer: no product \(id ?? "")")
                return false
            }
            say(page(product))
            return true
        case CSQueryContinuationActionType:
            let text = activity.userInfo?[CSSearchQueryString] as? String ?? ""
            let found = try search(text)
            say("GreenGrocer: searching for \"\(text)\" in the app: \(found.count) found")
            for name in found { say("  \(name)") }
            return true
        case Self.storeActivityType:
            say(storePage())
            return true
        default:
            say("GreenGrocer: cannot continue \(activity.activityType)")
            return false
        }
    }
}

/// GreenGrocer's import extension: a plain-text shopping list becomes a
/// searchable file, titled by its first line, with the products it names
/// as keywords.
final class ShoppingListImporter: CSImportExtension, @unchecked Sendable {
    override func update(_ attributes: CSSearchableItemAttributeSet, forFileAt contentURL: URL) throws {
        let text = try String(contentsOf: contentURL, encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let named = GreenGrocer.products.filter { product in
            text.range(of: product.name, options: [.caseInsensitive, .diacriticInsensitive]) != nil
                || product.keywords.contains { text.range(of: $0, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
        }
        attributes.title = lines.first ?? contentURL.deletingPathExtension().lastPathComponent
        attributes.textContent = text
        attributes.contentDescription = "Shopping list: \(max(0, lines.count - 1)) lines, \(named.count) of our products"
        attributes.keywords = ["shopping list"] + named.map(\.name)
    }
}
