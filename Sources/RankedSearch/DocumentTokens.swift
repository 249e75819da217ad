import Foundation

/// One item's text as the ranked index stores it: each distinct token once,
/// with its hash, its frequency weighted by column (in sixteenths, as
/// postings hold it; each column's occurrences capped, see
/// ``RankingWeights/titleCap``) and the columns that hold it; the
/// document's length (token occurrences in all columns, BM25's length),
/// its title's length in tokens and its metadata factor
/// (``RankingWeights/metadataLift``, ``RankingWeights/stuffingRatio``).
///
/// Made off the write lock, as items are prepared (``ItemValidator``), so
/// that the writer only interns ready tokens into the segment it builds
/// (``SegmentContents``).
///
/// ```swift
/// let builder = DocumentTokens.Builder(weights: .standard)
/// builder.add("Pear tart", column: 0)
/// let tokens = builder.finish()
/// tokens.count    // 2: "pear" and "tart", each in the title column
/// ```
package struct DocumentTokens: Sendable {
    /// The distinct tokens' bytes, end to end.
    private(set) var bytes: [UInt8] = []
    package private(set) var tokens: [Token] = []
    /// Token occurrences in all columns.
    @_spi(Inspection) public private(set) var length: UInt32 = 0
    /// Words of the longest title attribute (`title`, `displayName`).
    @_spi(Inspection) public private(set) var titleLength: UInt32 = 0
    /// The metadata factor: complete metadata lifts, stuffed keywords demote.
    private(set) var quality: Double = 1
    /// The columns (bits of ``TextColumns/bit(of:)``) whose text is one
    /// attribute's, the column's own (``TextColumns/primaryAttributes``),
    /// and ASCII: where a token containing a fragment of letters and
    /// digits means the attribute contains it, whatever its case
    /// (``Segment/plainColumns(_:)``).
    package private(set) var plainColumns: UInt8 = 0

    package struct Token: Sendable {
        var hash: UInt64
        var start: UInt32
        package var count: UInt32
        /// Σ column weight × occurrences (at most the column's cap), in sixteenths.
        @_spi(Inspection) public var frequency: UInt32
        /// Bits of ``TextColumns/bit(of:)``.
        @_spi(Inspection) public var columns: UInt8
        // 24 bytes a token: the occurrences per column that cap the
        // frequency are the builder's alone (``Builder``), not kept with
        // every prepared item's tokens until its batch is written.
    }

    package var count: Int { tokens.count }

    package init() {}

    /// The bytes of token `index`.
    @_spi(Inspection) public func withToken<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        let token = tokens[index]
        return bytes.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[Int(token.start)..<Int(token.start + token.count)]))
        }
    }

    /// What the index takes from ``RankingWeights`` while it tokenizes: the
    /// four column weights in sixteenths (title, keywords, description,
    /// other), each column's cap on counted occurrences, and the metadata
    /// factor's parameters.
    package struct ColumnWeights: Sendable, Hashable {
        var values: (UInt32, UInt32, UInt32, UInt32)
        var caps: (UInt32, UInt32, UInt32, UInt32)
        var metadataLift: Double
        var stuffingRatio: Double
        var stuffingFloor: Double

        package init(_ weights: RankingWeights) {
            func sixteenths(_ weight: Double) -> UInt32 { UInt32(max(0, min(4_096, (weight * SegmentFormat.tfScale).rounded()))) }
            func cap(_ count: Int) -> UInt32 { UInt32(max(1, min(255, count))) }
            values = (sixteenths(weights.titleWeight), sixteenths(weights.keywordsWeight),
                      sixteenths(weights.descriptionWeight), sixteenths(weights.otherTextWeight))
            caps = (cap(weights.titleCap), cap(weights.keywordsCap), cap(weights.descriptionCap), cap(weights.otherTextCap))
            metadataLift = weights.metadataLift
            stuffingRatio = weights.stuffingRatio
            stuffingFloor = weights.stuffingFloor
        }

        package static let standard = ColumnWeights(RankingWeights())

        func weight(_ column: Int) -> UInt32 {
            switch column {
            case 0: values.0
            case 1: values.1
            case 2: values.2
            default: values.3
            }
        }

        func cap(_ column: Int) -> UInt32 {
            switch column {
            case 0: caps.0
            case 1: caps.1
            case 2: caps.2
            default: caps.3
            }
        }

        /// The metadata factor of an item with these token occurrences per
        /// column: a third of ``RankingWeights/metadataLift`` each for a
        /// title, a description and a thumbnail; keyword occurrences past
        /// ``RankingWeights/stuffingRatio`` × the other columns' scale it
        /// down in proportion, to ``RankingWeights/stuffingFloor`` at least.
        ///
        /// ```swift
        /// ColumnWeights.standard.quality(occurrences: (2, 0, 10, 0), hasThumbnail: true)   // 1.1
        /// ColumnWeights.standard.quality(occurrences: (1, 30, 0, 0), hasThumbnail: false)  // 0.5: 30 keywords, 1 word
        /// ```
        func quality(occurrences: (UInt32, UInt32, UInt32, UInt32), hasThumbnail: Bool) -> Double {
            let present = (occurrences.0 > 0 ? 1.0 : 0) + (occurrences.2 > 0 ? 1.0 : 0) + (hasThumbnail ? 1.0 : 0)
            var factor = 1 + metadataLift * present / 3
            let content = Double(max(1, occurrences.0 + occurrences.2 + occurrences.3))
            let allowed = stuffingRatio * content
            if Double(occurrences.1) > allowed { factor *= max(stuffingFloor, allowed / Double(occurrences.1)) }
            return factor
        }

        package static func == (a: Self, b: Self) -> Bool {
            a.values == b.values && a.caps == b.caps && a.metadataLift == b.metadataLift
                && a.stuffingRatio == b.stuffingRatio && a.stuffingFloor == b.stuffingFloor
        }
        package func hash(into hasher: inout Hasher) {
            hasher.combine(values.0); hasher.combine(values.1); hasher.combine(values.2); hasher.combine(values.3)
            hasher.combine(caps.0); hasher.combine(caps.1); hasher.combine(caps.2); hasher.combine(caps.3)
            hasher.combine(metadataLift); hasher.combine(stuffingRatio); hasher.combine(stuffingFloor)
        }
    }

    /// Collects tokens into a ``DocumentTokens``: an open-addressing table
    /// over the distinct tokens, reset in O(1) between documents by a
    /// generation stamp, so one builder serves a whole chunk of items. Its
    /// storage is managed by hand (no copy-on-write or bounds checks in the
    /// per-token path); one thread uses a builder at a time.
    package final class Builder: IndexTokenSink {
        // Stored properties skip the runtime's exclusivity checks: a
        // builder is used by one thread, and the checks were a third of
        // the per-token cost.
        let weights: ColumnWeights
        @exclusivity(unchecked) private var bytes: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) private var byteCount = 0, byteCapacity = 1_024
        @exclusivity(unchecked) private var tokens: UnsafeMutablePointer<Token>
        /// Per token, its occurrences per column, a byte each (saturating).
        @exclusivity(unchecked) private var counts: UnsafeMutablePointer<UInt32>
        @exclusivity(unchecked) private var tokenCount = 0, tokenCapacity = 64
        /// Slot → generation << 32 | token index; live when its generation is the current one.
        @exclusivity(unchecked) private var slots: UnsafeMutablePointer<UInt64>
        @exclusivity(unchecked) private var slotCount = 128
        @exclusivity(unchecked) private var generation: UInt32 = 1
        @exclusivity(unchecked) private var length: UInt32 = 0
        @exclusivity(unchecked) private var weight: UInt32
        @exclusivity(unchecked) private var cap: UInt32
        @exclusivity(unchecked) private var shift: UInt32 = 24
        @exclusivity(unchecked) private var bit: UInt8 = 8
        /// Token occurrences per column in this document.
        @exclusivity(unchecked) private var occurrences: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        @exclusivity(unchecked) private var titleLength: UInt32 = 0
        @exclusivity(unchecked) private var hasThumbnail = false
        /// Columns given their own attribute's ASCII text, and those given anything else.
        @exclusivity(unchecked) private var plain: UInt8 = 0, impure: UInt8 = 0

        package init(weights: ColumnWeights) {
            self.weights = weights
            weight = weights.weight(3)
            cap = weights.cap(3)
            bytes = .allocate(capacity: byteCapacity)
            bytes.initialize(repeating: 0, count: byteCapacity)   // read a word at a time, past a token's end
            tokens = .allocate(capacity: tokenCapacity)
            counts = .allocate(capacity: tokenCapacity)
            slots = .allocate(capacity: slotCount)
            slots.initialize(repeating: 0, count: slotCount)
        }

        deinit {
            bytes.deallocate()
            tokens.deallocate()
            counts.deallocate()
            slots.deallocate()
        }

        /// The column (0 title, 1 keywords, 2 description, 3 other) the next tokens belong to.
        @exclusivity(unchecked) package var column: Int = 3 {
            didSet {
                weight = weights.weight(column)
                cap = weights.cap(column)
                shift = UInt32(column & 3) * 8
                bit = UInt8(1) << UInt8(column & 3)
            }
        }

        /// Adds the tokens of one text of an attribute in `column` (0
        /// title, 1 keywords, 2 description, 3 other; ``TextColumns/column(of:)``);
        /// `countsTitleWords`: the text is a title whose words set the
        /// title's length (a URL in the title column is not); `primary`:
        /// it is the column's own attribute's (``TextColumns/primaryAttributes``).
        package func add(_ text: String, column: Int, countsTitleWords: Bool = true, primary: Bool = false) {
            var sink = self
            if self.column != column { self.column = column }
            let before = length
            let isASCII = TextTokenizer.forEachIndexToken(of: text, into: &sink)
            if primary && isASCII { plain |= bit } else { impure |= bit }
            let added = length &- before
            switch column {
            case 0:
                occurrences.0 &+= added
                if countsTitleWords { titleLength = max(titleLength, UInt32(clamping: Self.words(in: text))) }
            case 1: occurrences.1 &+= added
            case 2: occurrences.2 &+= added
            default: occurrences.3 &+= added
            }
        }

        /// The item has a thumbnail (it counts toward complete metadata).
        package func noteThumbnail() { hasThumbnail = true }

        /// Words of a title: runs of word characters (`python3-requests`
        /// is two, though its tokens are four: camelCase and digit parts
        /// are tokens too).
        static func words(in text: String) -> Int {
            var words = 0, inWord = false
            for scalar in text.unicodeScalars {
                let isWord = TextFolding.isWordScalar(scalar) || TextFolding.isCJK(scalar.value)
                if isWord && !inWord { words += 1 }
                inWord = isWord
            }
            return words
        }

        func take(_ token: UnsafeBufferPointer<UInt8>) {
            add(token, hash: TokenHash.of(token), padded: false)
        }

        func take(padded token: UnsafeBufferPointer<UInt8>) {
            add(token, hash: TokenHash.of(padded: token), padded: true)
        }

        @inline(__always)
        private func add(_ token: UnsafeBufferPointer<UInt8>, hash: UInt64, padded: Bool) {
            length &+= 1
            let count = token.count
            let mask = slotCount - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let entry = slots[slot]
                guard entry >> 32 == UInt64(generation) else { break }
                let index = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF)
                if tokens[index].hash == hash, Int(tokens[index].count) == count,
                   padded ? TokenHash.equalPadded(bytes + Int(tokens[index].start), token.baseAddress!, count)
                          : (count == 0 || memcmp(bytes + Int(tokens[index].start), token.baseAddress!, count) == 0) {
                    let counted = (counts[index] >> shift) & 0xFF
                    if counted < cap {
                        let (sum, overflow) = tokens[index].frequency.addingReportingOverflow(weight)
                        tokens[index].frequency = overflow ? .max : sum
                    }
                    if counted < 0xFF { counts[index] &+= 1 << shift }
                    tokens[index].columns |= bit
                    return
                }
                slot = (slot + 1) & mask
            }
            if tokenCount == tokenCapacity { growTokens() }
            if byteCount + count + 8 > byteCapacity { growBytes(byteCount + count + 8) }
            if count > 0 { (bytes + byteCount).update(from: token.baseAddress!, count: count) }
            tokens[tokenCount] = Token(hash: hash, start: UInt32(byteCount), count: UInt32(count), frequency: weight, columns: bit)
            counts[tokenCount] = 1 << shift
            byteCount += count
            slots[slot] = UInt64(generation) << 32 | UInt64(tokenCount)
            tokenCount += 1
            if tokenCount * 2 > slotCount { growSlots() }
        }

        private func growTokens() {
            let bigger = UnsafeMutablePointer<Token>.allocate(capacity: tokenCapacity * 2)
            bigger.moveInitialize(from: tokens, count: tokenCount)
            tokens.deallocate()
            tokens = bigger
            let biggerCounts = UnsafeMutablePointer<UInt32>.allocate(capacity: tokenCapacity * 2)
            biggerCounts.moveInitialize(from: counts, count: tokenCount)
            counts.deallocate()
            counts = biggerCounts
            tokenCapacity *= 2
        }

        private func growBytes(_ needed: Int) {
            var capacity = byteCapacity * 2
            while capacity < needed { capacity *= 2 }
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            bigger.initialize(from: bytes, count: byteCount)
            (bigger + byteCount).initialize(repeating: 0, count: capacity - byteCount)
            bytes.deallocate()
            bytes = bigger
            byteCapacity = capacity
        }

        /// Doubles the table and puts every token of this document back.
        private func growSlots() {
            slots.deallocate()
            slotCount *= 2
            slots = .allocate(capacity: slotCount)
            slots.initialize(repeating: 0, count: slotCount)
            generation = 1
            let mask = slotCount - 1
            for index in 0..<tokenCount {
                var slot = Int(truncatingIfNeeded: tokens[index].hash) & mask
                while slots[slot] >> 32 == UInt64(generation) { slot = (slot + 1) & mask }
                slots[slot] = UInt64(generation) << 32 | UInt64(index)
            }
        }

        /// The document so far; the builder starts the next one empty.
        package func finish() -> DocumentTokens {
            var out = DocumentTokens()
            out.bytes = Array(UnsafeBufferPointer(start: bytes, count: byteCount))
            out.tokens = Array(UnsafeBufferPointer(start: tokens, count: tokenCount))
            out.length = length
            out.titleLength = titleLength
            out.quality = weights.quality(occurrences: occurrences, hasThumbnail: hasThumbnail)
            out.plainColumns = plain & ~impure
            (plain, impure) = (0, 0)
            byteCount = 0
            tokenCount = 0
            length = 0
            occurrences = (0, 0, 0, 0)
            titleLength = 0
            hasThumbnail = false
            if generation == .max {
                slots.update(repeating: 0, count: slotCount)
                generation = 1
            } else {
                generation += 1
            }
            return out
        }
    }
}

