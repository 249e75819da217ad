import Foundation

/// Lines of a file or standard input, read a chunk at a time: memory stays
/// within one line's limit however long a line, or the input, is.
///
/// ```swift
/// var reader = LineReader(handle: .standardInput, maximumLength: 16 << 20)
/// while let line = try reader.next() {
///     switch line { case .text(let bytes): …; case .tooLong(let length): … }
/// }
/// ```
struct LineReader {
    enum Line {
        /// A line's bytes, without its newline.
        case text([UInt8])
        /// A line past the limit: skipped as it was read, never held whole.
        case tooLong(length: Int)
    }

    let handle: FileHandle
    let maximumLength: Int
    /// Bytes read so far.
    private(set) var bytesRead = 0
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next newline resumes (bytes before it have none).
    private var searched = 0
    private var ended = false
    private static let chunk = 1 << 20

    init(handle: FileHandle, maximumLength: Int) {
        self.handle = handle
        self.maximumLength = maximumLength
    }

    /// The next line, or nil at the end of the input.
    mutating func next() throws -> Line? {
        var skipped: Int?  // bytes of an over-long line dropped so far
        while true {
            if let newline = buffer[max(start, searched)...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { start = newline + 1; searched = start }
                if let dropped = skipped { return .tooLong(length: dropped + newline - start) }
                if newline - start > maximumLength { return .tooLong(length: newline - start) }
                return .text(Array(buffer[start..<newline]))
            }
            if ended {
                guard start < buffer.count || skipped != nil else { return nil }
                defer { start = buffer.count }
                if let dropped = skipped { return .tooLong(length: dropped + buffer.count - start) }
                if buffer.count - start > maximumLength { return .tooLong(length: buffer.count - start) }
                return .text(Array(buffer[start...]))
            }
            // No newline yet: drop what is consumed, and an over-long line's bytes as they come.
            if buffer.count - start > maximumLength {
                skipped = (skipped ?? 0) + buffer.count - start
                buffer.removeAll(keepingCapacity: true)
                start = 0
            } else if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            searched = buffer.count
            let data = try handle.read(upToCount: Self.chunk) ?? Data()
            if data.isEmpty { ended = true } else { buffer.append(contentsOf: data); bytesRead += data.count }
        }
    }
}
