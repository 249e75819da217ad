import ArgumentParser
import Foundation
import SpotlightCrawler
import SpotlightIndex
import SpotlightSystem
import WebMarkup

/// Reads a page, an association file or any document from a file or an http(s) address.
enum WebInput {
    static func isAddress(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// The bytes, the address they came from (if fetched) and the declared charset.
    static func read(_ source: String, maximumRedirects: Int? = nil) async throws -> (data: Data, url: URL?, charset: String?, status: Int?) {
        if isAddress(source) {
            guard let url = URL(string: source) else { throw ValidationError("\(source.debugDescription) is not a valid URL") }
            let fetcher = WebFetcher()
            let response: FetchResponse
            do {
                response = try await fetcher.fetch(url, maximumRedirects: maximumRedirects)
            } catch {
                try? await fetcher.shutdown()
                throw error
            }
            try? await fetcher.shutdown()
            return (response.body, response.url, response.charset, response.statusCode)
        }
        let file = URL(fileURLWithPath: source)
        guard FileManager.default.fileExists(atPath: file.path) else { Output.fail("no file at \(source)") }
        return (try Data(contentsOf: file), nil, nil, nil)
    }
}

/// `spotlight markup FILE|URL`: what Applebot reads from one page.
struct Markup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "markup",
        abstract: "Show the web markup of a page: title, description, image, canonical URL, Smart App Banner, deep links, schema.org entities, robots.",
        discussion: """
            Reads a saved file or fetches an http(s) address. --url gives the address a saved \
            file was fetched from, so relative links resolve as they would on the site.

            Example:
              spotlight markup https://shop.example.com/pear
              spotlight markup saved.html --url https://shop.example.com/pear --json
            """
    )

    @Option(help: "The address the file was fetched from (the base for relative URLs).")
    var url: String?

    @Flag(help: "Print JSON (a stable shape) instead of text.")
    var json = false

    @Argument(help: "An HTML file, or an http(s) address to fetch.")
    var source: String

    func run() async throws {
        var base: URL?
        if let url {
            guard let parsed = URL(string: url), parsed.scheme != nil else { throw ValidationError("--url \(url.debugDescription) is not an absolute URL") }
            base = parsed
        }
        let input: (data: Data, url: URL?, charset: String?, status: Int?)
        do { input = try await WebInput.read(source) } catch let error as CrawlError { Output.fail(error.message) }
        if let status = input.status, status != 200 { Output.fail("\(source) answered HTTP \(status)") }
        let document: HTMLDocument
        do { document = try HTMLDocument.parse(input.data, url: base ?? input.url, charset: input.charset) } catch { Output.fail("\(error)") }
        let metadata = PageMetadata(document)
        if json { return print(try Output.json(encoding: metadata.summary)) }
        func show(_ label: String, _ value: PageMetadata.SourcedValue?) {
            print("\(label.padding(toLength: 12, withPad: " ", startingAt: 0)) \(value.map { "\($0.value.terminalSafe)  (\($0.source))" } ?? "—")")
        }
        show("title", metadata.title)
        show("description", metadata.description)
        show("image", metadata.image)
        show("canonical", metadata.canonical)
        show("og:url", metadata.openGraphURL)
        if let banner = metadata.smartAppBanner {
            print("app banner   app-id \((banner.appID ?? "—").terminalSafe), app-argument \((banner.appArgument ?? "—").terminalSafe)"
                  + (banner.problems.isEmpty ? "" : "  [\(banner.problems.joined(separator: ", "))]"))
        }
        print(metadata.deepLinks.isEmpty ? "deep links   —" : "deep links")
        for link in metadata.deepLinks {
            print("  \(link.source.rawValue): \(link.url.terminalSafe)\(link.appStoreID.map { "  (App Store id \($0))" } ?? "")")
        }
        print(metadata.entities.isEmpty ? "entities     —" : "entities")
        for entity in metadata.entities {
            print("  \(entity.types.joined(separator: ", ").terminalSafe) (\(entity.syntax.rawValue))")
            for key in entity.properties.keys.sorted() { print("    \(key.terminalSafe): \(entity.properties[key]!.terminalSafe)") }
        }
        for problem in metadata.structuredDataProblems { print("  ! \(problem.message.terminalSafe)") }
        let robots = [metadata.robots.noindex ? "noindex" : nil, metadata.robots.nofollow ? "nofollow" : nil, metadata.robots.nosnippet ? "nosnippet" : nil].compactMap { $0 }
        print("robots       \(robots.isEmpty ? "index, follow" : robots.joined(separator: ", "))")
        print("indexable    \(metadata.isIndexable ? "yes" : "no (Apple needs a deep link, a title and a description, and no noindex)")")
    }
}

