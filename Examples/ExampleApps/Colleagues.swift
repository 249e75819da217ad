import Foundation
public import OpenCoreSpotlight
import UniformTypeIdentifiers

/// A company directory, after Apple's "Colleagues" sample: 25 employees and
/// three indexing settings — *disabled* (nothing in search), *viewed* (each
/// employee the user looks at becomes a searchable activity) and *all*
/// (every employee an item; viewing one donates an activity tied to it).
///
/// ```sh
/// colleagues settings all        # index every employee
/// colleagues view e07            # look at one: a view, which lifts their rank
/// colleagues continue            # what system search launches, with $OPENSPOTLIGHT_ACTIVITY
/// ```
public struct Colleagues: ExampleApp {
    public let displayName = "Colleagues"
    public let bundleIdentifier = "org.openspotlight.examples.Colleagues"
    public static let viewActivityType = "org.openspotlight.examples.Colleagues.view-employee"
    public var activityTypes: [String] { [Self.viewActivityType] }
    public let supportsSearchContinuation = false
    public let usage = "colleagues settings disabled|viewed|all · view ID · list · continue · extension · manifest"

    public init() {}

    public struct Employee: Sendable {
        public var id: String
        public var name: String
        public var department: String
        public var title: String
        public var phone: String
        public var email: String
        public var skills: [String]
    }

    /// The indexing setting.
    public enum Mode: String, Sendable, CaseIterable {
        case disabled, viewed, all
    }

    public static let employees: [Employee] = {
        let rows: [(String, String, String, [String])] = [
            ("Zoë Martin", "Design", "Product designer", ["figma", "typography"]),
            ("François Dupont", "Engineering", "Ingénieur logiciel", ["swift", "sqlite"]),
            ("Marta Kowalczyk", "Marketing", "Marketing lead", ["campaigns", "apple platforms"]),
            ("山田太郎", "Engineering", "エンジニア", ["rust", "search"]),
            ("李小龙", "Product", "产品经理", ["roadmaps", "research"]),
            ("김민준", "Design", "디자이너", ["illustration", "motion"]),
            ("Mark Martinez", "Support", "Support engineer", ["linux", "networking"]),
            ("Ana Müller-Lüdenscheidt", "Finance", "Controller", ["budgets", "apple orders"]),
            ("Oluwaseun Adeyemi", "Engineering", "Site reliability engineer", ["kubernetes", "observability"]),
            ("Priya Raghunathan", "Engineering", "Search engineer", ["ranking", "swift"]),
            ("Søren Kierkegaard-Holm", "Legal", "Counsel", ["contracts", "privacy"]),
            ("Élodie Lefèvre", "Sales", "Account executive", ["enterprise", "french"]),
            ("Mateo García", "Sales", "Sales engineer", ["demos", "spanish"]),
            ("Aiko Tanaka", "Design", "UX researcher", ["interviews", "accessibility"]),
            ("Dmitri Volkov", "Engineering", "Database engineer", ["postgres", "sqlite"]),
            ("Fatima Zahra Benali", "People", "HR partner", ["hiring", "onboarding"]),
            ("Liam O'Connor", "Support", "Support lead", ["escalations", "training"]),
            ("Noa Cohen", "Product", "Product manager", ["analytics", "pricing"]),
            ("Chen Wei", "Engineering", "iOS engineer", ["swiftui", "core spotlight"]),
            ("Ingrid Johansson", "Finance", "CFO", ["planning", "investors"]),
            ("Kwame Mensah", "Marketing", "Content writer", ["blog", "documentation"]),
            ("Lucía Fernández", "Design", "Brand designer", ["logos", "print"]),
            ("Nguyễn Văn An", "Engineering", "Backend engineer", ["go", "apis"]),
            ("Olga Petrova", "Legal", "Paralegal", ["compliance", "gdpr"]),
            ("Yusuf Demir", "Operations", "Office manager", ["facilities", "travel"]),
        ]
        return rows.enumerated().map { index, row in
            let id = String(format: "e%02d", index + 1)
            let login = row.0.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
                .lowercased().filter { $0.isASCII && $0.isLetter }
            return Employee(id: id, name: row.0, department: row.1, title: row.2,
                            phone: String(format: "+33 1 42 68 %02d %02d", 50 + index / 10, index), email: "\(login.isEmpty ? id : login)@example.com",
                            skills: row.3)
        }
    }()

    /// The employee as a Core Spotlight item.
    public static func item(_ employee: Employee) -> CSSearchableItem {
        CSSearchableItem(uniqueIdentifier: employee.id, domainIdentifier: "employees.\(employee.department.lowercased())",
                         attributeSet: attributes(employee))
    }

