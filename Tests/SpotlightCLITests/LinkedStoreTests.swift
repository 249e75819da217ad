import Foundation
import Testing
import TestSupport

extension CLITests {
    /// The links of the hostile-input report, through the command line: one
    /// app's folder cannot be used to read, write or empty another app's store.
    @Test func linksInAnAppsFolderReachNothingElse() throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let lines = (0..<5).map { #"{"uniqueIdentifier":"b\#($0)","attributes":{"title":"secret \#($0)"}}"# }.joined(separator: "\n") + "\n"
        let file = cli.home.appendingPathComponent("b.jsonl")
        try Data(lines.utf8).write(to: file)
        #expect(try cli.run("import", "--app", "com.t.b", file.path).status == 0)
        try FileManager.default.createDirectory(at: cli.home.appendingPathComponent("com.t.a"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: cli.home.appendingPathComponent("com.t.a/evil.sqlite").path,
                                                   withDestinationPath: "../com.t.b/default.sqlite")
        for arguments in [["query", "--app", "com.t.a", "--index", "evil", #"title == "secret*""#],
                          ["import", "--app", "com.t.a", "--index", "evil", file.path],
                          ["delete", "--app", "com.t.a", "--index", "evil", "--all"],
                          ["export", "--app", "com.t.a", "--index", "evil"]] {
            let result = try cli.run(arguments)
            #expect(result.status != 0, "\(arguments) must fail")
            #expect(result.error.contains("evil.sqlite is a symbolic link"), "\(arguments): \(result.error)")
        }
        let count = try cli.run("query", "--app", "com.t.b", #"title == "secret*""#).output
        #expect(count.hasSuffix("5 items\n"), "app B is untouched: \(count)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.home.appendingPathComponent("com.t.b").path).filter { $0.contains("corrupt") }.isEmpty)
    }
}
