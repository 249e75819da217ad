/// Documents' unique identifiers as a segment stores them (format 22):
/// in doc order, front-coded in runs of ``runLength``. Each identifier
/// but a run's first gives how many leading bytes it shares with the one
/// before, then the length of the rest and the rest; a run's first gives
/// its length and its bytes. The `uidRuns` table says where each run
/// starts, so one identifier is found by decoding at most its run.
///
/// Identifiers an app gives often share their start with the next one in
/// index order (paths, URLs, message ids, a catalogue's names): the
/// benchmark's package names, sorted, shared ~40% of their bytes, and the
/// per-document ends table (a packed offset each) became one a run.
/// Random ones (UUIDs) share a byte or none and cost a byte more each.
///
/// ```swift
/// var writer = IdentifierRuns.Writer()
/// var bytes: [UInt8] = []
/// for id in ["mail/1", "mail/2"] { writer.append(Array(id.utf8), to: &bytes) }
/// var id: [UInt8] = []
/// try bytes.withUnsafeBytes { try IdentifierRuns.decode($0, from: 0, skipping: 1, into: &id) }   // "mail/2"
/// ```
package enum IdentifierRuns {
    /// Identifiers a run: a lookup decodes at most this many.
    static let runLength = 16

    /// Runs needed for `documents` identifiers.
    static func runCount(documents: Int) -> Int { (documents + runLength - 1) / runLength }

    /// Appends identifiers front-coded, keeping where each run starts.
    struct Writer {
        /// Where each run starts, relative to the first byte written.
        private(set) var runStarts: [UInt64] = []
        /// Bytes written so far (the section's length once all are).
        private(set) var written: UInt64 = 0
        private var previous: [UInt8] = []

        /// Identifiers appended so far.
        private(set) var count = 0

        /// Appends the next document's identifier (`bytes`) to `out`.
        mutating func append(_ bytes: some Collection<UInt8>, to out: inout [UInt8]) {
            let before = out.count
            var shared = 0
            if count % runLength == 0 {
                runStarts.append(written)
            } else {
                // Within a run: the bytes shared with the one before.
                for (byte, earlier) in zip(bytes, previous) {
                    guard byte == earlier else { break }
                    shared += 1
                }
                Self.appendLength(shared, to: &out)
            }
            Self.appendLength(bytes.count - shared, to: &out)
            out.append(contentsOf: bytes.dropFirst(shared))
            previous.removeAll(keepingCapacity: true)
            previous.append(contentsOf: bytes)
            count += 1
            written += UInt64(out.count - before)
        }

        /// A length as LEB128: 7 bits a byte, the high bit set on all but the last.
        static func appendLength(_ value: Int, to out: inout [UInt8]) {
            var value = UInt64(value)
            while value >= 0x80 {
                out.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            out.append(UInt8(value))
        }
    }

    /// Decodes the identifier `skipping` places after the first of the run
    /// starting at offset `start` of `bytes` (a segment's `uidBytes`) into
    /// `identifier` (replacing what it held).
    /// - Throws: `.corrupt` when a length runs past the bytes, or an
    ///   identifier shares more bytes than the one before has.
    static func decode(_ bytes: UnsafeRawBufferPointer, from start: Int, skipping: Int, into identifier: inout [UInt8]) throws(SegmentError) {
        var reader = Reader(bytes, at: start)
        identifier.removeAll(keepingCapacity: true)
        for index in 0...skipping { try reader.next(into: &identifier, first: index == 0) }
    }

    /// Walks identifiers in order from a run's start, each decoded over
    /// the one before (a merge reads every document's once).
    struct Reader {
        private let bytes: UnsafeRawBufferPointer
        private var position: Int

        init(_ bytes: UnsafeRawBufferPointer, at start: Int) {
            self.bytes = bytes
            position = start
        }

        /// Decodes the next identifier into `identifier`, which holds the
        /// one before (ignored when `first`: a run's first shares nothing).
        mutating func next(into identifier: inout [UInt8], first: Bool) throws(SegmentError) {
            let shared = first ? 0 : try length()
            guard shared <= identifier.count else { throw .corrupt("an identifier shares more bytes than the one before has") }
            let rest = try length()
            guard rest <= bytes.count - position else { throw .corrupt("an identifier runs past its section") }
            identifier.removeLast(identifier.count - shared)
            identifier.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + rest)]))
            position += rest
        }

        /// A LEB128 length (at most 4 bytes: an identifier is far below 2²⁸ bytes).
        private mutating func length() throws(SegmentError) -> Int {
            var value = 0, shift = 0
            while true {
                guard position < bytes.count, shift < 28 else { throw .corrupt("an identifier's length runs past its section") }
                let byte = bytes[position]
                position += 1
                value |= Int(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
        }
    }
}
