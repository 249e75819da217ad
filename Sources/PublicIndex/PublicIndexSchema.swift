import Foundation

/// The public index's tables, indexes and functions, as versioned migrations.
///
/// Four tables, each partitioned by `HASH (site)`:
///
/// | table | key | what it holds |
/// | --- | --- | --- |
/// | `donors` | site, hash, donor | one row per distinct device per hash: `donor` is a keyed hash (HMAC) of the device's token and the activity hash, so nothing links one device's rows |
/// | `tallies` | site, hash | distinct devices, views, whether the content is stored |
/// | `donations` | site, id | every donation id seen (retries are recognised), with its day for purging |
/// | `items` | site, key | public content: activities past the threshold (key = hash) and crawled pages (key = URL), with their `tsvector` |
///
/// Below the threshold only `donors`, `tallies` and `donations` have rows:
/// hashes, keyed hashes, counts, ids and the app. On the coordinator only:
/// `public_index_schema` (versions applied), `public_index_partitions` (the
/// layout), `lexicon` (every word of `items`, trigram-indexed, for typos:
/// a reference table in Citus's terms) and the functions that write.
enum PublicIndexSchema {
    /// The newest migration.
    static let version = 1

    /// A partitioned table: columns, primary key, secondary indexes.
    struct Table {
        var name: String
        var columns: String
        var primaryKey: String
        var indexes: [(suffix: String, definition: String)]
    }

    static let tables: [Table] = [
        Table(name: "donors", columns: "site text NOT NULL, hash bytea NOT NULL, donor bytea NOT NULL",
              primaryKey: "site, hash, donor", indexes: []),
        Table(name: "tallies", columns: "site text NOT NULL, hash bytea NOT NULL, users integer NOT NULL, views integer NOT NULL, has_content boolean NOT NULL DEFAULT false",
              primaryKey: "site, hash", indexes: []),
        Table(name: "donations", columns: "site text NOT NULL, id uuid NOT NULL, day date NOT NULL",
              primaryKey: "site, id", indexes: [("day", "(day)")]),
        Table(name: "items", columns: """
            site text NOT NULL, key text NOT NULL, kind text NOT NULL, title text NOT NULL, description text,
            keywords text[] NOT NULL DEFAULT '{}', url text, thumbnail_url text, app text, activity_type text,
            public_identifier text, deep_links jsonb NOT NULL DEFAULT '[]', application_identifiers text[] NOT NULL DEFAULT '{}',
            users integer NOT NULL DEFAULT 0, views integer NOT NULL DEFAULT 0, impressions bigint NOT NULL DEFAULT 0,
            opens bigint NOT NULL DEFAULT 0, boost real NOT NULL DEFAULT 1, updated_at timestamptz NOT NULL DEFAULT now(),
            document tsvector NOT NULL
            """, primaryKey: "site, key", indexes: [("document", "USING gin (document)")]),
    ]

    static func partitionName(_ table: String, _ index: Int) -> String { "\(table)_p\(index)" }

    // MARK: - Shards

    /// What a shard holds for its partitions: plain tables with their keys and indexes.
    static func shardStatements(partitions: [Int]) -> [String] {
        var statements = [
            "CREATE TABLE IF NOT EXISTS public_index_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
        ]
        for table in tables {
            for index in partitions {
                let name = partitionName(table.name, index)
                statements.append("CREATE TABLE \(name) (\(table.columns), PRIMARY KEY (\(table.primaryKey)))")
                for extra in table.indexes {
                    statements.append("CREATE INDEX \(name)_\(extra.suffix) ON \(name) \(extra.definition)")
                }
            }
        }
        statements.append("INSERT INTO public_index_schema (version) VALUES (\(version))")
        return statements
    }

    // MARK: - Coordinator

