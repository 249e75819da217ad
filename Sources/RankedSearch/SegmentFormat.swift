import Foundation

/// The byte layout of a ranked-index segment (see ``Segment``).
///
/// Little-endian throughout. A 512-byte header, then sections, each
/// starting on an 8-byte boundary, whose offsets the header lists. A
/// "packed" element is an unsigned integer in the section's width of bits
/// (``packedSections``; the header's ``packedWidthsOffset``):
///
/// | section | element | per |
/// | --- | --- | --- |
/// | `rowids` | packed, above the header's ``rowidBaseOffset`` | document (ascending doc id = build order) |
/// | `expires`, `hints`, `recency` (NaN: none), `engagement`, `engagedAt` | Float64, or one for all (header bit), or encoded (``floatSections``) | document |
/// | `documentBounds` | Float32 static factor at build time, rounded up, then UInt32 tokens in all columns | document |
/// | `rowidOrder` | packed doc ids sorted by rowid | document |
/// | `titleLengths` | UInt8 (the title's words, at most 255) | document |
/// | `plainColumns` | packed in 4 bits: ``DocumentTokens/plainColumns`` | document |
/// | `quality` (metadata factor), `impressions` | as `expires` | document |
/// | `termOffsets` | packed (t + 1) into `termBytes` | term |
/// | `termBytes` | UTF-8 tokens in byte order, then the initials (``initialMarker``) | — |
/// | `termFirstBlock`, `termDocs` | packed | term |
/// | `termMaxG` | ``Maximum``: 2 bytes, rounded up | term |
/// | `termMaxGS`, `termMaxS` | ``Maximum`` | term of more than one block (``multiBlockTermCountOffset``) |
/// | `termGroups` | 56 bytes: UInt64 postings, UInt32 most postings, Float32 maxG, maxGS, maxS, UInt32 first term's length, UInt32 terms of more than one block before the group's, its first 16 bytes (zero-padded), Float32 maxGS and maxG without the exact-title share | 64 terms (``termGroupSize``) |
/// | `blockOffsets` | packed (b + 1) into `postingsData` | block |
/// | `blockLastDoc` | packed | block |
/// | `blockMaxGS`, `blockMaxS` | ``Maximum`` | block |
/// | `postingsData` | bit-packed blocks (``PostingBlock``): doc id gaps, weighted tf × 16 and column masks (or a palette of them and an index a posting); 8 zero bytes after | — |
/// | `termMaxGSPart` | ``Maximum`` (maxGS without the exact-title share) | term of more than one block |
/// | `termMaxGPart` | ``Maximum`` (maxG without the exact-title share) | term |
/// | `blockMaxGSPart` | ``Maximum`` (maxGS without the exact-title share) | block |
/// | `numberNameOffsets` | UInt64 (k + 1) into `numberNameBytes` | typed attribute name |
/// | `numberNameBytes` | UTF-8 attribute names in byte order | — |
/// | `numberNameStarts` | UInt64 (k + 1) into `numberValues` | typed attribute name |
/// | `numberValues` | Float64 or encoded (``floatSections``), ascending within each name, but the first ``zeroValueCountOffset`` counts (0, not stored) | typed value |
/// | `numberDocs` | packed: the doc of each of `numberValues` | typed value |
/// | `uidHashes` | UInt64 ``TokenHash`` of a unique identifier, ascending | document |
/// | `uidDocs` | packed: the doc of each of `uidHashes` | document |
/// | `uidBytes` | UTF-8 unique identifiers, in doc order, front-coded in runs of 16 (``IdentifierRuns``) | — |
/// | `uidRuns` | packed: where each run of identifiers starts in `uidBytes`, then its length | 16 documents |
///
/// A term's postings are `ceil(docs / 128)` consecutive blocks from
/// `termFirstBlock`. A term of one block (~97% of them) has its maxima
/// G×S, S and G×S without the share in its block's entries; only a term
/// of more than one has entries of its own, found by its rank among
/// those (its term group's count before it, then its group's terms
/// before it). G is the BM25 term-frequency factor
/// `tf·(k1+1) / (tf + k1·(1 − b + b·len/avgLength))` and S the document's
/// static bound; `maxGS` is the largest G×S in a term or block, `maxS` the
/// largest S. A term group sums or maximises these over 64 consecutive
/// term ids, so a short prefix of thousands of tokens is weighed, and its
/// lists ordered, group by group. The checksum covers every byte after
/// the header; the header's last 8 bytes are a checksum of the rest of it.
///
/// The exact-value index's names (``ExactValues``) sort before every
/// attribute's, and their values are all 0: the header counts those
/// first values, which `numberValues` does not store (at 63,666 items,
/// three such names on every item were 1.5 MB of zeros in a 24 MB
/// segment).
///
/// The last two groups of sections are the store's lookups that SQLite's
/// B-trees held before format 7: an item's unique identifier (a hash; the
/// caller checks the row), and its numbers, dates and bools by attribute
/// and value (the query language's comparisons and ranges, as Lucene's
/// points). Kept here, a write appends; in B-tree indexes each item cost
/// a random page write per index and transaction (~40 µs an item at 1M).
package enum SegmentFormat {
    /// "OSRANK01".
    static let magic: UInt64 = 0x3130_4B4E_4152_534F
    /// Bump when the layout or what is stored changes: stores rebuild their index.
    /// 2: no forward lists (posting cursors check the other terms).
    /// 3: each posting says which columns hold the token (query-language candidates).
    /// 4: a per-document Float64 section whose values are all equal holds one.
    /// 5: term groups.
    /// 6: bit-packed posting blocks.
    /// 7: unique identifier hashes and typed values; a 512-byte header.
    /// 8: term groups carry their first term's first bytes (dictionary lookups
    ///    search the groups first: see ``Segment/lowerBound(_:pastPrefix:)``);
    ///    identifier hashes last in the file.
    /// 9: the header has a checksum of its own (``headerChecksumOffset``),
    ///    checked on every load: the body's checksum never covered it.
    /// 10: a posting's frequency carries whether the title holds the token
    ///    (its low bit); per document the title's length in words, the
    ///    metadata factor and impressions; per term, term group and block
    ///    second maxima, without the exact-title share (a group entry is 56
    ///    bytes: those two last) (one scale for every store, issue 22).
    /// 11: initials: after the words, a term per first character
    ///    (``initialMarker`` and the character's UTF-8) whose postings are
    ///    each document's largest frequency among its tokens starting with
    ///    it, so a one-letter last word is one posting list, not thousands.
    /// 12: each document's unique identifier (`uidEnds`, `uidBytes`), so
    ///    that a search answering identifiers reads no row
    ///    (``Segment/identifier(_:)``).
    /// 13: the exact-value index (``ExactValues``): short string values
    ///    under reserved names among the typed values.
    /// 14: a posting block may hold its (frequency, columns) pairs once, in
    ///    a palette, and an index a posting (``PostingBlock``): postings
    ///    ~40% smaller.
    /// 15: a document's static bound and length side by side
    ///    (`documentBounds`): a search bounding a document reads one cache
    ///    line, not two.
    /// 16: term and block maxima in 2 bytes (``Maximum``), term and block
    ///    offsets in 4 unless a section is past 4 GB
    ///    (a header bit each switched one to 8), the exact-value index's values
    ///    (all 0) not stored (``zeroValueCountOffset``): the text index
    ///    17–23% smaller (10,000 to 1M items).
    /// 17: integer tables bit-packed (``packedSections``): doc ids, offsets,
    ///    counts and rowids in the bits their largest value needs, not 4 or
    ///    8 bytes.
    /// 18: Float64 tables (each document's signals, the typed values) as
    ///    whole numbers packed above a base, or a palette and an index a
    ///    value, where smaller (``floatSections``).
    /// 19: per document, the columns whose text is their own attribute's
    ///    and ASCII (`plainColumns`), so that a `*fragment*`c comparison's
    ///    candidates there are certain, not checked against their rows.
    /// 20: a block of one posting is 2–3 bytes (``PostingBlock/compactFlag``):
    ///    its doc id is the block table's last doc, not in its bytes.
    /// 21: a term of one block has no `termMaxGS`, `termMaxS` and
    ///    `termMaxGSPart` of its own (its block's are its;
    ///    ``multiBlockTermCountOffset``).
    /// 22: identifiers front-coded in runs of 16 (``IdentifierRuns``),
    ///    `uidRuns` (a start a run, after `uidBytes`) for `uidEnds`.
    package static let version: UInt32 = 22
    /// The first byte of an initial's term (never in UTF-8, so initials sort
    /// after every word and no lookup of UTF-8 bytes reaches them): `0xFF`
    /// then the first character's bytes. Its postings hold, per document,
    /// the largest stored frequency (title bit included) and every column of
    /// the document's tokens starting with that character: exactly what a
    /// ``TermCursor`` over all those tokens finds.
    @_spi(Inspection) public static let initialMarker: UInt8 = 0xFF
    package static let headerSize = 512
    /// Postings per block.
    @_spi(Inspection) public static let blockSize = 128
    /// Consecutive term ids per entry of `termGroups`.
    @_spi(Inspection) public static let termGroupSize = 64
    /// Bytes per entry of `termGroups`.
    static let termGroupStride = 56
    /// Leading bytes of a group's first term kept in its entry.
    static let termGroupKeySize = 16
    /// Where in a group entry the first term's length and bytes are.
    static let termGroupKeyLengthOffset = 24
    /// Where in a group entry the count of terms of more than one block before the group's first term is (UInt32).
    static let termGroupMultiBlockOffset = 28
    static let termGroupKeyOffset = 32
    /// Weighted term frequencies are stored as integers of 1/16, shifted
    /// left by one: the low bit says whether the title holds the token
    /// (``RankedScoring/frequency(weighted:columns:)``).
    static let tfScale: Double = 16
    /// A posting's low bits: which columns hold the token (bit 0 title,
    /// 1 keywords, 2 description, 3 other, as ``TextColumns``).
    static let columnBits: UInt64 = 4

    /// The sections, in file order; their offsets follow the fixed header fields.
    enum Section: Int, CaseIterable {
        case rowids, expires, hints, recency, engagement, engagedAt
        /// Per document, 8 bytes: the static bound (Float32) then the length (UInt32).
        case documentBounds
        case rowidOrder
        case titleLengths
        /// Per document, 4 bits: ``DocumentTokens/plainColumns``.
        case plainColumns
        case quality, impressions
        case termOffsets, termBytes, termFirstBlock, termDocs, termMaxG, termMaxGS, termMaxS, termGroups
        case blockOffsets, blockLastDoc, blockMaxGS, blockMaxS, postingsData
        /// Maxima without the exact-title share, for a prefix's completions
        /// (``RankedScoring/termScore(frequency:norm:titleLength:wholeWord:)``).
        case termMaxGSPart, blockMaxGSPart, termMaxGPart
        case numberNameOffsets, numberNameBytes, numberNameStarts, numberValues, numberDocs
        /// Last: only writers read them (a store's queries map what they touch by 2 MB).
        case uidHashes, uidDocs
        /// Each document's identifier, for searches that answer identifiers only.
        case uidBytes, uidRuns
    }

    // Header fields (byte offsets).
    static let magicOffset = 0
    static let versionOffset = 8
    static let tokenizerOffset = 12
    static let docCountOffset = 16
    static let termCountOffset = 20
    static let blockCountOffset = 24
    /// UInt32: bit i set when section i (one of ``collapsibleSections``) holds one value for every document.
    @_spi(Inspection) public static let constantSectionsOffset = 28
    static let weightsHashOffset = 32
    static let buildTimeOffset = 40
    static let avgLengthOffset = 48
    package static let checksumOffset = 56
    static let totalLengthOffset = 64
    /// UInt32: typed attribute names, and typed values.
    static let numberNameCountOffset = 72
    static let numberValueCountOffset = 76
    /// The sections' UInt64 offsets, in ``Section`` order: 37 of them end at byte 376, inside the header.
    static let sectionTableOffset = 80
    /// UInt32: terms of more than one block (more than ``blockSize``
    /// postings), which alone have entries in `termMaxGS`, `termMaxS` and
    /// `termMaxGSPart`.
    static let multiBlockTermCountOffset = 488
    /// UInt32: how many of the first typed values are the exact-value
    /// index's (``ExactValues``), each 0 and not stored in `numberValues`.
    static let zeroValueCountOffset = 496

    static func sectionOffsetField(_ section: Section) -> Int { sectionTableOffset + 8 * section.rawValue }

    /// UInt64: ``checksum(_:)`` of the header's bytes before it, so that no
    /// field (statistics, counts, section offsets, the body's checksum) can
    /// be damaged unseen. Checked on every load (504 bytes).
    package static let headerChecksumOffset = headerSize - 8

    /// The checksum of a header (its bytes before ``headerChecksumOffset``).
    package static func headerChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<headerChecksumOffset]))
    }

    /// Per-document signals that are often the same for every document
    /// (no expiration, no hint, no engagement): such a section holds its
    /// one value, and reading it costs no memory per document.
    static let collapsibleSections: [Section] = [.expires, .hints, .recency, .engagement, .engagedAt, .quality, .impressions]

    /// FNV-1a over 8-byte words (then the tail bytes): fast enough to check
    /// a segment as it is loaded.
    package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = Checksum()
        hasher.update(bytes)
        return hasher.value
    }

    /// ``checksum(_:)`` fed in pieces (each but the last a multiple of 8 bytes long).
    package struct Checksum {
        package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

        package init() {}

        package mutating func update(_ bytes: UnsafeRawBufferPointer) {
            var hash = value
            let words = bytes.count / 8
            var index = 0
            while index < words {
                hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* 0x0000_0100_0000_01b3
                index += 1
            }
            for offset in (words * 8)..<bytes.count {
                hash = (hash ^ UInt64(bytes[offset])) &* 0x0000_0100_0000_01b3
            }
            value = hash
        }
    }
}

