import ArgumentParser
import Foundation
import SpotlightIndex
import SpotlightSystem
import SpotlightService

/// `spotlight index-file FILE…`: files to the apps that import their type.
struct IndexFile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index-file",
        abstract: "Index files through the app that imports their type (its CSImportExtension).",
        discussion: """
            The file's type comes from its extension; the registered app whose imported \
            content types it conforms to runs its importer command, and the file becomes \
            an item of that app's "files" index.

            Example:
              spotlight index-file ~/groceries.txt
              spotlight index-file --json notes/*.md
            """
    )

    @Flag(help: "Print JSON instead of text.") var json = false
    @Argument(help: "The files.") var files: [String]

    struct Failure: Encodable {
        var file: String
        var reason: String
    }

    func run() throws {
        let indexer = FileIndexer()
        var done: [FileIndexer.Outcome] = []
        var failed: [Failure] = []
        for file in files {
            do { done.append(try indexer.indexFile(at: URL(fileURLWithPath: file))) } catch { failed.append(Failure(file: file, reason: "\(error)")) }
        }
        if json {
            struct Report: Encodable { var indexed: [FileIndexer.Outcome]; var failed: [Failure] }
            print(try Output.json(encoding: Report(indexed: done, failed: failed)))
        } else {
            for outcome in done { print("\(outcome.request.file): indexed by \(outcome.app.displayName) as \(outcome.request.contentType)") }
            for failure in failed { FileHandle.standardError.write(Data("spotlight: \(failure.file): \(failure.reason)\n".utf8)) }
        }
        if !failed.isEmpty { throw ExitCode(1) }
    }
}
