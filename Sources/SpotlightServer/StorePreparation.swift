import Logging
import ServiceLifecycle
import SpotlightService

/// Opens every registered store once as the service starts (``SystemSearch/prepareStores()``),
/// off the concurrency pool (``SpotlightAPI/offThread(_:)``), while the listeners already answer.
struct StorePreparation: Service {
    let search: SystemSearch
    let logger: Logger

    func run() async throws {
        let search = self.search
        let started = ContinuousClock.now
        let opened = try await SpotlightAPI.offThread { search.prepareStores() }
        logger.info("opened \(opened) stores in \(ContinuousClock.now - started)")
    }
}
