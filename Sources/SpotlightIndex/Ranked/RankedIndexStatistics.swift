import Foundation
import GRDB

/// The size and shape of a store's ranked index.
///
/// ```swift
/// let stats = try store.rankedIndexStatistics()
/// print("\(stats.segments) segments, \(stats.bytes / 1_048_576) MB")
/// ```
public struct RankedIndexStatistics: Sendable, Hashable, Codable {
    /// Live segments.
    public var segments: Int
    /// Segments held in files of their own (the rest are inside the SQLite file).
    public var fileSegments: Int
    /// Documents in all segments, including replaced or deleted ones not yet merged away.
    public var documents: Int
    /// Of those, the replaced or deleted.
    public var deletedDocuments: Int
    /// Bytes of all segments.
    public var bytes: Int64
}

extension RankedIndex {
    func statistics(_ db: Database) throws -> RankedIndexStatistics {
        let rows = try Row.fetchAll(db, sql: "SELECT file, length(data) AS size, documents, deleted_count FROM ranked_segments")
        var stats = RankedIndexStatistics(segments: rows.count, fileSegments: 0, documents: 0, deletedDocuments: 0, bytes: 0)
        for row in rows {
            stats.documents += row["documents"] as Int
            stats.deletedDocuments += row["deleted_count"] as Int
            if let file = row["file"] as String?, let directory {
                stats.fileSegments += 1
                let attributes = try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(file).path)
                stats.bytes += (attributes?[.size] as? NSNumber)?.int64Value ?? 0
            } else {
                stats.bytes += row["size"] as Int64? ?? 0
            }
        }
        return stats
    }
}

extension SpotlightStore {
    /// How big the ranked index that answers ``search(_:limit:statistics:fetching:)`` is.
    public func rankedIndexStatistics() throws -> RankedIndexStatistics {
        try read { db in try ranked.statistics(db) }
    }
}
