import Foundation
import SpotlightIndex
import SpotlightService

/// Printing for people and JSON for programs.
enum Output {
    static func json(_ value: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// A Codable value as stable, pretty JSON with sorted keys.
    static func json(encoding value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// One result as a stable JSON object.
    static func object(_ result: SearchResult, app: String) -> [String: Any] {
        [
            "app": app,
            "id": result.item.uniqueIdentifier,
            "title": result.item.displayTitle ?? "",
            "description": result.item.attributes["contentDescription"]?.texts?.first ?? "",
            "score": result.score.total,
            "signals": [
                "text": result.score.text, "rankingHint": result.score.rankingHint, "hintFactor": result.score.hintFactor,
                "engagement": result.score.engagement, "engagementFactor": result.score.engagementFactor,
                "ageSeconds": result.score.age as Any, "recencyFactor": result.score.recencyFactor,
            ] as [String: Any],
        ]
    }

    /// One result as a line for a terminal.
    static func line(_ result: SearchResult) -> String {
        let title = (result.item.displayTitle ?? result.item.uniqueIdentifier).terminalSafe
        let description = result.item.attributes["contentDescription"]?.texts?.first.map { " — \($0.terminalSafe)" } ?? ""
        return "    \(title)\(description)\n      score \(result.score.explanation)"
    }

    /// An attribute value as `mdls` prints one.
    static func text(_ value: AttributeValue) -> String { AttributeText.text(value, escaping: \.terminalSafe) }

    /// Says on standard error that a store lost its content and waits for its
    /// app to index again, so that empty answers are not taken for "nothing
    /// matches". It keeps saying so until the app acknowledges the reindex.
    static func noteIfLost(_ store: SpotlightStore) {
        guard let reason = try? store.pendingReindex else { return }
        let what = reason == .storeCorrupt ? "was damaged (the damaged file was moved aside)" : "was lost"
        let aside = store.movedAsideFile.map { " to \($0.path)" } ?? ""
        FileHandle.standardError.write(Data("""
            spotlight: note: \(store.bundleIdentifier)/\(store.indexName.terminalSafe) \(what)\(aside); it holds only what was \
            indexed since, until the app indexes everything again (spotlight maintain asks it to)

            """.utf8))
    }

    /// Fails with the message when `body` throws.
    static func guarded<T>(_ body: () throws -> T) -> T {
        do { return try body() } catch { fail("\(error)") }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("spotlight: \(message)\n".utf8))
        exit(1)
    }

    /// Ends a command that wrote nothing to any store, without closing the
    /// stores it read. Closing the last connection to a store checkpoints
    /// its WAL into the database and deletes it (two `fdatasync`s and a
    /// truncate), and the next process then creates the WAL again (one more
    /// for its folder): over 20 stores, 80 disk flushes per search. Left
    /// open, the next process finds the WAL as it was and only rebuilds its
    /// index in shared memory. The kernel unmaps and closes the rest at exit.
    static func finishReading(keeping opened: AnyObject?) -> Never {
        fflush(nil)   // every output stream (stdout is a global Swift 6 will not read from here)
        // Retained for good: with exit never returning, the optimizer may
        // otherwise release `opened` (closing every store) before the call.
        if let opened { _ = Unmanaged.passRetained(opened) }
        exit(0)
    }
}
