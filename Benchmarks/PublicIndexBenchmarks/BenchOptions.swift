import Corpora
import Foundation

/// `spotlight-public-bench` options (defaults: the full load).
struct BenchOptions: Sendable {
    var devices = 100_000
    var donations = 1_000_000
    var activities = 100_000
    /// Zipf exponent of the activities' popularity.
    var zipf = 1.0
    var threshold = 10
    /// Public pages loaded for the search phase.
    var items = 1_000_000
    /// Concurrent device connections during the load.
    var concurrency = 16
    /// Passes over the query set (after one warm-up pass).
    var rounds = 2
    var directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("openspotlight-public-bench")
    var corpusDirectory = Corpora.directory()
    var json: URL?
    /// `load`, `search` or both.
    var phases: Set<String> = ["load", "search"]

    static let usage = """
        usage: spotlight-public-bench [--devices N] [--donations N] [--activities N] [--zipf S] [--threshold N]
                                      [--items N] [--concurrency N] [--rounds N] [--dir DIR] [--corpus-dir DIR]
                                      [--phases load,search] [--json FILE]
        Runs the public index on one node and on a coordinator with two shards (throwaway
        PostgreSQL clusters on loopback), loads it through the HTTP API with simulated devices,
        then searches 1M public items on both. Run in release: swift build -c release.
        """

    static func parse(_ arguments: [String]) throws -> BenchOptions {
        var options = BenchOptions()
        var rest = arguments[...]
        func value(_ name: String) throws -> String {
            guard let next = rest.popFirst() else { throw BenchError("\(name) needs a value\n\(usage)") }
            return next
        }
        func number(_ name: String) throws -> Int {
            let text = try value(name).replacingOccurrences(of: "_", with: "")
            let scaled = text.hasSuffix("k") ? Int(text.dropLast()).map { $0 * 1_000 } : text.hasSuffix("m") ? Int(text.dropLast()).map { $0 * 1_000_000 } : Int(text)
            guard let result = scaled, result > 0 else { throw BenchError("\(name) takes a positive number, not \(text)") }
            return result
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--devices": options.devices = try number(argument)
            case "--donations": options.donations = try number(argument)
            case "--activities": options.activities = try number(argument)
            case "--zipf": options.zipf = Double(try value(argument)) ?? 1
            case "--threshold": options.threshold = try number(argument)
            case "--items": options.items = try number(argument)
            case "--concurrency": options.concurrency = try number(argument)
            case "--rounds": options.rounds = try number(argument)
            case "--dir": options.directory = URL(fileURLWithPath: try value(argument))
            case "--corpus-dir": options.corpusDirectory = URL(fileURLWithPath: try value(argument))
            case "--json": options.json = URL(fileURLWithPath: try value(argument))
            case "--phases": options.phases = Set(try value(argument).split(separator: ",").map(String.init))
            case "-h", "--help": throw BenchError(usage)
            default: throw BenchError("unknown option \(argument)\n\(usage)")
            }
        }
        return options
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Progress on standard error, one line rewritten.
enum Console {
    static func progress(_ text: String) {
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
    }

    static func line(_ text: String) {
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text + "\n").utf8))
    }
}

/// A small deterministic generator (SplitMix64), so that every run draws the same load.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Ranks 0..<n drawn with probability ∝ 1 / (rank + 1)^s.
struct ZipfSampler {
    let cumulative: [Double]

    init(count: Int, exponent: Double) {
        var total = 0.0
        var cumulative: [Double] = []
        cumulative.reserveCapacity(count)
        for rank in 1...count {
            total += 1 / pow(Double(rank), exponent)
            cumulative.append(total)
        }
        self.cumulative = cumulative.map { $0 / total }
    }

    func sample(_ generator: inout some RandomNumberGenerator) -> Int {
        let target = Double.random(in: 0..<1, using: &generator)
        var low = 0, high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < target { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
