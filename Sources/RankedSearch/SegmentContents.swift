import Foundation
import Synchronization

/// One item as the ranked index sees it: its rowid, its tokens, the
/// signals of its static factor, its identifier's hash and its typed values.
package struct RankedDocument: Sendable {
    package var rowid: Int64
    package var expires: Double
    @_spi(Inspection) public var hint: Double
    @_spi(Inspection) public var recency: Double?
    @_spi(Inspection) public var engagement: Double
    @_spi(Inspection) public var engagedAt: Double
    /// Impressions, decayed to `engagedAt` (``SpotlightStore/recordImpressions(itemIdentifiers:at:)``).
    var impressions: Double = 0
    package var tokens: DocumentTokens
    /// The unique identifier, kept in the segment for searches that
    /// answer identifiers only (``Segment/identifier(_:)``).
    package var uid: String
    /// ``TokenHash`` of the unique identifier (``RankedDocument/uidHash(_:)``).
    package var uidHash: UInt64
    /// Numbers, dates (seconds since 2001) and bools (0, 1) by attribute, and exact values (``ExactValues``).
    var numbers: [(String, Double)]

    package init(rowid: Int64, expires: Double, hint: Double, recency: Double?, engagement: Double, engagedAt: Double,
                 impressions: Double = 0, tokens: DocumentTokens, uid: String, uidHash: UInt64, numbers: [(String, Double)]) {
        self.rowid = rowid
        self.expires = expires
        self.hint = hint
        self.recency = recency
        self.engagement = engagement
        self.engagedAt = engagedAt
        self.impressions = impressions
        self.tokens = tokens
        self.uid = uid
        self.uidHash = uidHash
        self.numbers = numbers
    }

    /// The hash segments hold for a unique identifier.
    package static func uidHash(_ uid: String) -> UInt64 {
        var uid = uid
        return uid.withUTF8 { TokenHash.of($0) }
    }
}

/// A typed value of a segment's document.
struct NumberEntry: Sendable {
    /// Into ``SegmentContents/numberNames``.
    var name: Int32
    var doc: UInt32
    var value: Double
}

