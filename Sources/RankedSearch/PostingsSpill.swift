import Foundation

/// An unnamed scratch file a streamed merge writes its encoded postings
/// to as it goes, so a merge holds its segment's tables, not its postings
/// (at 1M items, most of indexing's peak memory): the postings come after
/// the term and block tables in the format, and those are known only once
/// every term is merged. The encoder copies the file into the segment
/// when it reaches the postings (``SegmentEncoder/SectionWriter``).
///
/// The file has no name (`O_TMPFILE`, or a name removed at once where the
/// file system has no such files), so a process killed mid-merge leaves
/// nothing behind. It lives beside the segment being written, on the same
/// file system, never in a `/tmp` that may be memory.
///
/// ```swift
/// let spill = try PostingsSpill(directory: folder, threshold: 1 << 20)
/// spill.append(encodedBlocks)
/// spill.forEachChunk { bytes in copy(bytes) }
/// try spill.check()
/// ```
package final class PostingsSpill: @unchecked Sendable {
    /// Bytes of postings a part keeps in memory before handing them here
    /// (``SegmentEncoder/PostingsPart``), and read back at a time.
    package let threshold: Int
    private let descriptor: Int32
    private let directory: String
    /// Bytes appended.
    package private(set) var count = 0
    /// The first write or read that failed: nothing is written after it,
    /// and ``check()`` throws it.
    private var failure: SegmentError?

    /// A new, unnamed file in `directory`, taking postings `threshold` bytes at a time.
    package init(directory: String, threshold: Int = 1 << 20) throws(SegmentError) {
        self.directory = directory
        self.threshold = max(threshold, 8)
        var descriptor: Int32 = -1
        #if os(Linux)
            // O_TMPFILE (__O_TMPFILE | O_DIRECTORY): not imported into Swift.
            descriptor = open(directory, 0o2020_0000 | O_RDWR | O_CLOEXEC, 0o600)
        #endif
        if descriptor < 0 {
            var template = Array((directory + "/.postings-spill-XXXXXX").utf8CString)
            descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if descriptor >= 0 { template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) } }
        }
        guard descriptor >= 0 else {
            throw .scratch("cannot make a scratch file for a merge's postings in \(directory): \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Appends `bytes` after those appended before.
    package func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append(raw: $0) }
    }

    /// Appends `raw` after the bytes appended before.
    package func append(raw: UnsafeRawBufferPointer) {
        guard failure == nil, !raw.isEmpty else { return }
        var written = 0
        while written < raw.count {
            let result = pwrite(descriptor, raw.baseAddress! + written, raw.count - written, off_t(count + written))
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                failure = .scratch("cannot write to a merge's scratch file in \(directory): \(String(cString: strerror(errno)))")
                return
            }
            written += result
        }
        count += raw.count
    }

    /// Reads `into.count` bytes appended at `offset` back into `into`;
    /// false (and ``check()`` throws) when they cannot be read.
    package func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard failure == nil else { return false }
        var done = 0
        while done < buffer.count {
            let result = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                failure = .scratch("cannot read a merge's scratch file in \(directory) back: "
                                    + (result == 0 ? "it ended early" : String(cString: strerror(errno))))
                return false
            }
            done += result
        }
        return true
    }

    /// Calls `body` with every byte appended, in order, ``threshold`` bytes at a time.
    package func forEachChunk(_ body: (UnsafeRawBufferPointer) -> Void) {
        guard failure == nil, count > 0 else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: threshold, alignment: 8)
        defer { buffer.deallocate() }
        var offset = 0
        while offset < count {
            let chunk = UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(threshold, count - offset)])
            guard read(at: offset, into: chunk) else { return }
            body(UnsafeRawBufferPointer(chunk))
            offset += chunk.count
        }
    }

    /// Throws the first failure to write or read the file.
    package func check() throws(SegmentError) {
        if let failure { throw failure }
    }
}
