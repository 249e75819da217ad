import Dispatch
import Logging
import ServiceLifecycle
import SpotlightService

/// Opens every registered store once as the service starts (``SystemSearch/prepareStores()``),
/// off the concurrency pool, while the listeners already answer.
struct StorePreparation: Service {
    let search: SystemSearch
    let logger: Logger

    func run() async throws {
        let search = self.search
        let started = ContinuousClock.now
        let opened = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .utility).async { continuation.resume(returning: search.prepareStores()) }
        }
        logger.info("opened \(opened) stores in \(ContinuousClock.now - started)")
    }
}