/// `spotlight links match`: which app an apple-app-site-association gives a URL to.
struct Links: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "links",
        abstract: "Universal links: match URLs against an apple-app-site-association file.",
        subcommands: [Match.self]
    )

    struct Match: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "match",
            abstract: "Print the app (TEAMID.bundle) that opens URL, by Apple's first-match rules.",
            discussion: """
                Example:
                  spotlight links match --aasa apple-app-site-association https://shop.example.com/buy/42
                  spotlight links match --aasa https://shop.example.com/.well-known/apple-app-site-association https://shop.example.com/help --json
                """
        )

        @Option(help: "The association file: a path, or an http(s) address (fetched without following redirects, as Apple does).")
        var aasa: String

        @Flag(help: "Print JSON: {\"app\": \"TEAMID.bundle\" or null}.")
        var json = false

        @Argument(help: "The URL to match.")
        var url: String

        func run() async throws {
            guard let target = URL(string: url), target.scheme != nil else { throw ValidationError("\(url.debugDescription) is not an absolute URL") }
            let input: (data: Data, url: URL?, charset: String?, status: Int?)
            do { input = try await WebInput.read(aasa, maximumRedirects: 0) } catch let error as CrawlError { Output.fail(error.message) }
            if let status = input.status, status != 200 { Output.fail("\(aasa) answered HTTP \(status)") }
            let association: AppSiteAssociation
            do { association = try AppSiteAssociation(data: input.data) } catch { Output.fail("\(aasa): \(error)") }
            let app = association.handler(for: target)
            if json { return print(try Output.json(["app": app as Any? ?? NSNull()])) }
            print(app ?? "no app opens \(url)")
            for identifier in association.applicationIdentifiers where identifier != app {
                let result = association.match(target, applicationIdentifier: identifier)
                if result != .none { print("  \(identifier): \(result.rawValue)") }
            }
        }
    }
}

/// `spotlight validate URL`: Apple's App Search API Validation Tool, on Linux.
struct Validate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "validate",
        abstract: "Check a page as Applebot would: robots, title, description, image, deep links, universal links, structured data.",
        discussion: """
            Each check passes or says what to do, with a stable code per finding \
            (missing_title, aasa_redirect, robots_blocked…). Exit status 0 when every check passes, 2 otherwise.

            Example:
              spotlight validate https://shop.example.com/pear
            """
    )

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Argument(help: "The page's http(s) address.")
    var url: String

    func run() async throws {
        guard WebInput.isAddress(url), let target = URL(string: url) else { throw ValidationError("\(url.debugDescription) is not an http(s) address") }
        let report = await SiteValidator().validate(target)
        if json {
            print(try Output.json(encoding: report))
        } else {
            print("\(report.url.absoluteString)\(report.statusCode.map { "  (HTTP \($0))" } ?? "")")
            if let final = report.finalURL, final != report.url { print("  fetched from \(final.absoluteString)") }
            print("\(report.passedCount) of \(report.checks.count) checks passed")
            for check in report.checks {
                print("\(check.passed ? "✓" : "✗") \(check.name)\(check.passed ? "" : " — action required")")
                for finding in check.findings { print("    \(finding.severity == .error ? "error" : "warning") \(finding.code): \(finding.message.terminalSafe)") }
            }
            if let preview = report.preview {
                print("Preview")
                print("  \((preview.title ?? "(no title)").terminalSafe)")
                if let description = preview.description { print("  \(description.terminalSafe)") }
                for (label, value) in [("image", preview.image), ("rating", preview.rating), ("price", preview.price), ("deep link", preview.deepLink)] {
                    if let value { print("  \(label): \(value.terminalSafe)") }
                }
                if !report.universalLinkApps.isEmpty { print("  opens in: \(report.universalLinkApps.joined(separator: ", "))") }
            }
        }
        if report.passedCount != report.checks.count { throw ExitCode(2) }
    }
}

