import Foundation
import GRDB

/// Opens a store's file, recovering from loss and damage.
///
/// The layout under the root directory (created `0700`):
/// ```
/// <root>/<bundle identifier>/<index name>.sqlite   (+ -wal, -shm)
/// <root>/.registry/<bundle identifier>/<index name> a marker: this store existed
/// <root>/.registry/<bundle identifier>/.locks/<index name>   held (flock) while the store is opened
/// ```
/// - File missing, marker present: the store was lost. A new empty store is
///   created and a reindex requested (`storeMissing`).
/// - File present but not a database, failing `PRAGMA quick_check`, or
///   without our tables: it is renamed `<index name>.sqlite.corrupt-<time>`
///   (with its -wal and -shm) and a new empty store is created with a
///   reindex requested (`storeCorrupt`).
/// - A store written by a newer schema is refused, untouched.
struct StoreOpener {
    var bundleIdentifier: String
    var indexName: String
    var location: StoreLocation
    var options: StoreOptions

    struct Opened {
        var writer: any DatabaseWriter
        /// Read-only connections beside a pool's (``ReaderSlots``); nil for one connection or memory.
        var readers: ReaderSlots?
        var fileURL: URL?
        var movedAside: URL?
        var reindexReason: ReindexReason?
        /// Opened read-only: the file or its folder cannot be written (a read-only file system, permissions).
        var readOnly = false
        /// Checkpoints a pool writer's WAL off the writer (``WALCheckpointer``).
        var checkpointer: WALCheckpointer?
    }

    func open() throws -> Opened {
        guard let root = location.rootDirectory else {
            let queue = try DatabaseQueue(configuration: configuration())
            _ = try prepare(queue)
            return Opened(writer: queue, fileURL: nil, movedAside: nil, reindexReason: nil)
        }
        let directory = root.appendingPathComponent(bundleIdentifier, isDirectory: true)
        let registry = root.appendingPathComponent(".registry", isDirectory: true)
            .appendingPathComponent(bundleIdentifier, isDirectory: true)
        let existing = directory.appendingPathComponent(indexName + ".sqlite")
        if StorePath.isFile(existing.path), !Self.isWritable(existing.path) || !Self.isWritable(directory.path) {
            try StorePath.checkNoLinks(existing, below: root)
            return try openReadOnly(existing)
        }
        try makePrivateDirectory(root)
        try StorePath.makePrivateDirectory(directory, below: root)
        try StorePath.makePrivateDirectory(registry.deletingLastPathComponent(), below: root)
        try StorePath.makePrivateDirectory(registry, below: root)
        let file = directory.appendingPathComponent(indexName + ".sqlite")
        let marker = registry.appendingPathComponent(indexName)
        let manager = FileManager.default
        // One opener at a time creates, checks, recovers or upgrades a store's
        // file: two processes (or two handles) opening a new store at once would
        // otherwise both create its tables, and the loser would take the
        // winner's fresh file for a damaged one and move it aside.
        // (`.locks` cannot be an index's marker: index names never start with a dot.)
        let locks = registry.appendingPathComponent(".locks", isDirectory: true)
        try StorePath.makePrivateDirectory(locks, below: root)
        let lock = try OpenLock(locks.appendingPathComponent(indexName), timeout: options.busyTimeout)
        defer { lock.release() }
        // Never a link: not the file, its journal files, or the marker.
        for path in [file, URL(fileURLWithPath: file.path + "-wal"), URL(fileURLWithPath: file.path + "-shm"), marker] {
            if StorePath.kind(path.path) == .link { throw StorePath.linked(path) }
            if StorePath.kind(path.path) == .directory || StorePath.kind(path.path) == .other {
                throw SpotlightIndexError(.storeUnavailable, "\(path.path) is not a regular file; move it away")
            }
        }

        var reason: ReindexReason?
        var movedAside: URL?
        if !StorePath.isFile(file.path) && StorePath.isFile(marker.path) {
            reason = .storeMissing
            for suffix in ["-wal", "-shm"] where StorePath.isFile(file.path + suffix) { try? manager.removeItem(atPath: file.path + suffix) }
        }

        var opened: (writer: any DatabaseWriter, created: Double?, checkpointer: WALCheckpointer?)
        do {
            opened = try openChecked(file)
        } catch let error as SpotlightIndexError where error.code != .storeCorrupt {
            throw error
        } catch {
            movedAside = try moveAside(file)
            reason = .storeCorrupt
            opened = try openChecked(file)
        }
        let (writer, created, checkpointer) = opened
        if reason == nil, StorePath.isFile(marker.path), created == nil {
            reason = .storeMissing // the file is there but empty: its content is gone
        }
        // A store opened as it is (the common case) is not written: a search
        // that opens twenty stores would otherwise take twenty write locks.
        if created == nil || reason != nil {
            try writer.write { db in
                if try db.meta("created", as: Double.self) == nil {
                    try db.setMeta("created", options.clock().timeIntervalSince1970)
                }
                if let reason { try db.setMeta("pending_reindex", reason.rawValue) }
            }
        }
        if !StorePath.isFile(marker.path) {
            guard manager.createFile(atPath: marker.path, contents: Data(), attributes: [.posixPermissions: 0o600]) else {
                throw SpotlightIndexError(.storeUnavailable, "cannot write \(marker.path): check the permissions of \(registry.path)")
            }
        }
        // A pool's hot reads go through connections of the store's own (one connection: through it).
        let readers = writer is DatabasePool ? ReaderSlots(path: file.path, configuration: configuration()) : nil
        return Opened(writer: writer, readers: readers, fileURL: file, movedAside: movedAside, reindexReason: reason,
                      checkpointer: checkpointer)
    }

