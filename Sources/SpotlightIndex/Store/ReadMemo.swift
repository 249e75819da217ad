import GRDB
import GRDBSQLite
import RankedSearch

/// What a reader slot's last read transaction read that depends on nothing
/// but the store's committed content, kept until the store changes.
///
/// A system search reads every store once per keystroke, and each read
/// began by reading the store's segment list (``RankedIndex/readerSnapshot(_:memo:)``)
/// and its engagement totals (``SpotlightStore/decayedTotals(_:memo:)``):
/// two statements, a set and a few strings, ~26,000 instructions a store,
/// ~1M of a keystroke over 20 apps' 40 stores, for what changes only when
/// an app writes. SQLite's data version of the file
/// (`SQLITE_FCNTL_DATA_VERSION`, read once the transaction has begun)
/// changes with every commit, from this connection or any other, in this
/// process or another: the same number SQLite's own page cache is kept by.
/// A slot's memo holds only what was read at the version it names and is
/// emptied when the version moves (``validate(_:)``).
///
/// Only a slot's connection has one: data versions are a connection's own
/// count and mean nothing on another.
///
/// ```swift
/// let totals = try memo?.totals ?? SpotlightStore.totals(db)
/// memo?.totals = totals
/// ```
final class ReadMemo: @unchecked Sendable {  // used only by the thread holding its slot
    /// The data version these were read at; nil when the file's could not be read.
    private(set) var version: UInt32?
    /// The ranked index's segments and their stamp.
    var snapshot: (segments: [SegmentSnapshot], stamp: RankedSnapshotStamp)?
    /// `meta`'s engagement totals, not yet decayed to now.
    var totals: SpotlightStore.EngagementSignals?

    /// Keeps what is held if the file is still at `version`, else forgets
    /// it; the memo, or nil when there is no version to keep anything by.
    func validate(_ version: UInt32?) -> ReadMemo? {
        if let version, version == self.version { return self }
        self.version = version
        snapshot = nil
        totals = nil
        return version == nil ? nil : self
    }

    /// The data version of `db`'s main file, inside a read transaction that
    /// has begun (a statement has read the file); nil if SQLite cannot say.
    static func dataVersion(_ db: Database) -> UInt32? {
        var version: UInt32 = 0
        let code = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_DATA_VERSION, &version)
        return code == SQLITE_OK ? version : nil
    }
}
