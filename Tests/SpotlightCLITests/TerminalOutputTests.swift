import Foundation
import SpotlightIndex
import SpotlightService
import SpotlightSystem
import Testing
import TestSupport

extension CLITests {
    /// Content with escape sequences, newlines, tabs and bidirectional
    /// overrides cannot rewrite the screen or break a line of output: human
    /// output shows them escaped, `--json` keeps them exactly.
    @Test func contentCannotSpoofTheTerminal() throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let evil = "Evil\u{1B}[2J\u{1B}[1;1Hfake result\nsecond line\there\u{202E}desrever\u{7}\u{9B}31m"
        var item = SearchableItem(uniqueIdentifier: "id\u{1B}]0;title\u{7}\tx", attributes: ["title": .string(evil), "contentDescription": .string("ok\rhidden")])
        item.attributes["keywords"] = .strings(["evil"])
        let file = cli.home.appendingPathComponent("evil.jsonl")
        try Data((ItemJSON.line(item) + "\n").utf8).write(to: file)
        #expect(try cli.run("import", "--app", "com.example.evil", file.path).status == 0)
        #expect(try cli.run("apps", "register", "--bundle-id", "com.example.evil", "--name", "Evil\u{1B}[31mApp", "--", "/bin/true").status == 0)

        /// No control character but newlines (and `query`'s column tabs).
        func isClean(_ text: String, tabs: Bool) -> Bool {
            !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && !(tabs && $0 == "\t")) || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E }
        }
        for arguments in [["search", "evil"], ["search", "--app", "com.example.evil", "evil"], ["query", "--app", "com.example.evil", #"title == "evil*"cd"#],
                          ["show", "--app", "com.example.evil", item.uniqueIdentifier], ["apps"], ["stats"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.error)")
            #expect(isClean(result.output, tabs: arguments[0] == "query"), "\(arguments) printed a raw control character: \(result.output.debugDescription)")
        }
        let search = try cli.run("search", "evil").output
        #expect(search.contains(#"Evil\u{1B}[2J\u{1B}[1;1Hfake result\nsecond line\there\u{202E}desrever\u{7}\u{9B}31m — ok\rhidden"#), "\(search)")
        #expect(search.contains(#"Evil\u{1B}[31mApp"#))
        let query = try cli.run("query", "--app", "com.example.evil", #"title == "evil*"cd"#).output
        #expect(query.split(separator: "\n").first?.filter { $0 == "\t" }.count == 2, "still three tab-separated columns: \(query.debugDescription)")

        // JSON is exact.
        let json = try cli.run("search", "--json", "evil").json()
        let titles = (json["groups"] as? [[String: Any]])?.flatMap { $0["results"] as? [[String: Any]] ?? [] }.compactMap { $0["title"] as? String }
        #expect(titles == [evil])
    }
}