#if _endian(big)
#error("segments are little-endian and written with the host's byte order")
#endif

/// Appends little-endian values to a growing byte array.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func align8() {
        while bytes.count % 8 != 0 { bytes.append(0) }
    }

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ value: Double) { append(value.bitPattern) }
    mutating func append(_ value: Float) { append(value.bitPattern) }

    /// Appends every value in one copy (the host is little-endian, as the format).
    mutating func append<T: BitwiseCopyable>(contentsOf values: [T]) {
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    mutating func appendVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func set<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (index, byte) in raw.enumerated() { bytes[offset + index] = byte }
        }
    }
}

/// Reads varints from a byte range, refusing to run past its end.
struct VarintReader {
    let base: UnsafeRawBufferPointer
    var position: Int
    let end: Int

    @inline(__always)
    mutating func next() throws(SegmentError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end, shift < 64 else { throw SegmentError.corrupt("a varint runs past its section") }
            let byte = base[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    var isAtEnd: Bool { position >= end }
}

/// Why a segment could not be read.
package enum SegmentError: Error, CustomStringConvertible {
    case corrupt(String)
    case tooLarge(String)
    /// A merge's scratch file (``PostingsSpill``) could not be made, written or read.
    case scratch(String)

    package var description: String {
        switch self {
        case .corrupt(let why): "ranked-index segment is damaged: \(why)"
        case .tooLarge(let why): "ranked-index segment too large: \(why)"
        case .scratch(let why): "ranked-index merge failed: \(why)"
        }
    }
}