    /// The coordinator's part: the partitioned tables (local partitions, or
    /// foreign ones on the shards), the layout, the lexicon and the functions.
    static func coordinatorStatements(layout: PublicIndexLayout) -> [String] {
        var statements = [
            "CREATE EXTENSION IF NOT EXISTS pg_trgm",
            "CREATE EXTENSION IF NOT EXISTS unaccent",
            // Words as the engine matches them: split like `simple`, accents and case folded.
            "CREATE TEXT SEARCH CONFIGURATION public_index (COPY = simple)",
            "ALTER TEXT SEARCH CONFIGURATION public_index ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword, hword_part, hword_asciipart, hword_numpart WITH unaccent, simple",
            "CREATE TABLE public_index_partitions (partition integer PRIMARY KEY, node text NOT NULL, address text NOT NULL)",
            "CREATE TABLE lexicon (word text PRIMARY KEY)",
            "CREATE INDEX lexicon_trigrams ON lexicon USING gin (word gin_trgm_ops)",
        ]
        let sharded = !layout.shards.isEmpty
        if sharded {
            statements.append("CREATE EXTENSION IF NOT EXISTS postgres_fdw")
            for shard in layout.shards {
                let url = shard.url
                // Asynchronous foreign scans: a search's branches run on every shard at once.
                statements.append("""
                    CREATE SERVER \(shard.name) FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host \(literal(url.host)), \
                    port \(literal(String(url.port))), dbname \(literal(url.database)), async_capable 'true', \
                    connect_timeout '3', keepalives '1', keepalives_idle '10', keepalives_interval '5', keepalives_count '3', \
                    fetch_size '200', batch_size '200')
                    """)
                var mapping = "user \(literal(url.user))"
                if let password = url.password { mapping += ", password \(literal(password))" }
                statements.append("CREATE USER MAPPING FOR CURRENT_USER SERVER \(shard.name) OPTIONS (\(mapping))")
            }
        }
        for table in tables {
            // A partitioned table with foreign partitions cannot have a unique index: the keys live on the shards.
            let key = sharded ? "" : ", PRIMARY KEY (\(table.primaryKey))"
            statements.append("CREATE TABLE \(table.name) (\(table.columns)\(key)) PARTITION BY HASH (site)")
            for index in 0..<layout.partitions {
                let name = partitionName(table.name, index)
                let bounds = "FOR VALUES WITH (MODULUS \(layout.partitions), REMAINDER \(index))"
                if let shard = layout.shard(ofPartition: index) {
                    statements.append("CREATE FOREIGN TABLE \(name) PARTITION OF \(table.name) \(bounds) SERVER \(shard.name) OPTIONS (table_name \(literal(name)))")
                } else {
                    statements.append("CREATE TABLE \(name) PARTITION OF \(table.name) \(bounds)")
                }
            }
            if !sharded {
                for extra in table.indexes {
                    statements.append("CREATE INDEX \(table.name)_\(extra.suffix) ON \(table.name) \(extra.definition)")
                }
            }
        }
        for index in 0..<layout.partitions {
            let record = layout.record(ofPartition: index)
            statements.append("INSERT INTO public_index_partitions VALUES (\(index), \(literal(record.node)), \(literal(record.address)))")
        }
        statements += functions
        return statements
    }

    /// A string literal (standard_conforming_strings is on in every supported PostgreSQL).
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// An item's query-independent factor, kept in `items.boost` so that a
    /// search's score is `ts_rank × boost`, an expression postgres_fdw ships
    /// whole (a shard sorts and limits its own matches): popularity
    /// `1 + 0.2·ln(1 + distinct devices)` × engagement, opens per impression
    /// smoothed as `(opens + 1) / (impressions + 10)` and mapped to 0.75…1.5
    /// (`float8smaller`/`float8larger`: LEAST and GREATEST are not shipped).
    static func boost(users: String, impressions: String, opens: String) -> String {
        "((1 + 0.2 * ln(1 + (\(users)))) * float8smaller(1.5, float8larger(0.75, 0.75 + 2.5 * ((\(opens)) + 1)::float8 / ((\(impressions)) + 10))))::real"
    }

    /// The document searched: title (A), keywords (B), description (C).
    static let document = """
        setweight(to_tsvector('public_index', p_title), 'A') || \
        setweight(to_tsvector('public_index', array_to_string(p_keywords, ' ')), 'B') || \
        setweight(to_tsvector('public_index', coalesce(p_description, '')), 'C')
        """

