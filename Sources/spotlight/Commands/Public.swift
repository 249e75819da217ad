import ArgumentParser
import Foundation
import PublicIndex
import PublicIndexProtocol
import PublicIndexService
import SpotlightCrawler
import SpotlightIndex
import SpotlightService

/// `spotlight public …`: the public index — the service, and this device's part in it.
struct Public: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "public",
        abstract: "The public index: activities enough people used, and crawled pages, searchable by everyone.",
        discussion: """
            An activity marked isEligibleForPublicIndexing is donated as a hash only, with a \
            random token of this device; once enough distinct devices donated it (10 by \
            default) the service asks for its public fields. Devices take part only after an \
            explicit opt-in:  spotlight public device --enable http://127.0.0.1:8780

            Run the service:  spotlight public serve   (its own PostgreSQL, or --postgres URL)
            """,
        subcommands: [PublicServe.self, PublicStatus.self, PublicSearch.self, PublicDevice.self, PublicSend.self, PublicCrawl.self]
    )
}

/// Where the service keeps its secret (and its own cluster).
enum PublicData {
    static func directory(_ given: String?) -> URL {
        if let given { return URL(fileURLWithPath: given, isDirectory: true) }
        let environment = ProcessInfo.processInfo.environment
        if let home = environment["OPENSPOTLIGHT_PUBLIC_HOME"], !home.isEmpty { return URL(fileURLWithPath: home, isDirectory: true) }
        // As root, a system directory the cluster's own user can reach (root's home is closed to it).
        if geteuid() == 0 { return URL(fileURLWithPath: "/var/lib/openspotlight/public", isDirectory: true) }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("openspotlight-public", isDirectory: true)
        }
        return URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".local/share/openspotlight-public", isDirectory: true)
    }

    /// The service's URL: the option, else this device's setting, else the default local one.
    static func serviceURL(_ given: String?) throws -> URL {
        if let given {
            guard let url = URL(string: given), PublicActivityContent.isWebURL(url) else { throw ValidationError("--url \(given.debugDescription) is not an http(s) URL") }
            return url
        }
        return PublicIndexSettings.load().serviceURL ?? URL(string: "http://127.0.0.1:8780")!
    }

    /// The coordinator: the URL given, or the data directory's own cluster (started if needed).
    /// Returns the cluster when this call started it, for the caller to stop.
    static func coordinator(postgres: String?, data: URL) throws -> (PostgresURL, LocalCluster?) {
        if let postgres { return (try PostgresURL(postgres), nil) }
        let cluster = try LocalCluster(directory: data.appendingPathComponent("postgres", isDirectory: true))
        if cluster.isRunning { return (cluster.url, nil) }
        FileHandle.standardError.write(Data("starting PostgreSQL under \(cluster.directory.path) on 127.0.0.1:\(cluster.port)…\n".utf8))
        try cluster.start()
        return (cluster.url, cluster)
    }
}

/// `spotlight public serve`.
struct PublicServe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the public index service (HTTP API on Hummingbird) until Ctrl-C.",
        discussion: """
            Without --postgres it runs a PostgreSQL cluster of its own under --data (Debian's \
            initdb and pg_ctl; as root, as the system user openspotlight). With --shard, the \
            tables' partitions live on those servers, reached from the coordinator through \
            postgres_fdw; the layout is fixed when the index is created.

            Example:
              spotlight public serve
              spotlight public serve --postgres postgres://spotlight:pw@db1/public_index \\
                  --shard postgres://spotlight:pw@db2/public_index --shard postgres://spotlight:pw@db3/public_index
            """
    )

    @Option(help: "The service's directory: its secret and, without --postgres, its PostgreSQL cluster.")
    var data: String?

    @Option(help: "The coordinator's URL (postgres://user:password@host:port/database).")
    var postgres: String?

    @Option(help: "A shard's URL, as the coordinator reaches it (repeat for each).")
    var shard: [String] = []

    @Option(help: "Hash partitions per table (fixed once created).")
    var partitions = 8

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8780

    @Option(help: "Distinct devices before an activity's content is asked for.")
    var threshold = 10

    func validate() throws {
        guard threshold >= 1 else { throw ValidationError("--threshold must be 1 or more") }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard (1...1_024).contains(partitions) else { throw ValidationError("--partitions must be 1 to 1024") }
    }

    func run() async throws {
        let directory = PublicData.directory(data)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let secret = try ServerSecret(loadingOrCreatingAt: directory.appendingPathComponent("secret"))
            let (coordinator, cluster) = try PublicData.coordinator(postgres: postgres, data: directory)
            defer { try? cluster?.stop() }
            let layout = PublicIndexLayout(partitions: partitions, shardURLs: try shard.map(PostgresURL.init))
            let index = PublicIndex(coordinator: coordinator, layout: layout, secret: secret, configuration: .init(threshold: threshold))
            let server = PublicIndexServer(index: index, secret: secret, host: host, port: port)
            let host = self.host
            let shards = layout.shards.count
            try await server.run { bound in
                // Written at once (print is buffered when the output is not a terminal).
                FileHandle.standardOutput.write(Data(("public index serving on http://\(host):\(bound) — PostgreSQL \(coordinator.address)"
                    + (shards > 0 ? " with \(shards) shards" : "") + "; threshold \(index.configuration.threshold); Ctrl-C stops it\n").utf8))
            }
        } catch let error as PublicIndexError {
            Output.fail(error.message)
        }
    }
}

