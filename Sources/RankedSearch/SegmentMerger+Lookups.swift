import Foundation

extension SegmentMerger {
    /// The merged segment's typed values and identifier hashes (the last
    /// sections of the format), written straight from the inputs' sorted
    /// sections, input by input merged as they go, deleted documents left
    /// out: a merge never holds them (at 1M items they were ~30 MB of a
    /// large merge's peak, with the sort). The bytes are those
    /// ``SegmentEncoder/writeNumbers(_:into:)`` and
    /// ``SegmentEncoder/writeIdentifiers(_:into:)`` write for the same
    /// documents: each input's values are in (value, doc) order and its
    /// docs keep their order among the kept ones, so (value, input, doc)
    /// is the merged (value, doc) order; the same for (hash, doc).
    ///
    /// Returns the counts the header says.
    static func writeLookups(_ inputs: [SegmentSnapshot], docMaps: [[Int32]], into out: inout SegmentEncoder.SectionWriter)
        throws(SegmentError) -> SegmentEncoder.Lookups
    {
        // Every input's names, in byte order, once each; per input, where each is.
        var positions: [[UInt8]: [(input: Int, name: Int)]] = [:]
        for (index, input) in inputs.enumerated() {
            for name in 0..<input.segment.numberNameCount {
                positions[Array(try input.segment.numberName(name)), default: []].append((index, name))
            }
        }
        let names = positions.keys.sorted { $0.lexicographicallyPrecedes($1) }
        let documents = docMaps.reduce(0) { $0 + $1.count(where: { $0 >= 0 }) }
        // Each name's kept values, counted first: the starts come before the values.
        var nameOffsets: [UInt64] = [0], nameBytes: [UInt8] = [], nameStarts: [UInt64] = [0]
        var lists: [[ValueList]] = []
        for name in names {
            nameBytes += name
            nameOffsets.append(UInt64(nameBytes.count))
            // An attribute an input does not list: one entry, on document 0, whatever was deleted.
            if ExactValues.isUncheckedName(name) {
                nameStarts.append(nameStarts.last! + (documents > 0 ? 1 : 0))
                lists.append([])
                continue
            }
            var kept = 0
            var holders: [ValueList] = []
            for (input, index) in positions[name]! {
                let list = ValueList(input: input, values: try inputs[input].segment.numberValues(ofName: index))
                for value in list.values {
                    let doc = Int(inputs[input].segment.numberDoc(value))
                    guard doc < docMaps[input].count else { throw .corrupt("a typed value names document \(doc)") }
                    if docMaps[input][doc] >= 0 { kept += 1 }
                }
                inputs[input].segment.releaseNumbers(list.values, minimum: 1 << 12)
                holders.append(list)
            }
            nameStarts.append(nameStarts.last! + UInt64(kept))
            lists.append(holders)
        }
        out.begin(.numberNameOffsets); out.append(values: nameOffsets)
        out.begin(.numberNameBytes); out.append(values: nameBytes)
        out.begin(.numberNameStarts); out.append(values: nameStarts)
        // The exact-value index's values (0) come first and are not stored.
        let zeros = SegmentEncoder.zeroValueCount(names: names, starts: nameStarts)
        // What the stored values are (their encoding), input by input, then the values in order.
        var stats = SegmentFormat.FloatStats()
        for (index, (name, holders)) in zip(names, lists).enumerated() where nameStarts[index + 1] > zeros {
            if ExactValues.isUncheckedName(name) {
                if documents > 0 { stats.add(0) }
                continue
            }
            for list in holders {
                let segment = inputs[list.input].segment, map = docMaps[list.input]
                for value in list.values where map[Int(segment.numberDoc(value))] >= 0 { stats.add(segment.numberValue(value)) }
            }
        }
        var values = out.beginFloats(.numberValues, stats.encoding(collapsible: false))
        for (index, (name, holders)) in zip(names, lists).enumerated() where nameStarts[index + 1] > zeros {
            if ExactValues.isUncheckedName(name) {
                if documents > 0 { values.add(0, to: &out) }
                continue
            }
            forEachMergedValue(holders, inputs, docMaps) { value, _ in values.add(value, to: &out) }
            release(holders, inputs)
        }
        values.finish(into: &out)
        var docs = out.beginPacked(.numberDocs, width: SegmentEncoder.docWidth(documents))
        for (name, holders) in zip(names, lists) {
            if ExactValues.isUncheckedName(name) {
                if documents > 0 { docs.add(0, to: &out) }
                continue
            }
            forEachMergedValue(holders, inputs, docMaps) { _, doc in docs.add(UInt64(doc), to: &out) }
            release(holders, inputs)
        }
        docs.finish(into: &out)

        var hashes = SegmentEncoder.Chunk<UInt64>()
        out.begin(.uidHashes)
        try forEachMergedIdentifier(inputs, docMaps) { hash, _ in hashes.add(hash, to: &out) }
        hashes.finish(into: &out)
        for input in inputs { input.segment.release([.uidHashes, .uidDocs]) }
        var uidDocs = out.beginPacked(.uidDocs, width: SegmentEncoder.docWidth(documents))
        try forEachMergedIdentifier(inputs, docMaps) { _, doc in uidDocs.add(UInt64(doc), to: &out) }
        uidDocs.finish(into: &out)
        for input in inputs { input.segment.release([.uidHashes, .uidDocs]) }
        try writeIdentifiers(inputs, docMaps: docMaps, into: &out)
        // Read once: released, as the documents' sections were.
        for input in inputs { input.segment.releaseDocuments() }
        return SegmentEncoder.Lookups(names: names.count, values: Int(nameStarts.last!), zeroValues: zeros)
    }

