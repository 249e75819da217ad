import Foundation
import Synchronization

/// Writes ``SegmentContents`` in the layout of ``SegmentFormat``, computing
/// the static bounds and the per-term and per-block maxima on the way.
package enum SegmentEncoder {
    /// - Parameter parallelPostings: postings past which the work is split
    ///   over two threads (the bytes are the same either way).
    package static func encode(_ contents: SegmentContents, scoring: RankedScoring, buildTime: Double,
                               parallelPostings: Int = SegmentEncoder.parallelPostings) -> [UInt8] {
        var contents = contents
        ExactValues.limitDistinct(&contents)
        orderNumbers(&contents)
        let scales = Scales(contents, scoring: scoring, buildTime: buildTime)
        // Postings in blocks, with maxima: the bulk of the work, done in
        // two halves of the terms on two cores when there is enough of it
        // (a flush or a merge has the cores to itself).
        let parts = Self.postingsInParts(contents, scoring: scoring, scales: scales, threshold: parallelPostings)
        return encode(contents, postings: parts, scales: scales, scoring: scoring, buildTime: buildTime)
    }

    /// The documents' sections and dictionary of `contents` (whose own
    /// postings are not read, and whose typed values are in order:
    /// ``orderNumbers(_:)``), with postings already encoded in `parts`,
    /// one after the other in term order: what ``SegmentMerger`` writes
    /// without ever holding a merge's postings decoded.
    static func encode(_ contents: SegmentContents, postings parts: [PostingsPart], scales: Scales, scoring: RankedScoring,
                       buildTime: Double) -> [UInt8] {
        var out = SectionWriter()
        let postingBytes = parts.reduce(0) { $0 + $1.byteCount }, blocks = parts.reduce(0) { $0 + $1.blockLastDoc.count }
        out.bytes.reserveCapacity(SegmentFormat.headerSize + contents.documentCount * 64 + contents.termBytes.count * 2 + contents.termCount * 32
                                  + postingBytes + blocks * 16 + contents.numberEntries.count * 12 + PostingBlock.padding)
        writeDocuments(contents, bounds: scales.bounds, into: &out)
        let header = writeAfterDocuments(contents, documentCount: contents.documentCount, postings: parts, avgLength: scales.avgLength,
                                         scoring: scoring, buildTime: buildTime, into: &out) { out in
            let lookups = writeNumbers(contents, into: &out)
            writeIdentifiers(contents, into: &out)
            return lookups
        }
        return out.finish(header)
    }

    /// Every section after the documents' (``writeDocuments(_:bounds:into:)``),
    /// in the format's order: the dictionary, the postings, then the
    /// typed values and identifiers, which `lookups` writes and counts
    /// (from `contents`, or a merge's from its inputs). Reads only the
    /// dictionary of `contents`, so a streamed merge may have dropped its
    /// per-document values once they were written. Returns what the
    /// header says.
    static func writeAfterDocuments<Failure: Error>(
        _ contents: SegmentContents, documentCount: Int, postings parts: [PostingsPart], avgLength: Double, scoring: RankedScoring,
        buildTime: Double, into out: inout SectionWriter, lookups: (inout SectionWriter) throws(Failure) -> Lookups
    ) throws(Failure) -> Header {
        out.packed(.termOffsets, width: SegmentFormat.packedWidth(maximum: UInt64(contents.termBytes.count)), contents.termStart) { UInt64($0) }
        out.begin(.termBytes); out.append(values: contents.termBytes)
        let (blockCount, multiBlockTerms) = writePostings(parts, contents: contents, documentCount: documentCount, into: &out)
        let lookups = try lookups(&out)
        out.writer.align8()
        return Header(documents: documentCount, terms: contents.termCount, blocks: blockCount, numberNames: lookups.names,
                      numberValues: lookups.values, zeroValues: lookups.zeroValues, multiBlockTerms: multiBlockTerms,
                      fingerprint: scoring.fingerprint, buildTime: buildTime, avgLength: avgLength)
    }

    /// The width of a packed table of doc ids among `documentCount` documents.
    static func docWidth(_ documentCount: Int) -> Int { SegmentFormat.packedWidth(maximum: UInt64(max(documentCount - 1, 0))) }

    /// What the typed values' writer says the header should count: typed
    /// attribute names, values, and the first values that are the
    /// exact-value index's (0, not stored: ``SegmentFormat/zeroValueCountOffset``).
    struct Lookups {
        var names: Int
        var values: Int
        var zeroValues: Int
    }

    /// How many of `names`' first values the format keeps as zeros: the
    /// values of the leading names that are the exact-value index's
    /// (``ExactValues/isReservedName(_:)``; they sort before every
    /// attribute's), given `starts`, each name's first value and the end.
    static func zeroValueCount(names: [some Collection<UInt8>], starts: [UInt64]) -> Int {
        var end = 0
        for (index, name) in names.enumerated() {
            let count = Int(starts[index + 1] - starts[index])
            if ExactValues.isReservedName(name) {
                end = Int(starts[index + 1])
            } else if count > 0 {
                break
            }
        }
        return end
    }

    /// What scoring reads of each document while its postings are
    /// encoded: the average length, each document's static bound and
    /// length norm.
    struct Scales {
        let avgLength: Double
        let bounds: [Double]
        let norms: [Double]

        /// The scales of documents of these lengths and static bounds.
        init(lengths: [UInt32], bounds: [Double]) {
            let totalLength = lengths.reduce(0) { $0 + Double($1) }
            let avgLength = lengths.isEmpty ? 1 : max(totalLength / Double(lengths.count), 1e-9)
            self.avgLength = avgLength
            self.bounds = bounds
            norms = lengths.map { RankedScoring.norm(length: Double($0), avgLength: avgLength) }
        }

        init(_ contents: SegmentContents, scoring: RankedScoring, buildTime: Double) {
            let n = contents.documentCount
            var bounds = [Double](repeating: 0, count: n)
            for doc in 0..<n {
                let recency = contents.recency[doc]
                bounds[doc] = scoring.staticBound(hint: contents.hints[doc], engagement: contents.engagement[doc],
                                                  recency: recency.isNaN ? nil : recency, quality: contents.quality[doc], at: buildTime)
            }
            self.init(lengths: contents.lengths, bounds: bounds)
        }
    }

    /// `documentBounds`: each document's static bound (rounded up to a
    /// Float32) and length, side by side, a few thousand at a time.
    static func writeDocumentBounds(lengths: [UInt32], bounds: [Double], into out: inout SectionWriter) {
        out.begin(.documentBounds)
        var chunk = Chunk<UInt64>()
        for (length, bound) in zip(lengths, bounds) {
            chunk.add(UInt64(RankedScoring.roundedUp(bound).bitPattern) | UInt64(length) << 32, to: &out)
        }
        chunk.finish(into: &out)
    }

    /// The per-document sections: rowids, signals, lengths, static bounds.
    static func writeDocuments(_ contents: SegmentContents, bounds: [Double], into out: inout SectionWriter) {
        writeRowids(contents.rowids, into: &out)
        out.floats(.expires, contents.expires)
        out.floats(.hints, contents.hints)
        out.floats(.recency, contents.recency)
        out.floats(.engagement, contents.engagement)
        out.floats(.engagedAt, contents.engagedAt)
        writeDocumentBounds(lengths: contents.lengths, bounds: bounds, into: &out)
        out.packed(.rowidOrder, width: docWidth(contents.documentCount), Self.rowidOrder(contents.rowids)) { UInt64($0) }
        out.begin(.titleLengths); out.append(values: contents.titleLengths)
        out.packed(.plainColumns, width: 4, contents.plainColumns) { UInt64($0) }
        out.floats(.quality, contents.quality)
        out.floats(.impressions, contents.impressions)
    }

    /// The rowids of the documents in doc order, packed above the smallest
    /// (``SegmentFormat/rowidBaseOffset``).
    static func writeRowids(_ rowids: some Collection<Int64>, into out: inout SectionWriter) {
        var packed = out.beginRowids(rowids.min().map { $0...rowids.max()! })
        let base = out.rowidBase
        for rowid in rowids { packed.add(UInt64(bitPattern: rowid &- base), to: &out) }
        packed.finish(into: &out)
    }

    /// The postings' sections and the term groups, from `parts` in term
    /// order: each part's tables rebased by the blocks and bytes of the
    /// parts before it, and its postings' bytes copied (from its spill
    /// too), never joined first. Returns the block count and the count of
    /// terms of more than one block.
    static func writePostings(_ parts: [PostingsPart], contents: SegmentContents, documentCount: Int,
                              into out: inout SectionWriter) -> (blocks: Int, multiBlockTerms: Int) {
        let t = contents.termCount
        assert(parts.reduce(0) { $0 + $1.termDocs.count } == t)
        let blockCount = parts.reduce(0) { $0 + $1.blockLastDoc.count }, byteCount = parts.reduce(0) { $0 + $1.byteCount }
        var firstBlocks = out.beginPacked(.termFirstBlock, width: SegmentFormat.packedWidth(maximum: UInt64(blockCount)))
        var blockBase: UInt64 = 0
        for part in parts {
            firstBlocks.add(part.termFirstBlock, plus: blockBase, to: &out)
            blockBase += UInt64(part.blockLastDoc.count)
        }
        firstBlocks.finish(into: &out)
        var termDocs = out.beginPacked(.termDocs, width: SegmentFormat.packedWidth(maximum: UInt64(documentCount)))
        for part in parts { termDocs.add(part.termDocs, to: &out) }
        termDocs.finish(into: &out)
        out.begin(.termMaxG); for part in parts { out.append(values: part.termMaxG) }
        out.begin(.termMaxGS); appendMultiBlock(\.termMaxGS, of: parts, into: &out)
        out.begin(.termMaxS); appendMultiBlock(\.termMaxS, of: parts, into: &out)
        out.begin(.termGroups)
        var group = TermGroup(), term = 0, multiBlockTerms = 0
        for part in parts {
            for local in 0..<part.termDocs.count {
                group.add(part, local)
                term += 1
                if part.termDocs[local] > UInt32(SegmentFormat.blockSize) { multiBlockTerms += 1 }
                if term % SegmentFormat.termGroupSize == 0 || term == t {
                    group.write(firstTerm: (term - 1) / SegmentFormat.termGroupSize * SegmentFormat.termGroupSize, contents, into: &out)
                    group = TermGroup(multiBlockBefore: multiBlockTerms)
                }
            }
        }
        var offsets = out.beginPacked(.blockOffsets, width: SegmentFormat.packedWidth(maximum: UInt64(byteCount)))
        var byteBase: UInt64 = 0
        for part in parts {
            offsets.add(part.blockOffsets, plus: byteBase, to: &out)
            byteBase += UInt64(part.byteCount)
        }
        offsets.add(byteBase, to: &out)
        offsets.finish(into: &out)
        var lastDocs = out.beginPacked(.blockLastDoc, width: docWidth(documentCount))
        for part in parts { lastDocs.add(part.blockLastDoc, to: &out) }
        lastDocs.finish(into: &out)
        out.begin(.blockMaxGS); for part in parts { out.append(values: part.blockMaxGS) }
        out.begin(.blockMaxS); for part in parts { out.append(values: part.blockMaxS) }
        out.begin(.postingsData)
        for part in parts { part.forEachChunk { out.append(large: $0) } }
        // The padding a block decoder reads past the last block.
        out.bytes.append(contentsOf: repeatElement(0, count: PostingBlock.padding))
        out.begin(.termMaxGSPart); appendMultiBlock(\.termMaxGSPart, of: parts, into: &out)
        out.begin(.blockMaxGSPart); for part in parts { out.append(values: part.blockMaxGSPart) }
        out.begin(.termMaxGPart); for part in parts { out.append(values: part.termMaxGPart) }
        return (blockCount, multiBlockTerms)
    }

    /// Appends the maxima `values` of the terms of more than one block
    /// (a term of one block has its block's: ``SegmentFormat``).
    static func appendMultiBlock(_ values: KeyPath<PostingsPart, PagedArray<SegmentFormat.Maximum>>, of parts: [PostingsPart],
                                 into out: inout SectionWriter) {
        var chunk = Chunk<SegmentFormat.Maximum>()
        for part in parts {
            let maxima = part[keyPath: values]
            for term in 0..<part.termDocs.count where part.termDocs[term] > UInt32(SegmentFormat.blockSize) {
                chunk.add(maxima[term], to: &out)
            }
        }
        chunk.finish(into: &out)
    }

    /// One entry of `termGroups`, summed and maximised over its terms as they come.
    struct TermGroup {
        /// Terms of more than one block before the group's first.
        var multiBlockBefore = 0
        var postings: UInt64 = 0, mostPostings: UInt32 = 0
        var maxG: Float = 0, maxGS: Float = 0, maxS: Float = 0, maxGSPart: Float = 0, maxGPart: Float = 0

        mutating func add(_ part: PostingsPart, _ term: Int) {
            postings += UInt64(part.termDocs[term])
            mostPostings = max(mostPostings, part.termDocs[term])
            // The stored (rounded-up) maxima: a group's bounds every term's as read.
            maxG = max(maxG, part.termMaxG[term].float)
            maxGS = max(maxGS, part.termMaxGS[term].float)
            maxS = max(maxS, part.termMaxS[term].float)
            maxGSPart = max(maxGSPart, part.termMaxGSPart[term].float)
            maxGPart = max(maxGPart, part.termMaxGPart[term].float)
        }

        /// The entry's 56 bytes (``SegmentFormat/termGroupStride``), its first term `firstTerm`.
        func write(firstTerm: Int, _ contents: SegmentContents, into out: inout SectionWriter) {
            out.writer.append(postings)
            out.writer.append(mostPostings)
            out.writer.append(maxG)
            out.writer.append(maxGS)
            out.writer.append(maxS)
            // The group's first term: its length, then its first 16 bytes (zero-padded).
            let first = contents.termStart[firstTerm]..<contents.termStart[firstTerm + 1]
            out.writer.append(UInt32(first.count))
            out.writer.append(UInt32(multiBlockBefore))
            let key = contents.termBytes[first.lowerBound..<min(first.upperBound, first.lowerBound + SegmentFormat.termGroupKeySize)]
            out.bytes.append(contentsOf: key)
            out.bytes.append(contentsOf: repeatElement(0, count: SegmentFormat.termGroupKeySize - key.count))
            // Bytes 48 and 52: the maxima without the exact-title share.
            out.writer.append(maxGSPart)
            out.writer.append(maxGPart)
        }
    }

    /// Puts typed values in the order ``writeNumbers(_:into:)`` writes
    /// them, in place: names in byte order (a name's id is its rank),
    /// values ascending within each name, then by doc.
    static func orderNumbers(_ contents: inout SegmentContents) {
        let nameOrder = contents.numberNames.indices.sorted { contents.numberNames[$0].utf8.lexicographicallyPrecedes(contents.numberNames[$1].utf8) }
        var nameRank = [Int32](repeating: 0, count: contents.numberNames.count)
        for (rank, id) in nameOrder.enumerated() { nameRank[id] = Int32(rank) }
        contents.numberNames = nameOrder.map { contents.numberNames[$0] }
        for index in contents.numberEntries.indices { contents.numberEntries[index].name = nameRank[Int(contents.numberEntries[index].name)] }
        contents.numberEntries.sort { a, b in
            if a.name != b.name { return a.name < b.name }
            if a.value != b.value { return a.value < b.value }
            return a.doc < b.doc
        }
    }

    /// Typed values (put in order by ``orderNumbers(_:)``): names in byte
    /// order, values ascending within each, but the exact-value index's
    /// (each 0: ``SegmentFormat/zeroValueCountOffset``). Returns the
    /// counts the header says.
    static func writeNumbers(_ contents: SegmentContents, into out: inout SectionWriter) -> Lookups {
        let entries = contents.numberEntries
        var nameOffsets: [UInt64] = [0], nameBytes: [UInt8] = [], nameStarts: [UInt64] = [0]
        var index = 0
        for (id, name) in contents.numberNames.enumerated() {
            nameBytes.append(contentsOf: name.utf8)
            nameOffsets.append(UInt64(nameBytes.count))
            while index < entries.count, entries[index].name == Int32(id) { index += 1 }
            nameStarts.append(UInt64(index))
        }
        out.begin(.numberNameOffsets); out.append(values: nameOffsets)
        out.begin(.numberNameBytes); out.append(values: nameBytes)
        out.begin(.numberNameStarts); out.append(values: nameStarts)
        let zeros = zeroValueCount(names: contents.numberNames.map(\.utf8), starts: nameStarts)
        assert(entries[..<zeros].allSatisfy { $0.value == 0 }, "the exact-value index's values are 0")
        out.floats(.numberValues, entries[zeros...].lazy.map(\.value))
        out.packed(.numberDocs, width: docWidth(contents.documentCount), entries) { UInt64($0.doc) }
        return Lookups(names: contents.numberNames.count, values: entries.count, zeroValues: zeros)
    }

    /// Unique identifiers: hashes ascending, each with its doc; then each
    /// document's identifier, in doc order.
    static func writeIdentifiers(_ contents: SegmentContents, into out: inout SectionWriter) {
        var uids = contents.uidHashes.enumerated().map { (hash: $0.element, doc: UInt32($0.offset)) }
        uids.sort { $0.hash != $1.hash ? $0.hash < $1.hash : $0.doc < $1.doc }
        out.begin(.uidHashes); out.append(contentsOf: uids) { $0.hash }
        out.packed(.uidDocs, width: docWidth(contents.documentCount), uids) { UInt64($0.doc) }
        var writer = IdentifierRuns.Writer(), bytes: [UInt8] = []
        bytes.reserveCapacity(contents.uidBytes.count + contents.documentCount)
        contents.uidBytes.withUnsafeBufferPointer { all in
            var start = 0
            for end in contents.uidEnds {
                writer.append(UnsafeBufferPointer(rebasing: all[start..<Int(end)]), to: &bytes)
                start = Int(end)
            }
        }
        out.begin(.uidBytes); out.append(values: bytes)
        writeIdentifierRuns(writer, into: &out)
    }

    /// The `uidRuns` table of identifiers `writer` wrote (``IdentifierRuns``):
    /// each run's start, then the section's length.
    static func writeIdentifierRuns(_ writer: IdentifierRuns.Writer, into out: inout SectionWriter) {
        var runs = out.beginPacked(.uidRuns, width: SegmentFormat.packedWidth(maximum: writer.written))
        for start in writer.runStarts { runs.add(start, to: &out) }
        runs.add(writer.written, to: &out)
        runs.finish(into: &out)
    }

    /// The postings of a range of terms, encoded: block offsets relative
    /// to its own bytes, first blocks relative to its own blocks.
    struct PostingsPart {
        var termFirstBlock = PagedArray<UInt32>(), termDocs = PagedArray<UInt32>()
        var termMaxG = PagedArray<SegmentFormat.Maximum>(), termMaxGS = PagedArray<SegmentFormat.Maximum>(), termMaxS = PagedArray<SegmentFormat.Maximum>()
        var blockOffsets = PagedArray<UInt64>(), blockLastDoc = PagedArray<UInt32>(), blockMaxGS = PagedArray<SegmentFormat.Maximum>()
        var blockMaxS = PagedArray<SegmentFormat.Maximum>()
        /// Without the exact-title share (a prefix's completions).
        var termMaxGSPart = PagedArray<SegmentFormat.Maximum>(), blockMaxGSPart = PagedArray<SegmentFormat.Maximum>(), termMaxGPart = PagedArray<SegmentFormat.Maximum>()
        /// The encoded blocks not yet handed to ``spill`` (all of them without one).
        var postings: [UInt8] = []
        /// Where a streamed merge's part hands its blocks once ``postings``
        /// holds the spill's ``PostingsSpill/threshold`` bytes: the part's bytes are
        /// the spill's, then ``postings``.
        var spill: PostingsSpill?
        /// Where the block tables and the terms' first blocks hand their
        /// full pages (a streamed merge's: its tables are known only once
        /// every term is merged, and at 10M items its blocks are millions).
        /// The term tables the term groups read by index stay in memory.
        var tables: PostingsSpill?

        init(spill: PostingsSpill? = nil, tables: PostingsSpill? = nil) {
            self.spill = spill
            self.tables = tables
            if let tables {
                // Pages of a sixteenth of the spill's threshold at most:
                // a part holds one page of each of its six spilled tables.
                let pageSize = min(PagedArray<UInt64>.pageSize / 4, max(8, tables.threshold / 8))
                termFirstBlock = PagedArray(spillingTo: tables, pageSize: pageSize)
                blockOffsets = PagedArray(spillingTo: tables, pageSize: pageSize)
                blockLastDoc = PagedArray(spillingTo: tables, pageSize: pageSize)
                blockMaxGS = PagedArray(spillingTo: tables, pageSize: pageSize)
                blockMaxS = PagedArray(spillingTo: tables, pageSize: pageSize)
                blockMaxGSPart = PagedArray(spillingTo: tables, pageSize: pageSize)
            }
        }

        /// The part's bytes of encoded blocks, spilled or not.
        var byteCount: Int { (spill?.count ?? 0) + postings.count }

        /// Calls `body` with the part's bytes in order: the spill's, then ``postings``.
        func forEachChunk(_ body: (UnsafeRawBufferPointer) -> Void) {
            spill?.forEachChunk(body)
            postings.withUnsafeBytes(body)
        }

        /// Encodes one term's postings (ascending doc ids) in blocks of
        /// ``SegmentFormat/blockSize`` with their maxima of the term score
        /// (G = tf(k1+1) / (tf + norm[doc]) plus the match-quality part),
        /// with and without the exact-title share, and the term's own.
        mutating func append(docs: UnsafeBufferPointer<UInt32>, frequencies: UnsafeBufferPointer<UInt32>, columns: UnsafeBufferPointer<UInt8>,
                             scoring: RankedScoring, norms: UnsafeBufferPointer<Double>, bounds: UnsafeBufferPointer<Double>,
                             titleLengths: UnsafeBufferPointer<UInt8>) {
            termFirstBlock.append(UInt32(blockLastDoc.count))
            termDocs.append(UInt32(docs.count))
            let titleMatch = max(0, scoring.weights.titleMatch), exactTitle = max(0, scoring.weights.exactTitle)
            var maxG = 0.0, maxGS = 0.0, maxS = 0.0, maxGSPart = 0.0, maxGPart = 0.0
            var start = 0
            while start < docs.count {
                let end = min(start + SegmentFormat.blockSize, docs.count)
                blockOffsets.append(UInt64(byteCount))
                PostingBlock.append(docs: UnsafeBufferPointer(rebasing: docs[start..<end]),
                                    frequencies: UnsafeBufferPointer(rebasing: frequencies[start..<end]),
                                    columns: UnsafeBufferPointer(rebasing: columns[start..<end]), to: &postings)
                // Block by block: one term's postings (an initial's, in
                // every document) can be megabytes.
                if let spill, postings.count >= spill.threshold {
                    spill.append(postings)
                    postings.removeAll(keepingCapacity: true)
                }
                var blockGS = 0.0, blockS = 0.0, blockG = 0.0, blockGSPart = 0.0
                // The larger of two scores (never NaN) as one instruction: Swift's `max`
                // keeps NaN's order, a compare and a blend of three, five times a posting.
                @inline(__always) func larger(_ a: Double, _ b: Double) -> Double { b > a ? b : a }
                for index in start..<end {
                    let doc = Int(docs[index])
                    let frequency = frequencies[index]
                    // ``RankedScoring/termScore`` both ways from one G (one division, not two):
                    // with the exact-title share, and without it.
                    var g = RankedScoring.g(frequency: frequency, norm: norms[doc]), withoutShare = g
                    if frequency & RankedScoring.titleBit != 0 {
                        withoutShare = g + titleMatch
                        g = withoutShare + exactTitle / max(1, Double(titleLengths[doc]))
                    }
                    let s = bounds[doc]
                    blockG = larger(blockG, g)
                    blockGS = larger(blockGS, g * s)
                    blockGSPart = larger(blockGSPart, withoutShare * s)
                    maxGPart = larger(maxGPart, withoutShare)
                    blockS = larger(blockS, s)
                }
                blockLastDoc.append(docs[end - 1])
                blockMaxGS.append(SegmentFormat.Maximum(roundingUp: blockGS))
                blockMaxGSPart.append(SegmentFormat.Maximum(roundingUp: blockGSPart))
                maxGSPart = max(maxGSPart, blockGSPart)
                blockMaxS.append(SegmentFormat.Maximum(roundingUp: blockS))
                maxG = max(maxG, blockG)
                maxGS = max(maxGS, blockGS)
                maxS = max(maxS, blockS)
                start = end
            }
            termMaxG.append(SegmentFormat.Maximum(roundingUp: maxG))
            termMaxGS.append(SegmentFormat.Maximum(roundingUp: maxGS))
            termMaxGSPart.append(SegmentFormat.Maximum(roundingUp: maxGSPart))
            termMaxGPart.append(SegmentFormat.Maximum(roundingUp: maxGPart))
            termMaxS.append(SegmentFormat.Maximum(roundingUp: maxS))
        }

        /// Room for `count` postings' bytes (the tables grow by pages).
        mutating func reserve(postings count: Int) {
            postings.reserveCapacity(count * 3 + 16)
        }
    }

    /// Postings past which encoding is split over two threads: a flush of
    /// 1,000 items (~100,000 postings, initials included) is, as the
    /// other core is idle while the writer encodes; starting the second
    /// thread costs tens of microseconds against milliseconds of encoding.
    static let parallelPostings = 32_768

    /// Every term's postings, as one part or, when large, two (split where
    /// half the postings are) encoded at once.
    static func postingsInParts(_ contents: SegmentContents, scoring: RankedScoring, scales: Scales, threshold: Int) -> [PostingsPart] {
        let total = contents.postingDocs.count, t = contents.termCount
        guard total >= threshold, Parallelism.cores > 1, t > 1 else {
            return [postings(of: 0..<t, contents, scoring: scoring, scales: scales)]
        }
        // The first term whose postings start at or after the middle.
        var low = 0, high = t
        while low < high {
            let mid = (low + high) / 2
            if contents.postingStart[mid] < total / 2 { low = mid + 1 } else { high = mid }
        }
        let split = max(1, min(t - 1, low))
        let ranges = [0..<split, split..<t]
        let results = Mutex<[PostingsPart?]>([nil, nil])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let part = postings(of: ranges[index], contents, scoring: scoring, scales: scales)
            results.withLock { $0[index] = part }
        }
        return results.withLock { $0.map { $0! } }
    }

    /// Encodes the postings of `terms` (``PostingsPart/append(docs:frequencies:columns:scoring:norms:bounds:titleLengths:)``).
    static func postings(of terms: Range<Int>, _ contents: SegmentContents, scoring: RankedScoring, scales: Scales) -> PostingsPart {
        var part = PostingsPart()
        guard !terms.isEmpty else { return part }
        part.reserve(postings: contents.postingStart[terms.upperBound] - contents.postingStart[terms.lowerBound])
        contents.postingDocs.withUnsafeBufferPointer { allDocs in
        contents.postingFrequencies.withUnsafeBufferPointer { allFrequencies in
        contents.postingColumns.withUnsafeBufferPointer { allColumns in
        scales.norms.withUnsafeBufferPointer { norms in
        scales.bounds.withUnsafeBufferPointer { bounds in
        contents.titleLengths.withUnsafeBufferPointer { titleLengths in
            for term in terms {
                let range = contents.postingStart[term]..<contents.postingStart[term + 1]
                part.append(docs: UnsafeBufferPointer(rebasing: allDocs[range]), frequencies: UnsafeBufferPointer(rebasing: allFrequencies[range]),
                            columns: UnsafeBufferPointer(rebasing: allColumns[range]), scoring: scoring, norms: norms, bounds: bounds,
                            titleLengths: titleLengths)
            }
        }
        }
        }
        }
        }
        }
        return part
    }

    /// Doc ids in the order of their rowids (already the case for a flush
    /// or a rebuild, not always after a merge).
    static func rowidOrder(_ rowids: [Int64]) -> [UInt32] {
        let ascending = zip(rowids, rowids.dropFirst()).allSatisfy { $0 < $1 }
        if ascending { return (0..<rowids.count).map { UInt32($0) } }
        return (0..<rowids.count).sorted { rowids[$0] < rowids[$1] }.map { UInt32($0) }
    }
}
