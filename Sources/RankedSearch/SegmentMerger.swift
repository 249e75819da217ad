import Foundation
import Synchronization

/// Merges segments into one, leaving out their deleted documents.
///
/// Documents keep their order (segment by segment), so each term's
/// postings are the inputs' postings concatenated with doc ids shifted;
/// dictionaries are merged in byte order. No text is tokenized again:
/// each term's blocks are decoded into one reused buffer and encoded at
/// once (``mergeEncoded(_:scoring:buildTime:streamingTo:bufferSize:parallelPostings:)``),
/// and terms are compared in place in the inputs' bytes.
///
/// ```swift
/// let merged = try SegmentMerger.mergeEncoded(snapshots, scoring: scoring, buildTime: now, streamingTo: file)
/// ```
package enum SegmentMerger {
    /// The merged segment's contents, decoded: what ``mergeEncoded(_:scoring:buildTime:streamingTo:bufferSize:parallelPostings:)``
    /// encodes without ever holding (its tests' reference).
    ///
    /// - Parameter parallelPostings: postings past which the term merge is
    ///   split over two threads (the result is the same either way).
    package static func merge(_ inputs: [SegmentSnapshot], parallelPostings: Int = SegmentMerger.parallelPostings) throws(SegmentError) -> SegmentContents {
        var out = SegmentContents()
        let docMaps = try mergeDocuments(inputs, into: &out)
        let merged = try inParts(termRanges(inputs, parallelPostings: parallelPostings)) { ranges throws(SegmentError) in
            var part = TermsPart()
            try forEachMergedTerm(inputs, docMaps: docMaps, ranges: ranges) { key, postings in
                part.termBytes.append(contentsOf: key)
                part.termEnds.append(part.termBytes.count)
                part.docs += postings.docs
                part.frequencies += postings.frequencies
                part.columns += postings.columns
                part.postingEnds.append(part.docs.count)
            }
            return part
        }
        let totalPostings = merged.reduce(0) { $0 + $1.docs.count }
        out.postingDocs.reserveCapacity(totalPostings)
        out.postingFrequencies.reserveCapacity(totalPostings)
        out.postingColumns.reserveCapacity(totalPostings)
        for part in merged {
            let byteBase = out.termBytes.count, postingBase = out.postingDocs.count
            out.termBytes += part.termBytes
            out.termStart += part.termEnds.map { $0 + byteBase }
            out.postingStart += part.postingEnds.map { $0 + postingBase }
            out.postingDocs += part.docs
            out.postingFrequencies += part.frequencies
            out.postingColumns += part.columns
        }
        return out
    }

    /// A merge's segment, encoded, and what installing it needs.
    package struct Merged: Sendable {
        /// The segment's bytes (``SegmentEncoder/encode(_:scoring:buildTime:parallelPostings:)``'s,
        /// for the same documents); empty when they went to a sink.
        package var bytes: [UInt8]
        /// The segment's length.
        package var byteCount: Int
        /// Per input, each document's new doc id (-1 when it was deleted):
        /// what installing a merge that ran beside other writes needs to
        /// carry their deletions over.
        package var docMaps: [[Int32]]
        package var documentCount: Int
    }

    /// Merges and encodes in one pass: each term's postings are gathered
    /// from the inputs and encoded at once, so a merge holds its output's
    /// encoded postings and one term's postings, never all its postings
    /// decoded (at 1M items that was most of indexing's peak memory). The
    /// bytes are those of encoding ``merge(_:parallelPostings:)``.
    ///
    /// - Parameter sink: where the bytes go as they are written, instead
    ///   of ``Merged/bytes`` (a large merge's file): then the merge holds
    ///   its tables and `bufferSize` bytes more, not its segment, and its
    ///   encoded postings wait in scratch files beside the sink's
    ///   (``SegmentSink/scratchDirectory``; in memory without one),
    ///   handed over `bufferSize` bytes at a time (256 KB: at 1 MB the
    ///   benchmark's index child peaked 2–3 MB higher at 63,666 items and
    ///   5 MB at 1M, at the same speed).
    package static func mergeEncoded(_ inputs: [SegmentSnapshot], scoring: RankedScoring, buildTime: Double, streamingTo sink: (any SegmentSink)? = nil,
                                     bufferSize: Int = 1 << 18, parallelPostings: Int = SegmentMerger.parallelPostings) throws -> Merged {
        // Built in place: a copy would keep the per-document values alive after they are dropped.
        var contents = SegmentContents()
        var out = SegmentEncoder.SectionWriter(streamingTo: sink, bufferSize: bufferSize)
        let docMaps: [[Int32]], documentCount: Int, scales: SegmentEncoder.Scales, titleLengths: [UInt8]
        if sink != nil {
            // A large merge: the pages other threads freed go back first,
            // or the merge's tables grow past them (``FreedMemory``).
            FreedMemory.returnToSystem()
            // Streaming, the documents' sections (first in the format) go
            // out now, from the inputs, before the terms are merged.
            let documents = try streamDocuments(inputs, scoring: scoring, buildTime: buildTime, into: &out)
            (docMaps, documentCount, scales, titleLengths) = (documents.docMaps, documents.documentCount, documents.scales, documents.titleLengths)
        } else {
            docMaps = try mergeDocuments(inputs, into: &contents, lookups: false)
            documentCount = contents.documentCount
            scales = SegmentEncoder.Scales(contents, scoring: scoring, buildTime: buildTime)
            titleLengths = contents.titleLengths
        }
        let scratch = sink?.scratchDirectory
        let parts = try inParts(termRanges(inputs, parallelPostings: parallelPostings)) { ranges throws(SegmentError) in
            var dictionary = TermsPart()
            var part = SegmentEncoder.PostingsPart(spill: try scratch.map { directory throws(SegmentError) in
                try PostingsSpill(directory: directory, threshold: bufferSize)
            }, tables: try scratch.map { directory throws(SegmentError) in
                try PostingsSpill(directory: directory, threshold: bufferSize)
            })
            try scales.norms.withUnsafeBufferPointer { norms throws(SegmentError) in
                try scales.bounds.withUnsafeBufferPointer { bounds throws(SegmentError) in
                    try titleLengths.withUnsafeBufferPointer { titleLengths throws(SegmentError) in
                        try forEachMergedTerm(inputs, docMaps: docMaps, ranges: ranges) { key, postings in
                            dictionary.termBytes.append(contentsOf: key)
                            dictionary.termEnds.append(dictionary.termBytes.count)
                            part.append(docs: postings.docs, frequencies: postings.frequencies, columns: postings.columns, scoring: scoring,
                                        norms: norms, bounds: bounds, titleLengths: titleLengths)
                        }
                    }
                }
            }
            return (dictionary, part)
        }
        contents.termBytes.reserveCapacity(parts.reduce(0) { $0 + $1.0.termBytes.count })
        for (dictionary, _) in parts {
            let byteBase = contents.termBytes.count
            contents.termBytes += dictionary.termBytes
            contents.termStart += dictionary.termEnds.map { $0 + byteBase }
        }
        if sink == nil { SegmentEncoder.writeDocuments(contents, bounds: scales.bounds, into: &out) }
        let header = try SegmentEncoder.writeAfterDocuments(contents, documentCount: documentCount, postings: parts.map(\.1),
                                                            avgLength: scales.avgLength, scoring: scoring, buildTime: buildTime,
                                                            into: &out) { out throws(SegmentError) in
            try writeLookups(inputs, docMaps: docMaps, into: &out)
        }
        guard sink != nil else {
            let bytes = out.finish(header)
            return Merged(bytes: bytes, byteCount: bytes.count, docMaps: docMaps, documentCount: documentCount)
        }
        let count = try out.finishStreamed(header)
        for (_, part) in parts {
            try part.spill?.check()
            try part.tables?.check()
        }
        return Merged(bytes: [], byteCount: count, docMaps: docMaps, documentCount: documentCount)
    }

    /// The kept documents of `inputs`, segment by segment: their
    /// per-document values, and with `lookups` their identifier hashes and
    /// typed values (no terms); returns per input each document's new doc
    /// id (-1 when deleted).
    static func mergeDocuments(_ inputs: [SegmentSnapshot], into out: inout SegmentContents, lookups: Bool = true) throws(SegmentError) -> [[Int32]] {
        var docMaps: [[Int32]] = []
        // Each array at its size at once: grown by doubling, a large merge's peaked at twice.
        let documents = inputs.reduce(0) { $0 + $1.segment.documentCount - $1.deleted.count }
        out.rowids.reserveCapacity(documents)
        for keyPath in [\SegmentContents.expires, \.hints, \.recency, \.engagement, \.engagedAt, \.quality, \.impressions] {
            out[keyPath: keyPath].reserveCapacity(documents)
        }
        out.lengths.reserveCapacity(documents)
        out.titleLengths.reserveCapacity(documents)
        out.plainColumns.reserveCapacity(documents)
        if lookups { out.numberEntries.reserveCapacity(inputs.reduce(0) { $0 + $1.segment.numberValueCount }) }
        for input in inputs {
            let segment = input.segment
            var map = [Int32](repeating: -1, count: segment.documentCount)
            for doc in 0..<segment.documentCount where !input.deleted.contains(doc) {
                map[doc] = Int32(out.rowids.count)
                out.rowids.append(segment.rowid(doc))
                out.expires.append(segment.expires(doc))
                out.hints.append(segment.hint(doc))
                out.recency.append(segment.recency(doc) ?? .nan)
                out.engagement.append(segment.engagement(doc))
                out.engagedAt.append(segment.engagedAt(doc))
                out.lengths.append(UInt32(segment.length(doc)))
                out.titleLengths.append(UInt8(segment.titleLength(doc)))
                out.plainColumns.append(segment.plainColumns(doc))
                out.quality.append(segment.quality(doc))
                out.impressions.append(segment.impressions(doc))
            }
            docMaps.append(map)
            // Read once, as the merge goes: released input by input, not all at the end.
            if !lookups { segment.releaseDocuments() }
        }
        guard out.rowids.count <= Int(UInt32.max) else { throw .tooLarge("\(out.rowids.count) documents") }

        guard lookups else { return docMaps }
        // Identifier hashes and typed values of the documents kept.
        out.uidHashes = [UInt64](repeating: 0, count: out.rowids.count)
        var nameIDs: [String: Int32] = [:]
        for (index, input) in inputs.enumerated() {
            let segment = input.segment, map = docMaps[index]
            for (doc, hash) in segment.uidHashesByDocument().enumerated() where map[doc] >= 0 {
                out.uidHashes[Int(map[doc])] = hash
            }
            // Kept documents are in input order: their identifiers append.
            try segment.forEachIdentifier { doc, bytes throws(SegmentError) in
                if map[doc] >= 0 { out.appendIdentifier(bytes) }
            }
            for name in 0..<segment.numberNameCount {
                let text = String(decoding: try segment.numberName(name), as: UTF8.self)
                let id: Int32
                if let known = nameIDs[text] {
                    id = known
                } else {
                    id = Int32(out.numberNames.count)
                    nameIDs[text] = id
                    out.numberNames.append(text)
                }
                for value in try segment.numberValues(ofName: name) {
                    let doc = Int(segment.numberDoc(value))
                    guard doc < map.count else { throw .corrupt("a typed value names document \(doc)") }
                    if map[doc] >= 0 {
                        out.numberEntries.append(NumberEntry(name: id, doc: UInt32(map[doc]), value: segment.numberValue(value)))
                    }
                }
            }
            segment.releaseDocuments()
        }
        return docMaps
    }

    /// The term ids of each input, as one range per input, or, past
    /// `parallelPostings` postings on two cores, two halves of the term
    /// space (split at the widest input's middle term).
    static func termRanges(_ inputs: [SegmentSnapshot], parallelPostings: Int) throws(SegmentError) -> [[Range<Int>]] {
        let postings = inputs.reduce(0) { $0 + $1.segment.blockCount * SegmentFormat.blockSize }
        guard postings >= parallelPostings, Parallelism.cores > 1,
              let widest = inputs.max(by: { $0.segment.termCount < $1.segment.termCount }), widest.segment.termCount > 1 else {
            return [inputs.map { 0..<$0.segment.termCount }]
        }
        let key = Array(try widest.segment.term(widest.segment.termCount / 2))
        var first: [Range<Int>] = [], second: [Range<Int>] = []
        for input in inputs {
            let split = try input.segment.lowerBound(key)
            first.append(0..<split)
            second.append(split..<input.segment.termCount)
        }
        return [first, second]
    }

    /// `work` on each part of the term space, on a thread each; the results in order.
    static func inParts<Part: Sendable>(_ parts: [[Range<Int>]], _ work: @Sendable ([Range<Int>]) throws(SegmentError) -> Part) throws(SegmentError) -> [Part] {
        let results = Mutex<[Result<Part, SegmentError>?]>(Array(repeating: nil, count: parts.count))
        DispatchQueue.concurrentPerform(iterations: parts.count) { index in
            let part = Result { () throws(SegmentError) in try work(parts[index]) }
            results.withLock { $0[index] = part }
        }
        return try results.withLock { $0 }.map { result throws(SegmentError) in try result!.get() }
    }

    /// Postings past which the term merge is split over two threads.
    static let parallelPostings = 400_000

    /// Blocks of an input read before their pages are released (up to a megabyte or so of postings and offsets).
    static let releaseBlocks = 1_024

    /// The merged terms of one range per input: bytes, each term's end in
    /// them and in the postings, and the postings.
    struct TermsPart {
        var termBytes: [UInt8] = []
        var termEnds: [Int] = []
        var postingEnds: [Int] = []
        var docs: [UInt32] = [], frequencies: [UInt32] = [], columns: [UInt8] = []
    }

    /// One merged term's postings, in new doc ids, ascending; reused from term to term.
    /// Its storage is managed by hand (no uniqueness or capacity check per
    /// posting: those were ~8% of a merge); one merge thread uses it.
    final class TermPostings {
        private var docStorage: UnsafeMutablePointer<UInt32>
        private var frequencyStorage: UnsafeMutablePointer<UInt32>
        private var columnStorage: UnsafeMutablePointer<UInt8>
        private var capacity = 1_024
        private(set) var count = 0

        init() {
            docStorage = .allocate(capacity: capacity)
            frequencyStorage = .allocate(capacity: capacity)
            columnStorage = .allocate(capacity: capacity)
        }

        deinit {
            docStorage.deallocate()
            frequencyStorage.deallocate()
            columnStorage.deallocate()
        }

        /// The postings gathered so far, valid until the next change.
        var docs: UnsafeBufferPointer<UInt32> { UnsafeBufferPointer(start: docStorage, count: count) }
        var frequencies: UnsafeBufferPointer<UInt32> { UnsafeBufferPointer(start: frequencyStorage, count: count) }
        var columns: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: columnStorage, count: count) }

        func removeAll() { count = 0 }

        /// Appends a decoded block's `count` postings, doc ids through `map`
        /// (-1: deleted, left out), or shifted by `shift` without one.
        @inline(__always)
        func append(_ buffers: BlockBuffers, count: Int, map: UnsafeBufferPointer<Int32>?, shift: UInt32) {
            if self.count + count > capacity { grow(to: self.count + count) }
            var at = self.count
            if let map {
                for posting in 0..<count {
                    let mapped = map[Int(buffers.docs[posting])]
                    guard mapped >= 0 else { continue }
                    docStorage[at] = UInt32(bitPattern: mapped)
                    frequencyStorage[at] = buffers.frequencies[posting]
                    columnStorage[at] = buffers.columns[posting]
                    at += 1
                }
            } else {
                for posting in 0..<count {
                    docStorage[at &+ posting] = buffers.docs[posting] &+ shift
                }
                (frequencyStorage + at).update(from: buffers.frequencies, count: count)
                (columnStorage + at).update(from: buffers.columns, count: count)
                at += count
            }
            self.count = at
        }

        private func grow(to needed: Int) {
            var bigger = capacity * 2
            while bigger < needed { bigger *= 2 }
            func moved<T>(_ old: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<T> {
                let new = UnsafeMutablePointer<T>.allocate(capacity: bigger)
                new.moveInitialize(from: old, count: count)
                old.deallocate()
                return new
            }
            docStorage = moved(docStorage)
            frequencyStorage = moved(frequencyStorage)
            columnStorage = moved(columnStorage)
            capacity = bigger
        }
    }

    /// Calls `body` with each term of `ranges[i]` of input i's terms, in
    /// byte order and once each, and its postings: the holders' postings
    /// in input order, deleted documents left out. A term left with no
    /// postings is skipped.
    static func forEachMergedTerm(_ inputs: [SegmentSnapshot], docMaps: [[Int32]], ranges: [Range<Int>],
                                  _ body: (UnsafeRawBufferPointer, TermPostings) throws(SegmentError) -> Void) throws(SegmentError) {
        let postings = TermPostings()
        // The inputs' segments and doc maps behind buffers of the merge's
        // own: a term's holders are asked for by index, and an array of
        // segments copied one out (a retain of each of its references) per
        // holder and term.
        let segments = inputs.map(\.segment)
        let count = inputs.count
        let maps = UnsafeMutableBufferPointer<UnsafeBufferPointer<Int32>?>.allocate(capacity: count)
        defer {
            for map in maps { map.map { UnsafeMutableBufferPointer(mutating: $0).deallocate() } }
            maps.deallocate()
        }
        for index in 0..<count {
            // A map is read only for an input with deletions; without, doc ids are shifted.
            guard inputs[index].deleted.count > 0 else { maps[index] = nil; continue }
            let copy = UnsafeMutableBufferPointer<Int32>.allocate(capacity: docMaps[index].count)
            _ = copy.initialize(from: docMaps[index])
            maps[index] = UnsafeBufferPointer(copy)
        }
        let shifts = docMaps.map { $0.isEmpty ? 0 : UInt32(bitPattern: $0[0]) }
        var cursors = ranges.map(\.lowerBound)
        var heads: [UnsafeRawBufferPointer?] = []
        for (segment, range) in zip(segments, ranges) { heads.append(range.isEmpty ? nil : try segment.term(range.lowerBound)) }
        let buffers = BlockBuffers()
        var holders: [Int] = []
        holders.reserveCapacity(count)
        // Per input, the first term and block still resident.
        var residentTerms = ranges.map(\.lowerBound)
        var residentBlocks = try zip(segments, ranges).map { segment, range throws(SegmentError) in
            range.isEmpty ? 0 : try segment.blocks(of: range.lowerBound).lowerBound
        }
        // Per holder of the current term, the end of its blocks.
        var readBlocks = [Int](repeating: 0, count: count)
        try segments.withUnsafeBufferPointer { segments throws(SegmentError) in
            while true {
                var smallest: UnsafeRawBufferPointer?
                holders.removeAll(keepingCapacity: true)
                for index in 0..<count {
                    guard let head = heads[index] else { continue }
                    if let current = smallest {
                        let order = Self.compare(head, current)
                        if order < 0 {
                            smallest = head
                            holders.removeAll(keepingCapacity: true)
                            holders.append(index)
                        } else if order == 0 {
                            holders.append(index)
                        }
                    } else {
                        smallest = head
                        holders.append(index)
                    }
                }
                guard let key = smallest else { break }
                postings.removeAll()
                // One copy of a holder's segment for all it is asked here
                // (each `segments[index].f()` copied the segment's struct
                // out of the buffer, a retain and release each: ~10% of a
                // merge's samples); its next term is read now, its pages
                // released after `body`.
                for index in holders {
                    let segment = segments[index]
                    let blocks = try segment.blocks(of: cursors[index])
                    for block in blocks {
                        let decoded = try segment.unpack(block, into: buffers, columns: true)
                        postings.append(buffers, count: decoded, map: maps[index], shift: shifts[index])
                    }
                    readBlocks[index] = blocks.upperBound
                    let next = cursors[index] + 1
                    heads[index] = next < ranges[index].upperBound ? try segment.term(next) : nil
                }
                if postings.count > 0 { try body(key, postings) }
                for index in holders {
                    let read = readBlocks[index]
                    if read - residentBlocks[index] >= Self.releaseBlocks {
                        segments[index].releaseMerged(terms: residentTerms[index]..<(cursors[index] + 1), blocks: residentBlocks[index]..<read)
                        (residentTerms[index], residentBlocks[index]) = (cursors[index] + 1, read)
                    }
                    cursors[index] += 1
                }
            }
        }
    }

    /// Byte order of two terms: memcmp over the common length, then the shorter first.
    @inline(__always)
    static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        if common > 0 {
            let order = memcmp(a.baseAddress!, b.baseAddress!, common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }

    static func less(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool { compare(a, b) < 0 }
}
