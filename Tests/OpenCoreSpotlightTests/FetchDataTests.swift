import Foundation
import Testing
import TestSupport
import UniformTypeIdentifiers
@testable import OpenCoreSpotlight
@testable import SpotlightIndex
@testable import SpotlightSystem

extension OpenCoreSpotlightTests {
    @Suite struct FetchDataTests {
        let grocer = "org.openspotlight.examples.GreenGrocer"

        @Test func anotherAppProvidesItemDataThroughItsIndexExtension() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let registry = AppRegistry(location: .directory(app.directory))
            try registry.register(AppRegistration(bundleIdentifier: grocer, displayName: "GreenGrocer", launchCommand: ["/bin/true"],
                                                  indexExtensionCommand: [BuiltExecutable.url(named: "greengrocer").path, "extension"]))
            try registry.register(AppRegistration(bundleIdentifier: "com.example.plain", displayName: "Plain", launchCommand: ["/bin/true"]))
            let index = CSSearchableIndex.default()
            let text = try await index.fetchData(forBundleIdentifier: grocer, itemIdentifier: "p-pear", contentType: .plainText)
            #expect(String(decoding: text, as: UTF8.self) == "Pear: Williams pears, ripe this week")
            let json = try await index.fetchData(forBundleIdentifier: grocer, itemIdentifier: "p-kiwi", contentType: .json)
            #expect(String(decoding: json, as: UTF8.self) == #"{"id":"p-kiwi","name":"Kiwi","euros":0.5}"#)

            let failures: [(String, String, UTType, String)] = [
                (grocer, "p-pear", .jpeg, "provides text or JSON, not public.jpeg"),
                (grocer, "p-nothing", .plainText, "no product p-nothing"),
                ("com.example.unregistered", "x", .plainText, "not a registered app"),
                ("com.example.plain", "x", .plainText, "has no index extension"),
                ("../../etc", "x", .plainText, "invalid bundle identifier"),
            ]
            for (bundle, item, type, message) in failures {
                do {
                    _ = try await index.fetchData(forBundleIdentifier: bundle, itemIdentifier: item, contentType: type)
                    Issue.record("\(bundle) \(item) \(type): must fail")
                } catch let error as CSIndexError {
                    #expect(error.code == .remoteConnectionError)
                    #expect("\(error)".contains(message), "\(error)")
                }
            }
        }
    }
}
