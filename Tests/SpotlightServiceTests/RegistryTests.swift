import Foundation
import Testing
import TestSupport
@testable import SpotlightIndex
@testable import SpotlightSystem
@testable import SpotlightService

/// A fresh root directory with a registry.
struct ServiceRoot {
    let scratch: ScratchDirectory
    let registry: AppRegistry
    init() throws {
        scratch = try ScratchDirectory("service")
        registry = AppRegistry(location: .directory(scratch.url))
    }
    var url: URL { scratch.url }
    var location: StoreLocation { .directory(url) }
    func store(_ bundle: String, _ index: String = "default") throws -> SpotlightStore {
        try SpotlightStore(bundleIdentifier: bundle, indexName: index, location: location)
    }
    func cleanUp() { scratch.cleanUp() }
}

func app(_ bundle: String, _ name: String, command: [String] = ["/bin/true"], types: [String] = [], continuation: Bool = false) -> AppRegistration {
    AppRegistration(bundleIdentifier: bundle, displayName: name, launchCommand: command, activityTypes: types, supportsSearchContinuation: continuation)
}

@Suite struct RegistryTests {
    @Test func appsRegisterListAndUnregister() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.zeta", "zeta"))
        try root.registry.register(app("com.example.alpha", "Alpha", types: ["com.example.alpha.view"], continuation: true))
        #expect(try root.registry.apps().map(\.displayName) == ["Alpha", "zeta"])
        #expect(try root.registry.app("com.example.alpha")?.supportsSearchContinuation == true)
        try root.registry.register(app("com.example.alpha", "Alpha 2"))
        #expect(try root.registry.app("com.example.alpha")?.displayName == "Alpha 2", "registering again replaces")

        try root.store("com.example.zeta").index([SearchableItem(uniqueIdentifier: "z1", attributes: ["title": .string("Z")])])
        try root.registry.unregister("com.example.zeta")
        #expect(SpotlightStore.exists(bundleIdentifier: "com.example.zeta", location: root.location), "the index stays")
        try root.registry.register(app("com.example.zeta", "zeta"))
        try root.registry.unregister("com.example.zeta", deletingIndexes: true)
        #expect(!SpotlightStore.exists(bundleIdentifier: "com.example.zeta", location: root.location))
        #expect(try root.store("com.example.zeta").pendingReindex == nil, "a deliberate delete is not a lost store")
        do {
            try root.registry.unregister("com.example.zeta")
            Issue.record("unregistering an unknown app must fail")
        } catch let error as SystemSearchError {
            #expect(error.code == .appNotRegistered)
        }
        #expect(try root.registry.apps().map(\.bundleIdentifier) == ["com.example.alpha"])
    }

    @Test func badRegistrationsAreRefusedWithTheReason() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        let table: [(AppRegistration, String)] = [
            (app("../../etc", "Evil"), "invalid bundle identifier"),
            (app("com.example/evil", "Evil"), "not allowed"),
            (app("", "Empty"), "it is empty"),
            (app("com.example.ok", "  "), "display name is empty"),
            (app("com.example.ok", "OK", command: []), "no launch command"),
            (app("com.example.ok", "OK", command: [""]), "no launch command"),
            (app("com.example.ok", "OK", types: ["has space"]), "not a reverse-DNS type"),
        ]
        for (registration, message) in table {
            do {
                try root.registry.register(registration)
                Issue.record("\(registration.bundleIdentifier) must be refused")
            } catch let error as SystemSearchError {
                #expect(error.code == .invalidRegistration)
                #expect(error.message.contains(message), "\(error.message)")
            }
        }
        #expect(try root.registry.apps().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: root.url.deletingLastPathComponent().appendingPathComponent("etc.json").path))
    }

    @Test func manifestsUseOurKeysOrInfoPlistKeys() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        let manifest = root.url.appendingPathComponent("recipes.json")
        try Data("""
            {"bundleIdentifier": "com.example.recipes", "displayName": "Recipes", "icon": "recipes.png",
             "launchCommand": ["/usr/bin/recipes", "{activity}"],
             "NSUserActivityTypes": ["com.example.recipes.view"], "CoreSpotlightContinuation": true}
            """.utf8).write(to: manifest)
        let registered = try root.registry.register(manifestAt: manifest)
        #expect(registered == AppRegistration(bundleIdentifier: "com.example.recipes", displayName: "Recipes", icon: "recipes.png",
                                              launchCommand: ["/usr/bin/recipes", "{activity}"],
                                              activityTypes: ["com.example.recipes.view"], supportsSearchContinuation: true))
        #expect(try root.registry.app("com.example.recipes") == registered)

        let bad: [(String, String)] = [
            ("{", "not JSON"),
            (#"{"displayName": "X", "launchCommand": ["x"]}"#, "\"bundleIdentifier\" is missing"),
            (#"{"bundleIdentifier": "a.b", "displayName": "X", "launchCommand": "x"}"#, "launchCommand"),
        ]
        for (text, message) in bad {
            try Data(text.utf8).write(to: manifest)
            do {
                try root.registry.register(manifestAt: manifest)
                Issue.record("\(text) must be refused")
            } catch let error as SystemSearchError {
                #expect(error.code == .invalidRegistration && error.message.contains(message), "\(error.message)")
            }
        }
        // A broken file dropped into the registry is reported, the others still listed.
        try Data("{".utf8).write(to: try root.registry.directory.appendingPathComponent("com.example.broken.json"))
        let (apps, problems) = try root.registry.scan()
        #expect(apps.map(\.bundleIdentifier) == ["com.example.recipes"])
        #expect(problems.count == 1 && problems[0].contains("com.example.broken.json"))
    }
}