/// A segment before encoding: documents in doc-id order, terms in byte
/// order, postings as flat arrays. Made from documents
/// (``init(documents:scoring:)``) or by merging segments (``SegmentMerger``).
package struct SegmentContents {
    package var rowids: [Int64] = []
    var expires: [Double] = []
    var hints: [Double] = []
    var recency: [Double] = []      // NaN: none
    var engagement: [Double] = []
    var engagedAt: [Double] = []
    var lengths: [UInt32] = []
    /// Words of each document's title, at most 255.
    var titleLengths: [UInt8] = []
    /// Each document's plain columns (``DocumentTokens/plainColumns``).
    var plainColumns: [UInt8] = []
    /// Each document's metadata factor.
    var quality: [Double] = []
    var impressions: [Double] = []
    /// Term t is `termBytes[termStart[t]..<termStart[t+1]]`.
    var termStart: [Int] = [0]
    var termBytes: [UInt8] = []
    /// Term t's postings are `postingDocs[postingStart[t]..<postingStart[t+1]]` (ascending).
    var postingStart: [Int] = [0]
    var postingDocs: [UInt32] = []
    var postingFrequencies: [UInt32] = []
    /// The columns holding the token, a bit each (``SegmentFormat/columnBits``).
    var postingColumns: [UInt8] = []

    /// Per document: the hash of its unique identifier.
    @_spi(Inspection) public var uidHashes: [UInt64] = []
    /// Per document, its unique identifier's UTF-8 bytes: the document's
    /// are `uidBytes[uidEnds[doc - 1]..<uidEnds[doc]]` (from 0 for the first).
    var uidBytes: [UInt8] = []
    var uidEnds: [UInt32] = []
    /// Typed attribute names, by id (any order), and every typed value.
    var numberNames: [String] = []
    var numberEntries: [NumberEntry] = []

    package var documentCount: Int { rowids.count }

    /// Adds the next document's unique identifier.
    mutating func appendIdentifier(_ bytes: some Collection<UInt8>) {
        uidBytes.append(contentsOf: bytes)
        uidEnds.append(UInt32(uidBytes.count))
    }

    /// Drops the per-document values that only the documents' sections
    /// hold (``SegmentEncoder/writeDocuments(_:bounds:into:)``), once a
    /// streamed merge has written them; keeps the titles' lengths,
    /// identifiers and typed values, which later sections read.
    mutating func dropDocumentValues() {
        rowids = []
        expires = []
        hints = []
        recency = []
        engagement = []
        engagedAt = []
        lengths = []
        quality = []
        impressions = []
    }
    package var termCount: Int { termStart.count - 1 }

    init() {}

    /// Tokenized documents into a segment; documents are ordered by rowid.
    ///
    /// Each document's distinct tokens come hashed and weighted
    /// (``DocumentTokens``): one pass interns them and the document's
    /// initials (``SegmentInitials``) (``TokenTable``), then
    /// term ids are renumbered in byte order and the postings laid out by
    /// counting.
    @_spi(Inspection) public init(documents: [RankedDocument]) {
        var documents = documents
        if zip(documents, documents.dropFirst()).contains(where: { $0.rowid > $1.rowid }) { documents.sort { $0.rowid < $1.rowid } }
        self.init(sorted: documents[...])
    }

    /// Documents past which ``building(_:parallelDocuments:)`` works on two threads.
    static let parallelDocuments = 2_000

    /// The same contents as ``init(documents:)``, built in two halves on
    /// two threads when there are many documents (a flush has the cores
    /// to itself), then joined (``concatenating(_:_:)``).
    package static func building(_ documents: [RankedDocument], parallelDocuments: Int = SegmentContents.parallelDocuments) -> SegmentContents {
        var documents = documents
        if zip(documents, documents.dropFirst()).contains(where: { $0.rowid > $1.rowid }) { documents.sort { $0.rowid < $1.rowid } }
        guard documents.count >= max(2, parallelDocuments), Parallelism.cores > 1 else { return SegmentContents(sorted: documents[...]) }
        let middle = documents.count / 2
        let halves = [documents[..<middle], documents[middle...]]
        let built = Mutex<[SegmentContents?]>([nil, nil])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let contents = SegmentContents(sorted: halves[index])
            built.withLock { $0[index] = contents }
        }
        let (first, second) = built.withLock { ($0[0]!, $0[1]!) }
        return concatenating(first, second)
    }

    /// `a`'s documents then `b`'s (doc ids shifted by `a`'s count): the
    /// dictionaries merged in byte order, a term's postings `a`'s then `b`'s.
    static func concatenating(_ a: SegmentContents, _ b: SegmentContents) -> SegmentContents {
        var out = SegmentContents()
        out.rowids = a.rowids + b.rowids
        out.expires = a.expires + b.expires
        out.hints = a.hints + b.hints
        out.recency = a.recency + b.recency
        out.engagement = a.engagement + b.engagement
        out.engagedAt = a.engagedAt + b.engagedAt
        out.lengths = a.lengths + b.lengths
        out.titleLengths = a.titleLengths + b.titleLengths
        out.plainColumns = a.plainColumns + b.plainColumns
        out.quality = a.quality + b.quality
        out.impressions = a.impressions + b.impressions
        out.uidHashes = a.uidHashes + b.uidHashes
        out.uidBytes = a.uidBytes + b.uidBytes
        let byteShift = UInt32(a.uidBytes.count)
        out.uidEnds = a.uidEnds + b.uidEnds.map { $0 + byteShift }
        let shift = UInt32(a.documentCount)
        out.numberNames = a.numberNames
        out.numberEntries = a.numberEntries
        var nameIDs = Dictionary(uniqueKeysWithValues: a.numberNames.enumerated().map { ($0.element, Int32($0.offset)) })
        let names = b.numberNames.map { name -> Int32 in
            if let id = nameIDs[name] { return id }
            let id = Int32(out.numberNames.count)
            nameIDs[name] = id
            out.numberNames.append(name)
            return id
        }
        out.numberEntries += b.numberEntries.map { NumberEntry(name: names[Int($0.name)], doc: $0.doc + shift, value: $0.value) }
        let postings = a.postingDocs.count + b.postingDocs.count
        out.postingDocs.reserveCapacity(postings)
        out.postingFrequencies.reserveCapacity(postings)
        out.postingColumns.reserveCapacity(postings)
        out.termBytes.reserveCapacity(a.termBytes.count + b.termBytes.count)
        out.termStart.reserveCapacity(a.termCount + b.termCount + 1)
        out.postingStart.reserveCapacity(a.termCount + b.termCount + 1)
        a.termBytes.withUnsafeBytes { aBytes in
        b.termBytes.withUnsafeBytes { bBytes in
            func term(_ bytes: UnsafeRawBufferPointer, _ starts: [Int], _ index: Int) -> UnsafeRawBufferPointer {
                UnsafeRawBufferPointer(rebasing: bytes[starts[index]..<starts[index + 1]])
            }
            func take(_ contents: SegmentContents, _ term: Int, shift: UInt32) {
                let range = contents.postingStart[term]..<contents.postingStart[term + 1]
                if shift == 0 {
                    out.postingDocs += contents.postingDocs[range]
                } else {
                    out.postingDocs += contents.postingDocs[range].lazy.map { $0 + shift }
                }
                out.postingFrequencies += contents.postingFrequencies[range]
                out.postingColumns += contents.postingColumns[range]
            }
            var i = 0, j = 0
            while i < a.termCount || j < b.termCount {
                let order: Int
                if i == a.termCount { order = 1 } else if j == b.termCount { order = -1 } else {
                    order = SegmentMerger.compare(term(aBytes, a.termStart, i), term(bBytes, b.termStart, j))
                }
                if order <= 0 {
                    out.termBytes.append(contentsOf: term(aBytes, a.termStart, i))
                    take(a, i, shift: 0)
                    i += 1
                    if order == 0 { take(b, j, shift: shift); j += 1 }
                } else {
                    out.termBytes.append(contentsOf: term(bBytes, b.termStart, j))
                    take(b, j, shift: shift)
                    j += 1
                }
                out.termStart.append(out.termBytes.count)
                out.postingStart.append(out.postingDocs.count)
            }
        }
        }
        return out
    }

    /// Documents already ordered by rowid.
    private init(sorted documents: ArraySlice<RankedDocument>) {
        var builder = Builder(expecting: documents)
        for document in documents { builder.add(document) }
        self = builder.finish()
    }

    /// A segment's contents built document by document, in rowid order:
    /// ``add(_:)`` interns each document's tokens and initials
    /// (``SegmentInitials``) in a ``TokenTable`` and keeps its values;
    /// ``finish()`` numbers the terms in byte order and lays the postings
    /// out by counting. The contents are those of ``init(documents:)`` for
    /// the same documents, however they were handed in, so a writer can add
    /// each chunk of a transaction while it writes the next
    /// (``RankedIndex``'s contents pipeline) and finish at its flush.
    ///
    /// ```swift
    /// var builder = SegmentContents.Builder()
    /// for document in firstChunk { builder.add(document) }
    /// for document in secondChunk { builder.add(document) }   // rowids after the first's
    /// let contents = builder.finish()
    /// ```
    package struct Builder {
        /// A token (or initial) of a document: its term id, stored frequency and columns.
        private struct Occurrence {
            var term: Int32
            var frequency: UInt32
            var columns: UInt8
        }

        private var contents = SegmentContents()
        private var table = TokenTable()
        private var occurrenceStart: [Int] = [0]
        /// Every document's tokens and initials, in the order added: one
        /// array (one append a document, from a temporary buffer), not
        /// one per field (three appends a token, each checking its
        /// array's uniqueness and capacity: ~110 instructions a token).
        private var occurrences: [Occurrence] = []
        /// Typed-value names by their bytes (ids in order of first use, as
        /// `numberNames`): a `[String: Int32]` hashed each name with
        /// SipHash, ~470 instructions, five names a document.
        private var nameTable = TokenTable()
        private var initials = DocumentInitials()
        /// Per code point below ``SegmentInitials/codePointLimit``, its
        /// initial's term id once interned, or -1: a document's ~17
        /// initials are looked up by code point, not each spelled out in
        /// an array, hashed and interned (17 of the contents thread's 20
        /// allocations a document).
        private var initialIDs = [Int32](repeating: -1, count: Int(SegmentInitials.codePointLimit))

        /// The documents added so far.
        package var documentCount: Int { contents.rowids.count }
        /// The rowid of the last document added.
        package var lastRowid: Int64? { contents.rowids.last }

        package init() {}

        /// Room for `documents`, which are about to be added.
        init(expecting documents: ArraySlice<RankedDocument>) {
            // Tokens, and about a third as many initials.
            let occurrences = documents.reduce(0) { $0 + $1.tokens.count } * 3 / 2
            occurrenceStart.reserveCapacity(documents.count + 1)
            self.occurrences.reserveCapacity(occurrences)
            contents.rowids.reserveCapacity(documents.count)
            contents.lengths.reserveCapacity(documents.count)
            contents.uidHashes.reserveCapacity(documents.count)
            contents.uidEnds.reserveCapacity(documents.count)
            contents.uidBytes.reserveCapacity(documents.reduce(0) { $0 + $1.uid.utf8.count })
        }

        /// Adds the next document, whose rowid is above every rowid added
        /// (the caller's to keep: doc ids are given in the order added).
        package mutating func add(_ document: RankedDocument) {
            let doc = UInt32(contents.rowids.count)
            contents.uidHashes.append(document.uidHash)
            contents.appendIdentifier(document.uid.utf8)
            for (name, value) in document.numbers {
                let id = name.utf8.withContiguousStorageIfAvailable { nameTable.intern($0, hash: TokenHash.of($0)) }
                    ?? Array(name.utf8).withUnsafeBufferPointer { nameTable.intern($0, hash: TokenHash.of($0)) }
                if id == contents.numberNames.count { contents.numberNames.append(name) }
                contents.numberEntries.append(NumberEntry(name: Int32(id), doc: doc, value: value))
            }
            let tokens = document.tokens
            // The document's tokens, then its initials (at most one per token).
            withUnsafeTemporaryAllocation(of: Occurrence.self, capacity: 2 * tokens.tokens.count) { buffer in
                var count = 0
                tokens.bytes.withUnsafeBufferPointer { bytes in
                    for token in tokens.tokens {
                        let bytes = UnsafeBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.start + token.count)])
                        let frequency = RankedScoring.frequency(weighted: token.frequency, columns: token.columns)
                        buffer[count] = Occurrence(term: Int32(table.intern(bytes, hash: token.hash)), frequency: frequency,
                                                   columns: token.columns)
                        count += 1
                        initials.note(bytes, frequency: frequency, columns: token.columns)
                    }
                }
                // The document's initials, terms like its tokens (``SegmentInitials``).
                for entry in initials.entries {
                    var id = initialIDs[Int(entry.codePoint)]
                    if id < 0 {
                        let key = SegmentInitials.termBytes(entry.codePoint)
                        id = Int32(key.withUnsafeBufferPointer { table.intern($0, hash: TokenHash.of($0)) })
                        initialIDs[Int(entry.codePoint)] = id
                    }
                    buffer[count] = Occurrence(term: id, frequency: entry.frequency, columns: entry.columns)
                    count += 1
                }
                occurrences.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
            }
            initials.reset()
            occurrenceStart.append(occurrences.count)
            contents.rowids.append(document.rowid)
            contents.expires.append(document.expires)
            contents.hints.append(document.hint)
            contents.recency.append(document.recency ?? .nan)
            contents.engagement.append(document.engagement)
            contents.engagedAt.append(document.engagedAt)
            contents.lengths.append(tokens.length)
            contents.titleLengths.append(UInt8(min(255, tokens.titleLength)))
            contents.plainColumns.append(tokens.plainColumns)
            contents.quality.append(tokens.quality)
            contents.impressions.append(document.impressions)
        }

        /// The contents of every document added, each document's rowid and
        /// expiry those given here rather than those it was added with: a
        /// writer adds a chunk's documents before inserting their rows,
        /// and learns their rowids as it inserts them.
        ///
        /// ```swift
        /// var builder = SegmentContents.Builder()
        /// for document in chunk { builder.add(document) }     // rowids not known yet
        /// let contents = builder.finish(rowids: inserted, expires: expiries)
        /// ```
        package consuming func finish(rowids: [Int64], expires: [Double]) -> SegmentContents {
            precondition(rowids.count == documentCount && expires.count == documentCount, "one rowid and expiry a document")
            precondition(zip(rowids, rowids.dropFirst()).allSatisfy { $0 < $1 }, "rowids ascend")
            contents.rowids = rowids
            contents.expires = expires
            return finish()
        }

        /// The contents of every document added.
        package consuming func finish() -> SegmentContents {
            var out = contents
            // Term ids in byte order of the tokens.
            let order = table.sortedIDs()
            var rank = [Int32](repeating: 0, count: table.count)
            out.termBytes.reserveCapacity(table.byteCount)
            out.termStart.reserveCapacity(table.count + 1)
            for (position, id) in order.enumerated() {
                rank[id] = Int32(position)
                table.appendBytes(of: id, to: &out.termBytes)
                out.termStart.append(out.termBytes.count)
            }
            // Postings by counting (documents in order, so each list ascends).
            var counts = [Int](repeating: 0, count: table.count + 1)
            for occurrence in occurrences { counts[Int(rank[Int(occurrence.term)]) + 1] += 1 }
            for index in 1..<counts.count { counts[index] += counts[index - 1] }
            out.postingStart = counts
            out.postingDocs = [UInt32](repeating: 0, count: occurrences.count)
            out.postingFrequencies = [UInt32](repeating: 0, count: occurrences.count)
            out.postingColumns = [UInt8](repeating: 0, count: occurrences.count)
            var fill = counts
            for doc in 0..<(occurrenceStart.count - 1) {
                for index in occurrenceStart[doc]..<occurrenceStart[doc + 1] {
                    let occurrence = occurrences[index]
                    let term = Int(rank[Int(occurrence.term)])
                    let at = fill[term]
                    out.postingDocs[at] = UInt32(doc)
                    out.postingFrequencies[at] = occurrence.frequency
                    out.postingColumns[at] = occurrence.columns
                    fill[term] = at + 1
                }
            }
            return out
        }
    }
}

