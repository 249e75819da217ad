import Foundation
import Synchronization

/// Merges segments into one, leaving out their deleted documents.
///
/// Documents keep their order (segment by segment), so each term's
/// postings are the inputs' postings concatenated with doc ids shifted;
/// dictionaries are merged in byte order. No text is tokenized again:
/// blocks are decoded straight into the output's arrays, and terms are
/// compared in place in the inputs' bytes.
package enum SegmentMerger {
    /// - Parameter parallelPostings: postings past which the term merge is
    ///   split over two threads (the result is the same either way).
    package static func merge(_ inputs: [SegmentSnapshot], parallelPostings: Int = SegmentMerger.parallelPostings) throws(SegmentError) -> SegmentContents {
        try mergeWithMaps(inputs, parallelPostings: parallelPostings).contents
    }

    /// ``merge(_:parallelPostings:)`` and, per input, each document's new
    /// doc id (-1 when it was deleted): what installing a merge that ran
    /// beside other writes needs to carry their deletions over.
    package static func mergeWithMaps(_ inputs: [SegmentSnapshot], parallelPostings: Int = SegmentMerger.parallelPostings) throws(SegmentError)
        -> (contents: SegmentContents, docMaps: [[Int32]]) {
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
                out.titleLengths.append(UInt8(segment.titleLength(doc)))
                out.quality.append(segment.quality(doc))
                out.impressions.append(segment.impressions(doc))
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

        // Dictionaries merged in byte order, postings concatenated: in two
        // halves of the term space on two threads when there is enough.
        let postings = inputs.reduce(0) { $0 + $1.segment.blockCount * SegmentFormat.blockSize }
        var ranges = [inputs.map { 0..<$0.segment.termCount }]
        if postings >= parallelPostings, Parallelism.cores > 1,
           let widest = inputs.max(by: { $0.segment.termCount < $1.segment.termCount }), widest.segment.termCount > 1 {
            let key = Array(try widest.segment.term(widest.segment.termCount / 2))
            var first: [Range<Int>] = [], second: [Range<Int>] = []
            for input in inputs {
                let split = try input.segment.lowerBound(key)
                first.append(0..<split)
                second.append(split..<input.segment.termCount)
            }
            ranges = [first, second]
        }
        let parts = Mutex<[Result<TermsPart, SegmentError>?]>(Array(repeating: nil, count: ranges.count))
        let termRanges = ranges, maps = docMaps
        DispatchQueue.concurrentPerform(iterations: termRanges.count) { index in
            let part = Result { () throws(SegmentError) in try mergeTerms(inputs, docMaps: maps, ranges: termRanges[index]) }
            parts.withLock { $0[index] = part }
        }
        let merged = try parts.withLock { $0 }.map { result throws(SegmentError) in try result!.get() }
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
        return (out, docMaps)
    }

    /// Postings past which the term merge is split over two threads.
    static let parallelPostings = 400_000

    /// The merged terms of one range per input: bytes, each term's end in
    /// them and in the postings, and the postings.
    struct TermsPart {
        var termBytes: [UInt8] = []
        var termEnds: [Int] = []
        var postingEnds: [Int] = []
        var docs: [UInt32] = [], frequencies: [UInt32] = [], columns: [UInt8] = []
    }

    /// Merges `ranges[i]` of input i's terms (each term once, holders'
    /// postings in input order, deleted documents left out).
    static func mergeTerms(_ inputs: [SegmentSnapshot], docMaps: [[Int32]], ranges: [Range<Int>]) throws(SegmentError) -> TermsPart {
        var out = TermsPart()
        var postings = 0
        for (input, range) in zip(inputs, ranges) where !range.isEmpty {
            let first = try input.segment.blocks(of: range.lowerBound).lowerBound
            let last = try input.segment.blocks(of: range.upperBound - 1).upperBound
            postings += max(0, last - first) * SegmentFormat.blockSize
        }
        out.docs.reserveCapacity(postings)
        out.frequencies.reserveCapacity(postings)
        out.columns.reserveCapacity(postings)
        var cursors = ranges.map(\.lowerBound)
        var heads: [UnsafeRawBufferPointer?] = []
        for (input, range) in zip(inputs, ranges) { heads.append(range.isEmpty ? nil : try input.segment.term(range.lowerBound)) }
        let buffers = BlockBuffers()
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
            let before = out.docs.count
            for index in holders {
                let segment = inputs[index].segment
                let unchanged = inputs[index].deleted.count == 0
                try docMaps[index].withUnsafeBufferPointer { map throws(SegmentError) in
                    let shift = unchanged && !map.isEmpty ? UInt32(bitPattern: map[0]) : 0
                    for block in try segment.blocks(of: cursors[index]) {
                        let count = try segment.unpack(block, into: buffers, columns: true)
                        if unchanged {
                            for posting in 0..<count {
                                out.docs.append(buffers.docs[posting] &+ shift)
                                out.frequencies.append(buffers.frequencies[posting])
                                out.columns.append(buffers.columns[posting])
                            }
                        } else {
                            for posting in 0..<count {
                                let mapped = map[Int(buffers.docs[posting])]
                                guard mapped >= 0 else { continue }
                                out.docs.append(UInt32(bitPattern: mapped))
                                out.frequencies.append(buffers.frequencies[posting])
                                out.columns.append(buffers.columns[posting])
                            }
                        }
                    }
                }
            }
            if out.docs.count > before {
                out.termBytes.append(contentsOf: key)
                out.termEnds.append(out.termBytes.count)
                out.postingEnds.append(out.docs.count)
            }
            for index in holders {
                cursors[index] += 1
                heads[index] = cursors[index] < ranges[index].upperBound ? try inputs[index].segment.term(cursors[index]) : nil
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
