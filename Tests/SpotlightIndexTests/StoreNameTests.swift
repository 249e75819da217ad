import Foundation
import Testing
import TestSupport
@testable import SpotlightIndex

@Suite struct StoreNameTests {
    @Test(arguments: [
        ("", "empty"), ("..", "empty component"), ("com/evil", "not allowed"), ("com.example.", "empty component"),
        (".hidden", "empty component"), ("com..example", "empty component"), ("com.exa\u{0}mple", "not allowed"),
        ("com.éxample", "not allowed"), ("com example", "not allowed"), (String(repeating: "a", count: 256), "longer than 255"),
        ("public.web", "reserved for the system"), ("Public.Web", "reserved for the system"),
    ])
    func badBundleIdentifiersAreRefused(name: String, reason: String) throws {
        let error = #expect(throws: SpotlightIndexError.self) { try StoreName.validateBundleIdentifier(name) }
        #expect(error?.code == .invalidStoreName)
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
    }

    @Test(arguments: ["com.example.app", "org.openspotlight.Colleagues", "a", "com.example-2.my_app"])
    func goodBundleIdentifiersPass(name: String) throws {
        try StoreName.validateBundleIdentifier(name)
    }

    @Test(arguments: [
        ("", "empty"), (".", "names a directory"), ("..", "names a directory"), ("../etc", "starts with '.'"),
        ("a/b", "path separator"), ("a\\b", "path separator"), ("nul\u{0}", "control character"),
        (".secret", "starts with '.'"), (String(repeating: "x", count: 129), "longer than 128"),
        ("default ", "starts or ends with a space"), (" default", "starts or ends with a space"), ("default\u{A0}", "starts or ends with a space"),
        ("d\u{435}fault", "mixes Cyrillic and Latin letters"), ("Α-alpha", "mixes Greek and Latin letters"),
        ("def\u{200B}ault", "invisible character U+200B"), ("\u{FEFF}default", "invisible character U+FEFF"),
        ("cafe\u{301}", "not in Unicode's composed form (NFC)"), ("x\u{85}y", "control character (U+0085)"),
    ])
    func badIndexNamesAreRefused(name: String, reason: String) throws {
        let error = #expect(throws: SpotlightIndexError.self) { try StoreName.validateIndexName(name) }
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
    }

    @Test(arguments: ["default", "Messages", "日本語の索引", "with space", "v1.2", "café", "Почта", "Ελληνικά", "mail 2024 日本"])
    func goodIndexNamesPass(name: String) throws {
        try StoreName.validateIndexName(name)
    }

    @Test func storeRefusesPathTricksBeforeTouchingTheDisk() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        #expect(throws: SpotlightIndexError.self) { try fileStore(dir, bundle: "..") }
        #expect(throws: SpotlightIndexError.self) { try fileStore(dir, index: "../../escape") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
    }

    @Test func storesLiveInPrivateDirectoriesPerAppAndIndex() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        #expect(!SpotlightStore.exists(bundleIdentifier: "com.example.notes", indexName: "Notes", location: .directory(dir.url)))
        let store = try fileStore(dir, bundle: "com.example.notes", index: "Notes")
        #expect(SpotlightStore.exists(bundleIdentifier: "com.example.notes", indexName: "Notes", location: .directory(dir.url)))
        #expect(!SpotlightStore.exists(bundleIdentifier: "..", location: .directory(dir.url)))
        #expect(store.fileURL?.path == dir.url.path + "/com.example.notes/Notes.sqlite")
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.url.path + "/com.example.notes")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let other = try fileStore(dir, bundle: "com.example.notes", index: "Drafts")
        try store.index([item("a", title: "only in notes")])
        #expect(try other.itemCount() == 0)
        #expect(try store.itemCount() == 1)
    }

    @Test func automaticRootFollowsTheEnvironment() {
        #expect(StoreLocation.automaticRoot(environment: ["OPENSPOTLIGHT_HOME": "/x/os", "XDG_DATA_HOME": "/y", "HOME": "/h"]).path == "/x/os")
        #expect(StoreLocation.automaticRoot(environment: ["XDG_DATA_HOME": "/y", "HOME": "/h"]).path == "/y/openspotlight")
        #expect(StoreLocation.automaticRoot(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]).path == "/h/.local/share/openspotlight")
        #expect(StoreLocation.automaticRoot(environment: ["HOME": "/h"]).path == "/h/.local/share/openspotlight")
    }
}
