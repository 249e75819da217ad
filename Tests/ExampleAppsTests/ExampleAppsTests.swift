import ExampleApps
import Foundation
import OpenCoreSpotlight
import SpotlightIndex
import SpotlightSystem
import SpotlightService
import Testing
import TestSupport

/// The example apps run as their own processes (as a user runs them), each
/// test with fresh stores and settings.
struct Sandbox {
    let scratch: ScratchDirectory
    let registry: AppRegistry
    var root: URL { scratch.url }

    init() throws {
        scratch = try ScratchDirectory("examples")
        let root = scratch.url
        registry = AppRegistry(location: .directory(root))
        for app in ExampleApps.all {
            try registry.register(AppRegistration(bundleIdentifier: app.bundleIdentifier, displayName: app.displayName,
                                                  launchCommand: ["/bin/true"], activityTypes: app.activityTypes,
                                                  supportsSearchContinuation: app.supportsSearchContinuation))
        }
    }

    /// Runs one command of an app (`colleagues …`, `greengrocer …`): its printed lines and whether it exited 0.
    @discardableResult
    func run(_ app: any ExampleApp, _ arguments: String..., activity: UserActivityRecord? = nil) throws -> (ok: Bool, lines: [String]) {
        let process = Process()
        process.executableURL = BuiltExecutable.url(named: app.displayName.lowercased())
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["OPENSPOTLIGHT_HOME"] = root.path
        environment["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
        environment[NSUserActivity.continuationEnvironmentKey] = nil
        if let activity { environment[NSUserActivity.continuationEnvironmentKey] = String(decoding: try activity.jsonData(), as: UTF8.self) }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        return (process.terminationStatus == 0, lines)
    }

    /// System search: (reference, title) of each result, best first.
    func search(_ text: String) throws -> [(reference: ResultReference, title: String)] {
        try SystemSearch(registry: registry).search(text, resultsPerApp: 30).groups.flatMap(\.results).map { ($0.reference, $0.title) }
    }

    func cleanUp() { scratch.cleanUp() }
}

@Suite(.serialized) struct ExampleAppsTests {
    let colleagues = Colleagues()
    let grocer = GreenGrocer()

    @Test func colleaguesIndexesEveryoneAndViewsLiftRank() throws {
        let box = try Sandbox()
        defer { box.cleanUp() }
        #expect(Colleagues.employees.count == 25)
        #expect(try box.run(colleagues, "settings", "all").lines == ["Colleagues: indexing set to all"])
        // Priya first; anything after comes from typos ("priva…" is one edit away).
        #expect(try box.search("priya").map(\.reference.description).first == "org.openspotlight.examples.Colleagues/default/e10")
        #expect(try box.search("priya raghunathan").map(\.reference.description) == ["org.openspotlight.examples.Colleagues/default/e10"])
        let engineers = try box.search("engineering").map(\.reference.itemIdentifier)
        #expect(engineers.count == 7)
        let last = try #require(engineers.last)
        for _ in 0..<3 { try box.run(colleagues, "view", last) }
        #expect(try box.search("engineering").map(\.reference.itemIdentifier).first == last, "views lift the viewed employee to the top")
        #expect(try box.search("engineering").count == 7, "the activities are the items, not more results")
        let store = try SpotlightStore(bundleIdentifier: colleagues.bundleIdentifier, location: .directory(box.root))
        #expect(try store.engagement(ofItem: last).views == 3)
        let item = try #require(try store.item(withIdentifier: "e01"))
        #expect(item.item.attributes["thumbnailData"] != nil && item.item.attributes["phoneNumbers"] == .strings(["+33 1 42 68 50 00"]))
    }

