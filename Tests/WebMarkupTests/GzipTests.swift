import Foundation
import Testing
@testable import WebMarkup

/// Builds gzip files for tests without a compressor: deflate "stored" blocks.
enum TestGzip {
    static func stored(_ data: Data) -> Data {
        var out = Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF])
        let bytes = [UInt8](data)
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let final = offset + count == bytes.count
            out.append(final ? 0x01 : 0x00)
            out.append(contentsOf: littleEndian(UInt16(count)))
            out.append(contentsOf: littleEndian(~UInt16(count)))
            out.append(contentsOf: bytes[offset..<offset + count])
            offset += count
        } while offset < bytes.count
        out.append(contentsOf: littleEndian(crc32(bytes)))
        out.append(contentsOf: littleEndian(UInt32(truncatingIfNeeded: bytes.count)))
        return out
    }

    static func stored(_ text: String) -> Data { stored(Data(text.utf8)) }

    /// `gzip -9` of 1 MiB of zero bytes (1,051 bytes: a 1000:1 "zip bomb").
    static let megabyteOfZeros: Data = {
        let head: [UInt8] = [31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 237, 193, 49, 1, 0, 0, 0, 194, 160, 245, 79, 109, 8, 95, 160]
        let tail: [UInt8] = [62, 3, 28, 234, 56, 167, 0, 0, 16, 0]
        return Data(head + [UInt8](repeating: 0, count: 1016) + tail)
    }()

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<MemoryLayout<T>.size).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

@Suite struct GzipTests {
    @Test(arguments: [
        ([0x1F, 0x8B], true),
        ([0x1F, 0x8B, 0x08], true),
        ([0x1F], false),
        ([], false),
        ([0x8B, 0x1F], false),
        (Array("<?xml".utf8), false),
    ] as [([UInt8], Bool)])
    func recognisesTheMagicBytes(bytes: [UInt8], expected: Bool) {
        #expect(Gzip.isGzip(Data(bytes)) == expected)
    }

    @Test func recognisesMagicBytesInADataSlice() {
        let data = Data([0x00, 0x1F, 0x8B, 0x08])
        #expect(Gzip.isGzip(data.dropFirst()))
    }

    @Test(arguments: [0, 1, 1_000, 65_535, 65_536, 200_000])
    func decompresses(size: Int) throws {
        let original = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
        #expect(try Gzip.decompress(TestGzip.stored(original), maximumBytes: size) == original)
    }

    @Test func decompressesRealDeflate() throws {
        let data = try Gzip.decompress(TestGzip.megabyteOfZeros, maximumBytes: 1 << 20)
        #expect(data == Data(count: 1 << 20))
    }

    @Test func decompressesConcatenatedMembers() throws {
        // `gzip -c a >x; gzip -c b >>x`
        let bytes: [UInt8] = [
            31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 203, 72, 205, 201, 201, 87, 0, 0, 246, 249, 129, 237, 6, 0, 0, 0,
            31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 43, 207, 47, 202, 73, 1, 0, 67, 17, 119, 58, 5, 0, 0, 0,
        ]
        #expect(try Gzip.decompress(Data(bytes), maximumBytes: 100) == Data("hello world".utf8))
        let two = TestGzip.stored("<a>") + TestGzip.stored("</a>")
        #expect(try Gzip.decompress(two, maximumBytes: 100) == Data("<a></a>".utf8))
    }

    @Test func ignoresTrailingGarbage() throws {
        let data = TestGzip.stored("payload") + Data([0, 0, 0, 0, 0x42])
        #expect(try Gzip.decompress(data, maximumBytes: 100) == Data("payload".utf8))
    }

    @Test func refusesToInflatePastTheLimit() throws {
        let error = #expect(throws: WebMarkupError.self) {
            try Gzip.decompress(TestGzip.megabyteOfZeros, maximumBytes: 100_000)
        }
        #expect(error?.code == .pageTooLarge)
        #expect(try Gzip.decompress(TestGzip.stored("12345"), maximumBytes: 5).count == 5)
        #expect(throws: WebMarkupError(.pageTooLarge, "the gzip data inflates to more than 4 bytes; at most 4 are read")) {
            try Gzip.decompress(TestGzip.stored("12345"), maximumBytes: 4)
        }
    }

    @Test func aBombOfManyMembersIsStoppedQuickly() {
        // 256 members of 1 MiB each: 256 MiB from 269 KB.
        var bomb = Data()
        for _ in 0..<256 { bomb.append(TestGzip.megabyteOfZeros) }
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            let error = #expect(throws: WebMarkupError.self) {
                try Gzip.decompress(bomb, maximumBytes: 8 << 20)
            }
            #expect(error?.code == .pageTooLarge)
        }
        #expect(elapsed < .seconds(5))
    }

    @Test(arguments: [
        ("not gzip", Data("plain text".utf8)),
        ("truncated", TestGzip.stored("hello, world").prefix(15)),
        ("header only", Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF])),
        ("bad method", Data([0x1F, 0x8B, 0x07, 0x00, 0, 0, 0, 0, 0x00, 0xFF, 0x01, 0x00, 0x00, 0xFF, 0xFF])),
        ("bad checksum", { var data = TestGzip.stored("hello"); data[data.count - 6] ^= 0xFF; return data }()),
        ("bad block type", Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF, 0x07, 0x00])),
    ] as [(String, Data)])
    func rejectsCorruptData(name: String, data: Data) {
        let error = #expect(throws: WebMarkupError.self) {
            try Gzip.decompress(data, maximumBytes: 1_000)
        }
        #expect(error?.code == .invalidCompression, "\(name): \(String(describing: error))")
    }
}