/// Interns tokens given as bytes: an open-addressing table over one
/// buffer holding every distinct token once.
struct TokenTable {
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]
    private var hashes: [UInt64] = []
    private var slots = [Int32](repeating: -1, count: 1_024)

    var count: Int { hashes.count }
    var byteCount: Int { bytes.count }

    /// The id of `token` (whose ``TokenHash`` is `hash`), adding it if new
    /// (ids count up from 0).
    mutating func intern(_ token: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int {
        var mask = slots.count - 1
        var position = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        while true {
            let id = Int(slots[position])
            if id < 0 { break }
            if hashes[id] == hash, equals(id, token) { return id }
            position = (position + 1) & mask
        }
        let id = hashes.count
        hashes.append(hash)
        bytes.append(contentsOf: token)
        starts.append(bytes.count)
        if hashes.count * 2 > slots.count {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            mask = slots.count - 1
            for (other, otherHash) in hashes.enumerated() {
                var at = Int(truncatingIfNeeded: otherHash ^ (otherHash >> 29)) & mask
                while slots[at] >= 0 { at = (at + 1) & mask }
                slots[at] = Int32(other)
            }
        } else {
            slots[position] = Int32(id)
        }
        return id
    }

    private func equals(_ id: Int, _ token: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = starts[id], end = starts[id + 1]
        guard end - start == token.count else { return false }
        return bytes.withUnsafeBufferPointer { all in
            token.isEmpty || memcmp(all.baseAddress! + start, token.baseAddress!, token.count) == 0
        }
    }

    /// Every id, ordered by the bytes of its token: sorted by the first
    /// eight bytes as one big-endian integer, the rest compared only on a
    /// tie (tokens hold no zero byte, so padding with zeros keeps the order).
    ///
    /// The integers are sorted by their bytes, least significant first
    /// (a pass a byte that differs anywhere, each stable), and only runs of
    /// equal ones, tokens of eight bytes or more alike so far, by the rest:
    /// a 1,000-item flush's ~10,000 terms through a comparison sort were
    /// ~1 ms of the writer's wait for its segment's contents.
    func sortedIDs() -> [Int] {
        let count = self.count
        guard count > 1 else { return Array(0..<count) }
        var keys = [UInt64](repeating: 0, count: count), ids = [Int32](repeating: 0, count: count)
        bytes.withUnsafeBufferPointer { all in
            starts.withUnsafeBufferPointer { starts in
                keys.withUnsafeMutableBufferPointer { keys in
                    ids.withUnsafeMutableBufferPointer { ids in
                        for id in 0..<count {
                            let start = starts[id], length = min(8, starts[id + 1] - start)
                            var key: UInt64 = 0
                            for index in 0..<length { key |= UInt64(all[start + index]) << UInt64(56 - 8 * index) }
                            keys[id] = key
                            ids[id] = Int32(id)
                        }
                    }
                }
            }
        }
        Self.radixSort(&keys, &ids)
        // Runs of equal keys: by the bytes past the eighth, then the shorter first.
        var order = ids.map(Int.init)
        bytes.withUnsafeBufferPointer { all in
            starts.withUnsafeBufferPointer { starts in
                var runStart = 0
                for index in 1...count where index == count || keys[index] != keys[runStart] {
                    if index - runStart > 1 {
                        order[runStart..<index].sort { a, b in
                            let aStart = starts[a], aCount = starts[a + 1] - aStart
                            let bStart = starts[b], bCount = starts[b + 1] - bStart
                            let common = min(aCount, bCount)
                            if common > 8 {
                                let order = memcmp(all.baseAddress! + aStart + 8, all.baseAddress! + bStart + 8, common - 8)
                                if order != 0 { return order < 0 }
                            }
                            return aCount < bCount
                        }
                    }
                    runStart = index
                }
            }
        }
        return order
    }

    /// Sorts `keys` ascending, `ids` along, by a stable pass per byte,
    /// least significant first; a byte every key has alike is passed over.
    static func radixSort(_ keys: inout [UInt64], _ ids: inout [Int32]) {
        let count = keys.count
        var otherKeys = [UInt64](repeating: 0, count: count), otherIDs = [Int32](repeating: 0, count: count)
        var differing = UInt64(0)
        for key in keys { differing |= key ^ keys[0] }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 256) { counts in
            for shift in stride(from: 0, to: 64, by: 8) where (differing >> UInt64(shift)) & 0xFF != 0 {
                counts.initialize(repeating: 0)
                keys.withUnsafeBufferPointer { keys in
                    for key in keys { counts[Int((key >> UInt64(shift)) & 0xFF)] += 1 }
                }
                var total = 0
                for bucket in 0..<256 {
                    let size = counts[bucket]
                    counts[bucket] = total
                    total += size
                }
                keys.withUnsafeBufferPointer { keys in
                    ids.withUnsafeBufferPointer { ids in
                        otherKeys.withUnsafeMutableBufferPointer { outKeys in
                            otherIDs.withUnsafeMutableBufferPointer { outIDs in
                                for index in 0..<count {
                                    let bucket = Int((keys[index] >> UInt64(shift)) & 0xFF)
                                    let at = counts[bucket]
                                    counts[bucket] = at + 1
                                    outKeys[at] = keys[index]
                                    outIDs[at] = ids[index]
                                }
                            }
                        }
                    }
                }
                swap(&keys, &otherKeys)
                swap(&ids, &otherIDs)
            }
        }
    }

    func appendBytes(of id: Int, to out: inout [UInt8]) {
        out.append(contentsOf: bytes[starts[id]..<starts[id + 1]])
    }
}