/// `spotlight public status`.
struct PublicStatus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the public index's counts, layout and shards.",
        discussion: "Example:\n  spotlight public status --json"
    )

    @Option(help: "The service (default: this device's setting, else http://127.0.0.1:8780).")
    var url: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let client = PublicIndexClient(serviceURL: try PublicData.serviceURL(url))
        let status: PublicIndexStatus
        do { status = try await client.status() } catch { Output.fail("\(error)") }
        if json { return print(try Output.json(encoding: status)) }
        print("public index at \(client.serviceURL.absoluteString) (schema \(status.schemaVersion), threshold \(status.threshold) devices)")
        print("  \(status.activities) public activities, \(status.pages) pages; \(status.countedHashes) hashes counted, \(status.wantedHashes) waiting for their content")
        if status.shards.isEmpty {
            print("  \(status.partitions) partitions on one node")
        } else {
            for shard in status.shards {
                print("  \(shard.name) \(shard.address): partitions \(shard.partitions.map(String.init).joined(separator: ", "))\(shard.reachable ? "" : " — NOT ANSWERING")")
            }
        }
        if !status.complete { print("  (counts leave out the shards that did not answer)") }
    }
}

/// `spotlight public search TEXT`.
struct PublicSearch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search the public index (what anyone can find).",
        discussion: "Example:\n  spotlight public search \"tarte tatin\" --limit 5"
    )

    @Option(help: "The service (default: this device's setting, else http://127.0.0.1:8780).")
    var url: String?

    @Option(help: "At most this many results (1 to 50).")
    var limit = 10

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Argument(help: "What to search for.")
    var text: String

    func validate() throws {
        guard (1...50).contains(limit) else { throw ValidationError("--limit must be 1 to 50") }
    }

    func run() async throws {
        let client = PublicIndexClient(serviceURL: try PublicData.serviceURL(url))
        let found: PublicSearchResponse
        do { found = try await client.search(text, limit: limit) } catch { Output.fail("\(error)") }
        if json { return print(try Output.json(encoding: found)) }
        if found.partial { print("(partial: \(found.missingShards.joined(separator: ", ")) did not answer)") }
        if found.results.isEmpty { return print("no public results for \"\(text)\"") }
        for hit in found.results {
            // Public text is anyone's: shown escaped (see TerminalText).
            print("\(hit.title.terminalSafe)\(hit.description.map { " — \($0.terminalSafe)" } ?? "")")
            if let url = hit.url { print("  \(url.absoluteString.terminalSafe)") }
            let opener = (hit.app.map { "app \($0)" } ?? hit.deepLinks.first.map { "\($0.source) \($0.appStoreID.map { "app-id \($0)" } ?? $0.url)" } ?? "the web").terminalSafe
            print("  \(hit.kind.rawValue), \(hit.kind == .activity ? "\(hit.users) devices, " : "")opens in \(opener); score \(String(format: "%.3f", hit.score))")
        }
    }
}

