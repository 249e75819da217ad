import Foundation
import Logging
import SpotlightIndex
import SpotlightSystem
import ServiceLifecycle
import SpotlightService
import Synchronization

/// What scheduled maintenance last did, for `/v1/health`.
final class MaintenanceStatus: Sendable {
    struct Pass: Sendable {
        var at: Date
        var deliveries: Int
        var failures: Int
    }

    private let state = Mutex<Pass?>(nil)

    var last: Pass? { state.withLock { $0 } }

    func record(_ pass: Pass) { state.withLock { $0 = pass } }
}

/// Runs index maintenance on a schedule inside the service, instead of
/// waiting for someone to run `spotlight maintain`: apps whose store was lost
/// or damaged are asked to index everything again (every store is checked
/// with `quick_check` first: `spotlight search` skips that check when it opens stores), the segments of a store
/// not written for five minutes are merged into one (searches read one segment), items about to expire are
/// handed to their app's index extension to refresh (``IndexMaintenance``).
///
/// ```swift
/// let maintenance = MaintenanceService(maintenance: IndexMaintenance(), firstDelay: .seconds(30), interval: .seconds(1_800),
///                                      status: status, metrics: metrics, logger: logger)
/// // a ServiceGroup runs it; a graceful shutdown stops it between passes
/// ```
///
/// One pass at a time, on a thread of its own (an index extension may run
/// for minutes); a pass that fails is logged and the schedule goes on.
struct MaintenanceService: Service {
    let maintenance: IndexMaintenance
    let firstDelay: Duration
    let interval: Duration
    /// Seconds a store goes unwritten before its segments are merged into one.
    var mergeIdle: TimeInterval = 300
    let status: MaintenanceStatus
    let metrics: ServiceMetrics
    let logger: Logger

    func run() async throws {
        var delay = firstDelay
        while !Task.isShuttingDownGracefully {
            let wait = delay
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: wait) }
            } catch {
                return // shutting down (or cancelled) while waiting: nothing is half done
            }
            await pass()
            delay = interval
        }
    }

    /// One maintenance pass.
    func pass() async {
        let maintenance = self.maintenance
        do {
            let mergeIdle = self.mergeIdle
            let (merged, checks, compacted, deliveries) = try await SpotlightAPI.offThread {
                // Merged first: a store's quiet time is its files' time, and the check's own
                // open writes to a store whose log is empty (GRDB's pool).
                (try maintenance.mergeStores(idleFor: mergeIdle), try maintenance.verifyStores(),
                 try maintenance.compactStores(), try maintenance.deliverPendingRequests())
            }
            for check in checks {
                logger.warning("maintenance: \(check.bundleIdentifier)/\(check.indexName) \(check.movedAside.map { "was damaged, moved aside to \($0)" } ?? check.error ?? "")")
            }
            for done in merged {
                logger.info("maintenance: \(done.bundleIdentifier)/\(done.indexName) merged \(done.segmentsMerged) index segments into one")
            }
            for done in compacted {
                logger.info("maintenance: \(done.bundleIdentifier)/\(done.indexName) gave back \(done.bytesSaved) bytes of free pages")
            }
            let failures = deliveries.filter { !$0.succeeded }.count
            status.record(.init(at: Date(), deliveries: deliveries.count, failures: failures))
            metrics.maintenance(deliveries: deliveries.count, failed: failures > 0)
            for delivery in deliveries {
                logger.info("maintenance: \(delivery.app.displayName) \(delivery.request.kind) \(delivery.succeeded ? "done" : "failed: \(delivery.outcome)")")
            }
        } catch {
            status.record(.init(at: Date(), deliveries: 0, failures: 1))
            metrics.maintenance(deliveries: 0, failed: true)
            logger.error("maintenance failed: \(error)")
        }
    }
}
