import Foundation
import GRDB
import Synchronization

/// Every token the full-text index has been given, with a trigram index
/// over them: what lets a query find the words that *contain* a piece of
/// text (`*brar*` → `library`, `libraries`) without reading every item.
///
/// - `term_blocks(id, terms)`: the tokens first seen by one write
///   transaction, space-separated (one row per transaction, not per token:
///   a row of an FTS5 table costs more than its text);
/// - `term_trigrams`: an FTS5 `trigram` index over those blocks (external
///   content, `detail=none`), so `terms LIKE '%brar%'` reads only the blocks
///   holding `bra` and `rar`; the matching tokens are then picked out of them.
///
/// The vocabulary only grows: removing an item leaves its tokens, which
/// then find no row in `fts` and cost one lookup. Deleting every item
/// clears it (deleted words do not linger in the file) and bumps
/// `meta.terms_generation`, which tells other connections to forget.
///
/// Each connection remembers the tokens the table holds as 128-bit hashes
/// (two independent 64-bit FNV-1a), read when it first records tokens and
/// then as other connections add blocks: writing costs a hash lookup per token, and
/// a table write only for tokens never seen. Hashes join the remembered
/// set only after their transaction commits, so a rollback cannot leave a
/// token remembered but absent.
final class TermVocabulary: Sendable {
    private struct State {
        var generation: Int?
        /// Blocks with an id up to this one are in `known`.
        var loadedThrough: Int64 = 0
        var known: Set<TermHash> = []
        /// This transaction's new tokens.
        var pending: Set<TermHash> = []
        var pendingTerms: [String] = []
        /// The block this transaction wrote.
        var pendingBlock: Int64?
        /// The generation and last block id this transaction started with.
        var current: (generation: Int, last: Int64)?
    }

    private let state = Mutex(State())

    init() {}

    /// Starts a write transaction: notes whether other connections added
    /// blocks, or cleared the vocabulary, since this one last looked. The
    /// blocks are read only if this transaction records tokens.
    func begin(_ db: Database) throws {
        let generation = try db.meta("terms_generation", as: Int.self) ?? 0
        let last = try Int64.fetchOne(db, sql: "SELECT max(id) FROM term_blocks") ?? 0
        state.withLock { state in
            state.pending.removeAll()
            state.pendingTerms.removeAll()
            state.pendingBlock = nil
            state.current = (generation, last)
        }
    }

    /// Adds the tokens of one item; call inside a write transaction,
    /// after ``begin(_:)``.
    func record(_ terms: TermList, _ db: Database) throws {
        try catchUp(db)
        state.withLock { state in
            for index in terms.hashes.indices {
                let hash = terms.hashes[index]
                if state.known.contains(hash) || !state.pending.insert(hash).inserted { continue }
                state.pendingTerms.append(terms.term(at: index))
            }
        }
    }

    /// Reads the blocks this connection has not seen (all of them after a clear).
    private func catchUp(_ db: Database) throws {
        let (generation, last, reset, from): (Int, Int64, Bool, Int64?) = state.withLock { state in
            let (generation, last) = state.current ?? (state.generation ?? 0, state.loadedThrough)
            let reset = state.generation != generation
            let from: Int64? = reset ? 0 : (last > state.loadedThrough ? state.loadedThrough : nil)
            return (generation, last, reset, from)
        }
        guard let from else { return }
        var hashes: [TermHash] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT terms FROM term_blocks WHERE id > ? AND id <= ?", arguments: [from, last])
        while let row = try rows.next() {
            let text: String = row[0]
            Self.forEachToken(in: Array(text.utf8)) { hash, _ in hashes.append(hash) }
        }
        state.withLock { state in
            if reset { state.known.removeAll() }
            state.known.formUnion(hashes)
            state.generation = generation
            state.loadedThrough = last
        }
    }

    /// Writes this transaction's new tokens as one block; call last in the transaction.
    func flush(_ db: Database) throws {
        let terms = state.withLock { $0.pendingTerms }
        guard !terms.isEmpty else { return }
        let block = try Self.insertBlock(terms, db)
        state.withLock { $0.pendingBlock = block }
    }

    /// The write transaction committed: its tokens are in the table now.
    func committed() {
        state.withLock { state in
            state.known.formUnion(state.pending)
            if let block = state.pendingBlock { state.loadedThrough = max(state.loadedThrough, block) }
            state.pendingBlock = nil
            state.pending.removeAll()
            state.pendingTerms.removeAll()
        }
    }

    /// The write transaction rolled back: forget what it added.
    func rolledBack() {
        state.withLock { state in
            state.pendingBlock = nil
            state.pending.removeAll()
            state.pendingTerms.removeAll()
        }
    }

    /// The vocabulary was cleared in this transaction: remember nothing.
    func forget() {
        state.withLock { state in
            state.current = nil
            state.known.removeAll()
            state.pending.removeAll()
            state.pendingTerms.removeAll()
            state.generation = nil
            state.loadedThrough = 0
        }
    }

    // MARK: - The tables

    @discardableResult
    static func insertBlock(_ terms: [String], _ db: Database) throws -> Int64 {
        let text = terms.joined(separator: " ")
        try db.cachedStatement(sql: "INSERT INTO term_blocks(terms) VALUES (?)").execute(arguments: [text])
        let id = db.lastInsertedRowID
        try db.cachedStatement(sql: "INSERT INTO term_trigrams(rowid, terms) VALUES (?, ?)").execute(arguments: [id, text])
        return id
    }

