import ArgumentParser
import Foundation
import SpotlightIndex
import SpotlightSystem

/// `spotlight web`: the public web index the crawler fills.
struct WebIndex: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "The public web index: list crawled pages, forget a site.",
        subcommands: [Pages.self, Forget.self]
    )

    static func openStore() -> WebStore? {
        guard WebStore.exists() else { return nil }
        return Output.guarded { try WebStore() }
    }

    struct Pages: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pages",
            abstract: "List the pages of the public web index (all, or one host's).",
            discussion: """
                Example:
                  spotlight web pages
                  spotlight web pages --host shop.example.com --json
                """
        )

        @Option(help: "Only this host's pages.") var host: String?
        @Flag(help: "Print JSON instead of text.") var json = false

        func run() throws {
            let pages = WebIndex.openStore().map { store in Output.guarded { try store.pages(onHost: host) } } ?? []
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                encoder.dateEncodingStrategy = .iso8601
                return print(String(decoding: try encoder.encode(["pages": pages]), as: UTF8.self))
            }
            if pages.isEmpty { return print("no pages\(host.map { " of \($0)" } ?? "") in the public web index (try: spotlight crawl URL)") }
            for page in pages {
                print("\(page.title.terminalSafe)  \(page.url.absoluteString.terminalSafe)")
                let links = page.deepLinks.map { "\($0.source) \($0.url)" }
                if !links.isEmpty { print("    deep links: \(links.joined(separator: "; ").terminalSafe)") }
            }
            print("\(pages.count) pages")
        }
    }

    struct Forget: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "forget",
            abstract: "Remove every page of these hosts from the public web index.",
            discussion: """
                Example:
                  spotlight web forget shop.example.com
                """
        )

        @Argument(help: "Host names.") var hosts: [String]

        func validate() throws {
            guard !hosts.isEmpty else { throw ValidationError("give at least one host") }
        }

        func run() throws {
            guard let store = WebIndex.openStore() else { return print("the public web index is empty") }
            let before = Output.guarded { try store.pageCount() }
            Output.guarded { try store.deletePages(onHosts: hosts) }
            print("forgot \(before - Output.guarded { try store.pageCount() }) pages")
        }
    }
}
