import Foundation

// spotlight-public-bench: the public index under load, on a coordinator with
// two shards beside one node (throwaway PostgreSQL clusters on loopback).
// See BENCHMARKS.md for the method; run in release.

struct Report: Codable {
    var options: [String: String]
    var load: [LoadPhase.Result] = []
    var search: [SearchPhase.Result] = []
}

func ratio(_ a: Double, _ b: Double) -> String { b == 0 ? "—" : String(format: "%.2f×", a / b) }

func runBenchmark() async throws {
    let options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
    try? FileManager.default.removeItem(at: options.directory)
    try FileManager.default.createDirectory(at: options.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    Console.line("starting clusters under \(options.directory.path)…")
    let deployments = [
        try Deployment(name: "sharded", shards: 2, threshold: options.threshold, directory: options.directory),
        try Deployment(name: "one node", shards: 0, threshold: options.threshold, directory: options.directory),
    ]
    var bases: [URL] = []
    for deployment in deployments { bases.append(try await deployment.start()) }
    var report = Report(options: [
        "devices": "\(options.devices)", "donations": "\(options.donations)", "activities": "\(options.activities)",
        "zipf": "\(options.zipf)", "threshold": "\(options.threshold)", "items": "\(options.items)",
        "concurrency": "\(options.concurrency)", "rounds": "\(options.rounds)",
    ])
    do {
        if options.phases.contains("load") {
            let load = LoadPhase(options: options)
            let plan = load.plan()
            Console.line("plan: \(options.donations) donations by \(options.devices) devices over \(options.activities) activities (Zipf \(options.zipf)); "
                         + "\(plan.expectedUsers.filter { Int($0) >= options.threshold }.count) must cross the threshold of \(options.threshold)")
            for (deployment, base) in zip(deployments, bases) {
                report.load.append(try await load.run(deployment, base: base, plan: plan))
            }
        }
        if options.phases.contains("search") {
            let search = SearchPhase(options: options)
            let corpus = try CorpusEntry.load(from: options.corpusDirectory)
            let queries = try search.queries()
            for (deployment, base) in zip(deployments, bases) {
                let seconds = try await search.load(deployment, corpus: corpus)
                let bytes = try deployment.storageBytes(tables: ["items"])
                let (latency, partial) = try await search.measure(deployment, base: base, queries: queries)
                report.search.append(SearchPhase.Result(deployment: deployment.name, items: options.items, loadSeconds: seconds,
                                                        bytesPerItem: Double(bytes) / Double(options.items), latency: latency, partialAnswers: partial))
            }
        }
    } catch {
        for deployment in deployments { await deployment.stop() }
        throw error
    }
    for deployment in deployments { await deployment.stop() }
    try? FileManager.default.removeItem(at: options.directory)

    if report.load.count == 2 {
        let (s, o) = (report.load[0], report.load[1])
        print("| load (\(options.donations) donations, \(options.devices) devices, \(options.activities) activities) | sharded | one node | sharded / one node |")
        print("| --- | ---: | ---: | ---: |")
        print("| donations/s | \(Int(s.donationsPerSecond)) | \(Int(o.donationsPerSecond)) | \(ratio(s.donationsPerSecond, o.donationsPerSecond)) |")
        print("| crossed the threshold (expected \(s.expectedCrossed)) | \(s.crossed) | \(o.crossed) | |")
        print("| public activities stored | \(s.publicActivities) | \(o.publicActivities) | |")
        print("| views counted (donations) | \(s.views) | \(o.views) | |")
        print("| bytes per counted activity (donors, tallies, ids) | \(Int(s.bytesPerCountedActivity)) | \(Int(o.bytesPerCountedActivity)) | \(ratio(s.bytesPerCountedActivity, o.bytesPerCountedActivity)) |")
        print("| bytes per public activity (items) | \(Int(s.bytesPerPublicActivity)) | \(Int(o.bytesPerPublicActivity)) | |")
        print("| HTTP requests (retries) | \(s.requests) (\(s.retries)) | \(o.requests) (\(o.retries)) | |")
    }
    if report.search.count == 2 {
        let (s, o) = (report.search[0], report.search[1])
        print("")
        print("| search over \(options.items) public items (ms) | sharded p50 | sharded p99 | one node p50 | one node p99 | p50 ratio | p99 ratio |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for kind in ["word", "prefix", "multi", "all"] {
            guard let a = s.latency[kind], let b = o.latency[kind] else { continue }
            print("| \(kind) | \(String(format: "%.1f", a["p50"]!)) | \(String(format: "%.1f", a["p99"]!)) | \(String(format: "%.1f", b["p50"]!)) | \(String(format: "%.1f", b["p99"]!)) | \(ratio(a["p50"]!, b["p50"]!)) | \(ratio(a["p99"]!, b["p99"]!)) |")
        }
        print("| bytes per item | \(Int(s.bytesPerItem)) | | \(Int(o.bytesPerItem)) | | | |")
    }
    if let json = options.json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(report).write(to: json)
    }
    let loadOK = report.load.allSatisfy { $0.crossed == $0.expectedCrossed && $0.views == $0.donations && $0.publicActivities == $0.crossed }
    if !loadOK {
        FileHandle.standardError.write(Data("spotlight-public-bench: the counts do not match the draw\n".utf8))
        exit(1)
    }
}

do {
    try await runBenchmark()
} catch {
    FileHandle.standardError.write(Data("spotlight-public-bench: \(error)\n".utf8))
    exit(1)
}
