import Foundation

extension SegmentMerger {
    /// What a streamed merge keeps of its documents once their sections
    /// are written: what the postings' encoding reads of each.
    struct StreamedDocuments {
        /// Per input, each document's new doc id (-1 when deleted).
        var docMaps: [[Int32]]
        var documentCount: Int
        var scales: SegmentEncoder.Scales
        var titleLengths: [UInt8]
    }

    /// The kept documents' sections (the format's first), written straight
    /// from the inputs, section by section, in the bytes
    /// ``SegmentEncoder/writeDocuments(_:bounds:into:)`` writes for the
    /// same documents; the rowid order merged from the inputs' own.
    ///
    /// Gathered first into ``SegmentContents``, a large merge held ten
    /// values a document (~75 bytes) at once: ~38 MB of the 1M-item
    /// index's peak, merging eight segments of 64,000. It keeps now what
    /// the postings need (a static bound, a length norm and a title length
    /// a document) and the doc maps.
    static func streamDocuments(_ inputs: [SegmentSnapshot], scoring: RankedScoring, buildTime: Double,
                                into out: inout SegmentEncoder.SectionWriter) throws(SegmentError) -> StreamedDocuments {
        var docMaps: [[Int32]] = []
        var next: Int32 = 0
        for input in inputs {
            var map = [Int32](repeating: -1, count: input.segment.documentCount)
            for doc in 0..<input.segment.documentCount where !input.deleted.contains(doc) {
                guard next < Int32.max else { throw .tooLarge("more than \(Int32.max) documents") }
                map[doc] = next
                next += 1
            }
            docMaps.append(map)
        }
        let count = Int(next)
        /// Calls `body` with each kept document, in the merged order.
        func forEachKept(_ body: (Segment, Int) -> Void) {
            for (index, input) in inputs.enumerated() {
                let map = docMaps[index]
                for doc in 0..<input.segment.documentCount where map[doc] >= 0 { body(input.segment, doc) }
            }
        }
        var lengths: [UInt32] = [], titleLengths: [UInt8] = [], bounds: [Double] = []
        lengths.reserveCapacity(count)
        titleLengths.reserveCapacity(count)
        bounds.reserveCapacity(count)
        forEachKept { segment, doc in
            lengths.append(UInt32(segment.length(doc)))
            titleLengths.append(UInt8(segment.titleLength(doc)))
            bounds.append(scoring.staticBound(hint: segment.hint(doc), engagement: segment.engagement(doc), recency: segment.recency(doc),
                                              quality: segment.quality(doc), at: buildTime))
        }

        // Each column read twice: what its values are (its encoding), then the values.
        func column(_ section: SegmentFormat.Section, _ value: (Segment, Int) -> Double) {
            var stats = SegmentFormat.FloatStats()
            forEachKept { segment, doc in stats.add(value(segment, doc)) }
            var writer = out.beginFloats(section, stats.encoding(collapsible: true))
            forEachKept { segment, doc in writer.add(value(segment, doc), to: &out) }
            writer.finish(into: &out)
        }
        // The smallest and largest rowid first: the rowids are packed above the smallest.
        var smallest = Int64.max, largest = Int64.min
        forEachKept { segment, doc in
            let rowid = segment.rowid(doc)
            (smallest, largest) = (min(smallest, rowid), max(largest, rowid))
        }
        var rowids = out.beginRowids(count == 0 ? nil : smallest...largest)
        forEachKept { segment, doc in rowids.add(UInt64(bitPattern: segment.rowid(doc) &- smallest), to: &out) }
        rowids.finish(into: &out)
        column(.expires) { $0.expires($1) }
        column(.hints) { $0.hint($1) }
        column(.recency) { $0.recency($1) ?? .nan }
        column(.engagement) { $0.engagement($1) }
        column(.engagedAt) { $0.engagedAt($1) }
        SegmentEncoder.writeDocumentBounds(lengths: lengths, bounds: bounds, into: &out)
        try writeRowidOrder(inputs, docMaps: docMaps, documentCount: count, into: &out)
        out.begin(.titleLengths); out.append(values: titleLengths)
        var plain = out.beginPacked(.plainColumns, width: 4)
        forEachKept { segment, doc in plain.add(UInt64(segment.plainColumns(doc)), to: &out) }
        plain.finish(into: &out)
        column(.quality) { $0.quality($1) }
        column(.impressions) { $0.impressions($1) }
        // Read: released, as the merge goes on (the lookups read their own sections again).
        for input in inputs { input.segment.releaseDocuments() }
        return StreamedDocuments(docMaps: docMaps, documentCount: count,
                                 scales: SegmentEncoder.Scales(lengths: lengths, bounds: bounds), titleLengths: titleLengths)
    }

    /// The kept documents' new doc ids in ascending rowid order: the
    /// inputs' rowid orders merged by rowid (rowids are unique across a
    /// store's segments).
    private static func writeRowidOrder(_ inputs: [SegmentSnapshot], docMaps: [[Int32]], documentCount: Int,
                                        into out: inout SegmentEncoder.SectionWriter) throws(SegmentError) {
        var positions = [Int](repeating: 0, count: inputs.count)
        var heads = [Int64?](repeating: nil, count: inputs.count)
        /// Moves input `index` to its next kept document in rowid order.
        func advance(_ index: Int) throws(SegmentError) {
            let segment = inputs[index].segment, map = docMaps[index]
            while positions[index] < segment.documentCount {
                let doc = segment.rowidOrder(positions[index])
                guard doc < map.count else { throw .corrupt("the rowid order names document \(doc)") }
                if map[doc] >= 0 { break }
                positions[index] += 1
            }
            heads[index] = positions[index] < segment.documentCount ? segment.rowid(segment.rowidOrder(positions[index])) : nil
        }
        for index in inputs.indices { try advance(index) }
        var order = out.beginPacked(.rowidOrder, width: SegmentEncoder.docWidth(documentCount))
        while true {
            var best = -1
            for index in inputs.indices {
                guard let head = heads[index] else { continue }
                if best < 0 || head < heads[best]! { best = index }
            }
            guard best >= 0 else { break }
            order.add(UInt64(docMaps[best][inputs[best].segment.rowidOrder(positions[best])]), to: &out)
            positions[best] += 1
            try advance(best)
        }
        order.finish(into: &out)
    }
}
