import Foundation
import SpotlightIndex
import SpotlightService
import SpotlightSystem
import Testing
import TestSupport

extension CLITests {
    /// 100,000 items with every kind of value, in the canonical form export writes.
    static func bulkLines(_ count: Int) -> [String] {
        let scripts = ["Zoë", "東京", "서울", "naïve \"quoted\" \\ back", "tab\there", "line\u{2028}sep", "emoji 🍐", "plain"]
        return (0..<count).map { index in
            var item = SearchableItem(uniqueIdentifier: "item-\(index)/\(scripts[index % scripts.count])")
            if index % 3 == 0 { item.domainIdentifier = "domain.\(index % 17)" }
            if index % 4 == 0 { item.contentType = "public.item" }
            if index % 5 == 0 { item.expirationDate = Date(timeIntervalSinceReferenceDate: 2_000_000_000 + Double(index) / 7) }
            item.attributes["title"] = .string("Title \(index) \(scripts[index % scripts.count])")
            if index % 2 == 0 { item.attributes["keywords"] = .strings(["k\(index % 11)", scripts[(index + 1) % scripts.count]]) }
            switch index % 7 {
            case 0: item.attributes["rankingHint"] = .number(.int(Int64(index % 101)))
            case 1: item.attributes["price"] = .number(.double(Double(index) / 3))
            case 2: item.attributes["contentModificationDate"] = .date(Date(timeIntervalSinceReferenceDate: Double(index) * 1.1))
            case 3: item.attributes["url"] = .url(URL(string: "https://example.com/\(index)?q=a%20b#f")!)
            case 4: item.attributes["thumbnailData"] = .data(Data((0..<(index % 40)).map { UInt8(truncatingIfNeeded: $0 * index) }))
            case 5: item.attributes["scores"] = .numbers([.int(1), .double(2.5), .double(3)])
            default:
                item.attributes["dates"] = .dates([Date(timeIntervalSinceReferenceDate: 1), Date(timeIntervalSinceReferenceDate: 0.1 + Double(index))])
                item.attributes["isPriority"] = .bool(index % 2 == 0)
                item.attributes["empty"] = .strings([])
            }
            return ItemJSON.line(item)
        }
    }

    @Test func importExportRoundTripsAHundredThousandLinesExactly() throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let lines = Self.bulkLines(100_000)
        let input = cli.home.appendingPathComponent("bulk.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
        let imported = try cli.run("import", "--app", "com.example.bulk", "--json", input.path)
        #expect(imported.status == 0, "\(imported.error)")
        let summary = try imported.json()
        #expect(summary["imported"] as? Int == 100_000 && (summary["refused"] as? [Any])?.isEmpty == true)
        let output = cli.home.appendingPathComponent("out.jsonl")
        let exported = try cli.run("export", "--app", "com.example.bulk", "--output", output.path)
        #expect(exported.status == 0, "\(exported.error)")
        let back = try String(contentsOf: output, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(back.count == lines.count)
        let differing = zip(lines, back).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(differing == nil, "line \((differing?.offset ?? 0) + 1): \(differing?.element.0 ?? "")\n   became \(differing?.element.1 ?? "")")
    }

    @Test func badLinesAreReportedAndSkipped() throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        var bytes = Data()
        let lines: [String] = [
            #"{"uniqueIdentifier":"good-1","attributes":{"title":"Fine"}}"#,
            "{",
            "[1, 2]",
            #"{"uniqueIdentifier":5}"#,
            #"{"uniqueIdentifier":"x","colour":"red"}"#,
            #"{"uniqueIdentifier":"bad-title","attributes":{"title":5}}"#,
            #"{"uniqueIdentifier":"bad-tag","attributes":{"when":{"epoch":5}}}"#,
            "",
            #"{"uniqueIdentifier":"good-2","attributes":{"title":"Also fine","modified":{"date":"2024-05-01T10:00:00Z"}}}"#,
        ]
        for line in lines { bytes.append(Data((line + "\n").utf8)) }
        bytes.append(contentsOf: [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x7D, 0x0A])   // {"<invalid UTF-8>"}
        let file = cli.home.appendingPathComponent("bad.jsonl")
        try bytes.write(to: file)
        let result = try cli.run("import", "--app", "com.example.bad", "--json", file.path)
        #expect(result.status == 3)
        let summary = try result.json()
        #expect(summary["imported"] as? Int == 2 && summary["lines"] as? Int == 9)
        let refused = try #require(summary["refused"] as? [[String: Any]])
        let reasons = Dictionary(uniqueKeysWithValues: refused.map { ($0["line"] as? Int ?? 0, $0["reason"] as? String ?? "") })
        #expect(reasons.keys.sorted() == [2, 3, 4, 5, 6, 7, 10])
        #expect(reasons[2]?.contains("not JSON") == true)
        #expect(reasons[3]?.contains("JSON object") == true)
        #expect(reasons[4]?.contains("uniqueIdentifier") == true)
        #expect(reasons[5]?.contains("unknown key \"colour\"") == true)
        #expect(reasons[6]?.contains("title must be a string") == true)
        #expect(reasons[7]?.contains("not a known tagged value") == true)
        #expect(reasons[10]?.contains("UTF-8") == true)
        let text = try cli.run("import", "--app", "com.example.bad", file.path)
        #expect(text.output.contains("imported 2 of 9 lines") && text.output.contains("line 5: unknown key \"colour\""), "\(text.output)")
        let exported = try cli.run("export", "--app", "com.example.bad").output
        #expect(exported.split(separator: "\n").count == 2)
        #expect(try cli.run("import", "--app", "com.example.bad", "/nonexistent.jsonl").status == 1)
    }

