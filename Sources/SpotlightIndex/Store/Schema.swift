import GRDB

/// The tables of a store, created and upgraded by GRDB migrations.
///
/// - `meta(key, value)`: schema and tokenizer versions, the batch client
///   state, the item count, a pending reindex request.
/// - `items`: one row per item, the store of record: its identifier, the
///   columns below, and last its attributes (`attributes`, the compressed
///   ``AttributeCodec`` blob). `expiration` is the date the app gave
///   (seconds since 2001, exact); `expires`, `indexed_at`, `recency` and
///   `eng_at` are seconds since 1970; `expires` is the effective
///   expiration; `hint`, `recency`, `eng`, `imp` and `eng_at` the ranking
///   signals, which the ranked index keeps too. Before v10 the blob was in
///   a table of its own, `item_attributes` (same rowid), so that a ranking
///   join over `items` read dense pages; since the ranked index holds the
///   signals, reading an item is all that table served, and it cost two
///   B-tree lookups, two pages and two inserts an item instead of one.
/// - `engagement(uid, views, selections, score, at, impressions)`: counts
///   that survive replacing an item and go with deleting it. `items.imp`
///   holds the decayed impressions beside `eng` (both as of `eng_at`).
/// - `ranked_segments`: the ranked index (``RankedIndex``), the store's
///   only index besides SQLite's own on `domain` and `expires`: free-text
///   search, the query language's text candidates, typed values (numbers,
///   dates, bools) by attribute and value, and which rowid holds an
///   identifier. Stores before v7 also kept a contentless FTS5 table `fts`
///   beside it (written with every item, ~40% of indexing time); before
///   v8, `items.uid` was `UNIQUE` and typed values had a table,
///   `attr_numbers(name, value, item)`: each item cost a random B-tree
///   insert in both per transaction (~40 µs an item at 1M items). v8
///   keeps both in the ranked index's segments, which are appended to.
enum Schema {
    /// The schema this code writes; a store with a greater one is refused.
    static let version = 1

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE meta(key TEXT PRIMARY KEY NOT NULL, value);
                CREATE TABLE items(
                    rowid INTEGER PRIMARY KEY,
                    uid TEXT NOT NULL UNIQUE,
                    domain TEXT,
                    content_type TEXT,
                    expiration REAL,
                    expires REAL NOT NULL,
                    indexed_at REAL NOT NULL,
                    hint REAL NOT NULL DEFAULT 0,
                    recency REAL,
                    eng REAL NOT NULL DEFAULT 0,
                    eng_at REAL NOT NULL DEFAULT 0
                );
                CREATE TABLE item_attributes(
                    rowid INTEGER PRIMARY KEY,
                    attributes BLOB NOT NULL
                );
                CREATE INDEX items_domain ON items(domain) WHERE domain IS NOT NULL;
                CREATE INDEX items_expires ON items(expires);
                CREATE TABLE engagement(
                    uid TEXT PRIMARY KEY NOT NULL,
                    views INTEGER NOT NULL DEFAULT 0,
                    selections INTEGER NOT NULL DEFAULT 0,
                    score REAL NOT NULL DEFAULT 0,
                    at REAL NOT NULL DEFAULT 0
                ) WITHOUT ROWID;
                CREATE VIRTUAL TABLE fts USING fts5(
                    title, keywords, description, other,
                    content='', tokenize='ascii'
                );
                """)
            // Merge segments 16 at a time (FTS5's default is 4): +40% indexing
            // speed on the Debian corpus, no measurable query cost.
            try db.execute(sql: """
                INSERT INTO fts(fts, rank) VALUES ('automerge', 16);
                INSERT INTO fts(fts, rank) VALUES ('crisismerge', 64);
                """)
            try db.execute(sql: "INSERT INTO meta(key, value) VALUES ('schema_version', ?), ('tokenizer_version', ?), ('item_count', 0)",
                           arguments: [version, TextTokenizer.version])
        }
        // The typed-value table, dropped by v8 (the ranked index holds them).
        migrator.registerMigration("v2-attr-numbers") { db in
            try db.execute(sql: """
                CREATE TABLE attr_numbers(
                    name TEXT NOT NULL,
                    value REAL NOT NULL,
                    item INTEGER NOT NULL,
                    PRIMARY KEY(name, value, item)
                ) WITHOUT ROWID
                """)
        }
        // Was a vocabulary of every token with a trigram index over it, for
        // infix wildcards; the ranked index's dictionaries answer those now
        // (RankedDictionary), and v6 drops the tables of stores that have them.
        migrator.registerMigration("v3-terms") { _ in }
        // The typed values of one item, for checking a streamed candidate's
        // numeric condition without reading the item (QueryPlanner.ItemCheck).
        migrator.registerMigration("v4-numbers-by-item") { db in
            try db.execute(sql: "CREATE INDEX attr_numbers_item ON attr_numbers(item)")
        }
        // The ranked index's segment list (RankedIndex); built on open.
        migrator.registerMigration("v5-ranked") { db in
            try db.execute(sql: RankedIndex.createTable)
        }
        migrator.registerMigration("v6-no-vocabulary") { db in
            try db.execute(sql: """
                DROP TABLE IF EXISTS term_trigrams;
                DROP TABLE IF EXISTS term_blocks;
                DELETE FROM meta WHERE key = 'terms_generation';
                """)
        }
        migrator.registerMigration("v7-no-fts") { db in
            try db.execute(sql: "DROP TABLE IF EXISTS fts")
        }
        // Identifiers and typed values live in the ranked index (segment
        // format 7, rebuilt on open): `items` loses its UNIQUE index on
        // `uid`, and `attr_numbers` goes.
        migrator.registerMigration("v8-lookups-in-segments") { db in
            try db.execute(sql: """
                CREATE TABLE items_v8(
                    rowid INTEGER PRIMARY KEY,
                    uid TEXT NOT NULL,
                    domain TEXT,
                    content_type TEXT,
                    expiration REAL,
                    expires REAL NOT NULL,
                    indexed_at REAL NOT NULL,
                    hint REAL NOT NULL DEFAULT 0,
                    recency REAL,
                    eng REAL NOT NULL DEFAULT 0,
                    eng_at REAL NOT NULL DEFAULT 0
                );
                INSERT INTO items_v8(rowid, uid, domain, content_type, expiration, expires, indexed_at, hint, recency, eng, eng_at)
                    SELECT rowid, uid, domain, content_type, expiration, expires, indexed_at, hint, recency, eng, eng_at FROM items;
                DROP TABLE items;
                ALTER TABLE items_v8 RENAME TO items;
                CREATE INDEX items_domain ON items(domain) WHERE domain IS NOT NULL;
                CREATE INDEX items_expires ON items(expires);
                DROP TABLE IF EXISTS attr_numbers;
                """)
        }
        // Impressions (results shown), decayed with engagement to `eng_at`;
        // their count beside views and selections; the store's totals of
        // both live in `meta` (`shown_total`, `chosen_total`, `totals_at`).
        migrator.registerMigration("v9-impressions") { db in
            if try !db.columns(in: "items").contains(where: { $0.name == "imp" }) {
                try db.execute(sql: "ALTER TABLE items ADD COLUMN imp REAL NOT NULL DEFAULT 0")
            }
            if try !db.columns(in: "engagement").contains(where: { $0.name == "impressions" }) {
                try db.execute(sql: "ALTER TABLE engagement ADD COLUMN impressions INTEGER NOT NULL DEFAULT 0")
            }
        }
        // Each item's attributes move into its `items` row: one lookup and
        // one page to read an item, one insert to write it. The table is
        // copied whole (rowids kept: the ranked index names them), so its
        // pages are full, not split by growing every row in place; an
        // `items` row without attributes was never readable, and is left out.
        migrator.registerMigration("v10-attributes-in-items") { db in
            try db.execute(sql: """
                CREATE TABLE items_v10(
                    rowid INTEGER PRIMARY KEY,
                    uid TEXT NOT NULL,
                    domain TEXT,
                    content_type TEXT,
                    expiration REAL,
                    expires REAL NOT NULL,
                    indexed_at REAL NOT NULL,
                    hint REAL NOT NULL DEFAULT 0,
                    recency REAL,
                    eng REAL NOT NULL DEFAULT 0,
                    eng_at REAL NOT NULL DEFAULT 0,
                    imp REAL NOT NULL DEFAULT 0,
                    attributes BLOB NOT NULL
                );
                INSERT INTO items_v10(rowid, uid, domain, content_type, expiration, expires, indexed_at, hint, recency, eng, eng_at,
                                      imp, attributes)
                    SELECT i.rowid, i.uid, i.domain, i.content_type, i.expiration, i.expires, i.indexed_at, i.hint, i.recency, i.eng,
                           i.eng_at, i.imp, a.attributes
                    FROM items i JOIN item_attributes a ON a.rowid = i.rowid ORDER BY i.rowid;
                DROP TABLE items;
                DROP TABLE item_attributes;
                ALTER TABLE items_v10 RENAME TO items;
                CREATE INDEX items_domain ON items(domain) WHERE domain IS NOT NULL;
                CREATE INDEX items_expires ON items(expires);
                """)
        }
        return migrator
    }
}

/// Reading and writing `meta` rows.
extension Database {
    func meta<T: DatabaseValueConvertible>(_ key: String, as type: T.Type = T.self) throws -> T? {
        // Cached: system search reads the engagement totals of every store per keystroke.
        try T.fetchOne(cachedStatement(sql: "SELECT value FROM meta WHERE key = ?"), arguments: [key])
    }

    func setMeta(_ key: String, _ value: (any DatabaseValueConvertible)?) throws {
        if let value {
            try execute(sql: "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", arguments: [key, value])
        } else {
            try execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
        }
    }
}
