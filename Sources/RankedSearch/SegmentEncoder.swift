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

        var out = ByteWriter()
        out.bytes = [UInt8](repeating: 0, count: SegmentFormat.headerSize)
        out.bytes.reserveCapacity(SegmentFormat.headerSize + n * 64 + contents.postingDocs.count * 3 + contents.termBytes.count * 2)
        var sectionOffsets = [Int](repeating: 0, count: SegmentFormat.Section.allCases.count)
        func begin(_ section: SegmentFormat.Section) {
            out.align8()
            sectionOffsets[section.rawValue] = out.bytes.count
        }

        begin(.rowids); out.append(contentsOf: contents.rowids)
        var constantSections: UInt32 = 0
        func collapsible(_ section: SegmentFormat.Section, _ values: [Double]) {
            begin(section)
            if let first = values.first, values.allSatisfy({ $0.bitPattern == first.bitPattern }) {
                constantSections |= 1 << UInt32(section.rawValue)
                out.append(first)
            } else {
                out.append(contentsOf: values)
            }
        }
        collapsible(.expires, contents.expires)
        collapsible(.hints, contents.hints)
        collapsible(.recency, contents.recency)
        collapsible(.engagement, contents.engagement)
        collapsible(.engagedAt, contents.engagedAt)
        begin(.lengths); out.append(contentsOf: contents.lengths)
        begin(.staticBounds); out.append(contentsOf: bounds.map(RankedScoring.roundedUp))
        begin(.rowidOrder)
        out.append(contentsOf: Self.rowidOrder(contents.rowids))
        begin(.titleLengths); out.append(contentsOf: contents.titleLengths)
        collapsible(.quality, contents.quality)
        collapsible(.impressions, contents.impressions)

        // Dictionary.
        begin(.termOffsets); out.append(contentsOf: contents.termStart.map { UInt64($0) })
        begin(.termBytes); out.bytes.append(contentsOf: contents.termBytes)

        // Postings in blocks, with maxima: the bulk of the work, done in
        // two halves of the terms on two cores when there is enough of it
        // (a flush or a merge has the cores to itself).
        let t = contents.termCount
        let norms = contents.lengths.map { RankedScoring.norm(length: Double($0), avgLength: avgLength) }
        let parts = Self.postingsInParts(contents, scoring: scoring, norms: norms, bounds: bounds, threshold: parallelPostings)
        var termFirstBlock: [UInt32] = [], termDocs: [UInt32] = [], termMaxG: [Float] = [], termMaxGS: [Float] = [], termMaxS: [Float] = []
        var blockOffsets: [UInt64] = [], blockLastDoc: [UInt32] = [], blockMaxGS: [Float] = [], blockMaxS: [Float] = []
        var termMaxGSPart: [Float] = [], blockMaxGSPart: [Float] = [], termMaxGPart: [Float] = []
        var postings: [UInt8] = []
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
        assert(termDocs.count == t)
        blockOffsets.append(UInt64(postings.count))
        postings.append(contentsOf: repeatElement(0, count: PostingBlock.padding))
        begin(.termFirstBlock); out.append(contentsOf: termFirstBlock)
        begin(.termDocs); out.append(contentsOf: termDocs)
        begin(.termMaxG); out.append(contentsOf: termMaxG)
        begin(.termMaxGS); out.append(contentsOf: termMaxGS)
        begin(.termMaxS); out.append(contentsOf: termMaxS)
        begin(.termGroups)
        for start in stride(from: 0, to: t, by: SegmentFormat.termGroupSize) {
            let group = start..<min(start + SegmentFormat.termGroupSize, t)
            out.append(group.reduce(UInt64(0)) { $0 + UInt64(termDocs[$1]) })
            out.append(group.reduce(UInt32(0)) { max($0, termDocs[$1]) })
            out.append(group.reduce(Float(0)) { max($0, termMaxG[$1]) })
            out.append(group.reduce(Float(0)) { max($0, termMaxGS[$1]) })
            out.append(group.reduce(Float(0)) { max($0, termMaxS[$1]) })
            // The group's first term: its length, then its first 16 bytes (zero-padded).
            let first = contents.termStart[start]..<contents.termStart[start + 1]
            out.append(UInt32(first.count))
            out.append(UInt32(0))
            let key = contents.termBytes[first.lowerBound..<min(first.upperBound, first.lowerBound + SegmentFormat.termGroupKeySize)]
            out.bytes.append(contentsOf: key)
            out.bytes.append(contentsOf: repeatElement(0, count: SegmentFormat.termGroupKeySize - key.count))
            // Bytes 48 and 52: the maxima without the exact-title share.
            out.append(group.reduce(Float(0)) { max($0, termMaxGSPart[$1]) })
            out.append(group.reduce(Float(0)) { max($0, termMaxGPart[$1]) })
        }
        begin(.blockOffsets); out.append(contentsOf: blockOffsets)
        begin(.blockLastDoc); out.append(contentsOf: blockLastDoc)
        begin(.blockMaxGS); out.append(contentsOf: blockMaxGS)
        begin(.blockMaxS); out.append(contentsOf: blockMaxS)
        begin(.postingsData); out.bytes.append(contentsOf: postings)
        begin(.termMaxGSPart); out.append(contentsOf: termMaxGSPart)
        begin(.blockMaxGSPart); out.append(contentsOf: blockMaxGSPart)
        begin(.termMaxGPart); out.append(contentsOf: termMaxGPart)

        // Typed values: names in byte order, values ascending within each.
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
        begin(.numberNameOffsets); out.append(contentsOf: nameOffsets)
        begin(.numberNameBytes); out.bytes.append(contentsOf: nameBytes)
        begin(.numberNameStarts); out.append(contentsOf: nameStarts)
        begin(.numberValues); out.append(contentsOf: entries.map(\.value))
        begin(.numberDocs); out.append(contentsOf: entries.map(\.doc))

        // Unique identifiers: hashes ascending, each with its doc.
        var uids = contents.uidHashes.enumerated().map { (hash: $0.element, doc: UInt32($0.offset)) }
        uids.sort { $0.hash != $1.hash ? $0.hash < $1.hash : $0.doc < $1.doc }
        begin(.uidHashes); out.append(contentsOf: uids.map(\.hash))
        begin(.uidDocs); out.append(contentsOf: uids.map(\.doc))

        out.align8()

        out.set(SegmentFormat.magic, at: SegmentFormat.magicOffset)
        out.set(SegmentFormat.version, at: SegmentFormat.versionOffset)
        out.set(UInt32(TextTokenizer.version), at: SegmentFormat.tokenizerOffset)
        out.set(UInt32(n), at: SegmentFormat.docCountOffset)
        out.set(UInt32(t), at: SegmentFormat.termCountOffset)
        out.set(UInt32(blockLastDoc.count), at: SegmentFormat.blockCountOffset)
        out.set(constantSections, at: SegmentFormat.constantSectionsOffset)
        out.set(UInt32(nameOrder.count), at: SegmentFormat.numberNameCountOffset)
        out.set(UInt32(entries.count), at: SegmentFormat.numberValueCountOffset)
        out.set(scoring.fingerprint, at: SegmentFormat.weightsHashOffset)
        out.set(buildTime.bitPattern, at: SegmentFormat.buildTimeOffset)
        out.set(avgLength.bitPattern, at: SegmentFormat.avgLengthOffset)
        out.set(UInt64(out.bytes.count), at: SegmentFormat.totalLengthOffset)
        for section in SegmentFormat.Section.allCases {
            out.set(UInt64(sectionOffsets[section.rawValue]), at: SegmentFormat.sectionOffsetField(section))
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
