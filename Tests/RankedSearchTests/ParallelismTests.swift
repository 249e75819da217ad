import Foundation
@testable import RankedSearch
import Synchronization
import Testing

@Suite struct ParallelismTests {
    /// Where the tracked values were freed.
    final class Record: Sendable {
        let threads = Mutex<[pthread_t]>([])
        let freed = DispatchSemaphore(value: 0)
    }

    /// Notes the thread its deinit runs on.
    final class Tracked: Sendable {
        let record: Record

        init(_ record: Record) { self.record = record }

        deinit {
            record.threads.withLock { $0.append(pthread_self()) }
            record.freed.signal()
        }
    }

    /// Values handed to `release` are freed, and not on the caller's
    /// thread (a writer hands over what it is done with and goes on).
    @Test func releaseFreesOnAnotherThread() throws {
        let record = Record()
        // Inside arrays and dictionaries, as a transaction's documents are.
        Parallelism.release([Tracked(record), Tracked(record)])
        Parallelism.release(["a": Tracked(record)])
        for _ in 0..<3 { #expect(record.freed.wait(timeout: .now() + 10) == .success) }
        let threads = record.threads.withLock { $0 }
        #expect(threads.count == 3)
        #expect(threads.allSatisfy { pthread_equal($0, pthread_self()) == 0 })
    }
}
