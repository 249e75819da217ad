import CZlib

/// The envelope of an attribute blob on disk: the ``AttributeCodec`` bytes
/// as they are (they start with the codec version, 1), or deflated:
/// `0xDF` `raw-length varint` `zlib stream`. Blobs under 96 bytes, or that
/// do not shrink, stay as they are. Text shrinks about 3× at zlib's fastest
/// level, which keeps stores smaller than plain FTS5's for the same content.
enum StoredBlob {
    static let deflatedTag: UInt8 = 0xDF
    static let minimumToDeflate = 96
    /// A stored raw length above this is damage, not data.
    static let maximumRawLength = 1 << 30

    static func pack(_ raw: [UInt8]) -> [UInt8] {
        guard raw.count >= minimumToDeflate else { return raw }
        var bound = compressBound(uLong(raw.count))
        var out = [UInt8]()
        AttributeCodec.writeVarint(UInt64(raw.count), &out)
        let header = [deflatedTag] + out
        var compressed = [UInt8](repeating: 0, count: Int(bound))
        let status = compressed.withUnsafeMutableBufferPointer { target in
            raw.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &bound, source.baseAddress, uLong(raw.count), Z_BEST_SPEED)
            }
        }
        guard status == Z_OK, header.count + Int(bound) < raw.count else { return raw }
        return header + compressed.prefix(Int(bound))
    }

    static func unpack(_ stored: [UInt8]) throws -> [UInt8] {
        guard stored.first == deflatedTag else { return stored }
        var reader = AttributeCodec.Reader(bytes: stored, offset: 1)
        let length = try reader.varint()
        guard length <= UInt64(maximumRawLength) else {
            throw AttributeCodec.DecodingError(description: "deflated attributes claim \(length) bytes")
        }
        var raw = [UInt8](repeating: 0, count: Int(length))
        var rawLength = uLong(length)
        let offset = reader.offset
        let status = raw.withUnsafeMutableBufferPointer { target in
            stored.withUnsafeBufferPointer { source in
                uncompress(target.baseAddress, &rawLength, source.baseAddress! + offset, uLong(stored.count - offset))
            }
        }
        guard status == Z_OK, rawLength == uLong(length) else {
            throw AttributeCodec.DecodingError(description: "deflated attributes do not inflate (zlib status \(status))")
        }
        return raw
    }
}
