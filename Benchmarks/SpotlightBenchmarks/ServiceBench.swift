import BenchmarkPhases
import Corpora
import Foundation
import PublicIndex
import SpotlightIndex
import SpotlightSystem
import SpotlightServer
import SpotlightService

/// `spotlight-bench service`: the resident service under load, beside one
/// `spotlight search` process per keystroke, on the same stores in one run.
///
/// Builds (once, kept in the work directory) `--apps` registered apps of
/// `--items-per-app` items each from the Debian corpus (the scaled corpus of
/// the engine benchmark, cut into one slice per app), merges each store's
/// segments into one (as the service's maintenance does to a store left
/// unwritten for five minutes), starts `spotlight serve`
/// on them, and lets `--typists` typists each type the query set's queries
/// one letter at a time at `--rate` keystrokes a second for `--seconds`
/// seconds, every keystroke a `GET /v1/search` over the Unix socket, timed
/// from the keystroke's scheduled moment to the complete JSON answer (a
/// typist who falls behind sends at once: queueing counts). The typing runs
/// twice: with the service searching anew every time (as it runs by default:
/// what the stores cost), and with `--reuse-answers` (a repeated question
/// answered from memory while no store changed). Then, with the service stopped, `--cli-keystrokes` of the same keystrokes each run as a
/// `spotlight search --json --no-service` process, and as a
/// `spotlight search --json` process asking a running service.
///
/// With `--in-process`, no service runs: each keystroke's CPU time in the
/// system search itself (``KeystrokeCosts``), and the `--slowest` keystrokes.
struct ServiceBench {
    var apps = 20
    var itemsPerApp = 50_000
    var typistCounts = [16]
    var rate = 10.0
    var seconds = 60.0
    var cliKeystrokes = 100
    /// `--loads`: which service loads run at each typist count: searching anew, reusing answers, or both.
    var reuseModes: [Bool] = [false, true]
    /// `--over`: how the typists ask: the live socket the search page types over, a `GET` a keystroke, or both.
    var transports: [Transport] = [.live, .http]

    /// How a typist sends keystrokes.
    enum Transport: String, Codable, CaseIterable {
        /// One WebSocket a typist (`/v1/search/live`), as the search page types.
        case live
        /// A connection and a `GET /v1/search` a keystroke, as `spotlight search` asks.
        case http
    }
    var corpusDirectory = Corpora.directory()
    var workDirectory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("openspotlight-service-bench", isDirectory: true)
    var spotlight: URL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("spotlight")
    var jsonFile: URL?
    var inProcess = false
    var slowest = 20
    var inProcessReuse = false
    /// `--cold-caches`: the in-process run empties the processor's caches before each keystroke.
    var coldCaches = false
    /// `--keystrokes FILE`: the in-process run's keystrokes, one a line, instead of the query set's.
    var keystrokeFile: URL?

    static let usage = """
        usage: spotlight-bench service [--apps 20] [--items-per-app 50000] [--typists 16 | 1,4,16] [--rate 10]
                                       [--seconds 60] [--loads anew,reuse] [--over live,http] [--cli-keystrokes 100] [--corpus-dir DIR]
                                       [--work-dir DIR] [--spotlight PATH] [--json FILE]
               spotlight-bench service --in-process [--slowest 20] [--reuse-answers] [--cold-caches] [--keystrokes FILE]
                                       [--apps …] [--items-per-app …] [--work-dir DIR] [--json FILE]
        The stores are built once under --work-dir (default $TMPDIR/openspotlight-service-bench) and reused.
        --over live: the typists type over the live socket (/v1/search/live, as the search page does), one each;
        http: a connection and a GET /v1/search a keystroke (as `spotlight search` asks); both by default.
        --loads anew: only the service searching anew (reuse: only with --reuse-answers); --cli-keystrokes 0:
        no process-per-keystroke rows (an A/B of the default load then costs one load a build).
        --in-process: no service; each keystroke's CPU time in the system search itself, and the slowest;
        with --reuse-answers, the search keeps answers as `spotlight serve --reuse-answers` does;
        --keystrokes FILE: those keystrokes, one a line (a line repeated is searched again), not the query set's;
        --cold-caches: before each keystroke, read through 64 MB (more than the caches hold), as a keystroke
        of a resident service finds them after 10-100 ms of other work on a shared machine.
        """

