import Foundation

/// Merges segments into one, leaving out their deleted documents.
///
/// Documents keep their order (segment by segment), so each term's
/// postings are the inputs' postings concatenated with doc ids shifted;
/// dictionaries are merged in byte order. No text is tokenized again.
enum SegmentMerger {
    static func merge(_ inputs: [SegmentSnapshot]) throws(SegmentError) -> SegmentContents {
        var out = SegmentContents()
        // New doc ids.
        var docMaps: [[Int32]] = []
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
            }
            docMaps.append(map)
        }
        guard out.rowids.count <= Int(UInt32.max) else { throw .tooLarge("\(out.rowids.count) documents") }

        // Dictionaries merged in byte order; postings concatenated.
        var cursors = [Int](repeating: 0, count: inputs.count)
        var docs: [UInt32] = [], frequencies: [UInt32] = [], columns: [UInt8] = []
        while true {
            var smallest: UnsafeRawBufferPointer?
            for (index, input) in inputs.enumerated() where cursors[index] < input.segment.termCount {
                let bytes = try input.segment.term(cursors[index])
                if smallest == nil || Self.less(bytes, smallest!) { smallest = bytes }
            }
            guard let key = smallest else { break }
            let keyBytes = Array(key)
            let before = out.postingDocs.count
            var holders: [Int] = []
            for (index, input) in inputs.enumerated() where cursors[index] < input.segment.termCount {
                let bytes = try input.segment.term(cursors[index])
                guard bytes.elementsEqual(keyBytes) else { continue }
                holders.append(index)
                let map = docMaps[index]
                for block in try input.segment.blocks(of: cursors[index]) {
                    try input.segment.decodeBlock(block, docs: &docs, frequencies: &frequencies, columns: &columns)
                    for index in docs.indices where map[Int(docs[index])] >= 0 {
                        out.postingDocs.append(UInt32(map[Int(docs[index])]))
                        out.postingFrequencies.append(frequencies[index])
                        out.postingColumns.append(columns[index])
                    }
                }
            }
            if out.postingDocs.count > before {
                out.termBytes.append(contentsOf: keyBytes)
                out.termStart.append(out.termBytes.count)
                out.postingStart.append(out.postingDocs.count)
            }
            for index in holders { cursors[index] += 1 }
        }

        return out
    }

    static func less(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        a.lexicographicallyPrecedes(b)
    }
}