/// A 64-bit hash of bytes, eight at a time; the same in every process (no
/// seed), for hash tables of tokens and identifiers.
enum TokenHash {
    @inline(__always)
    static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = bytes.count
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ (UInt64(truncatingIfNeeded: count) &* 0xFF51_AFD7_ED55_8CCD)
        guard let base = bytes.baseAddress, count > 0 else { return mix(hash) }
        var index = 0
        while index + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            hash = mix(hash ^ word)
            index += 8
        }
        if index < count {
            var word: UInt64 = 0
            var shift: UInt64 = 0
            while index < count {
                word |= UInt64(base[index]) << shift
                shift += 8
                index += 1
            }
            hash = mix(hash ^ word)
        }
        return hash
    }

    /// ``of(_:)`` for bytes followed by at least 8 readable ones: the
    /// last partial word is one load, masked (the same value).
    @inline(__always)
    static func of(padded bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = bytes.count
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ (UInt64(truncatingIfNeeded: count) &* 0xFF51_AFD7_ED55_8CCD)
        guard let base = bytes.baseAddress, count > 0 else { return mix(hash) }
        var index = 0
        while index + 8 <= count {
            hash = mix(hash ^ UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)))
            index += 8
        }
        if index < count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            hash = mix(hash ^ (word & (UInt64.max >> UInt64(64 - 8 * (count - index)))))
        }
        return hash
    }

    /// Whether `count` bytes at `a` and `b` are equal, both followed by at
    /// least 8 readable bytes.
    @inline(__always)
    static func equalPadded(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var index = 0
        while index + 8 <= count {
            if UnsafeRawPointer(a + index).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + index).loadUnaligned(as: UInt64.self) { return false }
            index += 8
        }
        guard index < count else { return true }
        let mask = UInt64.max >> UInt64(64 - 8 * (count - index))
        return (UnsafeRawPointer(a + index).loadUnaligned(as: UInt64.self) ^ UnsafeRawPointer(b + index).loadUnaligned(as: UInt64.self)) & mask.littleEndian == 0
    }

    /// The finalizer of SplitMix64.
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
