import AsyncHTTPClient
import Corpora
import Foundation
import NIOCore
import NIOHTTP1
import PublicIndex
import PublicIndexProtocol

/// 1M public pages (the Debian corpus, replicated) searched through the
/// HTTP API with the query set's word, prefix and multi-word queries.
struct SearchPhase {
    struct Result: Codable {
        var deployment: String
        var items: Int
        var loadSeconds: Double
        var bytesPerItem: Double
        /// Per query kind and `all`: p50, p99 and mean in milliseconds.
        var latency: [String: [String: Double]]
        var partialAnswers: Int
    }

    let options: BenchOptions

    /// `kind<TAB>query` lines of the free-text kinds.
    func queries() throws -> [(kind: String, text: String)] {
        let text = try String(contentsOf: options.corpusDirectory.appendingPathComponent("queries.tsv"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            guard parts.count == 2, ["word", "prefix", "multi"].contains(parts[0]) else { return nil }
            return (parts[0], parts[1])
        }
    }

    func load(_ deployment: Deployment, corpus: [CorpusEntry]) async throws -> Double {
        let started = Date()
        var next = 0
        while next < options.items {
            let end = min(options.items, next + 2_000)
            try await deployment.index.bulkLoadPages((next..<end).map { Self.page($0, corpus: corpus) })
            next = end
            if next % 20_000 == 0 {
                Console.progress("\(deployment.name): \(next)/\(options.items) pages, \(Int(Double(next) / Date().timeIntervalSince(started)))/s")
            }
        }
        Console.line("\(deployment.name): \(options.items) pages loaded in \(String(format: "%.0f", Date().timeIntervalSince(started))) s; vacuum and analyze…")
        try await deployment.settle()
        return Date().timeIntervalSince(started)
    }

    /// Page `i`: copy `i / corpus.count` of a package, on one of 10,000 sites.
    static func page(_ i: Int, corpus: [CorpusEntry]) -> PublicPage {
        let entry = corpus[i % corpus.count]
        let copy = i / corpus.count
        let site = "pkg\(i % 10_000).example.org"
        let title = entry.summary.isEmpty ? entry.id : "\(entry.id): \(entry.summary)"
        return PublicPage(url: URL(string: "https://\(site)/\(entry.id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "p")/\(copy)")!,
                          title: String(title.prefix(300)), description: String(entry.description.prefix(400)),
                          keywords: Array(entry.keywords.prefix(6)))
    }

    func measure(_ deployment: Deployment, base: URL, queries: [(kind: String, text: String)]) async throws -> ([String: [String: Double]], Int) {
        var samples: [String: [Double]] = [:]
        var partial = 0
        for round in 0...options.rounds {
            for query in queries {
                var components = URLComponents()
                components.queryItems = [URLQueryItem(name: "q", value: query.text), URLQueryItem(name: "limit", value: "10")]
                let request = HTTPClientRequest(url: base.absoluteString + "/v1/search?" + (components.percentEncodedQuery ?? ""))
                let started = DispatchTime.now().uptimeNanoseconds
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
                let body = try await response.body.collect(upTo: 4 << 20)
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
                guard response.status.code == 200 else { throw BenchError("search \(query.text): HTTP \(response.status.code)") }
                if round == 0 { continue }   // warm-up
                if (try? PublicIndexJSON.decoder().decode(PublicSearchResponse.self, from: Data(body.readableBytesView)))?.partial == true { partial += 1 }
                samples[query.kind, default: []].append(elapsed)
                samples["all", default: []].append(elapsed)
            }
            Console.progress("\(deployment.name): search round \(round)/\(options.rounds)")
        }
        Console.line("\(deployment.name): searched")
        return (samples.mapValues(Self.summary), partial)
    }

    static func summary(_ values: [Double]) -> [String: Double] {
        let sorted = values.sorted()
        func quantile(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.up)) - 1)] }
        return ["p50": quantile(0.5), "p99": quantile(0.99), "mean": sorted.reduce(0, +) / Double(sorted.count), "count": Double(sorted.count)]
    }
}

/// The fields of a Debian corpus line that pages use.
struct CorpusEntry: Decodable {
    var id: String
    var summary: String
    var description: String
    var keywords: [String]

    enum CodingKeys: String, CodingKey { case id, summary, description, keywords }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        summary = try container.decodeIfPresent(String.self, forKey: .summary) ?? ""
        description = try container.decodeIfPresent(String.self, forKey: .description) ?? ""
        keywords = try container.decodeIfPresent([String].self, forKey: .keywords) ?? []
    }

    /// Every line of `debian-packages.jsonl.gz`, through `gzip -dc` into a temporary file.
    static func load(from directory: URL) throws -> [CorpusEntry] {
        let source = directory.appendingPathComponent("debian-packages.jsonl.gz")
        let unpacked = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("public-bench-corpus-\(getpid()).jsonl")
        defer { try? FileManager.default.removeItem(at: unpacked) }
        guard FileManager.default.isReadableFile(atPath: source.path) else { throw BenchError("cannot read \(source.path); pass --corpus-dir or run \(Corpora.buildCommand)") }
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gzip.arguments = ["-c", "gzip -dc \"$0\" > \"$1\"", source.path, unpacked.path]
        try gzip.run()
        gzip.waitUntilExit()
        guard gzip.terminationStatus == 0 else { throw BenchError("gzip could not read \(source.path)") }
        let decoder = JSONDecoder()
        return try String(contentsOf: unpacked, encoding: .utf8).split(separator: "\n").map { try decoder.decode(CorpusEntry.self, from: Data($0.utf8)) }
    }
}

/// Made-up words for the load's activities: consonant–vowel syllables, 4 to 8 letters.
enum Vocabulary {
    static let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "be", "da", "fo", "gu", "pe", "ri", "so", "zu"]

    static func words(for seed: Int, count: Int) -> [String] {
        var generator = SplitMix64(state: UInt64(truncatingIfNeeded: seed) &+ 77)
        return (0..<count).map { _ in
            (0..<Int.random(in: 2...4, using: &generator)).map { _ in syllables[Int.random(in: 0..<syllables.count, using: &generator)] }.joined()
        }
    }
}
