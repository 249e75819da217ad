import Foundation
import Logging
import ServiceLifecycle
import SpotlightIndex
import SpotlightService
import Synchronization

/// The results clients displayed, kept for a moment and written to their
/// stores in batches (``SystemSearch/recordImpressions(_:at:)``: one
/// transaction per store), so that showing results never waits for a write
/// and a keystroke's worth of displays is one write, not one per result.
///
/// ```swift
/// let batcher = ImpressionBatcher()
/// batcher.add([try ResultReference(parsing: "com.example.grocer/default/p-pear")])
/// try batcher.flush(into: search)     // the service does this every 2 s
/// ```
///
/// A result shown several times within one batch counts once (as you type,
/// the same result stays on screen across keystrokes). At most ``capacity``
/// results wait; beyond that new ones are dropped and counted.
final class ImpressionBatcher: Sendable {
    let capacity: Int
    private let pending = Mutex<(references: [ResultReference], seen: Set<ResultReference>, dropped: Int)>(([], [], 0))

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// Adds displayed results; returns how many were taken.
    @discardableResult
    func add(_ references: [ResultReference]) -> Int {
        pending.withLock { state in
            var taken = 0
            for reference in references where !state.seen.contains(reference) {
                guard state.references.count < capacity else {
                    state.dropped += 1
                    continue
                }
                state.seen.insert(reference)
                state.references.append(reference)
                taken += 1
            }
            return taken
        }
    }

    var count: Int { pending.withLock { $0.references.count } }

    /// Writes what is pending; returns how many results were written and how many were dropped since the last flush.
    @discardableResult
    func flush(into search: SystemSearch, at date: Date = Date()) throws -> (written: Int, dropped: Int) {
        let (batch, dropped) = pending.withLock { state in
            defer { state = ([], [], 0) }
            return (state.references, state.dropped)
        }
        guard !batch.isEmpty else { return (0, dropped) }
        return (try search.recordImpressions(batch, at: date), dropped)
    }
}

/// Flushes the batcher every ``interval`` and once more on a graceful stop.
struct ImpressionService: Service {
    let batcher: ImpressionBatcher
    let search: SystemSearch
    let interval: Duration
    let metrics: ServiceMetrics
    let logger: Logger

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                break
            }
            flush()
        }
        flush()
    }

    private func flush() {
        do {
            let (written, dropped) = try batcher.flush(into: search)
            metrics.impressions(written: written, dropped: dropped)
        } catch {
            logger.warning("impressions not recorded: \(error)")
        }
    }
}