/// `spotlight crawl URL`: the polite crawler, into the public web index.
struct Crawl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "crawl",
        abstract: "Crawl a site politely and put its indexable pages into the public web index.",
        discussion: """
            Obeys robots.txt (Applebot, else Googlebot, else *) and its Crawl-delay, reads its \
            sitemaps, one request at a time, stays on the start site, collapses pages with the \
            same canonical URL. Found pages then show in `spotlight search` beside app results.

            Example:
              spotlight crawl https://shop.example.com/ --max-pages 50
            """
    )

    @Option(name: .customLong("max-pages"), help: "Fetch at most this many pages.")
    var maxPages = 100

    @Option(name: .customLong("max-depth"), help: "Follow links at most this many steps from the start.")
    var maxDepth = 5

    @Option(name: .customLong("max-bytes"), help: "Read at most this many bytes in all.")
    var maxBytes = 64 << 20

    @Option(name: .customLong("max-time"), help: "Stop after this many seconds.")
    var maxTime: Double = 300

    @Option(help: "Seconds between two requests to a host (robots.txt's Crawl-delay can raise it).")
    var delay: Double = 0.25

    @Flag(name: .customLong("dry-run"), help: "Crawl and report without storing anything.")
    var dryRun = false

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Argument(help: "Where to start (http or https).")
    var urls: [String]

    func validate() throws {
        guard maxPages >= 1, maxDepth >= 0, maxBytes >= 1, maxTime > 0, delay >= 0 else {
            throw ValidationError("--max-pages, --max-bytes and --max-time must be positive, --max-depth and --delay not negative")
        }
        for url in urls where !WebInput.isAddress(url) || URL(string: url) == nil {
            throw ValidationError("\(url.debugDescription) is not an http(s) address")
        }
    }

    func run() async throws {
        var configuration = CrawlConfiguration()
        configuration.maximumPages = maxPages
        configuration.maximumDepth = maxDepth
        configuration.maximumTotalBytes = maxBytes
        configuration.maximumDuration = maxTime
        configuration.minimumDelay = delay
        let store: WebStore?
        do { store = dryRun ? nil : try WebStore() } catch { Output.fail("the public web index cannot be opened: \(error)") }
        let progress = CrawlProgressLine(maximum: maxPages)
        let report: CrawlReport
        do {
            report = try await Crawler(configuration: configuration, store: store).crawl(from: urls.compactMap(URL.init(string:))) { progress.update($0) }
        } catch {
            Output.fail("the crawl stopped: \(error)")
        }
        progress.finish()
        if json { return print(try Output.json(encoding: report)) }
        for page in report.pages {
            let mark = switch page.kind {
            case .indexed: "+"
            case .duplicate: "="
            default: "-"
            }
            print("\(mark) \(page.kind.rawValue.padding(toLength: 15, withPad: " ", startingAt: 0)) \(page.url.absoluteString)"
                  + (page.kind == .duplicate ? "  → \(page.canonical?.absoluteString ?? "")" : ""))
            if page.kind != .indexed { for reason in page.reasons { print("      \(reason.terminalSafe)") } }
        }
        print("\(report.count(.indexed)) indexed, \(report.count(.duplicate)) duplicates, \(report.count(.notIndexable)) not indexable, "
              + "\(report.count(.blockedByRobots)) blocked by robots.txt, \(report.count(.failed)) failed; "
              + "\(report.fetchedPages) fetched, \(report.bytesRead) bytes, \(String(format: "%.1f", report.duration)) s (\(report.stopReason.rawValue))"
              + (dryRun ? "; dry run, nothing stored" : ""))
    }
}

/// The crawl's progress on standard error, when it is a terminal.
final class CrawlProgressLine: Sendable {
    private let maximum: Int
    private let enabled = isatty(2) == 1

    init(maximum: Int) { self.maximum = maximum }

    func update(_ progress: CrawlProgress) {
        guard enabled else { return }
        var address = progress.lastURL.absoluteString
        if address.count > 60 { address = String(address.prefix(57)) + "…" }
        FileHandle.standardError.write(Data("\r\u{1B}[2Kcrawling \(progress.fetchedPages)/\(maximum) pages, \(progress.indexedPages) indexed, \(progress.queuedPages) queued  \(address)".utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