    static func parse(_ arguments: ArraySlice<String>) throws -> ServiceBench {
        var bench = ServiceBench()
        var remaining = arguments
        func value(_ flag: String) throws -> String {
            guard let value = remaining.popFirst() else { throw BenchError.usage("\(flag) needs a value") }
            return value
        }
        func positive(_ flag: String) throws -> Int {
            guard let number = Int(try value(flag)), number > 0 else { throw BenchError.usage("\(flag) must be a positive integer") }
            return number
        }
        while let flag = remaining.popFirst() {
            switch flag {
            case "--apps": bench.apps = try positive(flag)
            case "--items-per-app": bench.itemsPerApp = try positive(flag)
            case "--typists":
                let counts = try value(flag).split(separator: ",").map { Int($0) }
                guard !counts.isEmpty, counts.allSatisfy({ ($0 ?? 0) > 0 }) else { throw BenchError.usage("--typists takes positive integers, comma-separated") }
                bench.typistCounts = counts.compactMap { $0 }
            case "--rate": bench.rate = Double(try positive(flag))
            case "--seconds": bench.seconds = Double(try positive(flag))
            case "--cli-keystrokes":
                guard let count = Int(try value(flag)), count >= 0 else { throw BenchError.usage("--cli-keystrokes must be 0 or more") }
                bench.cliKeystrokes = count
            case "--loads":
                var loads: [Bool] = []
                for name in try value(flag).split(separator: ",") {
                    switch name {
                    case "anew": loads.append(false)
                    case "reuse": loads.append(true)
                    default: throw BenchError.usage("--loads takes anew, reuse or anew,reuse, not \(name)")
                    }
                }
                guard !loads.isEmpty else { throw BenchError.usage("--loads takes anew, reuse or anew,reuse") }
                bench.reuseModes = loads
            case "--over":
                let names = try value(flag).split(separator: ",")
                let transports = names.compactMap { Transport(rawValue: String($0)) }
                guard !transports.isEmpty, transports.count == names.count else { throw BenchError.usage("--over takes live, http or live,http") }
                bench.transports = transports
            case "--corpus-dir": bench.corpusDirectory = URL(fileURLWithPath: try value(flag), isDirectory: true)
            case "--work-dir": bench.workDirectory = URL(fileURLWithPath: try value(flag), isDirectory: true)
            case "--spotlight": bench.spotlight = URL(fileURLWithPath: try value(flag))
            case "--json": bench.jsonFile = URL(fileURLWithPath: try value(flag))
            case "--in-process": bench.inProcess = true
            case "--slowest": bench.slowest = try positive(flag)
            case "--reuse-answers": bench.inProcessReuse = true
            case "--cold-caches": bench.coldCaches = true
            case "--keystrokes": bench.keystrokeFile = URL(fileURLWithPath: try value(flag))
            case "--help", "-h": throw BenchError.usage("")
            default: throw BenchError.usage("unknown option \(flag)")
            }
        }
        return bench
    }

    var stores: URL { workDirectory.appendingPathComponent("stores-\(apps)x\(itemsPerApp)", isDirectory: true) }
    var runtime: URL { workDirectory.appendingPathComponent("run", isDirectory: true) }

