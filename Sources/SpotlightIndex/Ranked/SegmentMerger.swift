import Foundation

/// Merges segments into one, leaving out their deleted documents.
///
/// Documents keep their order (segment by segment), so each term's
/// postings are the inputs' postings concatenated with doc ids shifted;
/// dictionaries are merged in byte order. No text is tokenized again:
/// blocks are decoded straight into the output's arrays, and terms are
/// compared in place in the inputs' bytes.
enum SegmentMerger {
    static func merge(_ inputs: [SegmentSnapshot]) throws(SegmentError) -> SegmentContents {
        var out = SegmentContents()
        // New doc ids: -1 for a deleted document.
        var docMaps: [[Int32]] = []
        let documents = inputs.reduce(0) { $0 + $1.segment.documentCount }
        out.rowids.reserveCapacity(documents)
        out.lengths.reserveCapacity(documents)
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

        // Identifier hashes and typed values of the documents kept.
        out.uidHashes = [UInt64](repeating: 0, count: out.rowids.count)
        var nameIDs: [String: Int32] = [:]
        for (index, input) in inputs.enumerated() {
            let segment = input.segment, map = docMaps[index]
            for (doc, hash) in segment.uidHashesByDocument().enumerated() where map[doc] >= 0 {
                out.uidHashes[Int(map[doc])] = hash
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
        }

        let postings = inputs.reduce(0) { $0 + $1.segment.blockCount * SegmentFormat.blockSize }
        out.postingDocs.reserveCapacity(postings)
        out.postingFrequencies.reserveCapacity(postings)
        out.postingColumns.reserveCapacity(postings)
        let terms = inputs.reduce(0) { $0 + $1.segment.termCount }
        out.termStart.reserveCapacity(terms + 1)
        out.postingStart.reserveCapacity(terms + 1)

        // Dictionaries merged in byte order; postings concatenated.
        var cursors = [Int](repeating: 0, count: inputs.count)
        var heads: [UnsafeRawBufferPointer?] = try inputs.map { input throws(SegmentError) in
            input.segment.termCount > 0 ? try input.segment.term(0) : nil
        }
        let capacity = SegmentFormat.blockSize
        let docs = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        let frequencies = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        let columns = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { docs.deallocate(); frequencies.deallocate(); columns.deallocate() }
        var holders: [Int] = []
        holders.reserveCapacity(inputs.count)
        while true {
            var smallest: UnsafeRawBufferPointer?
            holders.removeAll(keepingCapacity: true)
            for index in heads.indices {
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
            let before = out.postingDocs.count
            for index in holders {
                let segment = inputs[index].segment
                let unchanged = inputs[index].deleted.count == 0
                try docMaps[index].withUnsafeBufferPointer { map throws(SegmentError) in
                    let shift = unchanged && !map.isEmpty ? UInt32(bitPattern: map[0]) : 0
                    for block in try segment.blocks(of: cursors[index]) {
                        let count = try segment.unpackBlock(block, docs: docs, frequencies: frequencies, columns: columns)
                        if unchanged {
                            for posting in 0..<count {
                                out.postingDocs.append(docs[posting] &+ shift)
                                out.postingFrequencies.append(frequencies[posting])
                                out.postingColumns.append(columns[posting])
                            }
                        } else {
                            for posting in 0..<count {
                                let mapped = map[Int(docs[posting])]
                                guard mapped >= 0 else { continue }
                                out.postingDocs.append(UInt32(bitPattern: mapped))
                                out.postingFrequencies.append(frequencies[posting])
                                out.postingColumns.append(columns[posting])
                            }
                        }
                    }
                }
            }
            if out.postingDocs.count > before {
                out.termBytes.append(contentsOf: key)
                out.termStart.append(out.termBytes.count)
                out.postingStart.append(out.postingDocs.count)
            }
            for index in holders {
                cursors[index] += 1
                let segment = inputs[index].segment
                heads[index] = cursors[index] < segment.termCount ? try segment.term(cursors[index]) : nil
            }
        }
        return out
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
