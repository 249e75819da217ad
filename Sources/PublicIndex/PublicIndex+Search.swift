import Foundation
import PostgresNIO
public import PublicIndexProtocol

extension PublicIndex {
    /// The most results one search returns.
    public static let maximumResults = 50

    /// Ranked search over public activities and pages: every word, the last
    /// as a prefix; when that finds fewer than `limit`, a second tier where
    /// each word of 4+ letters also matches the lexicon's closest words
    /// (trigram similarity), as the engine's typo tier does.
    ///
    /// ```swift
    /// let found = try await index.search("tarte tat", limit: 10)
    /// for hit in found.results { print(hit.title, hit.app ?? "", hit.users) }
    /// if found.partial { print("missing:", found.missingShards) }
    /// ```
    ///
    /// Score: `ts_rank` (title A, keywords B, description C) × popularity
    /// (`1 + 0.2·ln(1 + distinct devices)`) × engagement (opens per
    /// impression, smoothed: `(opens + 1) / (impressions + 10)`, mapped to
    /// 0.75…1.5, so a result shown often and never opened sinks). With
    /// shards, each partition's best `limit` come from its shard (an
    /// asynchronous foreign scan each, all at once) and the coordinator keeps
    /// the best; a shard that does not answer is left out and the response
    /// says so (``PublicSearchResponse/partial``).
    public func search(_ text: String, limit: Int = 10) async throws -> PublicSearchResponse {
        let limit = min(max(1, limit), Self.maximumResults)
        let words = Self.words(of: text)
        guard !words.isEmpty else { return PublicSearchResponse(query: text, results: []) }
        var terms = try await normalize(words)
        guard let exact = Self.tsquery(terms, typos: false) else { return PublicSearchResponse(query: text, results: []) }
        var (hits, missing) = try await ranked(exact, limit: limit)
        if hits.count < limit {
            terms = try await withAlternatives(terms)
            if terms.contains(where: { !$0.alternatives.isEmpty }), let typos = Self.tsquery(terms, typos: true) {
                let seen = Set(hits.map { $0.site + "\u{0}" + $0.key })
                let (more, missingToo) = try await ranked(typos, limit: limit)
                hits += more.filter { !seen.contains($0.site + "\u{0}" + $0.key) }.prefix(limit - hits.count)
                missing.formUnion(missingToo)
            }
        }
        hits = Self.oncePerURL(hits)
        noteImpressions(hits)
        return PublicSearchResponse(query: text, results: hits, partial: !missing.isEmpty, missingShards: missing.sorted())
    }

    /// A query word after PostgreSQL's folding, with its closest lexicon words.
    struct Term {
        var lexeme: String
        var alternatives: [String]
        var isPrefix: Bool
    }

