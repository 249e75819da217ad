import Foundation
import Testing
@testable import SpotlightIndex
@testable import SpotlightSystem
@testable import SpotlightService

@Suite struct LauncherTests {
    /// An app whose command saves the activity it receives (argument, file and environment) and exits with `status`.
    func recorder(_ root: ServiceRoot, _ bundle: String, status: Int = 0, types: [String] = [], continuation: Bool = false) throws -> URL {
        let log = root.url.appendingPathComponent("\(bundle).log")
        let script = """
            printf '%s\\n' "$1" >> '\(log.path)'
            cat "$2" >> '\(log.path)'; printf '\\n' >> '\(log.path)'
            printf '%s\\n' "$OPENSPOTLIGHT_ACTIVITY" >> '\(log.path)'
            printf '%s\\n' "$2" >> '\(log.path).files'
            echo "handled by \(bundle)"
            exit \(status)
            """
        try root.registry.register(app(bundle, bundle.components(separatedBy: ".").last!,
                                       command: ["/bin/sh", "-c", script, "sh", "{activity}", "{activity-file}"],
                                       types: types, continuation: continuation))
        return log
    }

    func received(_ log: URL) throws -> [UserActivityRecord] {
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count % 3 == 0)
        let records = try lines.map { try UserActivityRecord(jsonData: Data($0.utf8)) }
        for index in stride(from: 0, to: records.count, by: 3) {
            #expect(records[index] == records[index + 1] && records[index] == records[index + 2], "argument, file and environment agree")
        }
        return stride(from: 0, to: records.count, by: 3).map { records[$0] }
    }

    @Test func openingAnItemHandsTheAppItsIdentifierAndCountsASelection() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        let log = try recorder(root, "com.example.notes")
        let store = try root.store("com.example.notes", "work")
        try store.index([SearchableItem(uniqueIdentifier: "n/1 'quoted' $HOME", attributes: ["title": .string("Groceries")])])
        let result = try #require(try SystemSearch(registry: root.registry).search("groceries").groups.first?.results.first)
        let outcome = try AppLauncher(registry: root.registry).open(result)
        #expect(outcome.output == "handled by com.example.notes\n" && outcome.recordedSelection)
        #expect(try received(log) == [.openingItem("n/1 'quoted' $HOME")])
        #expect(try store.engagement(ofItem: "n/1 'quoted' $HOME").selections == 1)
        // The file this launch wrote (other tests launch apps meanwhile).
        let files = try String(contentsOf: URL(fileURLWithPath: log.path + ".files"), encoding: .utf8).split(separator: "\n")
        #expect(files.count == 1 && files.allSatisfy { $0.contains("openspotlight-activity-") && !FileManager.default.fileExists(atPath: String($0)) },
                "the activity file is removed")
    }

    @Test func openingAnActivityHandsTheActivityItself() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        let log = try recorder(root, "com.example.recipes", types: ["com.example.recipes.view"])
        let activities = try UserActivityStore(bundleIdentifier: "com.example.recipes", location: root.location)
        var record = UserActivityRecord(activityType: "com.example.recipes.view")
        record.title = "Tarte Tatin"
        record.userInfo = ["recipe": .string("r7"), "servings": .int(6)]
        record.webpageURL = URL(string: "https://example.com/r7")
        let donated = try activities.donate(record)
        let outcome = try AppLauncher(registry: root.registry).open(reference: "com.example.recipes/.activities/\(donated.identifier)")
        #expect(outcome.activity == record)
        #expect(try received(log) == [record])
        #expect(try activities.store.engagement(ofItem: donated.identifier).selections == 1)
    }

    @Test func searchInAppHandsTheQuery() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        let log = try recorder(root, "com.example.grocer", continuation: true)
        try AppLauncher(registry: root.registry).searchInApp("com.example.grocer", text: "pommes \"bio\"")
        #expect(try received(log) == [.continuingQuery("pommes \"bio\"")])
    }

    @Test func failuresSayWhatHappenedAndRecordNothing() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        _ = try recorder(root, "com.example.refuses", status: 3)
        _ = try recorder(root, "com.example.plain")
        try root.registry.register(app("com.example.missing", "Missing", command: ["/nonexistent/app"]))
        try root.registry.register(app("com.example.slow", "Slow", command: ["/bin/sleep", "10"]))
        try root.registry.register(app("com.example.nopath", "NoPath", command: ["no-such-program-xyz"]))
        for bundle in ["com.example.refuses", "com.example.missing", "com.example.slow", "com.example.nopath", "com.example.plain"] {
            try root.store(bundle).index([SearchableItem(uniqueIdentifier: "i1", attributes: ["title": .string("Thing")])])
        }
        let launcher = AppLauncher(registry: root.registry, timeout: 1)
        let table: [(String, () throws -> Void, SystemSearchError.Code, String)] = [
            ("not handled", { try launcher.open(reference: "com.example.refuses/default/i1") }, .notHandled, "exit status 3"),
            ("missing program", { try launcher.open(reference: "com.example.missing/default/i1") }, .launchFailed, "not an executable file"),
            ("not on PATH", { try launcher.open(reference: "com.example.nopath/default/i1") }, .launchFailed, "not on PATH"),
            ("too slow", { try launcher.open(reference: "com.example.slow/default/i1") }, .launchFailed, "within 1 seconds"),
            ("not registered", { try launcher.open(reference: "com.example.unknown/default/i1") }, .appNotRegistered, "not registered"),
            ("no such item", { try launcher.open(reference: "com.example.plain/default/i2") }, .resultNotFound, "not stored"),
            ("no such index", { try launcher.open(reference: "com.example.plain/other/i1") }, .resultNotFound, "not stored"),
            ("bad reference", { try launcher.open(reference: "com.example.plain/i1") }, .resultNotFound, "not a result reference"),
            ("path tricks", { try launcher.open(reference: "../../etc/default/i1") }, .invalidRegistration, "invalid bundle identifier"),
            ("no search in app", { try launcher.searchInApp("com.example.plain", text: "x") }, .notContinuable, "search continuation"),
        ]
        for (name, attempt, code, message) in table {
            do {
                try attempt()
                Issue.record("\(name): must fail")
            } catch let error as SystemSearchError {
                #expect(error.code == code, "\(name): \(error)")
                #expect(error.message.contains(message), "\(name): \(error.message)")
            }
        }
        for bundle in ["com.example.refuses", "com.example.missing", "com.example.slow", "com.example.nopath"] {
            #expect(try root.store(bundle).engagement(ofItem: "i1").selections == 0, "\(bundle): no selection recorded")
        }
    }

    @Test func anActivityTypeTheAppDoesNotListIsNotDelivered() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        let log = try recorder(root, "com.example.recipes", types: ["com.example.recipes.view"])
        let activities = try UserActivityStore(bundleIdentifier: "com.example.recipes", location: root.location)
        let donated = try activities.donate(UserActivityRecord(activityType: "com.example.recipes.edit"))
        do {
            try AppLauncher(registry: root.registry).open(reference: "com.example.recipes/.activities/\(donated.identifier)")
            Issue.record("an unlisted type must not be delivered")
        } catch let error as SystemSearchError {
            #expect(error.code == .notContinuable && error.message.contains("com.example.recipes.edit"))
        }
        #expect(!FileManager.default.fileExists(atPath: log.path), "the app was not launched")
    }
}