/// `spotlight public device`.
struct PublicDevice: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Show or change this device's part in the public index (off until you turn it on).",
        discussion: """
            --enable URL turns it on: activities marked isEligibleForPublicIndexing are then \
            donated as hashes with this device's random token, and system search shows public \
            results under the device's own. --disable turns it off and forgets the donations \
            not yet sent. --reset-token makes a new token (the index counts a new device).

            Example:
              spotlight public device --enable http://127.0.0.1:8780
            """
    )

    @Option(help: "Turn public indexing on, with this service.")
    var enable: String?

    @Flag(help: "Turn it off and forget the donations waiting.")
    var disable = false

    @Flag(name: .customLong("reset-token"), help: "Make a new anonymous token.")
    var resetToken = false

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        if enable != nil && disable { throw ValidationError("--enable and --disable exclude each other") }
        if let enable, URL(string: enable).map(PublicActivityContent.isWebURL) != true {
            throw ValidationError("--enable \(enable.debugDescription) is not an http(s) URL")
        }
    }

    func run() throws {
        var settings = PublicIndexSettings.load()
        var forgotten = 0
        if let enable, let url = URL(string: enable) { settings.enable(serviceURL: url) }
        if resetToken { settings.resetToken() }
        if disable {
            settings.isEnabled = false
            forgotten = Output.guarded { try Self.forgetOutboxes() }
        }
        if enable != nil || disable || resetToken { Output.guarded { try settings.save() } }
        let waiting = Output.guarded { try Self.waiting() }
        if json {
            return print(try Output.json(["enabled": settings.isEnabled, "serviceURL": settings.serviceURL?.absoluteString as Any,
                                          "hasToken": settings.token != nil, "waiting": waiting, "forgotten": forgotten]))
        }
        print(settings.isEnabled ? "public indexing is on: \(settings.serviceURL?.absoluteString ?? "")" : "public indexing is off")
        print("  \(waiting) donations waiting to be sent" + (forgotten > 0 ? "; \(forgotten) forgotten" : ""))
    }

    static func apps() -> [UserActivityStore] {
        let root = StoreLocation.automaticRoot()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && UserActivityStore.exists(bundleIdentifier: $0) }.compactMap { try? UserActivityStore(bundleIdentifier: $0) }
    }

    static func waiting() throws -> Int { try apps().reduce(0) { $0 + (try $1.publicDonationCount()) } }

    static func forgetOutboxes() throws -> Int {
        var count = 0
        for store in apps() {
            count += try store.publicDonationCount()
            try store.removeAllPublicDonations()
        }
        return count
    }
}

/// `spotlight public send`.
struct PublicSend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Deliver this device's waiting donations to the public index now.",
        discussion: "A donation leaves its outbox only once the index answered for it; the others wait for the next try."
    )

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let report: PublicIndexSender.Report
        do { report = try await PublicIndexSender().deliver() } catch { Output.fail("\(error)") }
        if json { return print(try Output.json(encoding: report)) }
        print("\(report.counted) donations counted, \(report.contentSent) contents sent, \(report.deferred) deferred, \(report.waiting) waiting")
        for problem in report.problems { print("  \(problem.terminalSafe)") }
        for dropped in report.dropped { print("  dropped: \(dropped.terminalSafe)") }
    }
}

/// `spotlight public crawl`.
struct PublicCrawl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crawl",
        abstract: "Crawl a site politely into the public index (instead of this device's web store).",
        discussion: """
            Pages are stored with their host as their site; crawling again removes the pages \
            now gone (404, 410) or marked noindex.

            Example:
              spotlight public crawl https://shop.example.com/ --max-pages 50
            """
    )

    @Option(help: "The service's directory (its own PostgreSQL), when --postgres is not given.")
    var data: String?

    @Option(help: "The coordinator's URL.")
    var postgres: String?

    @Option(name: .customLong("max-pages"), help: "Fetch at most this many pages.")
    var maxPages = 100

    @Option(help: "Seconds between two requests to a host.")
    var delay: Double = 0.25

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Argument(help: "Where to start (http or https).")
    var urls: [String]

    func validate() throws {
        guard maxPages >= 1, delay >= 0 else { throw ValidationError("--max-pages must be positive and --delay not negative") }
        for url in urls where URL(string: url).map(PublicActivityContent.isWebURL) != true {
            throw ValidationError("\(url.debugDescription) is not an http(s) address")
        }
    }

    func run() async throws {
        var configuration = CrawlConfiguration()
        configuration.maximumPages = maxPages
        configuration.minimumDelay = delay
        do {
            let (coordinator, cluster) = try PublicData.coordinator(postgres: postgres, data: PublicData.directory(data))
            defer { try? cluster?.stop() }
            // Pages need no secret: a throwaway one (donations are the service's business).
            let index = PublicIndex(coordinator: coordinator, secret: ServerSecret(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) }))
            let settings = configuration
            let report = try await index.withRunning {
                guard try await index.recordedSchemaVersion() > 0 else {
                    throw PublicIndexError(.configuration, "\(coordinator.address) holds no public index yet; start it once with spotlight public serve")
                }
                return try await Crawler(configuration: settings, destination: PublicIndexCrawlDestination(index: index))
                    .crawl(from: urls.compactMap(URL.init(string:)))
            }
            if json { return print(try Output.json(encoding: report)) }
            print("\(report.count(.indexed)) pages in the public index, \(report.count(.notIndexable)) not indexable, \(report.count(.failed)) failed; "
                  + "\(report.fetchedPages) fetched (\(report.stopReason.rawValue))")
        } catch let error as PublicIndexError {
            Output.fail(error.message)
        }
    }
}
