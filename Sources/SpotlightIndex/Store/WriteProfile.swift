import Foundation
import Synchronization

/// Where a process's writes spend their time, phase by phase: wall-clock
/// seconds summed per phase name and printed to standard error when the
/// process exits, if `OPENSPOTLIGHT_PROFILE_WRITES` is set. Off, a phase
/// costs one branch.
///
/// ```sh
/// OPENSPOTLIGHT_PROFILE_WRITES=1 spotlight-bench --child index --engine engine --scale 63666 --dir /tmp/b --corpus-dir ../shared/corpora
/// # write phase  transaction               2.518 s
/// # write phase  flush                     0.890 s …
/// ```
///
/// Phases nest (`flush` holds `flush.merge`), and time waiting counts, so
/// the figures show what the writer's thread waits for, which a sampling
/// profiler does not.
enum WriteProfile {
    static let enabled = ProcessInfo.processInfo.environment["OPENSPOTLIGHT_PROFILE_WRITES"] != nil
    private static let totals = Mutex<[String: Double]>([:])
    private static let registered = Atomic<Bool>(false)

    /// Runs `body`, adding its wall-clock time to phase `name`.
    @inline(__always)
    static func measure<T>(_ name: StaticString, _ body: () throws -> T) rethrows -> T {
        guard enabled else { return try body() }
        let start = DispatchTime.now().uptimeNanoseconds
        defer { add(name, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) }
        return try body()
    }

    private static func add(_ name: StaticString, seconds: Double) {
        totals.withLock { $0["\(name)", default: 0] += seconds }
        if !registered.exchange(true, ordering: .relaxed) { atexit { WriteProfile.report() } }
    }

    private static func report() {
        let all = totals.withLock { $0 }
        for (name, seconds) in all.sorted(by: { $0.key < $1.key }) {
            let padded = name.padding(toLength: 24, withPad: " ", startingAt: 0)
            FileHandle.standardError.write(Data("write phase  \(padded) \(String(format: "%8.3f", seconds)) s\n".utf8))
        }
    }
}
