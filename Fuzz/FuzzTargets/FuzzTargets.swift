public import Foundation
import SpotlightIndex
import SpotlightQuery
import SpotlightSystem
import WebMarkup

/// One entry point per reader of untrusted input, for the fuzzer
/// (`Scripts/fuzz.sh`, libFuzzer) and for the regression test that replays
/// every input kept under `Fuzz/Corpus/<target>/`. A target returns when the
/// reader accepted or refused the input cleanly; it throws when an invariant
/// broke (a round trip that does not come back), and a crash is a crash.
///
/// ```swift
/// try FuzzTargets.run("query", Data(#"title == "a*"cd"#.utf8))
/// ```
public enum FuzzTargets {
    /// The readers, by name.
    public static let names = ["import-line", "query", "html", "association", "robots", "sitemap", "segment"]

    /// An invariant that broke.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs one input through one reader.
    public static func run(_ name: String, _ data: Data) throws {
        switch name {
        case "import-line": try importLine(data)
        case "query": try query(data)
        case "html": html(data)
        case "association": association(data)
        case "robots": robots(data)
        case "sitemap": _ = try? Sitemap.parse(data, maximumURLs: 1_000)
        case "segment": _SegmentFuzzing.exercise(Array(data))
        default: throw Failure(description: "no fuzz target \(name); the targets are \(names.joined(separator: ", "))")
        }
    }

    /// An import line: read, and if it is an item, written and read back the same.
    static func importLine(_ data: Data) throws {
        guard let text = String(data: data, encoding: .utf8), let item = try? ItemJSON.item(from: Substring(text)) else { return }
        let again = try ItemJSON.item(from: Substring(ItemJSON.line(item)))
        guard again == item else { throw Failure(description: "an item does not survive export and import: \(ItemJSON.line(item))") }
    }

    /// A store of a few items for the query target, made once.
    static let store: SpotlightStore? = {
        var options = StoreOptions()
        options.queryTimeBudget = 0.5
        guard let store = try? SpotlightStore.inMemory(options: options) else { return nil }
        _ = try? store.index([
            SearchableItem(uniqueIdentifier: "a", attributes: ["title": .string("Apple pie"), "rating": .number(.int(4)),
                                                             "keywords": .strings(["fruit", "dessert"])]),
            SearchableItem(uniqueIdentifier: "b", attributes: ["title": .string("Čaj 東京"), "contentDescription": .string("tea in MyWindowClass"),
                                                             "contentCreationDate": .date(Date(timeIntervalSinceReferenceDate: 7e8))]),
        ])
        return store
    }()

    /// A query string: parsed, printed and parsed back the same, then run on a store.
    static func query(_ data: Data) throws {
        let text = String(decoding: data, as: UTF8.self)
        guard let expression = try? QueryParser.parse(text) else { return }
        let printed = QueryPrinter.print(expression)
        guard let again = try? QueryParser.parse(printed), again == expression else {
            throw Failure(description: "\(text.debugDescription) prints as \(printed.debugDescription), which does not parse back the same")
        }
        _ = try? store?.items(matching: text)
    }

    static func html(_ data: Data) {
        guard let document = try? HTMLDocument.parse(data, url: URL(string: "https://shop.example.com/p/1")) else { return }
        let metadata = PageMetadata(document)
        _ = metadata.summary
    }

    static func association(_ data: Data) {
        _ = AssociationValidator.validate(data: data, fetch: nil, sampleURLs: [URL(string: "https://e.com/buy/42?q=1#x")!])
        guard let association = try? AppSiteAssociation(data: data) else { return }
        for path in ["https://e.com/", "https://e.com/buy/42?q=1#x", "https://e.com/en_US/a%2Fb"] {
            let url = URL(string: path)!
            _ = association.handler(for: url)
            for app in association.applicationIdentifiers { _ = association.match(url, applicationIdentifier: app) }
        }
    }

    static func robots(_ data: Data) {
        let robots = RobotsTxt(data: data)
        for path in ["https://e.com/", "https://e.com/a/b?c=d", "https://e.com/%E6%97%A5"] {
            _ = robots.isAllowed(URL(string: path)!)
        }
        _ = robots.crawlDelay()
    }
}
