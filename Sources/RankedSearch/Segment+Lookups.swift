import Foundation

/// A segment's lookups (``SegmentFormat``'s last sections): documents by
/// identifier hash and rowid, each document's identifier
/// (``IdentifierRuns``), typed values by name and range, and what a merge
/// releases once it has read them.
extension Segment {
    /// The documents whose unique identifier hashes to `hash`, deleted ones
    /// included: candidates, which the caller checks against the row.
    ///
    /// The hashes are uniform, so the search starts where `hash` falls in
    /// proportion (interpolation) and gallops from there: a few reads near
    /// each other instead of a binary search's twenty scattered ones,
    /// which at 1M items cost the writer ~3 µs an item in cache misses.
    package func documents(uidHash hash: UInt64) -> [Int] {
        let n = documentCount
        guard n > 0 else { return [] }
        @inline(__always) func key(_ index: Int) -> UInt64 { u64(.uidHashes, index) }
        let guess = min(n - 1, Int((Double(hash) / 18_446_744_073_709_551_616.0) * Double(n)))
        // Bracket the first index whose key is ≥ hash: low's key < hash (or low = 0), high's ≥ hash (or high = n).
        var low = guess, high = guess
        if key(guess) < hash {
            var step = 1
            high = guess + 1
            while high < n, key(high) < hash {
                low = high
                high = min(n, high + step)
                step *= 2
            }
            low += 1
        } else {
            var step = 1
            low = guess
            while low > 0, key(low - 1) >= hash {
                high = low - 1
                low = max(0, low - step)
                step *= 2
            }
        }
        while low < high {
            let mid = (low + high) / 2
            if key(mid) < hash { low = mid + 1 } else { high = mid }
        }
        var out: [Int] = []
        while low < n, key(low) == hash {
            let doc = Int(uidDocs.value(low, in: base))
            if doc < n { out.append(doc) }
            low += 1
        }
        return out
    }

    /// The unique identifier of `doc`, as its item was indexed.
    ///
    /// ```swift
    /// let identifier = try segment.identifier(segment.document(rowid: rowid)!)
    /// ```
    package func identifier(_ doc: Int) throws(SegmentError) -> String {
        var bytes: [UInt8] = []
        try identifierBytes(doc, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The UTF-8 bytes of `doc`'s unique identifier, into `bytes`
    /// (replacing what it held): decoded from the start of its run
    /// (``IdentifierRuns``), at most 16 identifiers.
    package func identifierBytes(_ doc: Int, into bytes: inout [UInt8]) throws(SegmentError) {
        guard doc >= 0, doc < documentCount else { throw .corrupt("no document \(doc) to name") }
        try IdentifierRuns.decode(identifierSection, from: identifierRunStart(doc / IdentifierRuns.runLength),
                                  skipping: doc % IdentifierRuns.runLength, into: &bytes)
    }

    /// Every document's identifier in doc order, each decoded over the one
    /// before: `body` gets the doc and its identifier's bytes (valid
    /// during the call). A merge reads them so, once.
    func forEachIdentifier(_ body: (Int, [UInt8]) throws(SegmentError) -> Void) throws(SegmentError) {
        var bytes: [UInt8] = []
        var reader = IdentifierRuns.Reader(identifierSection, at: 0)
        for doc in 0..<documentCount {
            if doc % IdentifierRuns.runLength == 0 { reader = IdentifierRuns.Reader(identifierSection, at: try identifierRunStart(doc / IdentifierRuns.runLength)) }
            try reader.next(into: &bytes, first: doc % IdentifierRuns.runLength == 0)
            try body(doc, bytes)
        }
    }

    /// The `uidBytes` section.
    private var identifierSection: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: base[at(.uidBytes)..<sectionEnd(.uidBytes)])
    }

    /// Where run `run` of identifiers starts in `uidBytes`, checked to lie inside it.
    private func identifierRunStart(_ run: Int) throws(SegmentError) -> Int {
        let start = Int(uidRuns.value(run, in: base))
        guard start <= sectionEnd(.uidBytes) - at(.uidBytes) else { throw .corrupt("identifiers of run \(run) out of place") }
        return start
    }

    /// The `index`th identifier hash in ascending order, and its document.
    func uidHash(_ index: Int) -> UInt64 { u64(.uidHashes, index) }
    func uidDoc(_ index: Int) -> UInt32 { UInt32(truncatingIfNeeded: uidDocs.value(index, in: base)) }

    /// The unique identifier hash of every document, by doc id (for merges).
    @_spi(Inspection) public func uidHashesByDocument() -> [UInt64] {
        var out = [UInt64](repeating: 0, count: documentCount)
        for index in 0..<documentCount {
            let doc = Int(uidDocs.value(index, in: base))
            if doc < documentCount { out[doc] = u64(.uidHashes, index) }
        }
        return out
    }

    /// The bytes of typed attribute name `index` (names ascend by bytes).
    @_spi(Inspection) public func numberName(_ index: Int) throws(SegmentError) -> UnsafeRawBufferPointer {
        let start = Int(truncatingIfNeeded: u64(.numberNameOffsets, index)), end = Int(truncatingIfNeeded: u64(.numberNameOffsets, index + 1))
        let size = sectionEnd(.numberNameBytes) - at(.numberNameBytes)
        guard start >= 0, start <= end, end <= size else { throw .corrupt("typed attribute name \(index) out of its section") }
        return UnsafeRawBufferPointer(start: base.baseAddress! + at(.numberNameBytes) + start, count: end - start)
    }

