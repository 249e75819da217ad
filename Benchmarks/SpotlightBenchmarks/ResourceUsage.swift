import Glibc

/// This process's peak memory, from `getrusage`.
enum ResourceUsage {
    /// Maximum resident set size so far, in MB (MiB: Linux reports KiB).
    static func peakRSSMB() -> Double {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return .nan }
        return Double(usage.ru_maxrss) / 1024
    }
}