    /// The kept documents' identifiers in the merged doc order (input by
    /// input, each input's kept documents ascending), front-coded again
    /// (``IdentifierRuns``: a dropped document breaks its run), then
    /// where each run starts.
    static func writeIdentifiers(_ inputs: [SegmentSnapshot], docMaps: [[Int32]], into out: inout SegmentEncoder.SectionWriter)
        throws(SegmentError)
    {
        // Gathered a buffer at a time: handed over one by one, each
        // identifier would be a write of its own to a streamed merge's file.
        out.begin(.uidBytes)
        var writer = IdentifierRuns.Writer(), buffer: [UInt8] = []
        buffer.reserveCapacity(Self.identifierBuffer)
        for (index, input) in inputs.enumerated() {
            let map = docMaps[index]
            try input.segment.forEachIdentifier { doc, bytes throws(SegmentError) in
                guard map[doc] >= 0 else { return }
                writer.append(bytes, to: &buffer)
                if buffer.count >= Self.identifierBuffer {
                    out.append(large: buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            input.segment.release([.uidBytes, .uidRuns])
        }
        out.append(large: buffer)
        guard writer.written <= UInt64(UInt32.max) else { throw .tooLarge("\(writer.written) bytes of identifiers") }
        SegmentEncoder.writeIdentifierRuns(writer, into: &out)
    }

    /// Bytes of identifiers gathered before they are written.
    static let identifierBuffer = 1 << 16

    /// Drops the values of `lists` from their inputs' resident memory: a
    /// pass over a name's values reads every input's at once, and a large
    /// merge kept each input's whole lookups resident until its end (~45 MB
    /// of file pages at 1M items, eight inputs of 64,000).
    private static func release(_ lists: [ValueList], _ inputs: [SegmentSnapshot]) {
        for list in lists { inputs[list.input].segment.releaseNumbers(list.values, minimum: 1 << 12) }
    }

    /// One input's values of one name: indices into its typed values.
    struct ValueList {
        var input: Int
        var values: Range<Int>
    }

    /// One input's sorted entries (typed values of one name, or identifier
    /// hashes): their indices, each one's key and doc, and the input's doc map.
    private struct SortedEntries<Key: Comparable> {
        var indices: Range<Int>
        var map: [Int32]
        var key: (Int) -> Key
        var doc: (Int) -> UInt32
    }

    /// Calls `body` with each kept entry of `lists` (one per input, in
    /// input order) and its new doc, in (key, doc) order: smallest key
    /// first, ties to the earlier input, whose documents come first.
    ///
    /// Each input is read ahead in runs of ``mergeRun`` kept entries into
    /// a buffer of the merge's own, so choosing the next entry compares
    /// the inputs' next keys, kept side by side, and nothing else: read one
    /// at a time through the inputs' accessors, every step copied the
    /// lists' closures and maps (retaining and releasing them was about
    /// half of a merge's lookups, ~7% of indexing's CPU at 63,666 items);
    /// then, with the runs as arrays of arrays, each step's checks of
    /// nested arrays were two thirds of the last merge's lookups at 63,666
    /// items (~230 ns an entry, the lookups a fifth of its time on one
    /// core while the other idled).
    private static func forEachMerged<Key: Comparable & BitwiseCopyable>(_ lists: [SortedEntries<Key>], _ body: (Key, UInt32) -> Void) {
        let count = lists.count, run = mergeRun
        guard count > 0 else { return }
        let keys = UnsafeMutablePointer<Key>.allocate(capacity: count * run)
        let docs = UnsafeMutablePointer<UInt32>.allocate(capacity: count * run)
        // Per input: its run's next entry and end, where its unread entries
        // start; its next key (valid while it has one).
        let position = UnsafeMutablePointer<Int>.allocate(capacity: count)
        let end = UnsafeMutablePointer<Int>.allocate(capacity: count)
        let next = UnsafeMutablePointer<Int>.allocate(capacity: count)
        let heads = UnsafeMutablePointer<Key>.allocate(capacity: count)
        // The inputs with entries left, in input order (ties go to the first).
        let active = UnsafeMutablePointer<Int>.allocate(capacity: count)
        defer {
            for pointer in [UnsafeMutableRawPointer(keys), UnsafeMutableRawPointer(docs), UnsafeMutableRawPointer(position),
                            UnsafeMutableRawPointer(end), UnsafeMutableRawPointer(next), UnsafeMutableRawPointer(heads),
                            UnsafeMutableRawPointer(active)] {
                pointer.deallocate()
            }
        }
        /// Reads input `slot`'s next kept entries, past deleted documents; false when none are left.
        func refill(_ slot: Int) -> Bool {
            let list = lists[slot]
            let base = slot * run
            var index = next[slot], filled = 0
            list.map.withUnsafeBufferPointer { map in
                while index < list.indices.upperBound, filled < run {
                    let doc = map[Int(list.doc(index))]
                    if doc >= 0 {
                        keys[base + filled] = list.key(index)
                        docs[base + filled] = UInt32(bitPattern: doc)
                        filled += 1
                    }
                    index += 1
                }
            }
            (next[slot], position[slot], end[slot]) = (index, 0, filled)
            if filled > 0 { heads[slot] = keys[base] }
            return filled > 0
        }
        var live = 0
        for slot in 0..<count {
            next[slot] = lists[slot].indices.lowerBound
            if refill(slot) {
                active[live] = slot
                live += 1
            }
        }
        while live > 0 {
            var best = 0
            for at in 1..<max(1, live) where heads[active[at]] < heads[active[best]] { best = at }
            let slot = active[best]
            body(heads[slot], docs[slot * run + position[slot]])
            position[slot] += 1
            if position[slot] < end[slot] {
                heads[slot] = keys[slot * run + position[slot]]
            } else if !refill(slot) {
                // Its entries are done: the others keep their order.
                for at in best..<(live - 1) { active[at] = active[at + 1] }
                live -= 1
            }
        }
    }

    /// Kept entries read ahead from one input by ``forEachMerged(_:_:)``.
    package static let mergeRun = 512

    /// Calls `body` with each kept value of `lists` (one name's, one list
    /// per input holding it, in input order) and its new doc, in (value, doc) order.
    private static func forEachMergedValue(_ lists: [ValueList], _ inputs: [SegmentSnapshot], _ docMaps: [[Int32]],
                                           _ body: (Double, UInt32) -> Void) {
        forEachMerged(lists.map { list in
            let segment = inputs[list.input].segment
            return SortedEntries(indices: list.values, map: docMaps[list.input], key: segment.numberValue, doc: segment.numberDoc)
        }, body)
    }

    /// Calls `body` with each kept document's identifier hash and new doc, in (hash, doc) order.
    private static func forEachMergedIdentifier(_ inputs: [SegmentSnapshot], _ docMaps: [[Int32]],
                                                _ body: (UInt64, UInt32) -> Void) throws(SegmentError) {
        for input in inputs {
            for index in 0..<input.segment.documentCount where Int(input.segment.uidDoc(index)) >= input.segment.documentCount {
                throw .corrupt("an identifier hash names document \(input.segment.uidDoc(index))")
            }
        }
        forEachMerged(zip(inputs, docMaps).map { input, map in
            SortedEntries(indices: 0..<input.segment.documentCount, map: map, key: input.segment.uidHash, doc: input.segment.uidDoc)
        }, body)
    }
}