    /// The typed values of name `index`: a range of ``numberValue(_:)`` indexes.
    @_spi(Inspection) public func numberValues(ofName index: Int) throws(SegmentError) -> Range<Int> {
        let start = Int(truncatingIfNeeded: u64(.numberNameStarts, index)), end = Int(truncatingIfNeeded: u64(.numberNameStarts, index + 1))
        guard start >= 0, start <= end, end <= numberValueCount else { throw .corrupt("typed values of name \(index) out of range") }
        return start..<end
    }

    @_spi(Inspection) public func numberValue(_ index: Int) -> Double {
        index < zeroValueCount ? 0 : typedValues.value(index - zeroValueCount, in: base)
    }
    @_spi(Inspection) public func numberDoc(_ index: Int) -> UInt32 { UInt32(truncatingIfNeeded: numberDocs.value(index, in: base)) }

    /// Drops from resident memory what a merge read of `terms` and their
    /// `blocks`, once, in order (``SegmentBytes/release(_:minimum:)``): the
    /// terms' offsets, bytes, first blocks and counts, the blocks' offsets
    /// and postings. A large merge would otherwise keep most of every
    /// input resident.
    func releaseMerged(terms: Range<Int>, blocks: Range<Int>) {
        guard !terms.isEmpty, terms.upperBound <= termCount, blocks.upperBound <= blockCount else { return }
        // The byte ranges first: reading an offset would map its page back.
        let termBytes = termOffset(terms.lowerBound)..<max(termOffset(terms.lowerBound), termOffset(terms.upperBound))
        let postings = blockOffset(blocks.lowerBound)..<max(blockOffset(blocks.lowerBound), blockOffset(blocks.upperBound))
        let page = 1 << 12
        func release(_ section: SegmentFormat.Section, _ range: Range<Int>) {
            guard range.lowerBound >= 0 else { return }   // damaged offsets: nothing released
            bytes.release((at(section) + range.lowerBound)..<(at(section) + range.upperBound), minimum: page)
        }
        for table in [termOffsets, termFirstBlock, termDocs] { bytes.release(table.byteRange(terms), minimum: page) }
        release(.termBytes, termBytes)
        bytes.release(blockOffsets.byteRange(blocks), minimum: page)
        release(.postingsData, postings)
    }

    /// Drops `sections` from resident memory, once a merge has read them.
    func release(_ sections: [SegmentFormat.Section]) {
        for section in sections { bytes.release(at(section)..<sectionEnd(section), minimum: 1 << 12) }
    }

    /// Drops from resident memory every per-document section and the
    /// identifiers and typed values, which a merge reads once.
    func releaseDocuments() {
        release([.rowids, .expires, .hints, .recency, .engagement, .engagedAt, .documentBounds, .rowidOrder,
                 .titleLengths, .plainColumns, .quality, .impressions, .uidHashes, .uidDocs, .uidBytes, .uidRuns, .numberValues, .numberDocs])
    }

    /// Drops from resident memory the typed values and docs of indexes
    /// `values` (``SegmentBytes/release(_:minimum:)``), after a range (or
    /// a merge, with a page as `minimum`) read them all.
    func releaseNumbers(_ values: Range<Int>, minimum: Int = SegmentBytes.releaseMinimum) {
        let stored = max(0, values.lowerBound - zeroValueCount)..<max(0, values.upperBound - zeroValueCount)
        bytes.release(typedValues.byteRange(stored), minimum: minimum)
        bytes.release(numberDocs.byteRange(values), minimum: minimum)
    }

    /// The values of attribute `name` within `range`: indexes of
    /// ``numberValue(_:)`` and ``numberDoc(_:)``, found by binary searches.
    func numberValues(named name: String, in range: NumberRange) throws(SegmentError) -> Range<Int> {
        var low = 0, high = numberNameCount
        let key = Array(name.utf8)
        while low < high {
            let mid = (low + high) / 2
            let bytes = try numberName(mid)
            if bytes.lexicographicallyPrecedes(key) { low = mid + 1 } else { high = mid }
        }
        guard low < numberNameCount, try numberName(low).elementsEqual(key) else { return 0..<0 }
        let values = try numberValues(ofName: low)
        // First index whose value is not below the range, then first past it.
        func firstIndex(where isPast: (Double) -> Bool) -> Int {
            var low = values.lowerBound, high = values.upperBound
            while low < high {
                let mid = (low + high) / 2
                if isPast(numberValue(mid)) { high = mid } else { low = mid + 1 }
            }
            return low
        }
        let start = range.lower.map { bound in firstIndex { range.lowerInclusive ? $0 >= bound : $0 > bound } } ?? values.lowerBound
        let end = range.upper.map { bound in firstIndex { range.upperInclusive ? $0 > bound : $0 >= bound } } ?? values.upperBound
        return start..<max(start, end)
    }
}
