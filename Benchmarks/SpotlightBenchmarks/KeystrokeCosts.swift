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
/// service's p99 under load follows them.
struct KeystrokeCosts {
    struct Report: Encodable {
        var keystrokes: Int
        var meanMilliseconds: Double
        var p50: Double
        var p90: Double
        var p99: Double
        var max: Double
        var slowest: [Slow]

        struct Slow: Encodable {
            var text: String
            var milliseconds: Double
        }
    }

    let stores: URL
    let keystrokes: [String]
    let slowest: Int

    func run() throws -> Report {
        var options = StoreOptions()
        options.checksIntegrityOnOpen = false
        let search = SystemSearch(registry: AppRegistry(location: .directory(stores)), options: options)
        _ = search.prepareStores()
        log("warming up: every keystroke once (\(grouped(keystrokes.count)) searches, not measured)…")
        for text in keystrokes { _ = try search.search(text, resultsPerApp: 4, webResults: 0) }
        log("every keystroke again, one at a time, in the order typed…")
        var costs: [(milliseconds: Double, text: String)] = []
        costs.reserveCapacity(keystrokes.count)
        for text in keystrokes {
            let before = Self.processCPUSeconds()
            _ = try search.search(text, resultsPerApp: 3, webResults: 0)
            costs.append(((Self.processCPUSeconds() - before) * 1_000, text))
        }
        let sorted = costs.map(\.milliseconds).sorted()
        func quantile(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(q * Double(sorted.count)))] }
        return Report(keystrokes: costs.count, meanMilliseconds: sorted.reduce(0, +) / Double(max(1, sorted.count)),
                      p50: quantile(0.5), p90: quantile(0.9), p99: quantile(0.99), max: sorted.last ?? 0,
                      slowest: costs.sorted { $0.milliseconds > $1.milliseconds }.prefix(slowest).map { .init(text: $0.text, milliseconds: $0.milliseconds) })
    }

    /// User and system CPU time of this process so far, in seconds.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

extension KeystrokeCosts.Report {
    /// The figures for a person.
    var table: String {
        var lines = [String(format: "system search CPU per keystroke (ms), %d keystrokes: mean %.2f  p50 %.2f  p90 %.2f  p99 %.2f  max %.2f",
                            keystrokes, meanMilliseconds, p50, p90, p99, max)]
        if !slowest.isEmpty { lines.append("the slowest:") }
        for slow in slowest { lines.append(String(format: "  %7.2f  %@", slow.milliseconds, slow.text as NSString)) }
        return lines.joined(separator: "\n")
    }
}