    /// Empties the vocabulary and tells every connection to forget it.
    static func clear(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM term_blocks; INSERT INTO term_trigrams(term_trigrams) VALUES ('delete-all')")
        let generation = try db.meta("terms_generation", as: Int.self) ?? 0
        try db.setMeta("terms_generation", generation + 1)
    }

    /// Every distinct token of the `fts` table, as one block (upgrades, rebuilds).
    static func rebuild(_ db: Database) throws {
        try clear(db)
        try db.execute(sql: "CREATE VIRTUAL TABLE temp.fts_terms USING fts5vocab(main, 'fts', 'row')")
        defer { try? db.execute(sql: "DROP TABLE temp.fts_terms") }
        let terms = try String.fetchAll(db, sql: "SELECT term FROM temp.fts_terms")
        for start in stride(from: 0, to: terms.count, by: 4096) {
            try insertBlock(Array(terms[start..<min(start + 4096, terms.count)]), db)
        }
    }

    /// At most `limit` indexed tokens containing `fragment` (folded, word
    /// characters only), or nil when there are more.
    static func terms(containing fragment: String, limit: Int, _ db: Database) throws -> [String]? {
        let needle = Array(fragment.utf8)
        return try terms(around: fragment, limit: limit, db) { contains($0.utf8, needle) }
    }

    /// At most `limit` indexed tokens starting with `prefix`, or nil when there are more.
    static func terms(startingWith prefix: String, limit: Int, _ db: Database) throws -> [String]? {
        try terms(around: prefix, limit: limit, db) { $0.hasPrefix(prefix) }
    }

    /// The distinct tokens `keep` accepts among those of the blocks holding
    /// `fragment`: three characters or more go through the trigram index,
    /// shorter fragments scan the blocks, which are far smaller than the items.
    private static func terms(around fragment: String, limit: Int, _ db: Database,
                              keep: (Substring) -> Bool) throws -> [String]? {
        // Word characters hold no LIKE wildcards, so the pattern needs no escaping.
        let sql = fragment.unicodeScalars.count >= 3
            ? "SELECT terms FROM term_trigrams WHERE terms LIKE ?"
            : "SELECT terms FROM term_blocks WHERE terms LIKE ?"
        var found = Set<String>()
        let blocks = try String.fetchCursor(db.cachedStatement(sql: sql), arguments: ["%" + fragment + "%"])
        while let block = try blocks.next() {
            for term in block.split(separator: " ") where keep(term) {
                found.insert(String(term))
                if found.count > limit { return nil }
            }
        }
        return found.sorted()
    }

    /// Byte containment: the terms are folded already (LIKE folds ASCII case only).
    private static func contains(_ haystack: Substring.UTF8View, _ needle: [UInt8]) -> Bool {
        let bytes = Array(haystack)
        guard needle.count <= bytes.count else { return false }
        guard let first = needle.first else { return true }
        for start in 0...(bytes.count - needle.count) where bytes[start] == first {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// Calls `body` with the hash and byte range of each space-separated token.
    static func forEachToken(in utf8: [UInt8], _ body: (TermHash, Range<Int>) -> Void) {
        var start = 0
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x84222325_cbf29ce4
        for index in 0...utf8.count {
            if index == utf8.count || utf8[index] == 0x20 {
                if index > start { body(TermHash(a: a, b: b), start..<index) }
                start = index + 1
                a = 0xcbf2_9ce4_8422_2325
                b = 0x84222325_cbf29ce4
            } else {
                let byte = UInt64(utf8[index])
                a = (a ^ byte) &* 0x0000_0100_0000_01b3
                b = (b ^ (byte &+ 0x9e)) &* 0x0000_0001_0000_0193
            }
        }
    }
}

/// A token's 128-bit hash (two independent 64-bit FNV-1a).
struct TermHash: Hashable, Sendable {
    var a: UInt64
    var b: UInt64

    init(a: UInt64, b: UInt64) {
        self.a = a
        self.b = b
    }

    /// The hash of a whole byte sequence, by ``TermVocabulary/forEachToken(in:_:)``'s function.
    init(of bytes: some Sequence<UInt8>) {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x84222325_cbf29ce4
        for byte in bytes {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ (UInt64(byte) &+ 0x9e)) &* 0x0000_0001_0000_0193
        }
        self.init(a: a, b: b)
    }

    /// 32 lowercase hexadecimal digits.
    var hex: String {
        func digits(_ value: UInt64) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        return digits(a) + digits(b)
    }
}

/// The tokens of an item, hashed on the preparing thread so that the
/// writer only looks hashes up.
struct TermList: Sendable {
    /// The item's tokens, space-separated, in column order.
    private(set) var utf8: [UInt8] = []
    private(set) var hashes: [TermHash] = []
    private var ranges: [Range<Int>] = []

    init() {}

    init(_ columns: TextColumns) {
        utf8.reserveCapacity(columns.title.utf8.count + columns.keywords.utf8.count + columns.description.utf8.count + columns.other.utf8.count + 3)
        for column in [columns.title, columns.keywords, columns.description, columns.other] where !column.isEmpty {
            if !utf8.isEmpty { utf8.append(0x20) }
            utf8.append(contentsOf: column.utf8)
        }
        var hashes: [TermHash] = []
        var ranges: [Range<Int>] = []
        TermVocabulary.forEachToken(in: utf8) { hash, range in
            hashes.append(hash)
            ranges.append(range)
        }
        self.hashes = hashes
        self.ranges = ranges
    }

    func term(at index: Int) -> String {
        String(decoding: utf8[ranges[index]], as: UTF8.self)
    }
}
