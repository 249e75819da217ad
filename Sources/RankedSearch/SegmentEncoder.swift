import Foundation
import Synchronization

/// Writes ``SegmentContents`` in the layout of ``SegmentFormat``, computing
/// the static bounds and the per-term and per-block maxima on the way.
package enum SegmentEncoder {
    /// - Parameter parallelPostings: postings past which the work is split
    ///   over two threads (the bytes are the same either way).
    package static func encode(_ contents: SegmentContents, scoring: RankedScoring, buildTime: Double,
                               parallelPostings: Int = SegmentEncoder.parallelPostings) -> [UInt8] {
        let n = contents.documentCount
        let totalLength = contents.lengths.reduce(0) { $0 + Double($1) }
        let avgLength = n == 0 ? 1 : max(totalLength / Double(n), 1e-9)
        var bounds = [Double](repeating: 0, count: n)
        for doc in 0..<n {
            let recency = contents.recency[doc]
            bounds[doc] = scoring.staticBound(hint: contents.hints[doc], engagement: contents.engagement[doc],
                                              recency: recency.isNaN ? nil : recency, quality: contents.quality[doc], at: buildTime)
        }
        var out = SectionWriter()
        out.bytes.reserveCapacity(SegmentFormat.headerSize + n * 64 + contents.postingDocs.count * 3 + contents.termBytes.count * 2)
        writeDocuments(contents, bounds: bounds, into: &out)
        // Dictionary.
        out.begin(.termOffsets); out.writer.append(contentsOf: contents.termStart.map { UInt64($0) })
        out.begin(.termBytes); out.bytes.append(contentsOf: contents.termBytes)
        // Postings in blocks, with maxima: the bulk of the work, done in
        // two halves of the terms on two cores when there is enough of it
        // (a flush or a merge has the cores to itself).
        let norms = contents.lengths.map { RankedScoring.norm(length: Double($0), avgLength: avgLength) }
        let parts = Self.postingsInParts(contents, scoring: scoring, norms: norms, bounds: bounds, threshold: parallelPostings)
        let blockCount = writePostings(PostingsPart(joining: parts), contents: contents, into: &out)
        let (nameCount, valueCount) = writeNumbers(contents, into: &out)
        writeIdentifiers(contents, into: &out)
        out.writer.align8()
        let header = Header(documents: n, terms: contents.termCount, blocks: blockCount, numberNames: nameCount, numberValues: valueCount,
                            fingerprint: scoring.fingerprint, buildTime: buildTime, avgLength: avgLength)
        return finish(out, header: header)
    }

    /// A segment's bytes as they are written: sections aligned to 8
    /// bytes, each one's offset noted for the header, and the sections
    /// whose values are all one value collapsed to it.
    struct SectionWriter {
        var writer = ByteWriter()
        var sectionOffsets = [Int](repeating: 0, count: SegmentFormat.Section.allCases.count)
        var constantSections: UInt32 = 0

        init() { writer.bytes = [UInt8](repeating: 0, count: SegmentFormat.headerSize) }

        var bytes: [UInt8] {
            get { writer.bytes }
            _modify { yield &writer.bytes }
        }

        mutating func begin(_ section: SegmentFormat.Section) {
            writer.align8()
            sectionOffsets[section.rawValue] = writer.bytes.count
        }

        /// A section of one value per document, stored once when every document has the same.
        mutating func collapsible(_ section: SegmentFormat.Section, _ values: [Double]) {
            begin(section)
            if let first = values.first, values.allSatisfy({ $0.bitPattern == first.bitPattern }) {
                constantSections |= 1 << UInt32(section.rawValue)
                writer.append(first)
            } else {
                writer.append(contentsOf: values)
            }
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

    /// The postings' sections and the term groups; returns the block count.
    static func writePostings(_ all: PostingsPart, contents: SegmentContents, into out: inout SectionWriter) -> Int {
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
        out.begin(.postingsData); out.bytes.append(contentsOf: all.postings)
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

    /// What the header says besides the sections' offsets.
    struct Header {
        var documents: Int
        var terms: Int
        var blocks: Int
        var numberNames: Int
        var numberValues: Int
        var fingerprint: UInt64
        var buildTime: Double
        var avgLength: Double
    }

    /// The header, then the checksums: the body's, and the header's own.
    static func finish(_ written: SectionWriter, header: Header) -> [UInt8] {
        var out = written.writer
        out.set(SegmentFormat.magic, at: SegmentFormat.magicOffset)
        out.set(SegmentFormat.version, at: SegmentFormat.versionOffset)
        out.set(UInt32(TextTokenizer.version), at: SegmentFormat.tokenizerOffset)
        out.set(UInt32(header.documents), at: SegmentFormat.docCountOffset)
        out.set(UInt32(header.terms), at: SegmentFormat.termCountOffset)
        out.set(UInt32(header.blocks), at: SegmentFormat.blockCountOffset)
        out.set(written.constantSections, at: SegmentFormat.constantSectionsOffset)
        out.set(UInt32(header.numberNames), at: SegmentFormat.numberNameCountOffset)
        out.set(UInt32(header.numberValues), at: SegmentFormat.numberValueCountOffset)
        out.set(header.fingerprint, at: SegmentFormat.weightsHashOffset)
        out.set(header.buildTime.bitPattern, at: SegmentFormat.buildTimeOffset)
        out.set(header.avgLength.bitPattern, at: SegmentFormat.avgLengthOffset)
        out.set(UInt64(out.bytes.count), at: SegmentFormat.totalLengthOffset)
        for section in SegmentFormat.Section.allCases {
            out.set(UInt64(written.sectionOffsets[section.rawValue]), at: SegmentFormat.sectionOffsetField(section))
        }
        let sum = out.bytes.withUnsafeBytes { raw in
            SegmentFormat.checksum(UnsafeRawBufferPointer(rebasing: raw[SegmentFormat.headerSize...]))
        }
        out.set(sum, at: SegmentFormat.checksumOffset)
        let headerSum = out.bytes.withUnsafeBytes { SegmentFormat.headerChecksum($0) }
        out.set(headerSum, at: SegmentFormat.headerChecksumOffset)
        return out.bytes
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

        /// The parts end to end, their blocks and bytes rebased, with the
        /// postings' end offset and the padding a block decoder reads past
        /// the last block.
        init(joining parts: [PostingsPart]) {
            for part in parts {
                let blockBase = UInt32(blockLastDoc.count), byteBase = UInt64(postings.count)
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
                postings += part.postings
            }
            blockOffsets.append(UInt64(postings.count))
            postings.append(contentsOf: repeatElement(0, count: PostingBlock.padding))
        }
    }

    /// Postings past which encoding is split over two threads.
    static let parallelPostings = 200_000

    /// Every term's postings, as one part or, when large, two (split where
    /// half the postings are) encoded at once.
    static func postingsInParts(_ contents: SegmentContents, scoring: RankedScoring, norms: [Double], bounds: [Double], threshold: Int) -> [PostingsPart] {
        let total = contents.postingDocs.count, t = contents.termCount
        guard total >= threshold, Parallelism.cores > 1, t > 1 else {
            return [postings(of: 0..<t, contents, scoring: scoring, norms: norms, bounds: bounds)]
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
            let part = postings(of: ranges[index], contents, scoring: scoring, norms: norms, bounds: bounds)
            results.withLock { $0[index] = part }
        }
        return results.withLock { $0.map { $0! } }
    }

    /// Encodes the postings of `terms` in blocks of ``SegmentFormat/blockSize``
    /// with their maxima of the term score (G = tf(k1+1) / (tf + norm[doc])
    /// plus the match-quality part), with and without the exact-title share.
    static func postings(of terms: Range<Int>, _ contents: SegmentContents, scoring: RankedScoring, norms: [Double], bounds: [Double]) -> PostingsPart {
        var part = PostingsPart()
        let count = terms.count
        part.termFirstBlock = [UInt32](repeating: 0, count: count)
        part.termDocs = [UInt32](repeating: 0, count: count)
        part.termMaxG = [Float](repeating: 0, count: count)
        part.termMaxGS = [Float](repeating: 0, count: count)
        part.termMaxGSPart = [Float](repeating: 0, count: count)
        part.termMaxGPart = [Float](repeating: 0, count: count)
        part.termMaxS = [Float](repeating: 0, count: count)
        guard count > 0 else { return part }
        let postingRange = contents.postingStart[terms.lowerBound]..<contents.postingStart[terms.upperBound]
        let estimatedBlocks = count + postingRange.count / SegmentFormat.blockSize
        part.blockOffsets.reserveCapacity(estimatedBlocks)
        part.blockLastDoc.reserveCapacity(estimatedBlocks)
        part.blockMaxGS.reserveCapacity(estimatedBlocks)
        part.blockMaxGSPart.reserveCapacity(estimatedBlocks)
        part.blockMaxS.reserveCapacity(estimatedBlocks)
        part.postings.reserveCapacity(postingRange.count * 3 + 16)
        contents.postingDocs.withUnsafeBufferPointer { allDocs in
        contents.postingFrequencies.withUnsafeBufferPointer { allFrequencies in
        contents.postingColumns.withUnsafeBufferPointer { allColumns in
        norms.withUnsafeBufferPointer { norms in
        bounds.withUnsafeBufferPointer { bounds in
            for term in terms {
                let local = term - terms.lowerBound
                let range = contents.postingStart[term]..<contents.postingStart[term + 1]
                part.termFirstBlock[local] = UInt32(part.blockLastDoc.count)
                part.termDocs[local] = UInt32(range.count)
                var maxG = 0.0, maxGS = 0.0, maxS = 0.0, maxGSPart = 0.0, maxGPart = 0.0
                var start = range.lowerBound
                while start < range.upperBound {
                    let end = min(start + SegmentFormat.blockSize, range.upperBound)
                    part.blockOffsets.append(UInt64(part.postings.count))
                    PostingBlock.append(docs: UnsafeBufferPointer(rebasing: allDocs[start..<end]),
                                        frequencies: UnsafeBufferPointer(rebasing: allFrequencies[start..<end]),
                                        columns: UnsafeBufferPointer(rebasing: allColumns[start..<end]), to: &part.postings)
                    var blockGS = 0.0, blockS = 0.0, blockG = 0.0, blockGSPart = 0.0
                    for index in start..<end {
                        let doc = Int(allDocs[index])
                        let frequency = allFrequencies[index], norm = norms[doc]
                        let g = scoring.termScore(frequency: frequency, norm: norm, titleLength: Double(contents.titleLengths[doc]), wholeWord: true)
                        let withoutShare = scoring.termScore(frequency: frequency, norm: norm, titleLength: 1, wholeWord: false)
                        let s = bounds[doc]
                        blockG = max(blockG, g)
                        blockGS = max(blockGS, g * s)
                        blockGSPart = max(blockGSPart, withoutShare * s)
                        maxGPart = max(maxGPart, withoutShare)
                        blockS = max(blockS, s)
                    }
                    part.blockLastDoc.append(allDocs[end - 1])
                    part.blockMaxGS.append(RankedScoring.roundedUp(blockGS))
                    part.blockMaxGSPart.append(RankedScoring.roundedUp(blockGSPart))
                    maxGSPart = max(maxGSPart, blockGSPart)
                    part.blockMaxS.append(RankedScoring.roundedUp(blockS))
                    maxG = max(maxG, blockG)
                    maxGS = max(maxGS, blockGS)
                    maxS = max(maxS, blockS)
                    start = end
                }
                part.termMaxG[local] = RankedScoring.roundedUp(maxG)
                part.termMaxGS[local] = RankedScoring.roundedUp(maxGS)
                part.termMaxGSPart[local] = RankedScoring.roundedUp(maxGSPart)
                part.termMaxGPart[local] = RankedScoring.roundedUp(maxGPart)
                part.termMaxS[local] = RankedScoring.roundedUp(maxS)
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
