import BenchmarkPhases
import Foundation
import SpotlightIndex
import SpotlightService
import SpotlightSystem

/// `spotlight-bench service --in-process`: what each keystroke costs the
/// system search itself, without HTTP, JSON or other searches beside it.
///
/// On the service benchmark's stores, one `SystemSearch` (as the service
/// keeps) searches every keystroke once to warm up (as the service is
/// warmed), then every keystroke again in the order a person types them,
/// one at a time, each timed by the process's CPU time (user and system):
/// a figure that other load on a shared machine moves far less than
/// latency. Prints the distribution and the slowest keystrokes: the
/// service's p99 under load follows them. The warm-up is timed too, as
/// the cold pass: its keystrokes are the first in each segment to walk
/// their typos or read their prefixes' tails (``PrefixMemo``). With `reusesAnswers` the search
/// keeps answers as `spotlight serve --reuse-answers` does: the warm-up's
/// answers (another number of results per app) are never reused, so each
/// keystroke pays for checking its stores, and a keystroke typed again
/// (the query set repeats some) is answered from memory.
///
/// Back to back, a keystroke finds in the caches what the one before read
/// (the same stores, mostly the same terms); a resident service's
/// keystrokes come 10-100 ms apart, and on a shared machine other work
/// empties the caches in between (the same search took ~0.9 ms back to
/// back and 2.2-2.5 ms spaced out). With `coldCaches` each timed keystroke
/// starts after a read through more memory than the caches hold
/// (``CacheSweep``, not timed), so the figures count the cache misses the
/// service's keystrokes pay.
struct KeystrokeCosts {
    struct Report: Encodable {
        /// CPU milliseconds per keystroke, over every keystroke once.
        var cpu: LatencyStats
        /// The same in the warm-up, the first time each keystroke was searched.
        var cold: LatencyStats
        var slowest: [Slow]
        /// Keystrokes answered from memory (with `reusesAnswers`).
        var reused: Int

        struct Slow: Encodable {
            var text: String
            var milliseconds: Double
        }
    }

    let stores: URL
    let keystrokes: [String]
    let slowest: Int
    var reusesAnswers = false
    var coldCaches = false

    func run() throws -> Report {
        var options = StoreOptions()
        options.checksIntegrityOnOpen = false
        // As the service searches (`spotlight serve`): its stores kept, its folders watched.
        let search = SystemSearch(registry: AppRegistry(location: .directory(stores)), options: options, keepsAnswers: reusesAnswers,
                                  watchesFolders: true)
        _ = search.prepareStores()
        log("warming up: every keystroke once (\(grouped(keystrokes.count)) searches, not measured)…")
        var firstCosts: [Double] = []
        firstCosts.reserveCapacity(keystrokes.count)
        for text in keystrokes {
            let before = ResourceUsage.cpuSeconds()
            _ = try search.search(text, resultsPerApp: 4, webResults: 0)
            firstCosts.append((ResourceUsage.cpuSeconds() - before) * 1_000)
        }
        let sweep = coldCaches ? CacheSweep() : nil
        log("every keystroke again, one at a time, in the order typed\(coldCaches ? ", each after emptying the caches" : "")…")
        var costs: [(milliseconds: Double, text: String)] = []
        costs.reserveCapacity(keystrokes.count)
        var nonEmpty = 0, results = 0
        for text in keystrokes {
            sweep?.run()
            let before = ResourceUsage.cpuSeconds()
            let found = try search.search(text, resultsPerApp: 3, webResults: 0)
            costs.append(((ResourceUsage.cpuSeconds() - before) * 1_000, text))
            let count = found.groups.reduce(0) { $0 + $1.results.count }
            results += count
            if count > 0 { nonEmpty += 1 }
        }
        let cpu = LatencyStats(samples: costs.map(\.milliseconds), count: keystrokes.count, nonEmpty: nonEmpty,
                               meanResults: Double(results) / Double(max(1, keystrokes.count)))
        let cold = LatencyStats(samples: firstCosts, count: keystrokes.count, nonEmpty: nonEmpty,
                                meanResults: Double(results) / Double(max(1, keystrokes.count)))
        return Report(cpu: cpu, cold: cold, slowest: costs.sorted { $0.milliseconds > $1.milliseconds }.prefix(slowest).map { .init(text: $0.text, milliseconds: $0.milliseconds) },
                      reused: search.reusedAnswers)
    }
}

extension KeystrokeCosts.Report {
    /// The figures for a person.
    var table: String {
        var lines = [String(format: "system search CPU per keystroke (ms), %d keystrokes: mean %.2f  p50 %.2f  p95 %.2f  p99 %.2f  max %.2f",
                            cpu.samples, cpu.mean, cpu.p50, cpu.p95, cpu.p99, cpu.max),
                     String(format: "  the warm-up, each keystroke's first search: mean %.2f  p50 %.2f  p95 %.2f  p99 %.2f  max %.2f",
                            cold.mean, cold.p50, cold.p95, cold.p99, cold.max)]
        if reused > 0 { lines.append("answered from memory: \(reused)") }
        if !slowest.isEmpty { lines.append("the slowest:") }
        for slow in slowest { lines.append(String(format: "  %7.2f  %@", slow.milliseconds, slow.text as NSString)) }
        return lines.joined(separator: "\n")
    }
}

/// A read through more memory than the processor's caches hold (64 MB:
/// this machine's L3 is 32 MB), which leaves in them nothing a search had
/// read.
///
/// ```swift
/// let sweep = CacheSweep()
/// sweep.run()   // the next search starts with empty caches
/// ```
final class CacheSweep {
    private let bytes: UnsafeMutableRawBufferPointer
    /// What the reads summed to, kept so that they are not left out.
    private(set) var sum: UInt64 = 0

    init(megabytes: Int = 64) {
        bytes = .allocate(byteCount: megabytes << 20, alignment: 64)
        bytes.initializeMemory(as: UInt8.self, repeating: 1)
    }

    deinit { bytes.deallocate() }

    /// Reads one word in every 64-byte line.
    func run() {
        var sum: UInt64 = 0
        for offset in stride(from: 0, to: bytes.count, by: 64) { sum &+= bytes.load(fromByteOffset: offset, as: UInt64.self) }
        self.sum &+= sum
    }
}
