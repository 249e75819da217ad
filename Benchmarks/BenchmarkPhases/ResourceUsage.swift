import Glibc
import Foundation

/// This process's peak memory (`/proc/self/status`) and CPU time (`getrusage`).
package enum ResourceUsage {
    /// User and system CPU time of this process so far, in seconds.
    package static func cpuSeconds() -> Double {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return .nan }
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Maximum resident set size of this program so far, in MB (MiB:
    /// Linux reports KiB): `VmHWM` of `/proc/self/status`, as Tantivy's
    /// driver reads its own. `getrusage`'s `ru_maxrss` keeps the RSS of
    /// the process this one was forked from as it was at the fork
    /// (Linux carries it across `exec`): every phase child reported at
    /// least the parent's ~30 MB, FTS5's whole peak included.
    package static func peakRSSMB() -> Double {
        // /proc files report no size: read to the end.
        if let handle = FileHandle(forReadingAtPath: "/proc/self/status"), let data = try? handle.readToEnd(),
           let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let kilobytes = Double(String(line.filter(\.isNumber))) {
            return kilobytes / 1024
        }
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return .nan }
        return Double(usage.ru_maxrss) / 1024
    }

    /// With `SPOTLIGHT_BENCH_SMAPS=N` in the environment, logs the N
    /// mappings with the most resident memory (from `/proc/self/smaps`):
    /// what peak RSS is made of.
    package static func logLargestMappings(tag: String) {
        // /proc files report no size: read to the end (String(contentsOfFile:) stops short).
        guard let count = ProcessInfo.processInfo.environment["SPOTLIGHT_BENCH_SMAPS"].flatMap({ Int($0) }), count > 0,
              let handle = FileHandle(forReadingAtPath: "/proc/self/smaps"),
              let data = try? handle.readToEnd(), let text = String(data: data, encoding: .utf8) else { return }
        var mappings: [(name: String, kilobytes: Int)] = []
        var name = ""
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), fields.count >= 5 {
                name = fields.count >= 6 ? String(fields[5]) : "[anonymous]"
            } else if fields.first == "Rss:", fields.count >= 2, let kilobytes = Int(fields[1]) {
                mappings.append((name, kilobytes))
            }
        }
        var byName: [String: Int] = [:]
        for mapping in mappings { byName[(mapping.name as NSString).lastPathComponent, default: 0] += mapping.kilobytes }
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let memory = status.split(separator: "\n").filter { $0.hasPrefix("VmHWM") || $0.hasPrefix("VmRSS") || $0.hasPrefix("RssFile") || $0.hasPrefix("RssAnon") }
        log("\(tag) \(memory.map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }.joined(separator: ", "))")
        for (name, kilobytes) in byName.sorted(by: { $0.value > $1.value }).prefix(count) {
            log("\(tag) resident \(kilobytes / 1024) MB: \(name)")
        }
    }
}