    /// An exclusive advisory lock (`flock`) on a file beside the store's marker,
    /// held while a store is opened. Locks taken through separate opens
    /// exclude each other, within a process as across processes.
    struct OpenLock {
        private let descriptor: Int32

        init(_ url: URL, timeout: TimeInterval) throws {
            if StorePath.kind(url.path) == .link { throw StorePath.linked(url) }
            descriptor = Foundation.open(url.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw SpotlightIndexError(.storeUnavailable, "cannot open \(url.path): \(String(cString: strerror(errno)))")
            }
            let deadline = Date().addingTimeInterval(timeout)
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                    close(descriptor)
                    throw SpotlightIndexError(.storeBusy, "another process is opening \(url.deletingPathExtension().lastPathComponent) and held \(url.path) longer than \(timeout) s")
                }
                usleep(2_000)
            }
        }

        func release() {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    /// Whether this process may write `path` (false on a read-only file system too).
    static func isWritable(_ path: String) -> Bool { access(path, W_OK) == 0 }

    /// Opens a store that cannot be written (a read-only file system or
    /// permissions): read-only, and, when no journal holds writes the file
    /// lacks, as immutable (SQLite then needs no lock or shared-memory file,
    /// which a read-only folder could not hold). Nothing is created, renamed
    /// or written; writing to the store fails with `.storeUnavailable`.
    private func openReadOnly(_ file: URL) throws -> Opened {
        var config = configuration()
        config.readonly = true
        let pendingJournal = (StorePath.size(file.path + "-wal") ?? 0) > 0
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let path = file.path.addingPercentEncoding(withAllowedCharacters: allowed) ?? file.path
        let uri = "file:\(path)?" + (pendingJournal ? "mode=ro" : "immutable=1")
        do {
            let queue = try DatabaseQueue(path: uri, configuration: config)
            let state = try queue.read { db -> FileState? in
                if options.checksIntegrityOnOpen, try String.fetchAll(db, sql: "PRAGMA quick_check(5)") != ["ok"] { return nil }
                return try FileState(db)
            }
            guard let state, state.hasItems else {
                throw SpotlightIndexError(.storeCorrupt, "\(file.path) is read-only and damaged; it cannot be moved aside, so it is left as it is")
            }
            guard state.applied == Set(Schema.migrator.migrations) else {
                throw SpotlightIndexError(.storeUnavailable, "\(file.path) is read-only and was written by another version of OpenSpotlight (schema \(state.applied.sorted().joined(separator: ", "))); it can be read only where it can be upgraded")
            }
            return Opened(writer: queue, fileURL: file, movedAside: nil, reindexReason: nil, readOnly: true)
        } catch let error as SpotlightIndexError {
            throw error
        } catch {
            throw SpotlightIndexError(.storeUnavailable, "\(file.path) cannot be written, and cannot be read either: \(error)", underlying: error)
        }
    }

    /// Pages of 16 KB rather than SQLite's 4 KB: a commit writes each page
    /// it changed to the WAL as one frame (two system calls), and an
    /// indexing transaction changes mostly whole pages of appended rows, so
    /// larger pages cut the commit's calls fourfold (commit time at 1M
    /// items ~9 s → ~5.5 s). Reading an item reads one 16 KB page.
    static let pageSize = 16_384

    /// The writer's settings for bulk indexing, measured on the benchmark
    /// corpus (`Benchmarks/`): checkpointing every 4,096 WAL pages (64 MB)
    /// rather than SQLite's 1,000 copies a page that many transactions
    /// change back into the database once, not once per transaction.
    /// After a checkpoint the WAL file is cut back to 96 MB, more than a
    /// checkpoint's worth: cut back to 16 MB, every checkpoint made the
    /// next commits grow the file again, page by new page (commit time at
    /// 1M items 4.2 s → 3.0 s).
    ///
    /// The page cache is 2 MB (128 pages of 16 KB): a 1,000-item
    /// transaction dirties ~100 (its rows, its segment's blob, the
    /// indexes' last pages), so they stay in the cache until the commit,
    /// and the pages it only reads are the tables' rightmost. 8 MB indexed
    /// no faster and held 5–9 MB more at the peak (alternating runs of
    /// the benchmark's index child: 10,000 items 56 → 52 MB, 63,666
    /// 76 → 68 MB, 1M 123 → 116 MB, items/s within noise). 1 MB (64
    /// pages) held 2–4 MB less and measured as fast, but is smaller than a
    /// transaction's dirty pages, which SQLite then writes to the WAL
    /// before the commit, some of them twice.
    ///
    /// Deleted content is overwritten (`secure_delete`), whatever SQLite's
    /// build says (Debian's does; SQLite's own default does not): an item
    /// an app deletes does not stay readable in the file's free pages.
    static let writerPragmas = """
        PRAGMA secure_delete = ON;
        PRAGMA cache_size = -2048;
        PRAGMA wal_autocheckpoint = 4096;
        PRAGMA journal_size_limit = 100663296;
        """

    /// How much of the file a reader connection maps into memory (SQLite
    /// clamps it to its build's limit and reads past that through `pread`
    /// as before).
    ///
    /// With 16 KB pages, every page a search reads that is not in the
    /// connection's cache was copied whole from the kernel's page cache
    /// (each result's row is on its own page): 11% of an attribute query's
    /// CPU at 63,666 items. Mapped, the row is read in place. Alternating
    /// builds: at 63,666 items word p50 0.22–0.26 → 0.16 ms and attribute
    /// p99 1.5–1.8 → 1.1–1.2 ms; system search over 20 × 50,000 items
    /// (in-process) keystroke p50 5.8–6.5 → 5.5 ms.
    ///
    /// Peak RSS then counts the file's pages the searches touched (54 →
    /// 87 MB for the benchmark's query phase at 63,666 items): the page
    /// cache's own pages, which `pread` filled as well without RSS showing
    /// them, and which the kernel can drop at any time; the connection no
    /// longer holds a second copy in its cache.
    ///
    /// SQLite itself never cuts a mapped page a reader can reach (in WAL
    /// mode the database file shrinks only at a checkpoint that no older
    /// reader holds back), and a store is replaced by a rename, which
    /// leaves mappings intact. A file truncated in place by another
    /// program would end the process with `SIGBUS`, as a segment file
    /// (mapped as well) would. The writer and a one-connection store
    /// (``StoreOptions/opensOneConnection``) read through `pread`.
    static let readerMapSize = 1 << 31

    /// - Parameter readersMap: whether read-only connections map the file
    ///   (``readerMapSize``). A pool's own readers do not: the store's
    ///   reads run on its ``ReaderSlots``, which do, and a page mapped by
    ///   two connections counts twice in the process's RSS (a service over
    ///   20 stores: 1.1 → 1.7 GB with both mapping, the same pages).
    /// - Parameter checkpointer: checkpoints the writer's WAL instead of
    ///   SQLite's automatic checkpoint (a pool's writer).
    private func configuration(readersMap: Bool = true, checkpointer: WALCheckpointer? = nil) -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(options.busyTimeout)
        config.label = "\(bundleIdentifier)/\(indexName)"
        config.prepareDatabase { db in
            // A new file only (this is before WAL mode; later it does nothing).
            try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            if db.configuration.readonly {
                if readersMap { try db.execute(sql: "PRAGMA mmap_size = \(Self.readerMapSize)") }
            } else {
                try db.execute(sql: Self.writerPragmas)
                checkpointer?.install(on: db)
            }
        }
        return config
    }

    /// Opens the file, checks it, and creates or upgrades the schema; gives
    /// the store's `created` time (nil for a store made just now).
    /// Throws `.storeCorrupt` for a damaged file.
    private func openChecked(_ file: URL) throws -> (writer: any DatabaseWriter, created: Double?, checkpointer: WALCheckpointer?) {
        let writer: any DatabaseWriter
        let checkpointer = options.opensOneConnection ? nil : WALCheckpointer(path: file.path, backgroundPages: options.walCheckpointPages)
        do {
            writer = try options.opensOneConnection
                ? openOneConnection(file)
                : DatabasePool(path: file.path, configuration: configuration(readersMap: false, checkpointer: checkpointer))
        } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            throw SpotlightIndexError(.storeCorrupt, "\(file.path) is not a store", underlying: error)
        } catch {
            throw SpotlightStore.translate(error, fileURL: file)
        }
        do {
            if options.checksIntegrityOnOpen {
                let result = try writer.read { try String.fetchAll($0, sql: "PRAGMA quick_check(5)") }
                if result != ["ok"] {
                    throw SpotlightIndexError(.storeCorrupt, "\(file.path) fails SQLite's integrity check: \(result.joined(separator: "; "))")
                }
            }
            return (writer, try prepare(writer), checkpointer)
        } catch let error as SpotlightIndexError {
            checkpointer?.close()
            try? writer.close()
            throw error
        } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT, .SQLITE_ERROR].contains(error.resultCode) {
            checkpointer?.close()
            try? writer.close()
            throw SpotlightIndexError(.storeCorrupt, "\(file.path) is damaged", underlying: error)
        } catch {
            checkpointer?.close()
            try? writer.close()
            throw SpotlightStore.translate(error, fileURL: file)
        }
    }

    /// One connection for reads and writes in turn
    /// (``StoreOptions/opensOneConnection``). A file not in WAL mode yet (a
    /// new one) is opened as a pool instead, which sets the mode for good.
    private func openOneConnection(_ file: URL) throws -> any DatabaseWriter {
        let queue = try DatabaseQueue(path: file.path, configuration: configuration())
        if try queue.read({ try String.fetchOne($0, sql: "PRAGMA journal_mode") }) == "wal" { return queue }
        try queue.close()
        return try DatabasePool(path: file.path, configuration: configuration(readersMap: false))
    }

    /// What opening reads of a file, writable or not, in one read
    /// transaction: its applied migrations, whether it has its tables, and
    /// two meta values. (GRDB's `tableExists` loads a description of the
    /// whole schema per connection, and with the separate reads it was
    /// about a tenth of opening a store in `spotlight search`.)
    private struct FileState {
        var applied: Set<String> = []
        var hasItems = false
        var tokenizerVersion: Int?
        var created: Double?

        init() {}

        init(_ db: Database) throws {
            let tables = try Set(String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('grdb_migrations', 'items', 'meta')
                """))
            hasItems = tables.contains("items")
            if tables.contains("grdb_migrations") {
                applied = try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
            }
            if tables.contains("meta") {
                for row in try Row.fetchAll(db, sql: "SELECT key, value FROM meta WHERE key IN ('tokenizer_version', 'created')") {
                    switch row[0] as String {
                    case "tokenizer_version": tokenizerVersion = row[1]
                    default: created = row[1]
                    }
                }
            }
        }
    }

    /// Creates or upgrades the schema, refusing a newer one; gives the
    /// store's `created` time.
    private func prepare(_ writer: any DatabaseWriter) throws -> Double? {
        let migrator = Schema.migrator
        let known = Set(migrator.migrations)
        // On the writer's connection: a pool's `read` would open a reader
        // connection (its pragmas, its parse of the schema) for this alone,
        // where a search reads through the store's reader slots.
        let state = try writer.writeWithoutTransaction { db in
            var state = FileState()
            try db.inTransaction(.deferred) {
                state = try FileState(db)
                return .commit
            }
            return state
        }
        if !state.applied.isSubset(of: known) {
            throw SpotlightIndexError(.storeUnavailable, "the store was written by a newer OpenSpotlight (schema \(state.applied.sorted().joined(separator: ", "))); open it with that version")
        }
        // A store as this version writes it is only read: a search that opens
        // twenty stores would otherwise take twenty write locks here.
        if state.applied == known && state.hasItems && state.tokenizerVersion == TextTokenizer.version { return state.created }
        try migrator.migrate(writer)
        return try writer.write { db in
            guard try db.tableExists("items") else {
                throw SpotlightIndexError(.storeCorrupt, "the store's tables are missing")
            }
            // The ranked index records its own tokenizer and is rebuilt on open when it differs.
            if try db.meta("tokenizer_version", as: Int.self) != TextTokenizer.version {
                try db.setMeta("tokenizer_version", TextTokenizer.version)
            }
            return try db.meta("created", as: Double.self)
        }
    }

    /// Renames a damaged file (and its journal files) to a name nothing has;
    /// only regular files the store made are ever renamed.
    private func moveAside(_ file: URL) throws -> URL {
        let target = StorePath.asideName(for: file, at: options.clock())
        let manager = FileManager.default
        guard StorePath.isFile(file.path) else {
            throw SpotlightIndexError(.storeUnavailable, "\(file.path) cannot be opened as a store and is not a regular file; move it away")
        }
        do {
            try manager.moveItem(at: file, to: target)
            for suffix in ["-wal", "-shm"] where StorePath.isFile(file.path + suffix) {
                try manager.moveItem(atPath: file.path + suffix, toPath: target.path + suffix)
            }
        } catch {
            throw SpotlightIndexError(.storeUnavailable, "\(file.path) is damaged and cannot be moved aside; move it yourself", underlying: error)
        }
        return target
    }

    /// The root itself: it may be a link (the user's choice of where data lives).
    private func makePrivateDirectory(_ url: URL) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw SpotlightIndexError(.storeUnavailable, "\(url.path) is a file, not a directory; move it away")
            }
            return
        }
        do {
            try manager.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw SpotlightIndexError(.storeUnavailable, "cannot create \(url.path): check its parent's permissions", underlying: error)
        }
    }
}
