import Foundation
import Synchronization

/// Writes ``SegmentContents`` in the layout of ``SegmentFormat``, computing
/// the static bounds and the per-term and per-block maxima on the way.
package enum SegmentEncoder {
    /// - Parameter parallelPostings: postings past which the work is split
    ///   over two threads (the bytes are the same either way).
    package static func encode(_ contents: SegmentContents, scoring: RankedScoring, buildTime: Double,
                               parallelPostings: Int = SegmentEncoder.parallelPostings) -> [UInt8] {
        let scales = Scales(contents, scoring: scoring, buildTime: buildTime)
        // Postings in blocks, with maxima: the bulk of the work, done in
        // two halves of the terms on two cores when there is enough of it
        // (a flush or a merge has the cores to itself).
        let parts = Self.postingsInParts(contents, scoring: scoring, scales: scales, threshold: parallelPostings)
        return encode(contents, postings: parts, scales: scales, scoring: scoring, buildTime: buildTime)
    }

    /// The documents' sections and dictionary of `contents` (whose own
    /// postings are not read), with postings already encoded in `parts`,
    /// one after the other in term order: what ``SegmentMerger`` writes
    /// without ever holding a merge's postings decoded.
    static func encode(_ contents: SegmentContents, postings parts: [PostingsPart], scales: Scales, scoring: RankedScoring,
                       buildTime: Double) -> [UInt8] {
        var out = SectionWriter()
        let postingBytes = parts.reduce(0) { $0 + $1.postings.count }, blocks = parts.reduce(0) { $0 + $1.blockLastDoc.count }
        out.bytes.reserveCapacity(SegmentFormat.headerSize + contents.documentCount * 64 + contents.termBytes.count * 2 + contents.termCount * 96
                                  + postingBytes + blocks * 28 + contents.numberEntries.count * 12 + PostingBlock.padding)
        let header = write(contents, postings: parts, scales: scales, scoring: scoring, buildTime: buildTime, into: &out)
        return out.finish(header)
    }

    /// ``encode(_:postings:scales:scoring:buildTime:)`` into `sink` as the
    /// sections are written, holding about `bufferSize` bytes of them at a
    /// time; returns the segment's length.
    static func encode(_ contents: SegmentContents, postings parts: [PostingsPart], scales: Scales, scoring: RankedScoring,
                       buildTime: Double, streamingTo sink: any SegmentSink, bufferSize: Int) throws -> Int {
        var out = SectionWriter(streamingTo: sink, bufferSize: bufferSize)
        let header = write(contents, postings: parts, scales: scales, scoring: scoring, buildTime: buildTime, into: &out)
        return try out.finishStreamed(header)
    }

    /// Every section after the header, in the format's order; returns what the header says.
    static func write(_ contents: SegmentContents, postings parts: [PostingsPart], scales: Scales, scoring: RankedScoring,
                      buildTime: Double, into out: inout SectionWriter) -> Header {
        writeDocuments(contents, bounds: scales.bounds, into: &out)
        // Dictionary.
        out.begin(.termOffsets); out.writer.append(contentsOf: contents.termStart.map { UInt64($0) })
        out.begin(.termBytes); out.append(large: contents.termBytes)
        let blockCount = writePostings(parts, contents: contents, into: &out)
        let (nameCount, valueCount) = writeNumbers(contents, into: &out)
        writeIdentifiers(contents, into: &out)
        out.writer.align8()
        return Header(documents: contents.documentCount, terms: contents.termCount, blocks: blockCount, numberNames: nameCount,
                      numberValues: valueCount, fingerprint: scoring.fingerprint, buildTime: buildTime, avgLength: scales.avgLength)
    }

    /// What scoring reads of each document while its postings are
    /// encoded: the average length, each document's static bound and
    /// length norm.
    struct Scales {
        let avgLength: Double
        let bounds: [Double]
        let norms: [Double]

        init(_ contents: SegmentContents, scoring: RankedScoring, buildTime: Double) {
            let n = contents.documentCount
            let totalLength = contents.lengths.reduce(0) { $0 + Double($1) }
            let avgLength = n == 0 ? 1 : max(totalLength / Double(n), 1e-9)
            var bounds = [Double](repeating: 0, count: n)
            for doc in 0..<n {
                let recency = contents.recency[doc]
                bounds[doc] = scoring.staticBound(hint: contents.hints[doc], engagement: contents.engagement[doc],
                                                  recency: recency.isNaN ? nil : recency, quality: contents.quality[doc], at: buildTime)
            }
            self.avgLength = avgLength
            self.bounds = bounds
            norms = contents.lengths.map { RankedScoring.norm(length: Double($0), avgLength: avgLength) }
        }
    }

    /// The per-document sections: rowids, signals, lengths, static bounds.
    static func writeDocuments(_ contents: SegmentContents, bounds: [Double], into out: inout SectionWriter) {
        out.begin(.rowids); out.writer.append(contentsOf: contents.rowids)
        out.collapsible(.expires, contents.expires)
        out.collapsible(.hints, contents.hints)
        out.collapsible(.recency, contents.recency)
        out.collapsible(.engagement, contents.engagement)
        out.collapsible(.engagedAt, contents.engagedAt)
        out.begin(.lengths); out.writer.append(contentsOf: contents.lengths)
        out.begin(.staticBounds); out.writer.append(contentsOf: bounds.map(RankedScoring.roundedUp))
        out.begin(.rowidOrder); out.writer.append(contentsOf: Self.rowidOrder(contents.rowids))
        out.begin(.titleLengths); out.writer.append(contentsOf: contents.titleLengths)
        out.collapsible(.quality, contents.quality)
        out.collapsible(.impressions, contents.impressions)
    }

    /// The postings' sections and the term groups, from `parts` in term
    /// order (their postings' bytes copied one after the other, never
    /// joined first); returns the block count.
    static func writePostings(_ parts: [PostingsPart], contents: SegmentContents, into out: inout SectionWriter) -> Int {
        let all = PostingsPart(joiningAllButBytes: parts)
        let t = contents.termCount
        assert(all.termDocs.count == t)
        out.begin(.termFirstBlock); out.writer.append(contentsOf: all.termFirstBlock)
        out.begin(.termDocs); out.writer.append(contentsOf: all.termDocs)
        out.begin(.termMaxG); out.writer.append(contentsOf: all.termMaxG)
        out.begin(.termMaxGS); out.writer.append(contentsOf: all.termMaxGS)
        out.begin(.termMaxS); out.writer.append(contentsOf: all.termMaxS)
        out.begin(.termGroups)
        for start in stride(from: 0, to: t, by: SegmentFormat.termGroupSize) {
            let group = start..<min(start + SegmentFormat.termGroupSize, t)
            out.writer.append(group.reduce(UInt64(0)) { $0 + UInt64(all.termDocs[$1]) })
            out.writer.append(group.reduce(UInt32(0)) { max($0, all.termDocs[$1]) })
            out.writer.append(group.reduce(Float(0)) { max($0, all.termMaxG[$1]) })
            out.writer.append(group.reduce(Float(0)) { max($0, all.termMaxGS[$1]) })
            out.writer.append(group.reduce(Float(0)) { max($0, all.termMaxS[$1]) })
            // The group's first term: its length, then its first 16 bytes (zero-padded).
            let first = contents.termStart[start]..<contents.termStart[start + 1]
            out.writer.append(UInt32(first.count))
            out.writer.append(UInt32(0))
            let key = contents.termBytes[first.lowerBound..<min(first.upperBound, first.lowerBound + SegmentFormat.termGroupKeySize)]
            out.bytes.append(contentsOf: key)
            out.bytes.append(contentsOf: repeatElement(0, count: SegmentFormat.termGroupKeySize - key.count))
            // Bytes 48 and 52: the maxima without the exact-title share.
            out.writer.append(group.reduce(Float(0)) { max($0, all.termMaxGSPart[$1]) })
            out.writer.append(group.reduce(Float(0)) { max($0, all.termMaxGPart[$1]) })
        }
        out.begin(.blockOffsets); out.writer.append(contentsOf: all.blockOffsets)
        out.begin(.blockLastDoc); out.writer.append(contentsOf: all.blockLastDoc)
        out.begin(.blockMaxGS); out.writer.append(contentsOf: all.blockMaxGS)
        out.begin(.blockMaxS); out.writer.append(contentsOf: all.blockMaxS)
        out.begin(.postingsData)
        for part in parts { out.append(large: part.postings) }
        // The padding a block decoder reads past the last block.
        out.bytes.append(contentsOf: repeatElement(0, count: PostingBlock.padding))
        out.begin(.termMaxGSPart); out.writer.append(contentsOf: all.termMaxGSPart)
        out.begin(.blockMaxGSPart); out.writer.append(contentsOf: all.blockMaxGSPart)
        out.begin(.termMaxGPart); out.writer.append(contentsOf: all.termMaxGPart)
        return all.blockLastDoc.count
    }

    /// Typed values: names in byte order, values ascending within each.
    /// Returns the count of names and of values.
    static func writeNumbers(_ contents: SegmentContents, into out: inout SectionWriter) -> (names: Int, values: Int) {
        let nameOrder = contents.numberNames.indices.sorted { contents.numberNames[$0].utf8.lexicographicallyPrecedes(contents.numberNames[$1].utf8) }
        var nameRank = [Int32](repeating: 0, count: contents.numberNames.count)
        for (rank, id) in nameOrder.enumerated() { nameRank[id] = Int32(rank) }
        let entries = contents.numberEntries.sorted { a, b in
            let ra = nameRank[Int(a.name)], rb = nameRank[Int(b.name)]
            if ra != rb { return ra < rb }
            if a.value != b.value { return a.value < b.value }
            return a.doc < b.doc
        }
        var nameOffsets: [UInt64] = [0], nameBytes: [UInt8] = [], nameStarts: [UInt64] = [0]
        var index = 0
        for (rank, id) in nameOrder.enumerated() {
            nameBytes.append(contentsOf: contents.numberNames[id].utf8)
            nameOffsets.append(UInt64(nameBytes.count))
            while index < entries.count, nameRank[Int(entries[index].name)] == Int32(rank) { index += 1 }
            nameStarts.append(UInt64(index))
        }
        out.begin(.numberNameOffsets); out.writer.append(contentsOf: nameOffsets)
        out.begin(.numberNameBytes); out.bytes.append(contentsOf: nameBytes)
        out.begin(.numberNameStarts); out.writer.append(contentsOf: nameStarts)
        out.begin(.numberValues); out.writer.append(contentsOf: entries.map(\.value))
        out.begin(.numberDocs); out.writer.append(contentsOf: entries.map(\.doc))
        return (nameOrder.count, entries.count)
    }

    /// Unique identifiers: hashes ascending, each with its doc.
    static func writeIdentifiers(_ contents: SegmentContents, into out: inout SectionWriter) {
        var uids = contents.uidHashes.enumerated().map { (hash: $0.element, doc: UInt32($0.offset)) }
        uids.sort { $0.hash != $1.hash ? $0.hash < $1.hash : $0.doc < $1.doc }
        out.begin(.uidHashes); out.writer.append(contentsOf: uids.map(\.hash))
        out.begin(.uidDocs); out.writer.append(contentsOf: uids.map(\.doc))
    }

    /// The postings of a range of terms, encoded: block offsets relative
    /// to its own bytes, first blocks relative to its own blocks.
    struct PostingsPart {
        var termFirstBlock: [UInt32] = [], termDocs: [UInt32] = []
        var termMaxG: [Float] = [], termMaxGS: [Float] = [], termMaxS: [Float] = []
        var blockOffsets: [UInt64] = [], blockLastDoc: [UInt32] = [], blockMaxGS: [Float] = [], blockMaxS: [Float] = []
        /// Without the exact-title share (a prefix's completions).
        var termMaxGSPart: [Float] = [], blockMaxGSPart: [Float] = [], termMaxGPart: [Float] = []
        var postings: [UInt8] = []

        init() {}

        /// The parts end to end but for their postings' bytes (which
        /// ``writePostings(_:contents:into:)`` copies from each part): blocks
        /// and byte offsets rebased, with the postings' end offset last.
        init(joiningAllButBytes parts: [PostingsPart]) {
            var byteBase: UInt64 = 0
            for part in parts {
                let blockBase = UInt32(blockLastDoc.count)
                termFirstBlock += part.termFirstBlock.map { $0 + blockBase }
                termDocs += part.termDocs
                termMaxG += part.termMaxG
                termMaxGS += part.termMaxGS
                termMaxGSPart += part.termMaxGSPart
                termMaxGPart += part.termMaxGPart
                termMaxS += part.termMaxS
                blockOffsets += part.blockOffsets.map { $0 + byteBase }
                blockLastDoc += part.blockLastDoc
                blockMaxGS += part.blockMaxGS
                blockMaxGSPart += part.blockMaxGSPart
                blockMaxS += part.blockMaxS
                byteBase += UInt64(part.postings.count)
            }
            blockOffsets.append(byteBase)
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
            var maxG = 0.0, maxGS = 0.0, maxS = 0.0, maxGSPart = 0.0, maxGPart = 0.0
            var start = 0
            while start < docs.count {
                let end = min(start + SegmentFormat.blockSize, docs.count)
                blockOffsets.append(UInt64(postings.count))
                PostingBlock.append(docs: UnsafeBufferPointer(rebasing: docs[start..<end]),
                                    frequencies: UnsafeBufferPointer(rebasing: frequencies[start..<end]),
                                    columns: UnsafeBufferPointer(rebasing: columns[start..<end]), to: &postings)
                var blockGS = 0.0, blockS = 0.0, blockG = 0.0, blockGSPart = 0.0
                for index in start..<end {
                    let doc = Int(docs[index])
                    let frequency = frequencies[index], norm = norms[doc]
                    let g = scoring.termScore(frequency: frequency, norm: norm, titleLength: Double(titleLengths[doc]), wholeWord: true)
                    let withoutShare = scoring.termScore(frequency: frequency, norm: norm, titleLength: 1, wholeWord: false)
                    let s = bounds[doc]
                    blockG = max(blockG, g)
                    blockGS = max(blockGS, g * s)
                    blockGSPart = max(blockGSPart, withoutShare * s)
                    maxGPart = max(maxGPart, withoutShare)
                    blockS = max(blockS, s)
                }
                blockLastDoc.append(docs[end - 1])
                blockMaxGS.append(RankedScoring.roundedUp(blockGS))
                blockMaxGSPart.append(RankedScoring.roundedUp(blockGSPart))
                maxGSPart = max(maxGSPart, blockGSPart)
                blockMaxS.append(RankedScoring.roundedUp(blockS))
                maxG = max(maxG, blockG)
                maxGS = max(maxGS, blockGS)
                maxS = max(maxS, blockS)
                start = end
            }
            termMaxG.append(RankedScoring.roundedUp(maxG))
            termMaxGS.append(RankedScoring.roundedUp(maxGS))
            termMaxGSPart.append(RankedScoring.roundedUp(maxGSPart))
            termMaxGPart.append(RankedScoring.roundedUp(maxGPart))
            termMaxS.append(RankedScoring.roundedUp(maxS))
        }

        /// Room for `terms` terms and `count` postings.
        mutating func reserve(terms: Int, postings count: Int) {
            let blocks = terms + count / SegmentFormat.blockSize
            termFirstBlock.reserveCapacity(terms)
            termDocs.reserveCapacity(terms)
            termMaxG.reserveCapacity(terms)
            termMaxGS.reserveCapacity(terms)
            termMaxS.reserveCapacity(terms)
            termMaxGSPart.reserveCapacity(terms)
            termMaxGPart.reserveCapacity(terms)
            blockOffsets.reserveCapacity(blocks)
            blockLastDoc.reserveCapacity(blocks)
            blockMaxGS.reserveCapacity(blocks)
            blockMaxS.reserveCapacity(blocks)
            blockMaxGSPart.reserveCapacity(blocks)
            postings.reserveCapacity(count * 3 + 16)
        }
    }

    /// Postings past which encoding is split over two threads.
    static let parallelPostings = 200_000

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
        part.reserve(terms: terms.count, postings: contents.postingStart[terms.upperBound] - contents.postingStart[terms.lowerBound])
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