    /// Functions run on the coordinator: one round trip from the service per
    /// write. Each plans every statement with its values
    /// (`force_custom_plan`), so a statement reaches only the partition
    /// (and shard) holding its site: a shard that is down fails only the
    /// writes that need it.
    static let functions: [String] = [
        """
        CREATE FUNCTION public_donate(p_site text, p_hash bytea, p_donor bytea, p_id uuid, p_threshold integer)
        RETURNS text LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
        DECLARE
            inserted integer;
            new_donor integer;
            v_users integer;
            v_views integer;
            v_content boolean;
        BEGIN
            INSERT INTO donations (site, id, day) VALUES (p_site, p_id, current_date) ON CONFLICT DO NOTHING;
            GET DIAGNOSTICS inserted = ROW_COUNT;
            IF inserted = 0 THEN
                RETURN 'duplicate';
            END IF;
            INSERT INTO donors (site, hash, donor) VALUES (p_site, p_hash, p_donor) ON CONFLICT DO NOTHING;
            GET DIAGNOSTICS new_donor = ROW_COUNT;
            UPDATE tallies SET users = users + new_donor, views = views + 1 WHERE site = p_site AND hash = p_hash
                RETURNING users, views, has_content INTO v_users, v_views, v_content;
            IF NOT FOUND THEN
                INSERT INTO tallies (site, hash, users, views) VALUES (p_site, p_hash, new_donor, 1) ON CONFLICT DO NOTHING;
                GET DIAGNOSTICS inserted = ROW_COUNT;
                IF inserted = 0 THEN
                    UPDATE tallies SET users = users + new_donor, views = views + 1 WHERE site = p_site AND hash = p_hash
                        RETURNING users, views, has_content INTO v_users, v_views, v_content;
                ELSE
                    v_users := new_donor;
                    v_views := 1;
                    v_content := false;
                END IF;
            END IF;
            IF v_content THEN
                IF new_donor = 1 THEN
                    UPDATE items SET users = v_users, views = v_views, boost = \(boost(users: "v_users", impressions: "impressions", opens: "opens"))
                        WHERE site = p_site AND key = encode(p_hash, 'hex');
                END IF;
                RETURN 'indexed';
            END IF;
            RETURN CASE WHEN v_users >= p_threshold THEN 'wanted' ELSE 'counted' END;
        END
        $$
        """,
        """
        CREATE FUNCTION public_store_activity(p_site text, p_hash bytea, p_threshold integer, p_title text, p_description text,
            p_keywords text[], p_url text, p_thumbnail_url text, p_activity_type text, p_public_identifier text)
        RETURNS text LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
        DECLARE
            v_users integer;
            v_views integer;
            v_content boolean;
            v_document tsvector;
        BEGIN
            SELECT users, views, has_content INTO v_users, v_views, v_content FROM tallies
                WHERE site = p_site AND hash = p_hash FOR UPDATE;
            IF NOT FOUND OR v_users < p_threshold THEN
                RETURN 'not-wanted';
            END IF;
            IF v_content THEN
                RETURN 'already-stored';
            END IF;
            v_document := \(document);
            INSERT INTO items (site, key, kind, title, description, keywords, url, thumbnail_url, app, activity_type,
                               public_identifier, users, views, boost, document)
                VALUES (p_site, encode(p_hash, 'hex'), 'activity', p_title, p_description, p_keywords, p_url, p_thumbnail_url,
                        p_site, p_activity_type, p_public_identifier, v_users, v_views,
                        \(boost(users: "v_users", impressions: "0", opens: "0")), v_document)
                ON CONFLICT DO NOTHING;
            UPDATE tallies SET has_content = true WHERE site = p_site AND hash = p_hash;
            INSERT INTO lexicon (word) SELECT unnest(tsvector_to_array(v_document)) ON CONFLICT DO NOTHING;
            RETURN 'stored';
        END
        $$
        """,
        """
        CREATE FUNCTION public_save_page(p_site text, p_url text, p_title text, p_description text, p_keywords text[],
            p_thumbnail_url text, p_deep_links jsonb, p_application_identifiers text[])
        RETURNS text LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
        DECLARE
            v_document tsvector;
            changed integer;
        BEGIN
            v_document := \(document);
            UPDATE items SET title = p_title, description = p_description, keywords = p_keywords, thumbnail_url = p_thumbnail_url,
                deep_links = p_deep_links, application_identifiers = p_application_identifiers, updated_at = now(), document = v_document
                WHERE site = p_site AND key = p_url;
            GET DIAGNOSTICS changed = ROW_COUNT;
            IF changed = 0 THEN
                INSERT INTO items (site, key, kind, title, description, keywords, url, thumbnail_url, deep_links,
                                   application_identifiers, document)
                    VALUES (p_site, p_url, 'page', p_title, p_description, p_keywords, p_url, p_thumbnail_url, p_deep_links,
                            p_application_identifiers, v_document)
                    ON CONFLICT DO NOTHING;
            END IF;
            INSERT INTO lexicon (word) SELECT unnest(tsvector_to_array(v_document)) ON CONFLICT DO NOTHING;
            RETURN CASE WHEN changed = 0 THEN 'inserted' ELSE 'updated' END;
        END
        $$
        """,
        """
        CREATE FUNCTION public_count_engagement(p_sites text[], p_keys text[], p_impressions integer[], p_opens integer[])
        RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
        BEGIN
            FOR i IN 1 .. coalesce(array_length(p_sites, 1), 0) LOOP
                UPDATE items SET impressions = impressions + p_impressions[i], opens = opens + p_opens[i],
                    boost = \(boost(users: "users", impressions: "impressions + p_impressions[i]", opens: "opens + p_opens[i]"))
                    WHERE site = p_sites[i] AND key = p_keys[i];
            END LOOP;
        END
        $$
        """,
    ]
}
