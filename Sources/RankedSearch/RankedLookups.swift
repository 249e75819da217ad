import Foundation

/// An interval of typed values: each bound optional, open or closed.
///
/// ```swift
/// NumberRange(lower: 4, lowerInclusive: true)                 // value >= 4
/// NumberRange(lower: 0, lowerInclusive: true, upper: 10, upperInclusive: false)   // 0 <= value < 10
/// ```
package struct NumberRange: Hashable, Sendable {
    @_spi(Inspection) public var lower: Double?
    @_spi(Inspection) public var lowerInclusive = true
    @_spi(Inspection) public var upper: Double?
    @_spi(Inspection) public var upperInclusive = true

    package init(lower: Double? = nil, lowerInclusive: Bool = true, upper: Double? = nil, upperInclusive: Bool = true) {
        self.lower = lower
        self.lowerInclusive = lowerInclusive
        self.upper = upper
        self.upperInclusive = upperInclusive
    }

    package static func equal(_ value: Double) -> NumberRange { NumberRange(lower: value, upper: value) }

    package func contains(_ value: Double) -> Bool {
        if let lower, lowerInclusive ? value < lower : value <= lower { return false }
        if let upper, upperInclusive ? value > upper : value >= upper { return false }
        return true
    }
}

/// What the segments answer besides text: which rowids may hold a unique
/// identifier, and which hold a typed value in a range.
package enum RankedLookups {
    /// Rowids of live documents whose identifier hashes as `uid` does: a
    /// superset (hashes can collide), which the caller checks against `items`.
    package static func candidateRowids(uid: String, in segments: [SegmentSnapshot]) -> [Int64] {
        let hash = RankedDocument.uidHash(uid)
        var out: [Int64] = []
        for snapshot in segments {
            for doc in snapshot.segment.documents(uidHash: hash) where !snapshot.deleted.contains(doc) {
                out.append(snapshot.segment.rowid(doc))
            }
        }
        return out
    }

    /// The rowids of the live documents whose unique identifier is `uid`,
    /// byte for byte, ascending (expiry not checked): its hash's documents,
    /// each one's identifier compared. With `docs`, only those documents
    /// of a single segment (a query's window).
    ///
    /// ```swift
    /// let rowids = try RankedLookups.rowids(identifier: "apple", in: snapshot.segments)
    /// ```
    package static func rowids(identifier uid: String, in segments: [SegmentSnapshot], docs: Range<Int>? = nil) throws(SegmentError) -> [Int64] {
        let hash = RankedDocument.uidHash(uid)
        let bytes = Array(uid.utf8)
        var out: [Int64] = [], stored: [UInt8] = []
        for snapshot in segments {
            for doc in snapshot.segment.documents(uidHash: hash) where docs?.contains(doc) != false && !snapshot.deleted.contains(doc) {
                try snapshot.segment.identifierBytes(doc, into: &stored)
                if stored == bytes { out.append(snapshot.segment.rowid(doc)) }
            }
        }
        out.sort()
        return out
    }

    /// The unique identifier of the live document of `rowid`, read from the
    /// segment holding it (no row), nil when none does. A deleted document
    /// may hold the same rowid: SQLite gives a deleted last rowid again.
    ///
    /// ```swift
    /// let identifier = try RankedLookups.identifier(of: rowid, in: snapshot)
    /// ```
    package static func identifier(of rowid: Int64, in segments: [SegmentSnapshot]) throws(SegmentError) -> String? {
        guard let (segment, doc) = liveDocument(of: rowid, in: segments) else { return nil }
        return try segment.identifier(doc)
    }

    /// The unique identifier of a hit of a search over `segments` (the
    /// searcher's): read where the search found it, when it says where
    /// and that document is live and holds its rowid; otherwise found
    /// by rowid, as `identifier(of: hit.rowid, in: segments)` is.
    ///
    /// ```swift
    /// let identifier = try RankedLookups.identifier(of: hit, in: snapshot)
    /// ```
    package static func identifier(of hit: RankedHit, in segments: [SegmentSnapshot]) throws(SegmentError) -> String? {
        if segments.indices.contains(hit.segment) {
            let snapshot = segments[hit.segment]
            if hit.doc >= 0, hit.doc < snapshot.segment.documentCount, !snapshot.deleted.contains(hit.doc),
               snapshot.segment.rowid(hit.doc) == hit.rowid {
                return try snapshot.segment.identifier(hit.doc)
            }
        }
        return try identifier(of: hit.rowid, in: segments)
    }

    /// ``identifier(of:in:)`` of a document that has not expired at `now`
    /// (seconds since 1970, as the rows' `expires`): nil when it has, or
    /// when no live document holds `rowid`.
    package static func identifier(of rowid: Int64, in segments: [SegmentSnapshot], unexpiredAt now: Double) throws(SegmentError) -> String? {
        guard let (segment, doc) = liveDocument(of: rowid, in: segments), segment.expires(doc) > now else { return nil }
        return try segment.identifier(doc)
    }

    /// The segment and live document holding `rowid`, if any.
    private static func liveDocument(of rowid: Int64, in segments: [SegmentSnapshot]) -> (Segment, Int)? {
        for snapshot in segments {
            // Most segments hold rowids far from it: two reads rule them out.
            guard let range = snapshot.segment.rowidRange, range.contains(rowid) else { continue }
            if let doc = snapshot.segment.document(rowid: rowid), !snapshot.deleted.contains(doc) { return (snapshot.segment, doc) }
        }
        return nil
    }

    /// The rowids of the live documents with a value of `name` in `range`,
    /// ascending and distinct (an item with several values in the range is
    /// there once). Expiry is not checked.
    ///
    /// A segment gives few matches as a list, sorted; many (a sixteenth of
    /// its documents or more) as a bitmap read in doc order (rowid order
    /// unless the segment holds replaced items), so a range holding most
    /// of a large store costs no sort.
    package static func rowids(named name: String, in range: NumberRange, segments: [SegmentSnapshot]) throws(SegmentError) -> [Int64] {
        var runs: [[Int64]] = []
        for snapshot in segments {
            let segment = snapshot.segment
            let values = try segment.numberValues(named: name, in: range)
            guard !values.isEmpty else { continue }
            defer { segment.releaseNumbers(values) }
            var run: [Int64] = []
            if values.count * 16 < segment.documentCount {
                run.reserveCapacity(values.count)
                for index in values {
                    let doc = Int(segment.numberDoc(index))
                    guard doc < segment.documentCount else { throw .corrupt("a typed value names document \(doc)") }
                    if !snapshot.deleted.contains(doc) { run.append(segment.rowid(doc)) }
                }
                run.sort()
            } else {
                var bits = DocumentBitmap(documentCount: segment.documentCount)
                for index in values {
                    let doc = Int(segment.numberDoc(index))
                    guard doc < segment.documentCount else { throw .corrupt("a typed value names document \(doc)") }
                    bits.insert(doc)
                }
                // In doc order, which is rowid order but where a segment holds
                // replaced items: then the standard library's sort, which
                // finds the ascending runs, sets it right.
                run.reserveCapacity(values.count)
                snapshot.appendLiveRowids(of: bits, to: &run)
                if zip(run, run.dropFirst()).contains(where: { $0 > $1 }) { run.sort() }
            }
            if !run.isEmpty { runs.append(Self.distinct(run)) }
        }
        return Self.joined(runs)
    }

    /// Ascending, distinct runs joined into one list, ascending and
    /// distinct. Segments hold rowid ranges apart but after replacements,
    /// so the runs, put in order of their first rowid, usually follow one
    /// another and are only copied end to end; runs that overlap are
    /// sorted together (the standard library's sort finds the runs).
    static func joined(_ runs: [[Int64]]) -> [Int64] {
        if runs.count <= 1 { return runs.first ?? [] }
        let ordered = runs.sorted { $0[0] < $1[0] }
        if zip(ordered, ordered.dropFirst()).allSatisfy({ $0.last! < $1[0] }) {
            var all: [Int64] = []
            all.reserveCapacity(ordered.reduce(0) { $0 + $1.count })
            for run in ordered { all.append(contentsOf: run) }
            return all
        }
        var all = runs.flatMap { $0 }
        all.sort()
        return Self.distinct(all)
    }

    /// Drops repeats from an ascending list.
    static func distinct(_ sorted: [Int64]) -> [Int64] {
        guard sorted.count > 1, zip(sorted, sorted.dropFirst()).contains(where: { $0 == $1 }) else { return sorted }
        var out: [Int64] = []
        out.reserveCapacity(sorted.count)
        var previous: Int64?
        for value in sorted where value != previous {
            out.append(value)
            previous = value
        }
        return out
    }
}

extension SegmentSnapshot {
    /// Appends the rowids of the documents in `bits` that are not deleted,
    /// in doc order: a word of 64 documents at a time, the deleted masked out.
    func appendLiveRowids(of bits: DocumentBitmap, to out: inout [Int64]) {
        for (index, word) in bits.words.enumerated() where word != 0 {
            var word = word & ~deleted.word(index)
            while word != 0 {
                out.append(segment.rowid(index << 6 | word.trailingZeroBitCount))
                word &= word - 1
            }
        }
    }
}
