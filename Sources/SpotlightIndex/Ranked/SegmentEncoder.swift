import Foundation

/// Writes ``SegmentContents`` in the layout of ``SegmentFormat``, computing
/// the static bounds and the per-term and per-block maxima on the way.
enum SegmentEncoder {
    static func encode(_ contents: SegmentContents, scoring: RankedScoring, buildTime: Double) -> [UInt8] {
        let n = contents.documentCount
        let totalLength = contents.lengths.reduce(0) { $0 + Double($1) }
        let avgLength = n == 0 ? 1 : max(totalLength / Double(n), 1e-9)

        var bounds = [Double](repeating: 0, count: n)
        for doc in 0..<n {
            let recency = contents.recency[doc]
            bounds[doc] = scoring.staticBound(hint: contents.hints[doc], engagement: contents.engagement[doc],
                                              recency: recency.isNaN ? nil : recency, at: buildTime)
        }

        var out = ByteWriter()
        out.bytes = [UInt8](repeating: 0, count: SegmentFormat.headerSize)
        out.bytes.reserveCapacity(SegmentFormat.headerSize + n * 64 + contents.postingDocs.count * 3 + contents.termBytes.count * 2)
        var sectionOffsets = [Int](repeating: 0, count: SegmentFormat.Section.allCases.count)
        func begin(_ section: SegmentFormat.Section) {
            out.align8()
            sectionOffsets[section.rawValue] = out.bytes.count
        }

        begin(.rowids); for value in contents.rowids { out.append(value) }
        var constantSections: UInt32 = 0
        func collapsible(_ section: SegmentFormat.Section, _ values: [Double]) {
            begin(section)
            if let first = values.first, values.allSatisfy({ $0.bitPattern == first.bitPattern }) {
                constantSections |= 1 << UInt32(section.rawValue)
                out.append(first)
            } else {
                for value in values { out.append(value) }
            }
        }
        collapsible(.expires, contents.expires)
        collapsible(.hints, contents.hints)
        collapsible(.recency, contents.recency)
        collapsible(.engagement, contents.engagement)
        collapsible(.engagedAt, contents.engagedAt)
        begin(.lengths); for value in contents.lengths { out.append(value) }
        begin(.staticBounds); for value in bounds { out.append(RankedScoring.roundedUp(value)) }
        begin(.rowidOrder)
        for doc in (0..<n).sorted(by: { contents.rowids[$0] < contents.rowids[$1] }) { out.append(UInt32(doc)) }

        // Dictionary.
        begin(.termOffsets); for value in contents.termStart { out.append(UInt64(value)) }
        begin(.termBytes); out.bytes.append(contentsOf: contents.termBytes)

        // Postings in blocks, with maxima.
        let t = contents.termCount
        var termFirstBlock = [UInt32](repeating: 0, count: t)
        var termDocs = [UInt32](repeating: 0, count: t)
        var termMaxG = [Float](repeating: 0, count: t)
        var termMaxGS = [Float](repeating: 0, count: t)
        var termMaxS = [Float](repeating: 0, count: t)
        var blockOffsets: [UInt64] = []
        var blockLastDoc: [UInt32] = []
        var blockMaxGS: [Float] = []
        var blockMaxS: [Float] = []
        var postings: [UInt8] = []
        postings.reserveCapacity(contents.postingDocs.count * 3)
        for term in 0..<t {
            let range = contents.postingStart[term]..<contents.postingStart[term + 1]
            termFirstBlock[term] = UInt32(blockOffsets.count)
            termDocs[term] = UInt32(range.count)
            var maxG = 0.0, maxGS = 0.0, maxS = 0.0
            var start = range.lowerBound
            while start < range.upperBound {
                let end = min(start + SegmentFormat.blockSize, range.upperBound)
                blockOffsets.append(UInt64(postings.count))
                PostingBlock.append(docs: contents.postingDocs[start..<end], frequencies: contents.postingFrequencies[start..<end],
                                    columns: contents.postingColumns[start..<end], to: &postings)
                var blockGS = 0.0, blockS = 0.0
                var previous: UInt32 = 0
                for index in start..<end {
                    let doc = contents.postingDocs[index]
                    let frequency = contents.postingFrequencies[index]
                    previous = doc
                    let g = RankedScoring.g(tf: Double(frequency) / SegmentFormat.tfScale, length: Double(contents.lengths[Int(doc)]),
                                            avgLength: avgLength)
                    let s = bounds[Int(doc)]
                    maxG = max(maxG, g)
                    blockGS = max(blockGS, g * s)
                    blockS = max(blockS, s)
                }
                blockLastDoc.append(previous)
                blockMaxGS.append(RankedScoring.roundedUp(blockGS))
                blockMaxS.append(RankedScoring.roundedUp(blockS))
                maxGS = max(maxGS, blockGS)
                maxS = max(maxS, blockS)
                start = end
            }
            termMaxG[term] = RankedScoring.roundedUp(maxG)
            termMaxGS[term] = RankedScoring.roundedUp(maxGS)
            termMaxS[term] = RankedScoring.roundedUp(maxS)
        }
        blockOffsets.append(UInt64(postings.count))
        postings.append(contentsOf: repeatElement(0, count: PostingBlock.padding))
        begin(.termFirstBlock); for value in termFirstBlock { out.append(value) }
        begin(.termDocs); for value in termDocs { out.append(value) }
        begin(.termMaxG); for value in termMaxG { out.append(value) }
        begin(.termMaxGS); for value in termMaxGS { out.append(value) }
        begin(.termMaxS); for value in termMaxS { out.append(value) }
        begin(.termGroups)
        for start in stride(from: 0, to: t, by: SegmentFormat.termGroupSize) {
            let group = start..<min(start + SegmentFormat.termGroupSize, t)
            out.append(group.reduce(UInt64(0)) { $0 + UInt64(termDocs[$1]) })
            out.append(group.reduce(UInt32(0)) { max($0, termDocs[$1]) })
            out.append(group.reduce(Float(0)) { max($0, termMaxG[$1]) })
            out.append(group.reduce(Float(0)) { max($0, termMaxGS[$1]) })
            out.append(group.reduce(Float(0)) { max($0, termMaxS[$1]) })
        }
        begin(.blockOffsets); for value in blockOffsets { out.append(value) }
        begin(.blockLastDoc); for value in blockLastDoc { out.append(value) }
        begin(.blockMaxGS); for value in blockMaxGS { out.append(value) }
        begin(.blockMaxS); for value in blockMaxS { out.append(value) }
        begin(.postingsData); out.bytes.append(contentsOf: postings)
        out.align8()

        out.set(SegmentFormat.magic, at: SegmentFormat.magicOffset)
        out.set(SegmentFormat.version, at: SegmentFormat.versionOffset)
        out.set(UInt32(TextTokenizer.version), at: SegmentFormat.tokenizerOffset)
        out.set(UInt32(n), at: SegmentFormat.docCountOffset)
        out.set(UInt32(t), at: SegmentFormat.termCountOffset)
        out.set(UInt32(blockLastDoc.count), at: SegmentFormat.blockCountOffset)
        out.set(constantSections, at: SegmentFormat.constantSectionsOffset)
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
        return out.bytes
    }
}
