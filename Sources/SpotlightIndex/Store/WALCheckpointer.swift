import Dispatch
import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Copies a store's write-ahead log back into its file on a thread of its
/// own, so that the writer does not.
///
/// SQLite's own automatic checkpoint runs inside the commit that grows the
/// WAL past its limit: the writer copies 64 MB of pages into the database
/// file and syncs both files before its `index` call returns (0.16 of
/// the 0.98 s the writer's transactions took at 63,666 items; without
/// checkpoints, 0.10). A pool's writer hands that to this checkpointer
/// instead: its WAL hook (``install(on:)``, which replaces SQLite's
/// automatic one) asks for a checkpoint once the WAL holds
/// ``backgroundPages`` frames, and a connection of the checkpointer's own
/// runs it as `PASSIVE` beside the writer, which goes on committing
/// (SQLite lets one checkpoint run beside the writer and the readers, and
/// a crash in the middle of one loses nothing committed).
///
/// The writer starts the WAL over from its beginning (rather than growing
/// the file) only when a transaction begins with every frame copied,
/// which a checkpoint running beside it rarely leaves: so once the
/// checkpointer's passes leave at most ``tailPages`` frames, the writer's
/// next commit copies those itself, a few megabytes. If the WAL still
/// reaches ``writerPages`` frames (the checkpointer starved of CPU, or
/// held back by a long read, which holds back SQLite's own checkpoint
/// too), the writer checkpoints it all, as SQLite would have.
///
/// Durability is unchanged: a commit is in the WAL when it returns, as
/// before, and a checkpoint syncs the WAL before copying and the file
/// after. ``close()`` (the store's `deinit`) waits for a running
/// checkpoint and closes the connection before the pool closes its own,
/// whose last connection then checkpoints and removes the WAL.
///
/// ```swift
/// let checkpointer = WALCheckpointer(path: file.path, backgroundPages: 4_096)
/// config.prepareDatabase { db in checkpointer.install(on: db) }   // the writer's connection
/// // …
/// checkpointer.close()
/// ```
final class WALCheckpointer: Sendable {
    /// The WAL's frames past which the writer asks for a checkpoint.
    let backgroundPages: Int32
    /// The WAL's frames past which the writer checkpoints itself.
    var writerPages: Int32 { backgroundPages &* 3 }

    private let path: String
    private let queue = DispatchQueue(label: "org.openspotlight.store.checkpoint", qos: .utility)
    private let state = Mutex(State())
    /// Checkpoints run by this checkpointer's thread, by the writer for
    /// the last few frames, and by the writer for all of them at
    /// ``writerPages``; the most frames the WAL held after a commit (for
    /// tests and profiles).
    let passes = Atomic<Int>(0), tailPasses = Atomic<Int>(0), writerPasses = Atomic<Int>(0)
    let largestFrames = Atomic<Int32>(0)

    private struct State {
        /// A checkpoint is asked for or running.
        var running = false
        /// The last checkpoint left at most ``tailPages`` frames uncopied.
        var caughtUp = false
        /// The WAL's frames after the last commit.
        var lastFrames: Int32 = 0
        var closed = false
        /// Touched on `queue` only, under the lock for `close()`'s sake.
        var connection: OpaquePointer?
    }

    init(path: String, backgroundPages: Int32 = 4_096) {
        self.path = path
        self.backgroundPages = max(1, backgroundPages)
    }

    deinit { close() }

