import Foundation

/// The words of a snapshot's segment dictionaries: what infix wildcards
/// (`*brar*` → `library`, `libraries`) and completions read, instead of a
/// separate vocabulary written beside the items.
///
/// ```swift
/// let words = try RankedDictionary.words(containing: "brar", limit: 128, in: segments)
/// ```
enum RankedDictionary {
    /// The distinct words containing `fragment` (already folded), sorted;
    /// nil when there are more than `limit`. A word whose every document
    /// was deleted may still be listed until a merge drops it.
    static func words(containing fragment: String, limit: Int, in segments: [SegmentSnapshot]) throws -> [String]? {
        let needle = Array(fragment.utf8)
        var found = Set<String>()
        for snapshot in segments {
            for id in try snapshot.segment.terms(containing: needle, limit: limit + 1) {
                found.insert(String(decoding: try snapshot.segment.term(id), as: UTF8.self))
                if found.count > limit { return nil }
            }
        }
        return found.sorted()
    }

    /// The distinct words starting with `prefix` (already folded), sorted.
    static func words(startingWith prefix: String, in segments: [SegmentSnapshot]) throws -> [String] {
        let key = Array(prefix.utf8)
        var found = Set<String>()
        for snapshot in segments {
            for id in try snapshot.segment.terms(matching: key, prefix: true) {
                found.insert(String(decoding: try snapshot.segment.term(id), as: UTF8.self))
            }
        }
        return found.sorted()
    }

    /// How many documents hold `word` that are neither deleted nor expired at `now`.
    static func liveDocuments(holding word: String, now: Double, in segments: [SegmentSnapshot]) throws -> Int {
        let key = Array(word.utf8)
        var count = 0
        var docs: [UInt32] = [], frequencies: [UInt32] = []
        for snapshot in segments {
            let segment = snapshot.segment
            for id in try segment.terms(matching: key, prefix: false) {
                for block in try segment.blocks(of: id) {
                    try segment.decodeBlock(block, docs: &docs, frequencies: &frequencies)
                    for doc in docs where !snapshot.deleted.contains(Int(doc)) && segment.expires(Int(doc)) > now { count += 1 }
                }
            }
        }
        return count
    }
}