    /// Words: runs of letters and digits, at most 12 of at most 64 characters.
    static func words(of text: String) -> [String] {
        text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).prefix(12).map { String($0.prefix(64)) }
    }

    /// Folds the words as documents were folded (`public_index`: unaccent, lowercase).
    func normalize(_ words: [String]) async throws -> [Term] {
        let sql = """
            SELECT w.i::int8, coalesce((tsvector_to_array(to_tsvector('public_index', w.word)))[1], '')
            FROM unnest($1::text[]) WITH ORDINALITY AS w(word, i) ORDER BY w.i
            """
        return try await rows(try Self.query(sql, [words])).compactMap { row in
            let (position, lexeme) = try row.decode((Int, String).self)
            return lexeme.isEmpty ? nil : Term(lexeme: lexeme, alternatives: [], isPrefix: position == words.count)
        }
    }

    /// Up to 3 lexicon words close to each word of 4+ letters: trigram
    /// similarity (`%`), or for the last word, typed as a prefix, word
    /// similarity (`<%`: close to the start of a longer word). Each is one
    /// trigram-index lookup on the coordinator's lexicon.
    func withAlternatives(_ terms: [Term]) async throws -> [Term] {
        var result = terms
        for (position, term) in terms.enumerated() where term.lexeme.count >= 4 {
            let sql = term.isPrefix
                ? "SELECT word FROM lexicon WHERE $1 <% word AND word <> $1 ORDER BY word_similarity($1, word) DESC, word LIMIT 3"
                : "SELECT word FROM lexicon WHERE word % $1 AND word <> $1 ORDER BY similarity(word, $1) DESC, word LIMIT 3"
            result[position].alternatives = try await rows(try Self.query(sql, [term.lexeme])).map { try $0.decode(String.self) }
        }
        return result
    }

    /// `'a' & 'b' & 'c':*`; with typos each word is `('a' | 'alt' …)`.
    static func tsquery(_ terms: [Term], typos: Bool) -> String? {
        guard !terms.isEmpty else { return nil }
        return terms.map { term in
            let suffix = term.isPrefix ? ":*" : ""
            let options = ([term.lexeme] + (typos ? term.alternatives : [])).map { quoted($0) + suffix }
            return options.count == 1 ? options[0] : "(" + options.joined(separator: " | ") + ")"
        }.joined(separator: " & ")
    }

    /// A lexeme quoted for tsquery's input syntax.
    static func quoted(_ lexeme: String) -> String {
        "'" + lexeme.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Keeps the best result per URL (an activity and the page it points to are one result).
    static func oncePerURL(_ hits: [PublicSearchHit]) -> [PublicSearchHit] {
        var seen = Set<String>()
        return hits.filter { hit in
            guard let url = hit.url else { return true }
            return seen.insert(PublicActivityContent.normalizedURL(url)).inserted
        }
    }

    static let columns = "kind, site, key, title, description, keywords, url, thumbnail_url, app, activity_type, public_identifier, deep_links, application_identifiers, users"
    /// Text relevance × the item's stored factor (``PublicIndexSchema/boost(users:impressions:opens:)``).
    static let score = "ts_rank(document, $1::tsquery) * boost"

    /// The statement for the partitions given (nil: the whole table on one node).
    func rankedSQL(partitions: [Int]?) -> String {
        let outer = "SELECT kind, site, key, title, description, keywords, url, thumbnail_url, app, activity_type, public_identifier, deep_links::text, application_identifiers, users::int8, score::float8 FROM"
        guard let partitions else {
            return "\(outer) (SELECT \(Self.columns), \(Self.score) AS score FROM items WHERE document @@ $1::tsquery ORDER BY score DESC LIMIT $2) found ORDER BY score DESC"
        }
        let branches = partitions.map {
            "(SELECT \(Self.columns), \(Self.score) AS score FROM \(PublicIndexSchema.partitionName("items", $0)) WHERE document @@ $1::tsquery ORDER BY score DESC LIMIT $2)"
        }
        // `score + 0`: a plain Append (asynchronous) of the branches, not a Merge Append.
        return "\(outer) (\(branches.joined(separator: " UNION ALL "))) found ORDER BY score + 0 DESC LIMIT $2"
    }

    /// The best `limit` matches of a tsquery, from the partitions of the shards that answer.
    func ranked(_ tsquery: String, limit: Int) async throws -> ([PublicSearchHit], Set<String>) {
        guard !layout.shards.isEmpty else {
            return (try await rows(try Self.query(rankedSQL(partitions: nil), [tsquery, limit])).map(Self.hit), [])
        }
        var down = health.down()
        for attempt in 0..<2 {
            let live = (0..<layout.partitions).filter { !down.contains(layout.shard(ofPartition: $0)?.name ?? "") }
            if live.isEmpty { return ([], down) }
            do {
                let found = try await rows(try Self.query(rankedSQL(partitions: live), [tsquery, limit])).map(Self.hit)
                return (found, down)
            } catch let error as PublicIndexError where error.code == .shardUnavailable && attempt == 0 {
                down = await probeShards()
            }
        }
        return ([], down)
    }

    /// Asks each shard for a row through the coordinator; marks those that fail.
    /// - Returns: the shards down now.
    @discardableResult
    func probeShards() async -> Set<String> {
        for shard in layout.shards {
            guard let partition = layout.partitions(of: shard).first else { continue }
            do {
                _ = try await rows(PostgresQuery(unsafeSQL: "SELECT 1 FROM \(PublicIndexSchema.partitionName("items", partition)) LIMIT 1"))
                health.markUp(shard.name)
            } catch {
                logger.warning("shard \(shard.name) (\(shard.url.address)) did not answer; searches leave it out for now")
                health.markDown(shard.name)
            }
        }
        return health.down()
    }

    static func hit(_ row: PostgresRow) throws -> PublicSearchHit {
        let cells = row.makeRandomAccess()
        let kind = PublicSearchHit.Kind(rawValue: try cells[0].decode(String.self)) ?? .page
        let deepLinks = try cells[11].decode(String?.self).flatMap {
            try? PublicIndexJSON.decoder().decode([PublicDeepLink].self, from: Data($0.utf8))
        } ?? []
        return PublicSearchHit(
            kind: kind, site: try cells[1].decode(String.self), key: try cells[2].decode(String.self),
            title: try cells[3].decode(String.self), description: try cells[4].decode(String?.self),
            url: try cells[6].decode(String?.self).flatMap(URL.init(string:)),
            thumbnailURL: try cells[7].decode(String?.self).flatMap(URL.init(string:)),
            keywords: try cells[5].decode([String].self), app: try cells[8].decode(String?.self),
            activityType: try cells[9].decode(String?.self), publicIdentifier: try cells[10].decode(String?.self),
            deepLinks: deepLinks, applicationIdentifiers: try cells[12].decode([String].self),
            users: try cells[13].decode(Int.self), score: try cells[14].decode(Double.self))
    }
}