    /// Makes `db` (the writer's connection) ask this checkpointer for its
    /// checkpoints, replacing SQLite's automatic one. The hook holds this
    /// object unretained: the pool's configuration, which calls this,
    /// holds it for as long as its connections live.
    func install(on db: Database) {
        guard let connection = db.sqliteConnection else { return }
        sqlite3_wal_hook(connection, { context, db, name, frames in
            guard let context else { return SQLITE_OK }
            let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue()
            if checkpointer.committed(frames: frames) == .checkpointHere {
                // As SQLite's own automatic checkpoint: its result is not the commit's.
                _ = sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            }
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// What the writer does after a commit.
    enum Step: Equatable {
        case nothing
        /// Checkpoint on the writer's connection, now.
        case checkpointHere
    }

    /// The writer committed and its WAL holds `frames` frames: asks for a
    /// checkpoint, or says the writer checkpoints itself. A checkpoint
    /// copies what it can, but the writer only starts the WAL over (its
    /// next commit writes from the beginning of the file, not past its
    /// end) when a transaction begins with every frame copied: so when the
    /// checkpointer's passes have left at most ``tailPages`` frames, the
    /// writer copies the rest itself, a few megabytes, not the WAL's 64.
    func committed(frames: Int32) -> Step {
        _ = largestFrames.max(frames, ordering: .relaxed)
        let (step, start) = state.withLock { state -> (Step, Bool) in
            // Fewer frames than after the last commit: the WAL started over.
            if frames < state.lastFrames { state.caughtUp = false }
            state.lastFrames = frames
            if frames >= writerPages {
                state.caughtUp = false
                _ = writerPasses.add(1, ordering: .relaxed)
                return (.checkpointHere, false)
            }
            guard frames >= backgroundPages, !state.closed, !state.running else { return (.nothing, false) }
            if state.caughtUp {
                state.caughtUp = false
                _ = tailPasses.add(1, ordering: .relaxed)
                return (.checkpointHere, false)
            }
            state.running = true
            return (.nothing, true)
        }
        if start { queue.async { self.run() } }
        return step
    }

    /// Frames the checkpointer's passes may leave for the writer to copy.
    var tailPages: Int32 { max(1, backgroundPages / 16) }

    /// Checkpoints until at most ``tailPages`` frames are left uncopied,
    /// or no progress is made (a reader holds the rest back, or another
    /// checkpoint runs).
    private func run() {
        var previous: Int32 = -1, caughtUp = false
        for _ in 0..<8 {
            guard let connection = openedConnection() else { break }
            var log: Int32 = 0, copied: Int32 = 0
            let result = sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &copied)
            _ = passes.add(1, ordering: .relaxed)
            guard result == SQLITE_OK, copied != previous else { break }
            if log - copied <= tailPages {
                caughtUp = true
                break
            }
            previous = copied
        }
        state.withLock { state in
            state.running = false
            state.caughtUp = caughtUp
        }
    }

    /// The checkpointer's connection, opened on first use; nil once closed
    /// or when the file cannot be opened (the writer then checkpoints at
    /// ``writerPages``).
    private func openedConnection() -> OpaquePointer? {
        state.withLock { state -> OpaquePointer? in
            guard !state.closed else { return nil }
            if let connection = state.connection { return connection }
            var connection: OpaquePointer?
            let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
            // A read opens the file's WAL: until then the connection does
            // not know the file is in WAL mode, and a checkpoint does nothing.
            guard sqlite3_open_v2(path, &connection, flags, nil) == SQLITE_OK,
                  sqlite3_exec(connection, "PRAGMA cache_size = 8; SELECT 1 FROM sqlite_schema LIMIT 1", nil, nil, nil) == SQLITE_OK else {
                sqlite3_close_v2(connection)
                return nil
            }
            state.connection = connection
            return connection
        }
    }

    /// Returns once no checkpoint asked for is waiting or running.
    func waitUntilIdle() {
        queue.sync {}
    }

    /// Waits for a running checkpoint and closes the connection; later
    /// requests do nothing. Called before the writer's pool closes, whose
    /// last connection then checkpoints and removes the WAL as before.
    func close() {
        state.withLock { $0.closed = true }
        queue.sync {}
        let connection = state.withLock { state -> OpaquePointer? in
            defer { state.connection = nil }
            return state.connection
        }
        if let connection { sqlite3_close_v2(connection) }
    }
}
