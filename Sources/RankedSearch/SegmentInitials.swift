import Foundation

/// Initials: one term per first letter, after the dictionary's words
/// (``SegmentFormat/initialMarker``).
///
/// A one-letter last word (`parsley gtkpod s`) matches every token starting
/// with that letter: thousands per segment, each with a posting list or two,
/// which a ``TermCursor`` had to read one by one to check a handful of the
/// driver's documents. An initial's postings are those tokens' postings
/// folded into one list (per document the largest stored frequency, title
/// bit included, and every column), exactly what the cursor computed, so the
/// letter is checked like any one word.
///
/// Only letters of alphabets have initials: characters of one or two UTF-8
/// bytes (Latin, Greek, Cyrillic, Hebrew, Arabic…, below U+0800). A word in
/// those scripts starts with one of a few dozen letters, so a letter's tokens
/// are many; a Han, kana or Hangul character begins few tokens of its own,
/// and initials for them would nearly double a CJK segment's postings.
enum SegmentInitials {
    /// The characters with an initial are those below this code point.
    static let codePointLimit: UInt32 = 0x800

    /// The code point of `bytes` if they are exactly one character that has
    /// an initial; nil otherwise.
    @inline(__always)
    static func codePoint(ofWhole bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard let codePoint = codePoint(startOf: bytes), bytes.count == (codePoint < 0x80 ? 1 : 2) else { return nil }
        return codePoint
    }

    /// The code point of the character `token` starts with, if it has an
    /// initial.
    @inline(__always)
    static func codePoint(startOf token: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard let lead = token.first else { return nil }
        if lead < 0x80 { return UInt32(lead) }
        guard lead & 0xE0 == 0xC0, token.count >= 2, token[1] & 0xC0 == 0x80 else { return nil }
        return UInt32(lead & 0x1F) << 6 | UInt32(token[1] & 0x3F)
    }

    /// The term bytes of the initial of `codePoint`: the marker, then its UTF-8.
    static func termBytes(_ codePoint: UInt32) -> [UInt8] {
        codePoint < 0x80
            ? [SegmentFormat.initialMarker, UInt8(codePoint)]
            : [SegmentFormat.initialMarker, 0xC0 | UInt8(codePoint >> 6), 0x80 | UInt8(codePoint & 0x3F)]
    }
}

/// One document's initials while its segment is built: per first letter of
/// its tokens, the largest stored frequency and the union of their columns.
struct DocumentInitials {
    struct Entry {
        var codePoint: UInt32
        var frequency: UInt32
        var columns: UInt8
    }

    private(set) var entries: [Entry] = []
    /// Per code point below ``SegmentInitials/codePointLimit``: its index in
    /// `entries`, or -1.
    private var slots = [Int32](repeating: -1, count: Int(SegmentInitials.codePointLimit))

    /// Notes a token of the document with its stored frequency and columns.
    @inline(__always)
    mutating func note(_ token: UnsafeBufferPointer<UInt8>, frequency: UInt32, columns: UInt8) {
        guard let codePoint = SegmentInitials.codePoint(startOf: token) else { return }
        let slot = Int(slots[Int(codePoint)])
        if slot >= 0 {
            entries[slot].frequency = max(entries[slot].frequency, frequency)
            entries[slot].columns |= columns
        } else {
            slots[Int(codePoint)] = Int32(entries.count)
            entries.append(Entry(codePoint: codePoint, frequency: frequency, columns: columns))
        }
    }

    /// Forgets the document, for the next one.
    mutating func reset() {
        for entry in entries { slots[Int(entry.codePoint)] = -1 }
        entries.removeAll(keepingCapacity: true)
    }
}

extension Segment {
    /// The term id of the initial of `prefix` when `prefix` is one letter
    /// that has one (``SegmentInitials``) and a document here starts a token
    /// with it; nil otherwise.
    @_spi(Inspection) public func initial(of prefix: [UInt8]) throws(SegmentError) -> Int? {
        let codePoint = prefix.withUnsafeBufferPointer { SegmentInitials.codePoint(ofWhole: $0) }
        guard let codePoint else { return nil }
        let key = SegmentInitials.termBytes(codePoint)
        let id = try lowerBound(key)
        guard id < termCount, try term(id).elementsEqual(key) else { return nil }
        return id
    }
}