    func run() throws {
        if inProcess {
            try buildStores()
            let keystrokes = try keystrokeFile.map(Self.keystrokes(inFile:)) ?? Self.keystrokes(from: corpusDirectory)
            let report = try KeystrokeCosts(stores: stores, keystrokes: keystrokes, slowest: slowest,
                                        reusesAnswers: inProcessReuse, coldCaches: coldCaches).run()
            print(report.table)
            try jsonFile.map { try Self.write(report, to: $0) }
            return
        }
        guard FileManager.default.isExecutableFile(atPath: spotlight.path) else {
            throw BenchError.failed("no spotlight binary at \(spotlight.path); build it (swift build -c release) or pass --spotlight")
        }
        try buildStores()
        let keystrokes = try Self.keystrokes(from: corpusDirectory)
        log("\(grouped(keystrokes.count)) distinct keystrokes from \(QuerySet.fileName)")

        let client = ServiceClient(paths: ServicePaths(directory: runtime), timeout: 60)
        var loads: [ServiceBenchReport.Load] = []
        var serviceRSS = 0
        for typists in typistCounts {
            // Every search made anew (what the stores cost, the default), then with
            // --reuse-answers (a repeated question answered from memory while no store changed).
            for reuse in reuseModes {
                let service = try ServiceProcess(spotlight: spotlight, stores: stores, runtime: runtime, extra: reuse ? ["--reuse-answers"] : [])
                _ = try client.search("warm")
                try warmUp(client: client, keystrokes: keystrokes)
                for transport in transports {
                    log((reuse ? "the service with --reuse-answers (answers reused while no store changed)" : "the service searching anew every time")
                        + (transport == .live ? ", typed over the live socket:" : ", a GET a keystroke:"))
                    let typed = try typeAlong(client: client, keystrokes: keystrokes, typists: typists, over: transport)
                    let searched = typed.searchTimes.filter { !$0.isNaN }
                    loads.append(.init(typists: typists, reusesAnswers: reuse, over: transport, failed: typed.failed,
                                       latency: .init(samples: typed.latencies, count: typed.latencies.count, nonEmpty: typed.nonEmpty,
                                                      meanResults: typed.meanResults),
                                       searchTime: .init(samples: searched, count: searched.count, nonEmpty: typed.nonEmpty,
                                                         meanResults: typed.meanResults),
                                       slowestPercent: typed.slowestPercent))
                }
                serviceRSS = max(serviceRSS, service.peakResidentKilobytes())
                service.stop()
            }
        }
        var report = ServiceBenchReport(apps: apps, itemsPerApp: itemsPerApp, rate: rate, seconds: seconds, loads: loads,
                                        serviceRSSKilobytes: serviceRSS)
        if cliKeystrokes > 0 {
            let service = try ServiceProcess(spotlight: spotlight, stores: stores, runtime: runtime, extra: [])
            _ = try client.search("warm")
            try warmUp(client: client, keystrokes: keystrokes)
            let viaCLI = try cliSearches(Array(keystrokes.prefix(cliKeystrokes)), extra: [])
            service.stop()
            let direct = try cliSearches(Array(keystrokes.prefix(cliKeystrokes)), extra: ["--no-service"])
            report.processViaService = .init(samples: viaCLI.latencies, count: viaCLI.latencies.count, nonEmpty: viaCLI.nonEmpty,
                                             meanResults: viaCLI.meanResults)
            report.processDirect = .init(samples: direct.latencies, count: direct.latencies.count, nonEmpty: direct.nonEmpty,
                                         meanResults: direct.meanResults)
            report.processDirectRSSKilobytes = direct.peakKilobytes
        }
        print(report.table)
        try jsonFile.map { try Self.write(report, to: $0) }
    }

    /// Every figure as JSON, for programs.
    static func write(_ report: some Encodable, to file: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(report).write(to: file)
    }

