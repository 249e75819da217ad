public import Foundation
import PostgresNIO
import PublicIndexProtocol

extension PublicIndex {
    /// Stores crawled pages (replacing those with the same URL); a page's site is its host.
    ///
    /// ```swift
    /// try await index.savePages([page])
    /// try await index.deletePages(at: [goneURL])   // a recrawl found 404, 410 or noindex
    /// ```
    /// - Throws: ``PublicIndexError`` `.invalidInput` for a page that is not an
    ///   http(s) URL with a title (nothing of the batch is stored then),
    ///   `.shardUnavailable` when its shard does not answer (earlier pages stay stored).
    public func savePages(_ pages: [PublicPage]) async throws {
        for page in pages {
            guard PublicActivityContent.isWebURL(page.url), !page.title.isEmpty else {
                throw PublicIndexError(.invalidInput, "\(page.url.absoluteString) is not an http(s) page with a title")
            }
        }
        let encoder = PublicIndexJSON.encoder()
        for page in pages {
            let deepLinks = String(decoding: try encoder.encode(page.deepLinks), as: UTF8.self)
            _ = try await rows(try Self.query("SELECT public_save_page($1, $2, $3, $4, $5, $6, $7::jsonb, $8)", [
                page.site, page.key, PublicActivityContent.normalizedText(page.title), page.description,
                Array(page.keywords.prefix(64)), page.imageURL?.absoluteString, deepLinks, page.applicationIdentifiers,
            ]))
        }
    }

    /// Loads many pages in one statement (imports and benchmarks): new URLs
    /// only (a stored URL is left as it is), each routed to its partition;
    /// their words join the lexicon. Faster than ``savePages(_:)`` by the
    /// round trips it saves.
    ///
    /// ```swift
    /// try await index.bulkLoadPages(pages)   // a few thousand at a time
    /// ```
    public func bulkLoadPages(_ pages: [PublicPage]) async throws {
        guard !pages.isEmpty else { return }
        let sql = """
            WITH input AS (
                SELECT s, u, t, d, k, setweight(to_tsvector('public_index', t), 'A')
                    || setweight(to_tsvector('public_index', array_to_string(k, ' ')), 'B')
                    || setweight(to_tsvector('public_index', coalesce(d, '')), 'C') AS doc
                FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS x(s, u, t, d, kw),
                     LATERAL (SELECT CASE WHEN kw = '' THEN '{}'::text[] ELSE string_to_array(kw, '|') END AS k) keywords
            ), stored AS (
                INSERT INTO items (site, key, kind, title, description, keywords, url, document)
                SELECT s, u, 'page', t, nullif(d, ''), k, u, doc FROM input ON CONFLICT DO NOTHING
            )
            INSERT INTO lexicon (word) SELECT DISTINCT unnest(tsvector_to_array(doc)) FROM input ON CONFLICT DO NOTHING
            """
        let query = try Self.query(sql, [
            pages.map(\.site), pages.map(\.key), pages.map { PublicActivityContent.normalizedText($0.title) },
            pages.map { $0.description ?? "" }, pages.map { $0.keywords.filter { !$0.contains("|") }.joined(separator: "|") },
        ])
        // A bulk load may take longer than the 15 s a request may.
        do {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SET LOCAL statement_timeout = '10min'", logger: self.logger)
                try await connection.query(query, logger: self.logger)
            }
        } catch {
            throw DatabaseFailure(error).error
        }
    }

    /// Removes the pages stored under these URLs; unknown ones are ignored.
    /// - Returns: how many were removed.
    @discardableResult
    public func deletePages(at urls: [URL]) async throws -> Int {
        var removed = 0
        for url in urls {
            let page = PublicPage(url: url, title: "")
            let found = try await rows(try Self.query("DELETE FROM items WHERE site = $1 AND key = $2 AND kind = 'page' RETURNING 1", [page.site, page.key]))
            removed += found.count
        }
        return removed
    }

    /// The URLs of the pages stored for a site (host), sorted.
    public func pageURLs(onSite host: String) async throws -> [String] {
        try await rows(try Self.query("SELECT key FROM items WHERE site = $1 AND kind = 'page' ORDER BY key", [host.lowercased()]))
            .map { try $0.decode(String.self) }
    }
}