    static func attributes(_ employee: Employee) -> CSSearchableItemAttributeSet {
        let attributes = CSSearchableItemAttributeSet(contentType: .contact)
        attributes.displayName = employee.name
        attributes.title = employee.name
        attributes.contentDescription = "\(employee.title), \(employee.department)"
        attributes.keywords = [employee.department] + employee.skills
        attributes.phoneNumbers = [employee.phone]
        attributes.emailAddresses = [employee.email]
        attributes.supportsPhoneCall = 1
        let initials = employee.name.split(separator: " ").prefix(2).compactMap(\.first).map(String.init).joined()
        attributes.thumbnailData = avatar(initials: initials, hue: (Int(employee.id.dropFirst()) ?? 0) * 14)
        return attributes
    }

    // MARK: - Commands

    public func run(_ arguments: [String], environment: [String: String], say: (String) -> Void) throws -> Bool {
        let settings = Settings(bundleIdentifier: bundleIdentifier, environment: environment)
        switch arguments.first {
        case "settings":
            guard let mode = arguments.dropFirst().first.flatMap(Mode.init(rawValue:)) else {
                say("usage: \(usage)")
                return false
            }
            try apply(mode)
            try settings.write(mode.rawValue)
            say("Colleagues: indexing set to \(mode.rawValue)")
            return true
        case "view":
            guard let id = arguments.dropFirst().first, let employee = Self.employees.first(where: { $0.id == id }) else {
                say("Colleagues: no employee \(arguments.dropFirst().first ?? "")")
                return false
            }
            say(card(employee))
            donateView(of: employee, mode: Mode(rawValue: settings.read() ?? "") ?? .disabled)
            return true
        case "list":
            for employee in Self.employees { say("\(employee.id)  \(employee.name) — \(employee.title), \(employee.department)") }
            return true
        case "continue":
            return try continueActivity(environment: environment, say: say)
        case "extension":
            let mode = Mode(rawValue: settings.read() ?? "") ?? .disabled
            let handled = try CSIndexExtensionRequestHandler.handleLaunchRequest(
                with: ReindexingHandler { mode == .all ? Self.employees.map(Self.item) : [] }, environment: environment)
            say(handled ? "Colleagues: index request handled" : "Colleagues: no index request")
            return handled
        default:
            say("usage: \(usage)")
            return false
        }
    }

    /// Applies an indexing setting, as the sample's settings screen does.
    func apply(_ mode: Mode) throws {
        let index = CSSearchableIndex.default()
        switch mode {
        case .disabled:
            try waitFor { done in index.deleteAllSearchableItems(completionHandler: done) }
            try waitFor { done in NSUserActivity.deleteAllSavedUserActivities { done(nil) } }
        case .viewed:
            try waitFor { done in index.deleteAllSearchableItems(completionHandler: done) }
        case .all:
            try waitFor { done in index.indexSearchableItems(Self.employees.map(Self.item), completionHandler: done) }
        }
    }

    /// The user looked at an employee: in *viewed* and *all*, a searchable activity.
    func donateView(of employee: Employee, mode: Mode) {
        guard mode != .disabled else { return }
        let activity = NSUserActivity(activityType: Self.viewActivityType)
        activity.title = employee.name
        activity.userInfo = ["employee": employee.id]
        activity.requiredUserInfoKeys = ["employee"]
        activity.keywords = Set([employee.department] + employee.skills)
        activity.isEligibleForSearch = true
        let attributes = Self.attributes(employee)
        if mode == .all { attributes.relatedUniqueIdentifier = employee.id }
        activity.contentAttributeSet = attributes
        activity.becomeCurrent()
    }

    func card(_ employee: Employee) -> String {
        "Colleagues: showing \(employee.name) — \(employee.title), \(employee.department) · \(employee.phone) · \(employee.email)"
    }

    /// `application(_:continue:restorationHandler:)`: an item or a viewed-employee activity.
    func continueActivity(environment: [String: String], say: (String) -> Void) throws -> Bool {
        guard let activity = try NSUserActivity.launchActivity(environment: environment) else {
            say("Colleagues: started without an activity")
            return false
        }
        let id: String?
        switch activity.activityType {
        case CSSearchableItemActionType: id = activity.userInfo?[CSSearchableItemActivityIdentifier] as? String
        case Self.viewActivityType: id = activity.userInfo?["employee"] as? String
        default: id = nil
        }
        guard let id, let employee = Self.employees.first(where: { $0.id == id }) else {
            say("Colleagues: cannot continue \(activity.activityType)")
            return false
        }
        say(card(employee))
        return true
    }
}

/// An example app's one setting, in `$XDG_CONFIG_HOME/<bundle id>/setting`.
struct Settings {
    let file: URL

    init(bundleIdentifier: String, environment: [String: String]) {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".config")
        file = base.appendingPathComponent(bundleIdentifier).appendingPathComponent("setting")
    }

    func read() -> String? {
        (try? String(contentsOf: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func write(_ value: String) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(value.utf8).write(to: file, options: .atomic)
    }
}