    /// Registers the apps and indexes their slices, once.
    func buildStores() throws {
        let done = stores.appendingPathComponent(".complete")
        if FileManager.default.fileExists(atPath: done.path) {
            log("reusing the stores in \(stores.path)")
            return try mergeSegments()
        }
        try? FileManager.default.removeItem(at: stores)
        try FileManager.default.createDirectory(at: stores, withIntermediateDirectories: true)
        let base = try DebianCorpus.load(from: corpusDirectory, limit: DebianCorpus.packageCount)
        let corpus = ScaledCorpus(base: base, count: apps * itemsPerApp)
        let registry = AppRegistry(location: .directory(stores))
        let started = Date()
        for app in 0..<apps {
            let bundle = String(format: "org.openspotlight.bench.app%02d", app)
            try registry.register(AppRegistration(bundleIdentifier: bundle, displayName: String(format: "Bench %02d", app),
                                                  launchCommand: ["/bin/true"]))
            var options = StoreOptions()
            options.checksIntegrityOnOpen = false
            let store = try SpotlightStore(bundleIdentifier: bundle, location: .directory(stores), options: options)
            var next = app * itemsPerApp
            let end = next + itemsPerApp
            while next < end {
                let upper = min(end, next + 5_000)
                _ = try store.index(corpus.packages(next..<upper).map(EngineStore.item))
                next = upper
            }
            try store.finishMerging()
            log("indexed \(bundle): \(grouped(itemsPerApp)) items (\(Int(Date().timeIntervalSince(started))) s so far)")
        }
        _ = FileManager.default.createFile(atPath: done.path, contents: Data())
        try mergeSegments()
    }

    /// Each store's segments merged into one, as the service's maintenance
    /// leaves a store that has not been written for five minutes: the
    /// steady state a person types into, not the minutes after a bulk index.
    func mergeSegments() throws {
        let started = Date()
        let merged = try IndexMaintenance(registry: AppRegistry(location: .directory(stores))).mergeStores()
        guard !merged.isEmpty else { return }
        log("merged the segments of \(merged.count) stores into one each (\(Int(Date().timeIntervalSince(started))) s)")
    }

