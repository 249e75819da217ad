import SpotlightIndex
import SpotlightSystem

/// One registered app as one search reads it: which stores it has and
/// those stores, looked up once per search.
///
/// Looking a store up checks its file (``StoreCache``) and listing an app's
/// stores checks its folder (``AppLayouts``): with 20 apps, doing both for
/// the statistics, the results and the app's factor separately cost more
/// than some of the searches themselves.
struct SearchedApp: Sendable {
    let app: AppRegistration
    let layout: AppLayout
    /// The app's stores, in ``AppLayout/names`` order with their names, or
    /// why one of them could not be opened.
    let stores: Result<[(name: String, store: SpotlightStore)], any Error>
    /// Per store, the stamp of the index its statistics came from
    /// (``SpotlightStore/recentSearchStatistics(terms:)``; nil when they
    /// could not be read); empty when the search counts no statistics.
    var statisticsStamps: [RankedSnapshotStamp?] = []

    /// The stores of `app`, opened through `open` (the search's kept stores).
    init(_ app: AppRegistration, layout: AppLayout, open: (String) throws -> SpotlightStore) {
        self.app = app
        self.layout = layout
        stores = Result { try layout.names.map { name in (name, try open(name)) } }
    }
}
