import Foundation
import Testing
import UniformTypeIdentifiers
@testable import OpenCoreSpotlight
@testable import SpotlightIndex
@testable import SpotlightSystem

extension OpenCoreSpotlightTests {
    @Suite struct ImportExtensionTests {
        final class NotesImporter: CSImportExtension, @unchecked Sendable {
            override func update(_ attributes: CSSearchableItemAttributeSet, forFileAt contentURL: URL) throws {
                let text = try String(contentsOf: contentURL, encoding: .utf8)
                attributes.title = text.split(separator: "\n").first.map(String.init)
                attributes.textContent = text
            }
        }

        func environment(_ request: FileImportRequest) throws -> [String: String] {
            [FileImportRequest.environmentKey: String(decoding: try request.jsonData(), as: UTF8.self)]
        }

        @Test func anImporterDescribesTheFileAndItIsIndexed() async throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let file = app.directory.appendingPathComponent("Shopping list.md")
            try Data("Weekend market\n- pears\n- crème fraîche\n".utf8).write(to: file)
            let request = FileImportRequest(file: file, contentType: UTType.markdown.identifier)
            #expect(try CSImportExtension.handleLaunchRequest(with: NotesImporter(), environment: environment(request)))
            let store = try SpotlightStore(bundleIdentifier: app.bundleIdentifier, indexName: "files", location: .directory(app.directory))
            let stored = try #require(try store.item(withIdentifier: file.standardizedFileURL.path))
            #expect(stored.item.attributes["title"] == .string("Weekend market"))
            #expect(stored.item.attributes["displayName"] == .string("Shopping list.md"))
            #expect(stored.item.attributes["contentURL"] == .url(file.standardizedFileURL))
            #expect(stored.item.contentTypeTree.contains("public.plain-text"))
            #expect(try store.search("fraiche").map(\.item.uniqueIdentifier) == [file.standardizedFileURL.path])
        }

        @Test func failuresAreThrownAndIndexNothing() throws {
            let app = try TestApp()
            defer { app.cleanUp() }
            let missing = FileImportRequest(file: app.directory.appendingPathComponent("gone.txt"), contentType: "public.plain-text")
            #expect(throws: (any Error).self) { try CSImportExtension.handleLaunchRequest(with: NotesImporter(), environment: environment(missing)) }
            let file = app.directory.appendingPathComponent("a.txt")
            try Data("x".utf8).write(to: file)
            do {
                try CSImportExtension.handleLaunchRequest(with: CSImportExtension(), environment: environment(FileImportRequest(file: file, contentType: "public.plain-text")))
                Issue.record("the base class must not import anything")
            } catch let error as CSIndexError {
                #expect("\(error)".contains("does not override update(_:forFileAt:)"))
            }
            #expect(!SpotlightStore.exists(bundleIdentifier: app.bundleIdentifier, indexName: "files", location: .directory(app.directory)))
            #expect(try !CSImportExtension.handleLaunchRequest(with: NotesImporter(), environment: [:]))
        }

        @Test func filenameExtensionsGiveTypes() {
            let table: [(String, UTType, String?)] = [
                ("txt", .data, "public.plain-text"), ("JPG", .image, "public.jpeg"), ("md", .text, "net.daringfireball.markdown"),
                ("csv", .text, "public.comma-separated-values-text"), ("txt", .image, nil), ("nope", .data, nil), ("", .data, nil),
            ]
            for (ext, supertype, expected) in table {
                #expect(UTType(filenameExtension: ext, conformingTo: supertype)?.identifier == expected, "\(ext)")
            }
            #expect(UTType.jpeg.preferredFilenameExtension == "jpeg" && UTType.markdown.conforms(to: .text))
        }
    }
}