    /// Every keystroke searched once, before a load is measured, at a number of
    /// results per app no typist asks for (so no answer is reused from it): a
    /// resident service is measured as it runs for hours, with its stores' pages,
    /// readers and statements warm, not in its first minute.
    func warmUp(client: ServiceClient, keystrokes: [String]) throws {
        log("warming up: every keystroke once (\(grouped(keystrokes.count)) searches, 4 clients, not measured)…")
        let next = Locked(0)
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                while true {
                    let index = next.withLock { value -> Int in
                        defer { value += 1 }
                        return value
                    }
                    guard index < keystrokes.count else { break }
                    _ = try? client.search(keystrokes[index], resultsPerApp: 4, webResults: 0)
                }
                group.leave()
            }
        }
        group.wait()
        // The typists count results without decoding (``resultCount(_:)``): the count must be the decoder's.
        for text in keystrokes.prefix(20) {
            let answer = try client.request("GET", Self.searchPath(text))
            let decoded = try answer.decode(API.SearchResponse.self).groups.reduce(0) { $0 + $1.results.count }
            guard Self.resultCount(answer.body) == decoded else {
                throw BenchError.failed("counting \"reference\" keys found \(Self.resultCount(answer.body)) results for \(text.debugDescription), decoding \(decoded)")
            }
        }
    }

    /// Every prefix of the word, prefix and multi-word queries: what typists type.
    static func keystrokes(from directory: URL) throws -> [String] {
        var seen = Set<String>(), typed: [String] = []
        for query in try QuerySet.load(from: directory) where [.word, .prefix, .multi].contains(query.kind) {
            let text = query.text.trimmingCharacters(in: .whitespaces)
            for length in 1...text.count {
                let prefix = String(text.prefix(length))
                if !prefix.hasSuffix(" "), seen.insert(prefix).inserted { typed.append(prefix) }
            }
        }
        return typed
    }

    /// The keystrokes of a file, one a line, in order (blank lines left out).
    static func keystrokes(inFile file: URL) throws -> [String] {
        let lines = try String(contentsOf: file, encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
        let typed = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        guard !typed.isEmpty else { throw BenchError.usage("\(file.path) has no keystrokes") }
        return typed
    }

    struct Measured {
        var latencies: [Double] = []
        /// The service's own time for each search (`tookMilliseconds`; NaN
        /// when an answer lacks it), one a latency: the rest of a latency
        /// is the connection, HTTP or the socket, JSON and waiting.
        var searchTimes: [Double] = []

        /// The mean latency and mean search time of the slowest 1% of
        /// keystrokes: how much of the tail is the search itself.
        var slowestPercent: ServiceBenchReport.Tail {
            let slowest = latencies.indices.sorted { latencies[$0] > latencies[$1] }.prefix(max(1, latencies.count / 100))
            let searched = slowest.map { searchTimes[$0] }.filter { !$0.isNaN }
            return .init(latency: slowest.reduce(0) { $0 + latencies[$1] } / Double(max(1, slowest.count)),
                         search: searched.reduce(0, +) / Double(max(1, searched.count)))
        }
        var failed = 0
        var nonEmpty = 0
        var meanResults = 0.0
        var peakKilobytes = 0
    }

    /// The typists, each on a thread of its own, open loop.
    func typeAlong(client: ServiceClient, keystrokes: [String], typists: Int, over transport: Transport) throws -> Measured {
        let perTypist = Int(rate * seconds)
        let interval = 1 / rate
        let results = Locked([Measured](repeating: Measured(), count: typists))
        let group = DispatchGroup()
        // Each keystroke's text as a JSON string, for the live socket's messages.
        let quoted = try keystrokes.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        let sockets = try (0..<typists).map { _ in transport == .live ? try LiveSocket(client) : nil }
        let start = Date().addingTimeInterval(0.2)
        log("\(typists) typists × \(Int(rate)) keystrokes/s × \(Int(seconds)) s = \(grouped(typists * perTypist)) searches…")
        for typist in 0..<typists {
            group.enter()
            let live = sockets[typist]
            Thread.detachNewThread {
                var measured = Measured()
                var resultCount = 0
                for index in 0..<perTypist {
                    let due = start.addingTimeInterval(Double(index) * interval + Double(typist) * interval / Double(typists))
                    let wait = due.timeIntervalSinceNow
                    if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                    let keystroke = (typist * 97 + index) % keystrokes.count
                    do {
                        let body: Data
                        if let live {
                            try live.send(#"{"id":\#(index),"q":\#(quoted[keystroke]),"perApp":3,"web":0}"#)
                            body = Data(try live.receive())
                            measured.latencies.append(-due.timeIntervalSinceNow * 1_000)
                            guard body.starts(with: Array(#"{"id":\#(index),"results":"#.utf8)) else {
                                throw BenchError.failed("the live socket answered \(String(decoding: body.prefix(200), as: UTF8.self))")
                            }
                        } else {
                            let answer = try client.request("GET", Self.searchPath(keystrokes[keystroke]))
                            measured.latencies.append(-due.timeIntervalSinceNow * 1_000)
                            guard answer.status == 200 else { throw BenchError.failed("the service answered \(answer.status)") }
                            body = answer.body
                        }
                        let count = Self.resultCount(body)
                        measured.searchTimes.append(Self.tookMilliseconds(body) ?? .nan)
                        resultCount += count
                        if count > 0 { measured.nonEmpty += 1 }
                    } catch {
                        measured.failed += 1
                        if measured.failed <= 2 { log("typist \(typist), keystroke \(index): \(error)") }
                    }
                }
                measured.meanResults = Double(resultCount) / Double(max(1, measured.latencies.count))
                results.withLock { $0[typist] = measured }
                group.leave()
            }
        }
        group.wait()
        let all = results.withLock { $0 }
        var merged = Measured()
        merged.latencies = all.flatMap(\.latencies)
        merged.searchTimes = all.flatMap(\.searchTimes)
        merged.failed = all.reduce(0) { $0 + $1.failed }
        merged.nonEmpty = all.reduce(0) { $0 + $1.nonEmpty }
        merged.meanResults = all.reduce(0) { $0 + $1.meanResults } / Double(typists)
        return merged
    }

    /// `GET /v1/search` as the typists ask it: 3 results per app, no web results.
    static func searchPath(_ text: String) -> String {
        "/v1/search?q=\(text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text)&perApp=3&web=0"
    }

    /// The results in a `/v1/search` body, counted without decoding it: each
    /// result, and nothing else in the answer, has a `reference` key (a
    /// string holding that text would carry escaped quotes). A typist's
    /// latency ends with the complete body; decoding 25 KB with
    /// `JSONDecoder` took the typists a tenth of the two cores the service
    /// is measured on.
    static func resultCount(_ body: Data) -> Int {
        let key = Array(#""reference":"#.utf8)
        return body.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var count = 0, index = 0
            while index + key.count <= bytes.count {
                if bytes[index] == key[0], key.indices.allSatisfy({ bytes[index + $0] == key[$0] }) {
                    count += 1
                    index += key.count
                } else {
                    index += 1
                }
            }
            return count
        }
    }

    /// The body's `tookMilliseconds` (the service's own time for the
    /// search), read without decoding the body: its key is near the end.
    static func tookMilliseconds(_ body: Data) -> Double? {
        guard let key = body.range(of: Data(#""tookMilliseconds":"#.utf8), options: .backwards) else { return nil }
        let digits = body[key.upperBound...].prefix { $0 == UInt8(ascii: ".") || (48...57).contains($0) }
        return Double(String(decoding: digits, as: UTF8.self))
    }

    /// One `spotlight search --json` process per keystroke, one after another.
    func cliSearches(_ keystrokes: [String], extra: [String]) throws -> Measured {
        var measured = Measured()
        var total = 0
        log("\(keystrokes.count) keystrokes as spotlight search \(extra.joined(separator: " ")) processes (after 5 not measured)…")
        var environment = ProcessInfo.processInfo.environment
        environment["OPENSPOTLIGHT_HOME"] = stores.path
        environment[ServicePaths.directoryVariable] = runtime.path
        let variables = environment.map { "\($0.key)=\($0.value)" }
        let outputFile = workDirectory.appendingPathComponent("search-output.json")
        // The first processes bring the stores' files back into the page cache (a service
        // that stopped may have dropped them): what a process per keystroke costs, not a cold disk.
        for (index, text) in (Array(keystrokes.prefix(5)) + keystrokes).enumerated() {
            let measuring = index >= 5
            // posix_spawn, not Foundation's Process: that took ~50 ms a spawn here, as long as what it timed.
            let started = Date()
            let (status, peak) = try LocalCluster.spawnAndMeasure([spotlight.path, "search", "--json"] + extra + [text], environment: variables,
                                                                  output: outputFile.path, errors: "/dev/null")
            let elapsed = Date().timeIntervalSince(started) * 1_000
            guard measuring else { continue }
            measured.latencies.append(elapsed)
            measured.peakKilobytes = max(measured.peakKilobytes, peak)
            guard status == 0, let data = try? Data(contentsOf: outputFile),
                  let found = try? JSONDecoder().decode(API.SearchResponse.self, from: data) else {
                measured.failed += 1
                continue
            }
            let count = found.groups.reduce(0) { $0 + $1.results.count }
            total += count
            if count > 0 { measured.nonEmpty += 1 }
        }
        measured.meanResults = Double(total) / Double(max(1, keystrokes.count))
        return measured
    }
}

/// A lock around a value, for the typists' results.
final class Locked<Value>: @unchecked Sendable { // @unchecked: every access holds the lock
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// `spotlight serve` on the benchmark's stores.
final class ServiceProcess {
    let process = Process()

    init(spotlight: URL, stores: URL, runtime: URL, extra: [String]) throws {
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        process.executableURL = spotlight
        process.arguments = ["serve", "--no-gnome-provider", "--maintenance-every", "0"] + extra
        var environment = ProcessInfo.processInfo.environment
        environment["OPENSPOTLIGHT_HOME"] = stores.path
        environment[ServicePaths.directoryVariable] = runtime.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let client = ServiceClient(paths: ServicePaths(directory: runtime), timeout: 1)
        for _ in 0..<600 where !client.isRunning() {
            guard process.isRunning else { throw BenchError.failed("spotlight serve exited with status \(process.terminationStatus)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard client.isRunning() else { throw BenchError.failed("spotlight serve did not start") }
    }

    /// The service's peak resident memory (`VmHWM`), in kilobytes.
    func peakResidentKilobytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// What `spotlight-bench service` measured.
struct ServiceBenchReport: Codable {
    /// One load: so many typists, the service reusing answers or not.
    struct Load: Codable {
        var typists: Int
        var reusesAnswers: Bool
        /// How the typists asked.
        var over: ServiceBench.Transport
        var failed: Int
        var latency: LatencyStats
        /// The service's own time for each search (`tookMilliseconds`), beside the latency.
        var searchTime: LatencyStats?
        /// The slowest 1% of keystrokes: their mean latency and mean search time.
        var slowestPercent: Tail?
    }

    /// Means over the slowest keystrokes.
    struct Tail: Codable {
        var latency: Double
        var search: Double
    }

    var apps: Int
    var itemsPerApp: Int
    var rate: Double
    var seconds: Double
    var loads: [Load]
    var serviceRSSKilobytes: Int
    /// The process-per-keystroke rows; nil with `--cli-keystrokes 0`.
    var processViaService: LatencyStats?
    var processDirect: LatencyStats?
    var processDirectRSSKilobytes: Int?

    var table: String {
        func row(_ name: String, _ stats: LatencyStats, _ memory: String) -> String {
            name.padding(toLength: 50, withPad: " ", startingAt: 0)
                + String(format: "%9.2f %9.2f %9.2f %9d   %@", stats.p50, stats.p99, stats.max, stats.samples, memory)
        }
        func ratio(_ a: Double, _ b: Double) -> String { a >= b ? String(format: "×%.1f", a / max(b, 0.001)) : String(format: "÷%.1f", b / max(a, 0.001)) }
        var lines = ["\(apps) apps × \(grouped(itemsPerApp)) items = \(grouped(apps * itemsPerApp)) items; typists at \(Int(rate)) keystrokes/s for \(Int(seconds)) s each",
                     "keystroke → complete JSON (ms)".padding(toLength: 50, withPad: " ", startingAt: 0) + "      p50       p99       max   samples   peak RSS"]
        for load in loads {
            lines.append(row("service, \(load.typists) typist\(load.typists == 1 ? "" : "s"), \(load.reusesAnswers ? "--reuse-answers" : "anew"), \(load.over == .live ? "live socket" : "GET each")",
                             load.latency, load.failed == 0 ? "" : "\(load.failed) failed"))
            if let searchTime = load.searchTime, searchTime.samples > 0 { lines.append(row("  of which the search itself (tookMilliseconds)", searchTime, "")) }
            if let tail = load.slowestPercent {
                lines.append(String(format: "  the slowest 1%%: mean %.2f ms, of which the search itself %.2f ms", tail.latency, tail.search))
            }
        }
        if let processViaService { lines.append(row("spotlight search process (asks the service)", processViaService, "")) }
        if let processDirect {
            lines.append(row("spotlight search process (--no-service)", processDirect, "\((processDirectRSSKilobytes ?? 0) / 1024) MB (one process)"))
        }
        lines.append("the service's peak RSS: \(serviceRSSKilobytes / 1024) MB; failed: \(loads.reduce(0) { $0 + $1.failed }) of \(loads.reduce(0) { $0 + $1.latency.samples + $1.failed }) service searches")
        for load in loads {
            guard let processDirect else { break }
            lines.append("process per keystroke (--no-service) / service (\(load.typists) typists, \(load.reusesAnswers ? "reusing" : "anew"), \(load.over.rawValue)): p50 \(ratio(processDirect.p50, load.latency.p50)), p99 \(ratio(processDirect.p99, load.latency.p99))")
        }
        return lines.joined(separator: "\n")
    }
}
