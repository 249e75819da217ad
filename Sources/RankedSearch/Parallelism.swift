import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// How many threads the index's parallel steps (tokenizing a chunk,
/// encoding and merging segments) may use: the processors this process
/// may run on.
///
/// ```swift
/// if Parallelism.cores > 1 { /* split the work */ }
/// ```
package enum Parallelism {
    /// Active processors, at least 1.
    package static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
}

extension Parallelism {
    /// Runs `work` on one of the process's threads behind (one a core,
    /// started on first use), in the order given: for work that can wait
    /// (preparing the next items) while the process's urgent work (writing
    /// and committing the current ones, answering a search) wants the
    /// cores. Their priority is 10 nice values below the process's, for
    /// good: an unprivileged thread cannot raise it again, so no shared
    /// thread (Dispatch's) is ever lowered.
    ///
    /// ```swift
    /// Parallelism.behind { prepareNextChunks() }
    /// ```
    package static func behind(_ work: @escaping @Sendable () -> Void) {
        BehindThreads.shared.run(work)
    }
}

/// The threads of ``Parallelism/behind(_:)``.
private final class BehindThreads: Sendable {
    static let shared = BehindThreads(count: Parallelism.cores)

    private let queued = Mutex<[@Sendable () -> Void]>([])
    private let available = DispatchSemaphore(value: 0)

    private init(count: Int) {
        for _ in 0..<count {
            let thread = Thread { [self] in
                #if os(Linux)
                // On Linux a nice value is a thread's, and `who` 0 is the calling thread.
                errno = 0
                let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                if errno == 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, current + 10)) }
                #endif
                while true {
                    available.wait()
                    let work = queued.withLock { $0.removeFirst() }
                    work()
                }
            }
            thread.name = "openspotlight.behind"
            thread.start()
        }
    }

    func run(_ work: @escaping @Sendable () -> Void) {
        queued.withLock { $0.append(work) }
        available.signal()
    }
}
