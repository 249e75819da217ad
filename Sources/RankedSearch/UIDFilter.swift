import Synchronization

/// A Bloom filter over one segment's identifier hashes, so that a writer
/// learns that a new item's identifier is in none of its segments without
/// searching each one's hashes.
///
/// Every item a writer stores is first looked up in every segment
/// (``Segment/documents(uidHash:)``: it may replace a stored one). At 1M
/// items a store has about a dozen segments, and each lookup's reads land
/// on pages of a few megabytes of hashes no search touches: ~1.8 µs an
/// item on the writer, the one thread every write waits for. Here ten bits
/// an identifier answer "surely not here" for ~98% of the segments a new
/// identifier is not in, from one word each, at 1.25 MB a million items.
/// Built from the segment's sorted hashes the first time a writer asks
/// (``Segment/uidFilter``), and kept with the segment, which never changes.
///
/// ```swift
/// let filter = segment.uidFilter
/// if filter.mayContain(hash) { candidates += segment.documents(uidHash: hash) }
/// ```
package final class UIDFilter: Sendable {
    private let words: [UInt64]
    private let mask: UInt64

    /// Bits per identifier: with three probes, about 1.7% false positives.
    static let bitsPerIdentifier = 10

    init(segment: Segment) {
        var bits = 64
        while bits < segment.documentCount * Self.bitsPerIdentifier { bits <<= 1 }
        var words = [UInt64](repeating: 0, count: bits / 64)
        let mask = UInt64(bits - 1)
        words.withUnsafeMutableBufferPointer { words in
            for index in 0..<segment.documentCount {
                let (a, b, c) = Self.positions(segment.uidHash(index), mask: mask)
                for position in [a, b, c] { words[Int(position >> 6)] |= 1 << (position & 63) }
            }
        }
        self.words = words
        self.mask = mask
    }

    /// Three positions from three stretches of the hash (already mixed: ``TokenHash``).
    @inline(__always)
    private static func positions(_ hash: UInt64, mask: UInt64) -> (UInt64, UInt64, UInt64) {
        (hash & mask, (hash >> 21 | hash << 43) & mask, (hash >> 42 | hash << 22) & mask)
    }

    /// False when no document of the segment has an identifier hashing to `hash`.
    @inline(__always)
    package func mayContain(_ hash: UInt64) -> Bool {
        let (a, b, c) = Self.positions(hash, mask: mask)
        return words.withUnsafeBufferPointer { words in
            words[Int(a >> 6)] & (1 << (a & 63)) != 0 && words[Int(b >> 6)] & (1 << (b & 63)) != 0
                && words[Int(c >> 6)] & (1 << (c & 63)) != 0
        }
    }
}

/// A segment's ``UIDFilter``, built once, when first asked for.
final class UIDFilterMemo: Sendable {
    private let built = Mutex<UIDFilter?>(nil)

    func filter(_ build: () -> UIDFilter) -> UIDFilter {
        built.withLock { filter in
            if let filter { return filter }
            let made = build()
            filter = made
            return made
        }
    }
}

extension Segment {
    /// The Bloom filter of this segment's identifier hashes, built the
    /// first time a writer asks (readers never do).
    package var uidFilter: UIDFilter { uidFilterMemo.filter { UIDFilter(segment: self) } }
}
