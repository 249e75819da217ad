import ArgumentParser
import Foundation
import SpotlightIndex
import SpotlightService
import SpotlightSystem

/// `spotlight import --app ID FILE.jsonl`: items from JSON Lines into an app's index.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import",
        abstract: "Import items from a JSON Lines file (one item per line, as export writes them).",
        discussion: """
            Bad lines are skipped and reported with their line number and the reason; the \
            others are imported. Exit status: 0 when every line was imported, 3 when some \
            were refused, 1 when nothing could be read. A line's format:
              {"uniqueIdentifier":"p-apple","domainIdentifier":"produce","contentType":"public.item",
               "attributes":{"title":"Apple","keywords":["fruit"],"rankingHint":90,"price":{"double":2.4}}}

            Example:
              spotlight import --app com.example.grocer produce.jsonl
              gunzip -c items.jsonl.gz | spotlight import --app com.example.grocer --json -
            """
    )

    @Option(help: "The app's bundle identifier.") var app: String
    @Option(help: "The index name within the app.") var index = "default"
    @Flag(help: "Print JSON instead of text.") var json = false
    @Argument(help: "The JSON Lines file, or - for standard input.") var file: String

    /// The longest line read: an item is at most 8 MiB encoded (``StoreLimits``), its JSON a little more.
    static let maximumLineBytes = 16 << 20

    /// The offset of the first byte that is not part of valid UTF-8.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    struct Refusal: Encodable {
        var line: Int
        var id: String?
        var reason: String
    }

    struct Summary: Encodable {
        var app: String
        var index: String
        var lines: Int
        var imported: Int
        var refused: [Refusal]
    }

    func run() throws {
        let store = Output.guarded { () throws -> SpotlightStore in
            try StoreName.validateBundleIdentifier(app)
            try StoreName.validateIndexName(index)
            return try SpotlightStore(bundleIdentifier: app, indexName: index)
        }
        let handle = Output.guarded { () throws -> FileHandle in
            if file == "-" { return FileHandle.standardInput }
            do { return try FileHandle(forReadingFrom: URL(fileURLWithPath: file)) } catch {
                throw ValidationError("cannot read \(file): \((error as NSError).localizedDescription)")
            }
        }
        let size = file == "-" ? 0 : ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0)
        var reader = LineReader(handle: handle, maximumLength: Self.maximumLineBytes)
        var summary = Summary(app: app, index: index, lines: 0, imported: 0, refused: [])
        var pending: [(line: Int, item: SearchableItem)] = []
        var pendingBytes = 0
        let progress = Progress(total: max(1, size >> 10), label: "importing", unit: "KiB")
        // A batch is prepared (checked, tokenized) in the background while the
        // one before it is written and the next lines are read.
        var inFlight: (items: PreparedItems, lineOf: [String: Int])?
        func write(_ batch: (items: PreparedItems, lineOf: [String: Int])) {
            let report = Output.guarded { try store.index(prepared: batch.items) }
            for refusal in report.refused {
                summary.refused.append(Refusal(line: batch.lineOf[refusal.itemIdentifier] ?? 0, id: refusal.itemIdentifier, reason: refusal.error.message))
            }
            summary.imported += report.accepted
        }
        func flush() {
            guard !pending.isEmpty else { return }
            var lineOf: [String: Int] = [:]
            for entry in pending { lineOf[entry.item.uniqueIdentifier] = entry.line }
            let next = (items: store.prepare(pending.map(\.item)), lineOf: lineOf)
            if let previous = inFlight { write(previous) }
            inFlight = next
            pending.removeAll(keepingCapacity: true)
            pendingBytes = 0
        }
        var number = 0
        while let line = Output.guarded({ try reader.next() }) {
            number += 1
            defer { if size > 0 { progress.update(reader.bytesRead >> 10) } }
            let bytes: [UInt8]
            switch line {
            case .tooLong(let length):
                summary.lines += 1
                summary.refused.append(Refusal(line: number, id: nil, reason: "the line is \(length) bytes, longer than the \(Self.maximumLineBytes >> 20) MiB an item's line may be; skipped without reading it whole"))
                continue
            case .text(let text):
                bytes = text
            }
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            summary.lines += 1
            guard let text = String(validating: bytes, as: UTF8.self) else {
                let at = Self.firstInvalidUTF8(bytes).map { " at byte \($0 + 1)" } ?? ""
                summary.refused.append(Refusal(line: number, id: nil, reason: "not valid UTF-8\(at)"))
                continue
            }
            do {
                pending.append((number, try ItemJSON.item(from: Substring(text))))
                pendingBytes += bytes.count
            } catch {
                summary.refused.append(Refusal(line: number, id: nil, reason: "\(error)"))
            }
            if pending.count == 2_000 || pendingBytes > 64 << 20 { flush() }
        }
        flush()
        if let last = inFlight { write(last) }
        // Before the process exits: the index's background merges finish and are kept.
        Output.guarded { try store.finishMerging() }
        progress.finish()
        summary.refused.sort { $0.line < $1.line }
        if json {
            print(try Output.json(encoding: summary))
        } else {
            print("imported \(summary.imported) of \(summary.lines) lines into \(app)/\(index)")
            if !summary.refused.isEmpty {
                print("refused \(summary.refused.count) line\(summary.refused.count == 1 ? "" : "s"):")
                for refusal in summary.refused.prefix(20) { print("  line \(refusal.line): \(refusal.reason)") }
                if summary.refused.count > 20 { print("  … and \(summary.refused.count - 20) more (--json lists them all)") }
            }
        }
        if !summary.refused.isEmpty { throw ExitCode(summary.imported == 0 && summary.lines > 0 ? 1 : 3) }
    }
}

/// `spotlight export --app ID`: an app's items as JSON Lines.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export",
        abstract: "Export an index's items as JSON Lines (what import reads back exactly).",
        discussion: """
            Example:
              spotlight export --app com.example.grocer > produce.jsonl
              spotlight export --app com.example.grocer --index archive --output archive.jsonl
            """
    )

    @Option(help: "The app's bundle identifier.") var app: String
    @Option(help: "The index name within the app.") var index = "default"
    @Option(help: "Write to this file instead of standard output.") var output: String?

    func run() throws {
        guard let store = AppStores.open(app, index: index).first else { return }
        let items = Output.guarded { try store.allItems() }
        var text = ""
        text.reserveCapacity(items.count * 256)
        let progress = Progress(total: items.count, label: "exporting", unit: "items")
        for (index, stored) in items.enumerated() {
            text += ItemJSON.line(stored.item)
            text += "\n"
            progress.update(index + 1)
        }
        progress.finish()
        if let output {
            Output.guarded { try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic) }
            FileHandle.standardError.write(Data("exported \(items.count) items of \(app)/\(index) to \(output)\n".utf8))
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}
