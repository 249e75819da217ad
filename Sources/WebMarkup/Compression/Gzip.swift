import CZlib
public import Foundation

/// Bounded gzip decompression (zlib), for `.xml.gz` sitemaps and gzip bodies.
///
/// ```swift
/// if Gzip.isGzip(body) {
///     body = try Gzip.decompress(body, maximumBytes: 50 << 20)
/// }
/// ```
///
/// Never inflates past `maximumBytes` (a small "zip bomb" is refused with
/// ``WebMarkupErrorCode/pageTooLarge`` once its output passes the limit, having
/// used at most the limit plus 64 KiB of memory). Concatenated gzip members, which
/// `gzip` itself accepts, are decompressed one after another; bytes after the last
/// member that do not start another member are ignored, as `gzip -d` does.
///
/// See [RFC 1952](https://www.rfc-editor.org/rfc/rfc1952) and
/// [zlib's manual](https://www.zlib.net/manual.html).
public enum Gzip {
    /// Whether `data` starts with gzip's magic bytes `1f 8b`.
    public static func isGzip(_ data: Data) -> Bool {
        data.starts(with: [0x1F, 0x8B])
    }

    /// The decompressed bytes of gzip `data`.
    ///
    /// - Throws: ``WebMarkupErrorCode/invalidCompression`` when `data` is not gzip,
    ///   is corrupt or ends early; ``WebMarkupErrorCode/pageTooLarge`` when it would
    ///   inflate to more than `maximumBytes`.
    public static func decompress(_ data: Data, maximumBytes: Int) throws -> Data {
        guard isGzip(data) else {
            throw WebMarkupError(.invalidCompression, "the data is not gzip: it does not start with the bytes 1f 8b")
        }
        guard data.count <= Int(UInt32.max) else {
            throw WebMarkupError(.pageTooLarge, "the gzip data is \(data.count) bytes; zlib reads at most \(UInt32.max) at once")
        }
        let input = [UInt8](data)
        var output = Data()
        var stream = z_stream()
        // 15 + 16: a 32 KiB window and a gzip (not zlib) header and trailer.
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw WebMarkupError(.invalidCompression, "zlib could not start decompressing")
        }
        defer { inflateEnd(&stream) }

        let chunkSize = 64 * 1024
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        try input.withUnsafeBufferPointer { inputBuffer in
            guard let inputBase = inputBuffer.baseAddress else { return }
            stream.next_in = UnsafeMutablePointer(mutating: inputBase)
            stream.avail_in = uInt(inputBuffer.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { outputBuffer -> (Int32, Int) in
                    stream.next_out = outputBuffer.baseAddress
                    stream.avail_out = uInt(chunkSize)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, chunkSize - Int(stream.avail_out))
                }
                if produced > 0 {
                    guard output.count + produced <= maximumBytes else {
                        throw WebMarkupError(.pageTooLarge, "the gzip data inflates to more than \(maximumBytes) bytes; at most \(maximumBytes) are read")
                    }
                    output.append(contentsOf: chunk[..<produced])
                }
                switch status {
                case Z_OK:
                    continue
                case Z_STREAM_END:
                    // Another member may follow (`cat a.gz b.gz`); anything else is trailing garbage.
                    let consumed = inputBuffer.count - Int(stream.avail_in)
                    guard inputBuffer[consumed...].starts(with: [0x1F, 0x8B]) else { return }
                    guard inflateReset(&stream) == Z_OK else {
                        throw WebMarkupError(.invalidCompression, "zlib could not restart for the next gzip member")
                    }
                case Z_BUF_ERROR where stream.avail_in == 0:
                    throw WebMarkupError(.invalidCompression, "the gzip data ends early (truncated after \(output.count) decompressed bytes)")
                default:
                    let reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                    throw WebMarkupError(.invalidCompression, "the gzip data is corrupt: \(reason)")
                }
            }
        }
        return output
    }
}
