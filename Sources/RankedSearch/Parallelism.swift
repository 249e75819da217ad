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
        WorkThreads.behind.run(work)
    }
}

/// Threads of the process's own that run closures from one queue, in the
/// order given: ``Parallelism/behind(_:)``'s (one a core, 10 nice values
/// down) and ``Parallelism/release(_:)``'s (one, at the process's priority).
private final class WorkThreads: Sendable {
    static let behind = WorkThreads(count: Parallelism.cores, name: "openspotlight.behind", niceIncrement: 10)
    static let releasing = WorkThreads(count: 1, name: "openspotlight.release", niceIncrement: 0)

    private let queued = Mutex<[@Sendable () -> Void]>([])
    private let available = DispatchSemaphore(value: 0)

    private init(count: Int, name: String, niceIncrement: Int32) {
        for _ in 0..<count {
            let thread = Thread { [self] in
                #if os(Linux)
                if niceIncrement > 0 {
                    // On Linux a nice value is a thread's, and `who` 0 is the calling thread.
                    errno = 0
                    let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                    if errno == 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, current + niceIncrement)) }
                }
                #endif
                while true {
                    available.wait()
                    let work = queued.withLock { $0.removeFirst() }
                    work()
                }
            }
            thread.name = name
            thread.start()
        }
    }

    func run(_ work: @escaping @Sendable () -> Void) {
        queued.withLock { $0.append(work) }
        available.signal()
    }
}

extension Parallelism {
    /// Lets go of `value` on a thread of its own rather than on the
    /// caller's: for a writer holding what a transaction was made of (a
    /// thousand items' documents, tokens and identifiers), which it would
    /// otherwise free object by object before it could commit the next
    /// (in the benchmark's index child, freeing them was ~14% of the
    /// writer's time; handed off, items/s rose 14–18%, and peak RSS at
    /// 63,666 items 3–4 MB: freed by a thread that did not allocate it,
    /// glibc keeps more of it, whether or not the writer waits for the
    /// frees; with `MALLOC_ARENA_MAX=2` no more than before).
    ///
    /// The caller gives up its reference: the thread frees `value` when it
    /// holds the last one (the caller's own copy dies as the call returns,
    /// long before the thread wakes). The thread does nothing else, so a
    /// release never waits behind other work; values are freed in the
    /// order given.
    ///
    /// ```swift
    /// Parallelism.release(takenDocuments)
    /// ```
    package static func release<Value>(_ value: consuming Value) {
        let box = Released(value)
        WorkThreads.releasing.run { box.drop() }
    }
}

/// A value ``Parallelism/release(_:)`` carries to its thread.
private final class Released<Value>: @unchecked Sendable {
    // Unchecked: written once by `init`, then only by `drop`, on the thread.
    private var value: Value?

    init(_ value: consuming Value) { self.value = value }

    func drop() { value = nil }
}