    /// A line past 16 MiB is skipped as it is read (never held whole), and
    /// the lines around it are imported; NUL bytes, numbers out of range and
    /// keys given twice are refused with where and why.
    @Test func overLongAndOddLinesAreRefusedAlone() throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let file = cli.home.appendingPathComponent("odd.jsonl")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        handle.write(Data((#"{"uniqueIdentifier":"before","attributes":{"title":"Before"}}"# + "\n").utf8))
        handle.write(Data(#"{"uniqueIdentifier":"huge","attributes":{"title":""#.utf8))
        let block = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
        for _ in 0..<17 { handle.write(block) }
        handle.write(Data(("\"}}\n" + #"{"uniqueIdentifier":"after","attributes":{"title":"After"}}"# + "\n").utf8))
        handle.write(Data(#"{"uniqueIdentifier":"nul","attributes":{"title":"x"#.utf8) + Data([0]) + Data("y\"}}\n".utf8))
        handle.write(Data((#"{"uniqueIdentifier":"inf","attributes":{"n":1e400}}"# + "\n").utf8))
        handle.write(Data((#"{"uniqueIdentifier":"twice","attributes":{"title":"A","title":"B"}}"# + "\n").utf8))
        handle.write(Data(repeating: 0, count: 3 << 20))   // a last line of NUL bytes, no newline
        try handle.close()

        let result = try cli.run("import", "--app", "com.example.odd", "--json", file.path)
        #expect(result.status == 3)
        let summary = try result.json()
        #expect(summary["imported"] as? Int == 2 && summary["lines"] as? Int == 7)
        let refused = try #require(summary["refused"] as? [[String: Any]])
        let reasons = Dictionary(uniqueKeysWithValues: refused.map { ($0["line"] as? Int ?? 0, $0["reason"] as? String ?? "") })
        #expect(reasons[2]?.hasPrefix("the line is 17825845 bytes, longer than the 16 MiB") == true, "\(reasons[2] ?? "")")
        #expect(reasons[4] == "not JSON: line 1, column 51: a control character (U+0000) inside a string must be escaped")
        #expect(reasons[5]?.contains("1e400 is out of the range of a 64-bit floating-point number") == true)
        #expect(reasons[6]?.contains(#"the key "title" is given twice"#) == true)
        #expect(reasons[7]?.contains("line 1, column 1: unexpected byte 0x0") == true, "\(reasons[7] ?? "")")
        let exported = try cli.run("export", "--app", "com.example.odd").output
        #expect(exported.split(separator: "\n").map { $0.contains("\"before\"") || $0.contains("\"after\"") } == [true, true])
    }
}