    @Test func colleaguesViewedRecordsAndDisabled() throws {
        let box = try Sandbox()
        defer { box.cleanUp() }
        try box.run(colleagues, "settings", "all")
        try box.run(colleagues, "settings", "viewed")
        #expect(try box.search("priya").isEmpty, "viewed records: nothing until it is viewed")
        let viewed = try box.run(colleagues, "view", "e10")
        #expect(viewed.lines == ["Colleagues: showing Priya Raghunathan — Search engineer, Engineering · +33 1 42 68 50 09 · priyaraghunathan@example.com"])
        let found = try box.search("priya")
        #expect(found.count == 1 && found[0].reference.isActivity && found[0].title == "Priya Raghunathan")
        #expect(try box.search("ranking").count == 1, "the activity's keywords are searched")

        // Continuing that activity, and an item, opens the employee.
        let activity = try UserActivityStore(bundleIdentifier: colleagues.bundleIdentifier, location: .directory(box.root))
            .activity(withIdentifier: found[0].reference.itemIdentifier)
        let continued = try box.run(colleagues, "continue", activity: try #require(activity).record)
        #expect(continued.ok && continued.lines.first?.hasPrefix("Colleagues: showing Priya Raghunathan") == true)
        let opened = try box.run(colleagues, "continue", activity: .openingItem("e02"))
        #expect(opened.ok && opened.lines.first?.hasPrefix("Colleagues: showing François Dupont") == true)
        #expect(try !box.run(colleagues, "continue", activity: .openingItem("e99")).ok)
        #expect(try !box.run(colleagues, "continue", activity: UserActivityRecord(activityType: "com.example.other")).ok)

        try box.run(colleagues, "settings", "disabled")
        #expect(try box.search("priya").isEmpty, "disabled: everything is deleted")
        try box.run(colleagues, "view", "e10")
        #expect(try box.search("priya").isEmpty, "disabled: views are not donated")
    }

    @Test func greenGrocerInAppSearchContinuationAndStorePage() throws {
        let box = try Sandbox()
        defer { box.cleanUp() }
        #expect(try box.run(grocer, "index").lines == ["GreenGrocer: indexed 10 products"])
        #expect(try box.search("fruit").count == 10, "every product has the keyword fruit")
        let table: [(String, [String])] = [
            ("pear", ["Pear"]), ("APP", ["Apple", "Apple sauce"]), ("jalapeno", ["Jalapeño peppers"]),
            ("ango", ["Mango"]), ("it's \"quoted\" \\*", []), ("柑橘", ["柚子 (yuzu)"]), ("martinique", ["Banana"]),
        ]
        for (text, expected) in table {
            let result = try box.run(grocer, "search", text)
            #expect(result.lines == ["GreenGrocer: searching for \"\(text)\" in the app: \(expected.count) found"] + expected.map { "  \($0)" }, "\(text)")
        }
        let continued = try box.run(grocer, "continue", activity: .continuingQuery("apple"))
        #expect(continued.ok && continued.lines.first == "GreenGrocer: searching for \"apple\" in the app: 2 found")

        // The store page: its map item makes the street searchable (nothing the
        // app wrote itself names it), with directions and a call, and offers the
        // shop as a place after "Meet me at".
        #expect(try box.search("mulberry street").isEmpty)
        try box.run(grocer, "store")
        let found = try SystemSearch(registry: box.registry).search("mulberry street").groups.flatMap(\.results)
        #expect(found.map(\.title) == ["Ray's Fruit Emporium"])
        #expect(found.first?.actions == [.call(phoneNumber: "+1 212 555 0142"), .navigate(latitude: 40.7194, longitude: -73.997)])
        #expect(found.first?.description == "Fresh fruit and vegetables, open every day from 7 am", "the app's own attributes are kept")
        let places = try LocationSuggestions(registry: box.registry).suggestions(context: "Meet me at").suggestions
        #expect(places.map(\.name) == ["Ray's Fruit Emporium"])
        #expect(places.first?.attribution == "From GreenGrocer")
        #expect(places.first?.address == "120 Mulberry Street, New York, NY 10013, United States")
        #expect(places.first?.actions.map(\.uri.absoluteString) == ["geo:40.7194,-73.997", "tel:+12125550142"])
        let storePage = try #require(found.first)
        let activity = try #require(try UserActivityStore(bundleIdentifier: grocer.bundleIdentifier, location: .directory(box.root))
            .activity(withIdentifier: storePage.reference.itemIdentifier))
        #expect(activity.record.isEligibleForPublicIndexing && activity.record.webpageURL?.host == "greengrocer.example.com")
        #expect(try box.run(grocer, "continue", activity: activity.record).lines.first?.hasPrefix("GreenGrocer: showing the store page") == true)
        #expect(try box.run(grocer, "continue", activity: .openingItem("p-kiwi")).lines.first?.hasPrefix("GreenGrocer: showing Kiwi (p-kiwi)") == true)
    }

    @Test func eachAppPrintsTheManifestItIsRegisteredWith() throws {
        let box = try Sandbox()
        defer { box.cleanUp() }
        for app in ExampleApps.all {
            let printed = try box.run(app, "manifest")
            #expect(printed.ok)
            let file = box.root.appendingPathComponent("\(app.displayName).json")
            try Data(printed.lines.joined(separator: "\n").utf8).write(to: file)
            let registration = try AppRegistry.readManifest(file)
            let executable = BuiltExecutable.url(named: app.displayName.lowercased()).resolvingSymlinksInPath().path
            #expect(registration.bundleIdentifier == app.bundleIdentifier && registration.displayName == app.displayName)
            #expect(registration.launchCommand == [executable, "continue"])
            #expect(registration.indexExtensionCommand == [executable, "extension"])
            #expect(registration.activityTypes == app.activityTypes)
            #expect(registration.supportsSearchContinuation == app.supportsSearchContinuation)
            #expect(registration.importedContentTypes == app.importedContentTypes)
            #expect(registration.importerCommand == (app.importedContentTypes.isEmpty ? nil : [executable, "import"]))
        }
    }
}
